import { useId, useState } from 'preact/hooks';
import { ApiError, newKey, ok } from '../api';
import { Dialog, ErrorBanner } from '../components';
import { plural, soles, when } from '../format';
import { useSession } from '../session';
import {
  conteoLineas,
  conteoPatch,
  contadosOf,
  mensajeError,
  normalize,
  unidadLabel,
  type Contados,
  type Conteo,
  type Saldo,
} from './inventario-rules';
import { useKeyFor } from './inventario-keys';

/**
 * A new count sheet or a draft's change: the cut-off (blank: now), a note, and what was counted
 * of each material; a blank one is not counted (off the sheet when editing).
 */
export function ConteoForm({
  saldos,
  conteo,
  onClose,
  onSaved,
  onRefused,
}: {
  saldos: Saldo[];
  conteo?: Conteo;
  onClose: () => void;
  onSaved: (conteo: Conteo) => void;
  onRefused?: (err: unknown) => void;
}) {
  const { api, tenant } = useSession();
  const ids = useId();
  const keyFor = useKeyFor();
  const [corte, setCorte] = useState('');
  const [observacion, setObservacion] = useState(conteo?.observacion ?? '');
  const [contados, setContados] = useState<Contados>(conteo ? contadosOf(conteo) : {});
  const [buscar, setBuscar] = useState('');
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const onSheet = new Set(conteo?.lineas.map((l) => l.id_mat_prima) ?? []);
  const wanted = normalize(buscar);
  const rows = saldos.filter(
    (s) =>
      (s.activo || onSheet.has(s.id_mat_prima)) &&
      (wanted === '' || normalize(s.nombre).includes(wanted)),
  );
  const counted = Object.values(contados).filter((t) => t.trim() !== '').length;
  const title = conteo ? `Editar el conteo N° ${conteo.id_conteo}` : 'Nuevo conteo';

  const submit = (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (conteo) {
      const { body, errors: problems } = conteoPatch(conteo, contados, observacion);
      setErrors(problems);
      if (Object.keys(problems).length > 0) return;
      if (!body) {
        onClose();
        return;
      }
      setBusy(true);
      ok(
        api.PATCH('/api/v1/inventario/conteos/{id}', {
          params: {
            path: { id: conteo.id_conteo },
            header: { 'Idempotency-Key': keyFor([conteo.id_conteo, body]) },
          },
          body,
        }),
      )
        .then(onSaved)
        .catch((err: unknown) => {
          if (onRefused && isNotDraft(err)) onRefused(err);
          else setError(err);
        })
        .finally(() => setBusy(false));
      return;
    }
    const { lineas, errors: problems } = conteoLineas(contados);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const note = observacion.trim();
    const body = {
      lineas,
      ...(corte ? { fec_corte: corte } : {}),
      ...(note ? { observacion: note } : {}),
    };
    setBusy(true);
    ok(
      api.POST('/api/v1/inventario/conteos', {
        params: { header: { 'Idempotency-Key': keyFor(body) } },
        body,
      }),
    )
      .then(onSaved)
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <Dialog title={title} onClose={onClose} variant="wide conteo-dialog">
      <form class="conteo-form" aria-label={title} onSubmit={submit} noValidate>
        <div class="conteo-form-head">
          {!conteo && (
            <div class="field">
              <label for={`${ids}-corte`}>Corte (vacío: ahora)</label>
              <input
                id={`${ids}-corte`}
                type="datetime-local"
                value={corte}
                onInput={(e) => setCorte(e.currentTarget.value)}
              />
            </div>
          )}
          <div class="field grow">
            <label for={`${ids}-obs`}>Observación</label>
            <input
              id={`${ids}-obs`}
              value={observacion}
              maxLength={500}
              autoComplete="off"
              placeholder="cierre de mes, almacén de cocina…"
              onInput={(e) => setObservacion(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for={`${ids}-buscar`}>Buscar material</label>
            <input
              id={`${ids}-buscar`}
              type="search"
              value={buscar}
              onInput={(e) => setBuscar(e.currentTarget.value)}
            />
          </div>
        </div>
        <p class="hint">
          Anote lo que hay en el almacén de cada material que contó; deje en blanco lo que no contó.
          Al guardar verá, por material, la diferencia con el libro antes de aplicarla.
        </p>
        <div class="conteo-form-lines">
          <table class="table conteo-inputs" aria-label="Lo contado por material">
            <thead>
              <tr>
                <th scope="col">Material</th>
                <th scope="col">Contado</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id_mat_prima}>
                  <th scope="row">
                    <label for={`${ids}-m${s.id_mat_prima}`}>{s.nombre}</label>
                  </th>
                  <td>
                    <span class="with-unit">
                      <input
                        id={`${ids}-m${s.id_mat_prima}`}
                        class="amount"
                        inputMode="decimal"
                        autoComplete="off"
                        aria-label={`Contado de ${s.nombre}`}
                        aria-invalid={errors[s.id_mat_prima] ? 'true' : undefined}
                        value={contados[s.id_mat_prima] ?? ''}
                        onInput={(e) => {
                          const value = e.currentTarget.value;
                          setContados((c) => ({ ...c, [s.id_mat_prima]: value }));
                          if (errors[s.id_mat_prima] || errors[0]) setErrors({});
                        }}
                      />
                      <span class="unit">{unidadLabel(s.unidad)}</span>
                    </span>
                    {errors[s.id_mat_prima] && (
                      <span class="field-error">{errors[s.id_mat_prima]}</span>
                    )}
                  </td>
                </tr>
              ))}
              {rows.length === 0 && (
                <tr>
                  <td colSpan={2} class="muted">
                    Ningún material con ese nombre.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {errors[0] && <p class="field-error">{errors[0]}</p>}
        <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Guardando…' : conteo ? 'Guardar cambios' : 'Crear borrador'}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={onClose}>
            Cancelar
          </button>
          <span class="muted">{plural(counted, 'material contado', 'materiales contados')}</span>
        </div>
      </form>
    </Dialog>
  );
}

