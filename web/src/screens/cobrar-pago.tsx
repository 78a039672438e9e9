import { useEffect, useId, useLayoutEffect, useState } from 'preact/hooks';
import { ApiError, isAbort, ok, type ComandaDetail, type Schemas } from '../api';
import { allows } from '../floor-state';
import { centimosOf, formatCentimos } from '../money';
import { useSession } from '../session';
import {
  despuesText,
  draftErrors,
  emptyDraft,
  isCash,
  pagoBody,
  redondeoText,
  refusalFields,
  type Metodo,
  type PagoBody,
  type Simulacion,
  type TenderDraft,
} from './cobrar-rules';

type Sesion = Schemas['SesionCajaDto'];

/** How long typing must pause before the service is asked what the payment would do. */
const PREVIEW_DELAY_MS = 250;

/** The service's dry run of the payment typed, for the bill shown. */
type Preview =
  /** Nothing to ask: what is typed cannot be sent. */
  | { estado: 'nada' }
  /** Asked, or about to be: no figure of an earlier body is shown meanwhile. */
  | { estado: 'calculando' }
  | { estado: 'listo'; simulacion: Simulacion }
  /** The payment would be refused (4xx): the same refusal the payment would get. */
  | { estado: 'rechazado'; error: ApiError }
  /** The service could not be asked (no connection, 5xx): the payment decides, as ever. */
  | { estado: 'fallido'; error: unknown };

/**
 * What the payment `body` would do to comanda `id` as it is now (POST …/pagos/simulacion),
 * asked once typing pauses. Only the answer for the body and version shown is used: a change
 * aborts the request under way, and an answer that arrives for an earlier one is dropped.
 */
