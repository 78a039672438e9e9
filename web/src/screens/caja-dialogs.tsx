import { useId, useState } from 'preact/hooks';
import { newKey, ok, type Schemas } from '../api';
import { Dialog, ErrorBanner } from '../components';
import { parseAmount, toAmount } from '../money';
import { useSession } from '../session';
import type { Caja as CajaDto, Reporte, Sesion } from './caja-rules';

/** A money input with its error under it. */
function AmountField({
  label,
  value,
  error,
  placeholder,
  autoFocus,
  onInput,
}: {
  label: string;
  value: string;
  error?: string;
  placeholder?: string;
  autoFocus?: boolean;
  onInput: (value: string) => void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        class="amount"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {error && <span class="field-error">{error}</span>}
    </div>
  );
}

export function AbrirDialog({
  caja,
  onClose,
  onOpened,
}: {
  caja: CajaDto;
  onClose: () => void;
  onOpened: (x: Reporte) => void;
}) {
  const { api } = useSession();
  const [monto, setMonto] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [key] = useState(newKey);
  const value = parseAmount(monto);
  const invalid = monto.trim() !== '' && value === null;
  return (
    <Dialog title={`Abrir ${caja.nombre}`} onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (value === null || busy) return;
          setBusy(true);
          setError(null);
          ok(
            api.POST('/api/v1/cajas/{id}/sesiones', {
              params: { path: { id: caja.id_caja }, header: { 'Idempotency-Key': key } },
              body: { monto_apertura: toAmount(value) },
            }),
          )
            .then(onOpened)
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        <p class="muted">El efectivo con que empieza el cajón (sencillo para dar vuelto).</p>
        <AmountField
          label="Fondo inicial"
          value={monto}
          placeholder="200.00"
          autoFocus
          error={invalid ? 'Importe no válido' : undefined}
          onInput={setMonto}
        />
        <ErrorBanner error={error} />
        <div class="actions">
          <button type="submit" disabled={busy || value === null}>
            Abrir caja
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function MovimientoDialog({
  sesion,
  onClose,
  onDone,
}: {
  sesion: Sesion;
  onClose: () => void;
  onDone: (m: Schemas['MovimientoDto']) => void;
}) {
  const { api } = useSession();
  const [tipo, setTipo] = useState<'ingreso' | 'retiro'>('retiro');
  const [monto, setMonto] = useState('');
  const [motivo, setMotivo] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [key] = useState(newKey);
  const value = parseAmount(monto);
  const invalid = monto.trim() !== '' && (value === null || value <= 0);
  const ready = value !== null && value > 0 && motivo.trim() !== '';
  const ids = useId();
  return (
    <Dialog title={`Ingreso o retiro · ${sesion.caja}`} onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (!ready || busy) return;
          setBusy(true);
          setError(null);
          ok(
            api.POST('/api/v1/sesiones-caja/{id}/movimientos', {
              params: { path: { id: sesion.id_sesion }, header: { 'Idempotency-Key': key } },
              body: { tipo, monto: toAmount(value), motivo: motivo.trim() },
            }),
          )
            .then(onDone)
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        <fieldset class="metodos">
          <legend>Tipo</legend>
          {(['retiro', 'ingreso'] as const).map((t) => (
            <label key={t} class={t === tipo ? 'metodo chosen' : 'metodo'}>
              <input
                type="radio"
                name={`${ids}-tipo`}
                checked={t === tipo}
                onChange={() => setTipo(t)}
              />
              <span>{t === 'retiro' ? 'Retiro (sale efectivo)' : 'Ingreso (entra efectivo)'}</span>
            </label>
          ))}
        </fieldset>
        <AmountField
          label="Monto"
          value={monto}
          error={invalid ? 'Importe no válido' : undefined}
          onInput={setMonto}
        />
        <label>
          Motivo
          <input
            value={motivo}
            maxLength={500}
            required
            placeholder={tipo === 'retiro' ? 'compra de limones' : 'más sencillo'}
            onInput={(e) => setMotivo(e.currentTarget.value)}
          />
        </label>
        <ErrorBanner error={error} />
        <div class="actions">
          <button type="submit" disabled={busy || !ready}>
            Registrar {tipo}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}