/** A change refused because someone applied or discarded the sheet meanwhile. */
function isNotDraft(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'CONTEO_NO_BORRADOR';
}

/** Applying or discarding a draft, after saying what it does. */
export function ConfirmConteo({
  conteo,
  accion,
  onClose,
  onDone,
  onRefused,
}: {
  conteo: Conteo;
  accion: 'aplicar' | 'descartar';
  onClose: () => void;
  onDone: (conteo: Conteo) => void;
  onRefused: (err: unknown) => void;
}) {
  const { api, tenant } = useSession();
  const [key] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const aplicar = accion === 'aplicar';
  const title = aplicar
    ? `Aplicar el conteo N° ${conteo.id_conteo}`
    : `Descartar el conteo N° ${conteo.id_conteo}`;
  const ajustes = conteo.lineas.filter((l) => l.diferencia !== 0).length;

  const run = () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const params = { path: { id: conteo.id_conteo }, header: { 'Idempotency-Key': key } };
    ok(
      aplicar
        ? api.POST('/api/v1/inventario/conteos/{id}/aplicar', { params })
        : api.POST('/api/v1/inventario/conteos/{id}/descartar', { params }),
    )
      .then(onDone)
      .catch((err: unknown) => {
        if (isNotDraft(err)) onRefused(err);
        else setError(err);
      })
      .finally(() => setBusy(false));
  };

  return (
    <Dialog title={title} onClose={onClose}>
      {aplicar ? (
        <p>
          Se registra{ajustes === 1 ? '' : 'n'} {plural(ajustes, 'ajuste', 'ajustes')} al corte del{' '}
          {when(conteo.fec_corte)}, por <strong>{soles(conteo.valor_diferencias)}</strong>, y el
          inventario queda cerrado hasta ese momento: después no se podrá registrar nada con fecha
          anterior. No se puede deshacer.
        </p>
      ) : (
        <p>El borrador se descarta sin registrar nada. No se puede deshacer.</p>
      )}
      <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
      <div class="actions">
        <button type="button" class={aplicar ? undefined : 'danger'} disabled={busy} onClick={run}>
          {busy
            ? aplicar
              ? 'Aplicando…'
              : 'Descartando…'
            : aplicar
              ? 'Aplicar conteo'
              : 'Descartar borrador'}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onClose}>
          Volver
        </button>
      </div>
    </Dialog>
  );
}