function usePreview(id: number, version: number, body: PagoBody | null): Preview {
  const { api } = useSession();
  const key = body === null ? null : JSON.stringify([id, version, body]);
  const [answer, setAnswer] = useState<{ key: string; preview: Preview } | null>(null);

  useEffect(() => {
    if (key === null || body === null) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      ok(
        api.POST('/api/v1/comandas/{id}/pagos/simulacion', {
          params: { path: { id } },
          body,
          signal: controller.signal,
        }),
      )
        .then((simulacion) => setAnswer({ key, preview: { estado: 'listo', simulacion } }))
        .catch((error: unknown) => {
          if (isAbort(error)) return;
          const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
          setAnswer({
            key,
            preview: refused ? { estado: 'rechazado', error } : { estado: 'fallido', error },
          });
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, key]);

  if (key === null) return { estado: 'nada' };
  return answer?.key === key ? answer.preview : { estado: 'calculando' };
}

/** The text of an error for a line of the form. */
function errorText(error: unknown): string {
  return error instanceof ApiError
    ? error.text
    : error instanceof Error
      ? error.message
      : String(error);
}

/**
 * A new payment of the bill: the method, the amount (the balance; in cash the cash balance),
 * the tip and, in cash, what was handed over; otherwise a voucher reference. While the cashier
 * types, the service says what it would do (usePreview): what the bill takes, the change, the
 * rounding, what remains, or why it would be refused, at its field. "Cobrar" sends what was
 * typed; "Cobrar y cerrar" when the service says it settles the bill and the comanda may close.
 */
export function NuevoPago({
  detail,
  metodos,
  metodo,
  onMetodo,
  abiertas,
  idCaja,
  onCaja,
  busy,
  otro,
  onPay,
  onPayAndClose,
}: {
  detail: ComandaDetail;
  metodos: Metodo[];
  metodo: Metodo | undefined;
  onMetodo: (metodo: Metodo) => void;
  /** The open till sessions; null when the user does not operate tills (the service picks). */
  abiertas: Sesion[] | null;
  idCaja: string;
  onCaja: (idCaja: string) => void;
  busy: boolean;
  /** Whether a payment was taken already ("Otro pago"). */
  otro: boolean;
  onPay: (body: PagoBody) => void;
  onPayAndClose: (body: PagoBody) => void;
}) {
  const ids = useId();
  const cash = isCash(metodo);
  const [draft, setDraft] = useState<TenderDraft>(() => emptyDraft(detail, cash));
  /** Whether the amount was typed (else it follows the balance and the method). */
  const [montoTyped, setMontoTyped] = useState(false);

  // a new bill (a payment taken or voided, a discount, someone else's change), or the method
  // known at last: a fresh tender for what is owed now, in the same paint as the bill it is for
  useLayoutEffect(() => {
    setDraft(emptyDraft(detail, cash));
    setMontoTyped(false);
  }, [detail.version, metodo === undefined]);

  const choose = (next: Metodo) => {
    onMetodo(next);
    setDraft((d) => ({
      ...d,
      ...(montoTyped ? {} : { monto: emptyDraft(detail, isCash(next)).monto }),
      ...(isCash(next) ? {} : { recibido: '' }),
    }));
  };
  const field = (name: keyof TenderDraft) => (e: { currentTarget: HTMLInputElement }) => {
    const value = e.currentTarget.value;
    if (name === 'monto') setMontoTyped(true);
    setDraft((d) => ({ ...d, [name]: value }));
  };

  const several = abiertas !== null && abiertas.length > 1;
  const noTill = abiertas !== null && abiertas.length === 0;
  const cajaMissing = several && idCaja === '';
  const body =
    metodo && !noTill && !cajaMissing
      ? pagoBody(metodo, draft, several ? Number(idCaja) : null)
      : null;
  const preview = usePreview(detail.id_comanda, detail.version, body);
  const simulacion = preview.estado === 'listo' ? preview.simulacion : null;
  const errors = {
    ...(preview.estado === 'rechazado' ? refusalFields(preview.error) : {}),
    ...draftErrors(draft, cash),
  };
  const mayClose = allows(detail, 'cerrar');
  const settles = simulacion !== null && simulacion.salda && mayClose;
  const canSend = body !== null && preview.estado !== 'rechazado';
  const redondeo = cash && simulacion ? redondeoText(simulacion) : null;

  /** The line under the fields: what remains, why it would be refused, or that it is asked. */
  const status =
    preview.estado === 'calculando'
      ? 'Calculando…'
      : simulacion
        ? despuesText(simulacion)
        : preview.estado === 'rechazado'
          ? Object.keys(refusalFields(preview.error)).length > 0
            ? ''
            : errorText(preview.error)
          : preview.estado === 'fallido'
            ? `No se pudo calcular el pago (${errorText(preview.error)}): el servicio decide al cobrar.`
            : '';

  return (
    <form
      class="tender"
      aria-label="Nuevo pago"
      aria-busy={preview.estado === 'calculando'}
      onSubmit={(e) => {
        e.preventDefault();
        if (!canSend || busy || body === null) return;
        if (settles) onPayAndClose(body);
        else onPay(body);
      }}
    >
      <h3>{otro ? 'Otro pago' : 'Nuevo pago'}</h3>
      {noTill && (
        <p class="banner info" role="status">
          Ninguna caja está abierta: ábrala en la pantalla Caja para cobrar.
        </p>
      )}
      <fieldset class="metodos">
        <legend>Método de pago</legend>
        {metodos.map((m) => (
          <label
            key={m.id_metodo_pago}
            class={m.id_metodo_pago === metodo?.id_metodo_pago ? 'metodo chosen' : 'metodo'}
          >
            <input
              type="radio"
              name={`${ids}-metodo`}
              checked={m.id_metodo_pago === metodo?.id_metodo_pago}
              onChange={() => choose(m)}
            />
            <span>{m.nombre}</span>
          </label>
        ))}
      </fieldset>
      <div class="tender-fields">
        <Amount
          id={`${ids}-monto`}
          label={cash ? 'Monto (a cuenta)' : 'Monto'}
          value={draft.monto}
          error={errors.monto}
          onInput={field('monto')}
        />
        <Amount
          id={`${ids}-propina`}
          label="Propina"
          value={draft.propina}
          placeholder="0.00"
          error={errors.propina}
          onInput={field('propina')}
        />
        {cash ? (
          <Amount
            id={`${ids}-recibido`}
            label="Recibido"
            value={draft.recibido}
            placeholder="exacto"
            error={errors.recibido}
            onInput={field('recibido')}
          />
        ) : (
          <div class="field wide">
            <label for={`${ids}-referencia`}>Referencia (opcional)</label>
            <input
              id={`${ids}-referencia`}
              value={draft.referencia}
              maxLength={120}
              placeholder="voucher, n.º de operación"
              aria-invalid={errors.referencia ? true : undefined}
              onInput={field('referencia')}
            />
            {errors.referencia && <span class="field-error">{errors.referencia}</span>}
          </div>
        )}
      </div>
      {cash && (
        <p
          class={simulacion ? 'vuelto' : 'vuelto pending'}
          role="status"
          aria-label="Vuelto"
          aria-busy={preview.estado === 'calculando'}
        >
          <span>Vuelto</span>
          <strong>
            {simulacion
              ? formatCentimos(centimosOf(simulacion.vuelto))
              : preview.estado === 'calculando'
                ? '…'
                : '—'}
          </strong>
        </p>
      )}
      {redondeo && <p class="hint">{redondeo}</p>}
      {several && (
        <label>
          Caja
          <select
            value={idCaja}
            required
            aria-invalid={cajaMissing}
            onChange={(e) => onCaja(e.currentTarget.value)}
          >
            <option value="">Elija la caja…</option>
            {abiertas.map((s) => (
              <option key={s.id_caja} value={s.id_caja}>
                {s.caja}
                {s.abierta_por ? ` · ${s.abierta_por}` : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <p
        class={preview.estado === 'calculando' ? 'hint after pending' : 'hint after'}
        role="status"
      >
        {status}
      </p>
      <div class="actions">
        {settles ? (
          <>
            <button type="submit" disabled={busy || !canSend}>
              Cobrar y cerrar
            </button>
            <button
              type="button"
              class="secondary"
              disabled={busy || !canSend}
              onClick={() => body && onPay(body)}
            >
              Cobrar sin cerrar
            </button>
          </>
        ) : (
          <button type="submit" disabled={busy || !canSend}>
            Cobrar
          </button>
        )}
      </div>
    </form>
  );
}

/** A money input: decimal keyboard on a tablet, its error under it. */
function Amount({
  id,
  label,
  value,
  placeholder,
  error,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  error?: string;
  onInput: (e: { currentTarget: HTMLInputElement }) => void;
}) {
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
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onInput={onInput}
      />
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
