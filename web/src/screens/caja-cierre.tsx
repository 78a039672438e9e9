import { useId, useState } from 'preact/hooks';
import { newKey, ok } from '../api';
import { Dialog, ErrorBanner } from '../components';
import { soles } from '../format';
import { amountText, formatCentimos } from '../money';
import { useSession } from '../session';
import {
  closeBody,
  conteoTotal,
  DENOMINACIONES,
  denominacionLabel,
  diferencia,
  metodosShown,
  type CloseDraft,
  type Reporte,
  type ReporteMetodo,
} from './caja-rules';

/**
 * The close: what was counted per method against what is expected (the difference shown as it
 * is typed); the cash typed, or counted note by note and coin by coin; a note. The answer is the Z.
 */
export function CerrarDialog({
  reporte,
  onClose,
  onClosed,
}: {
  reporte: Reporte;
  onClose: () => void;
  onClosed: (z: Reporte) => void;
}) {
  const { api } = useSession();
  const metodos = metodosShown(reporte);
  const [draft, setDraft] = useState<CloseDraft>({
    contado: {},
    porDenominacion: false,
    conteo: {},
    nota: '',
  });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [key] = useState(newKey);
  const { body, errors } = closeBody(metodos, draft);
  const counted = conteoTotal(draft.conteo);
  const ids = useId();
  const textOf = (m: ReporteMetodo): string =>
    m.cuenta_en_caja && draft.porDenominacion
      ? counted === null
        ? ''
        : amountText(counted)
      : (draft.contado[m.id_metodo_pago] ?? '');
  return (
    <Dialog title={`Cerrar ${reporte.sesion.caja}`} onClose={onClose} variant="wide cerrar-dialog">
      <form
        class="cierre"
        aria-label={`Cerrar ${reporte.sesion.caja}`}
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!body || busy) return;
          setBusy(true);
          setError(null);
          ok(
            api.POST('/api/v1/sesiones-caja/{id}/cerrar', {
              params: {
                path: { id: reporte.sesion.id_sesion },
                header: { 'Idempotency-Key': key },
              },
              body,
            }),
          )
            .then(onClosed)
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        <p class="muted">
          Cuente lo que hay por método. El efectivo es obligatorio; un método que deje vacío se toma
          como cuadrado con lo esperado.
        </p>
        <table class="table conteo-metodos" aria-label="Conteo por método">
          <thead>
            <tr>
              <th>Método</th>
              <th class="num">Esperado</th>
              <th class="num">Contado</th>
              <th class="num">Diferencia</th>
            </tr>
          </thead>
          <tbody>
            {metodos.map((m) => {
              const text = textOf(m);
              const diff = text === '' ? null : diferencia(m.esperado, text);
              const err = tried || text !== '' ? errors[m.id_metodo_pago] : undefined;
              return (
                <tr key={m.id_metodo_pago}>
                  <th scope="row">{m.nombre}</th>
                  <td class="num">{soles(m.esperado)}</td>
                  <td class="num">
                    <input
                      class="amount"
                      inputMode="decimal"
                      autoComplete="off"
                      aria-label={`Contado en ${m.nombre}`}
                      aria-invalid={err ? true : undefined}
                      value={text}
                      readOnly={m.cuenta_en_caja && draft.porDenominacion}
                      aria-required={m.cuenta_en_caja}
                      placeholder={m.cuenta_en_caja ? '' : soles(m.esperado)}
                      onInput={(e) => {
                        const value = e.currentTarget.value;
                        setDraft((d) => ({
                          ...d,
                          contado: { ...d.contado, [m.id_metodo_pago]: value },
                        }));
                      }}
                    />
                    {err && <span class="field-error">{err}</span>}
                  </td>
                  <td
                    class={
                      diff === null || diff === 0 ? 'num' : diff < 0 ? 'num falta' : 'num sobra'
                    }
                    aria-label={`Diferencia en ${m.nombre}`}
                  >
                    {diff === null ? '—' : formatCentimos(diff)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>

        <label class="inline check">
          <input
            type="checkbox"
            checked={draft.porDenominacion}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setDraft((d) => ({ ...d, porDenominacion: on }));
            }}
          />
          Contar el efectivo por billetes y monedas
        </label>
        {draft.porDenominacion && (
          <fieldset class="denominaciones">
            <legend>Billetes y monedas</legend>
            {DENOMINACIONES.map((d) => (
              <label key={d} class="denominacion" for={`${ids}-${d}`}>
                <span>{denominacionLabel(d)}</span>
                <input
                  id={`${ids}-${d}`}
                  inputMode="numeric"
                  autoComplete="off"
                  aria-label={`Cantidad de ${denominacionLabel(d)}`}
                  value={draft.conteo[d] ?? ''}
                  placeholder="0"
                  onInput={(e) => {
                    const value = e.currentTarget.value;
                    setDraft((c) => ({ ...c, conteo: { ...c.conteo, [d]: value } }));
                  }}
                />
              </label>
            ))}
            <p class="conteo-total" role="status">
              Total contado{' '}
              <strong>
                {counted === null ? 'revise las cantidades' : formatCentimos(counted)}
              </strong>
            </p>
          </fieldset>
        )}
        <label>
          Nota (opcional)
          <input
            value={draft.nota}
            maxLength={500}
            placeholder="faltan 2 soles de sencillo"
            onInput={(e) => {
              const value = e.currentTarget.value;
              setDraft((d) => ({ ...d, nota: value }));
            }}
          />
        </label>
        <ErrorBanner error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Cerrar caja y emitir el Z
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}
