import { useEffect, useId, useLayoutEffect, useState } from 'preact/hooks';
import { isAbort, ok, type ComandaDetail, type Schemas, type WriteHeaders } from '../api';
import { Dialog, ErrorBanner, Notice } from '../components';
import { allows } from '../floor-state';
import { soles } from '../format';
import { formatCentimos } from '../money';
import { useSession } from '../session';
import {
  balanceOf,
  checkDescuento,
  checkTender,
  emptyDraft,
  ESTADO_PAGO,
  isCash,
  pagoBody,
  pagoDetalle,
  type Metodo,
  type Pago,
  type PagoBody,
  type TenderDraft,
} from './cobrar-rules';

type Sesion = Schemas['SesionCajaDto'];

/**
 * Runs one write of the comanda as the panel does (If-Match of the version shown, one
 * Idempotency-Key per press, the buttons disabled meanwhile, a 412 shown with the fresh bill):
 * the comanda as the service answered it, or null when it was refused. `keepOpen` keeps this
 * dialog open afterwards (another tender follows).
 */
export type Perform = (
  run: (headers: WriteHeaders) => Promise<ComandaDetail>,
  options?: { keepOpen?: boolean },
) => Promise<ComandaDetail | null>;

/** `18 %`, `10.5 %`: a rate the API sends as a fraction (0.18), for reading. */
function percent(rate: number): string {
  return `${(rate * 100).toFixed(2).replace(/\.?0+$/, '')} %`;
}

/**
 * "Cobrar": the bill of an open comanda (subtotal, discount, service charge, total with its IGV,
 * rounding, tips, paid, balance), its payments (each with "Anular" when its `acciones` lists
 * it) and a new payment: the method, the amount (the balance; in cash the cash balance), the
 * tip and, in cash, what was handed over with the change shown as it is typed. Several tenders
 * one after the other (each POST /pagos); "Cobrar y cerrar" when the one typed settles the bill
 * (one PUT: pay and close together, or neither); "Cerrar comanda" once nothing is owed.
 */
export function Cobrar({
  detail,
  busy,
  error,
  notice,
  perform,
  onClose,
  onNotice,
}: {
  detail: ComandaDetail;
  busy: boolean;
  error: unknown;
  notice: string | null;
  perform: Perform;
  onClose: () => void;
  onNotice: (text: string) => void;
}) {
  const { api, can, me } = useSession();
  const id = detail.id_comanda;
  const path = { id };
  const [metodos, setMetodos] = useState<Metodo[] | null>(null);
  /** The open till sessions; null when the user does not operate tills (the service picks one). */
  const [abiertas, setAbiertas] = useState<Sesion[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [idMetodo, setIdMetodo] = useState<number | null>(null);
  const [idCaja, setIdCaja] = useState<string>('');
  const [draft, setDraft] = useState<TenderDraft>({
    monto: '',
    propina: '',
    recibido: '',
    referencia: '',
  });
  /** Whether the amount was typed (else it follows the balance and the method). */
  const [montoTyped, setMontoTyped] = useState(false);
  const [voiding, setVoiding] = useState<number | null>(null);
  const [discounting, setDiscounting] = useState(false);
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    ok(api.GET('/api/v1/metodos-pago', { signal }))
      .then((list) => {
        setMetodos(list);
        setIdMetodo((current) => current ?? list[0]?.id_metodo_pago ?? null);
      })
      .catch((err) => !isAbort(err) && setLoadError(err));
    if (can('caja:operate'))
      ok(
        api.GET('/api/v1/sesiones-caja', {
          params: { query: { estado: 'abierta', limit: 50 } },
          signal,
          cache: 'no-store',
        }),
      )
        .then((list) => {
          setAbiertas(list);
          const mine = list.find((s) => s.id_usuario_apertura === me.id_usuario);
          if (list.length > 1 && mine) setIdCaja(String(mine.id_caja));
        })
        .catch((err) => !isAbort(err) && setLoadError(err));
    return () => controller.abort();
  }, [api]);

  const metodo = metodos?.find((m) => m.id_metodo_pago === idMetodo);
  const cash = isCash(metodo);
  const balance = balanceOf(detail);

  // the methods read, or a new bill (a payment taken or voided, a discount, someone else's
  // change): a fresh tender for what is owed now, in the same paint as the bill it is for
  useLayoutEffect(() => {
    setDraft(emptyDraft(balance, cash));
    setMontoTyped(false);
    setVoiding(null);
  }, [detail.version, metodos]);

  const choose = (next: Metodo) => {
    setIdMetodo(next.id_metodo_pago);
    setDraft((d) => ({
      ...d,
      ...(montoTyped ? {} : { monto: emptyDraft(balance, isCash(next)).monto }),
      ...(isCash(next) ? {} : { recibido: '' }),
    }));
  };
  const field = (name: keyof TenderDraft) => (e: { currentTarget: HTMLInputElement }) => {
    const value = e.currentTarget.value;
    if (name === 'monto') setMontoTyped(true);
    setDraft((d) => ({ ...d, [name]: value }));
  };

  const check = checkTender(balance, cash, draft);
  const several = abiertas !== null && abiertas.length > 1;
  const noTill = abiertas !== null && abiertas.length === 0;
  const cajaMissing = several && idCaja === '';
  const mayClose = allows(detail, 'cerrar');
  const canSend =
    metodo !== undefined && Object.keys(check.errors).length === 0 && !noTill && !cajaMissing;
  const body = (): PagoBody => pagoBody(metodo!, draft, several ? Number(idCaja) : null);
  const saldo = detail.saldo ?? 0;

  const pay = () =>
    void perform(
      (header) =>
        ok(api.POST('/api/v1/comandas/{id}/pagos', { params: { path, header }, body: body() })),
      { keepOpen: true },
    );
  const payAndClose = async () => {
    const vuelto = cash ? check.vuelto : 0;
    const done = await perform((header) =>
      ok(
        api.PUT('/api/v1/comandas/{id}', {
          params: { path, header },
          body: { action: 'cerrar', pagos: [body()] },
        }),
      ),
    );
    if (done)
      onNotice(
        `Comanda ${done.numero_ticket} cobrada y cerrada.` +
          (vuelto > 0 ? ` Vuelto: ${formatCentimos(vuelto)}.` : ''),
      );
  };
  const close = async () => {
    const done = await perform((header) =>
      ok(
        api.PUT('/api/v1/comandas/{id}', { params: { path, header }, body: { action: 'cerrar' } }),
      ),
    );
    if (done) onNotice(`Comanda ${done.numero_ticket} cobrada y cerrada.`);
  };
  const voidPago = (pago: Pago, motivo: string) =>
    void perform(
      (header) =>
        ok(
          api.DELETE('/api/v1/comandas/{id}/pagos/{idPago}', {
            params: { path: { id, idPago: pago.id_pago }, header },
            body: { motivo },
          }),
        ),
      { keepOpen: true },
    );

  const discount = async (descuento: Schemas['DescuentoBody']) => {
    const done = await perform(
      (header) =>
        ok(
          api.POST('/api/v1/comandas/{id}/descuento', {
            params: { path, header },
            body: descuento,
          }),
        ),
      { keepOpen: true },
    );
    if (done) setDiscounting(false);
  };

  const pagos = detail.pagos ?? [];
  const title = `Cobrar comanda ${detail.numero_ticket}`;
  return (
    <Dialog title={title} onClose={onClose} variant="wide cobrar-dialog">
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error ?? loadError} />
      <div class="cobrar">
        <section class="cuenta" aria-label="Cuenta">
          <h3>Cuenta</h3>
          <Bill detail={detail} />
          {allows(detail, 'descontar') &&
            (discounting ? (
              <DescuentoForm
                detail={detail}
                busy={busy}
                onCancel={() => setDiscounting(false)}
                onSave={(descuento) => void discount(descuento)}
              />
            ) : (
              <button
                type="button"
                class="link descuento-open"
                disabled={busy}
                onClick={() => setDiscounting(true)}
              >
                {detail.descuento_tipo ? 'Cambiar el descuento' : 'Aplicar un descuento'}
              </button>
            ))}
          <h3>Pagos</h3>
          {pagos.length === 0 ? (
            <p class="muted">Ningún pago todavía.</p>
          ) : (
            <table class="table pagos" aria-label="Pagos">
              <thead>
                <tr>
                  <th>Método</th>
                  <th class="num">Monto</th>
                  <th class="num">Propina</th>
                  <th>
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {pagos.map((p) => (
                  <PagoRow
                    key={p.id_pago}
                    pago={p}
                    busy={busy}
                    voiding={voiding === p.id_pago}
                    onVoid={() => setVoiding(p.id_pago)}
                    onCancel={() => setVoiding(null)}
                    onConfirm={(motivo) => voidPago(p, motivo)}
                  />
                ))}
              </tbody>
            </table>
          )}
        </section>

        {saldo > 0 && metodos === null ? (
          <p class="tender muted">
            {loadError
              ? 'No se pudieron leer los métodos de pago.'
              : 'Cargando los métodos de pago…'}
          </p>
        ) : saldo > 0 ? (
          <form
            class="tender"
            aria-label="Nuevo pago"
            onSubmit={(e) => {
              e.preventDefault();
              if (!canSend || busy) return;
              if (check.settles && mayClose) void payAndClose();
              else pay();
            }}
          >
            <h3>{pagos.some((p) => p.estado === 'aplicado') ? 'Otro pago' : 'Nuevo pago'}</h3>
            {noTill && (
              <p class="banner info" role="status">
                Ninguna caja está abierta: ábrala en la pantalla Caja para cobrar.
              </p>
            )}
            <fieldset class="metodos">
              <legend>Método de pago</legend>
              {metodos?.map((m) => (
                <label
                  key={m.id_metodo_pago}
                  class={m.id_metodo_pago === idMetodo ? 'metodo chosen' : 'metodo'}
                >
                  <input
                    type="radio"
                    name={`${ids}-metodo`}
                    checked={m.id_metodo_pago === idMetodo}
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
                error={check.errors.monto}
                onInput={field('monto')}
              />
              <Amount
                id={`${ids}-propina`}
                label="Propina"
                value={draft.propina}
                placeholder="0.00"
                error={check.errors.propina}
                onInput={field('propina')}
              />
              {cash ? (
                <Amount
                  id={`${ids}-recibido`}
                  label="Recibido"
                  value={draft.recibido}
                  placeholder="monto + propina"
                  error={check.errors.recibido}
                  onInput={field('recibido')}
                />
              ) : (
                <label>
                  Referencia (opcional)
                  <input
                    value={draft.referencia}
                    maxLength={120}
                    placeholder="voucher, n.º de operación"
                    onInput={field('referencia')}
                  />
                </label>
              )}
            </div>
            {cash && balance.saldoEfectivo < balance.saldo && (
              <p class="hint">
                En efectivo se cobra {formatCentimos(balance.saldoEfectivo)}: redondeo de{' '}
                {formatCentimos(balance.saldo - balance.saldoEfectivo)} a favor del cliente.
              </p>
            )}
            {cash && (
              <p class="vuelto" role="status" aria-label="Vuelto">
                <span>Vuelto</span>
                <strong>{formatCentimos(check.vuelto)}</strong>
              </p>
            )}
            {several && (
              <label>
                Caja
                <select
                  value={idCaja}
                  required
                  aria-invalid={cajaMissing}
                  onChange={(e) => setIdCaja(e.currentTarget.value)}
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
            <p class="hint after" role="status">
              {Object.keys(check.errors).length === 0 &&
                (check.settles
                  ? 'Con este pago la cuenta queda pagada.'
                  : `Después de este pago quedan ${formatCentimos(balance.saldo - check.aplicado)}.`)}
            </p>
            <div class="actions">
              {check.settles && mayClose ? (
                <>
                  <button type="submit" disabled={busy || !canSend}>
                    Cobrar y cerrar
                  </button>
                  <button type="button" class="secondary" disabled={busy || !canSend} onClick={pay}>
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
        ) : (
          <section class="tender done" aria-label="Cuenta pagada">
            {saldo < 0 ? (
              <p class="banner error">Se cobró {soles(-saldo)} de más: anule el pago que sobra.</p>
            ) : (
              <p class="paid">La cuenta está pagada.</p>
            )}
            {mayClose && saldo === 0 && (
              <div class="actions">
                <button type="button" disabled={busy} onClick={() => void close()}>
                  Cerrar comanda
                </button>
              </div>
            )}
          </section>
        )}
      </div>
    </Dialog>
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

/** The comanda's discount as it was set, or null (the answer gives its fields flat). */
function discountOf(detail: ComandaDetail) {
  return detail.descuento_tipo
    ? {
        tipo: detail.descuento_tipo,
        valor: detail.descuento_valor ?? 0,
        motivo: detail.descuento_motivo ?? '',
      }
    : null;
}

/** The bill as the service computed it: every figure is the API's, formatted. */
function Bill({ detail }: { detail: ComandaDetail }) {
  const regla = discountOf(detail);
  const rows: [string, string, string?][] = [
    ['Subtotal', soles(detail.subtotal ?? detail.total)],
    [
      regla
        ? `Descuento (${regla.tipo === 'porcentaje' ? `${regla.valor} %` : soles(regla.valor)})`
        : 'Descuento',
      (detail.descuento ?? 0) > 0 ? `−${soles(detail.descuento ?? 0)}` : soles(0),
    ],
    ['Recargo al consumo', soles(detail.recargo_consumo ?? 0)],
    ['Total', soles(detail.total), 'strong'],
  ];
  if (detail.igv)
    rows.push(
      ['Base imponible', soles(detail.igv.base), 'minor'],
      [`IGV incluido (${percent(detail.igv.tasa)})`, soles(detail.igv.monto), 'minor'],
    );
  rows.push(
    ['Redondeo', soles(detail.redondeo ?? 0)],
    ['Propinas', soles(detail.propinas ?? 0)],
    ['Pagado', soles(detail.pagado ?? 0)],
  );
  return (
    <table class="table bill" aria-label="Cuenta">
      <tbody>
        {rows.map(([label, value, kind]) => (
          <tr key={label} class={kind}>
            <th scope="row">{label}</th>
            <td class="num">{value}</td>
          </tr>
        ))}
        <tr class="strong saldo">
          <th scope="row">
            Saldo{' '}
            {detail.estado_pago && (
              <span class={`pill ${detail.estado_pago}`}>{ESTADO_PAGO[detail.estado_pago]}</span>
            )}
          </th>
          <td class="num" data-testid="saldo">
            {soles(detail.saldo ?? 0)}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function PagoRow({
  pago,
  busy,
  voiding,
  onVoid,
  onCancel,
  onConfirm,
}: {
  pago: Pago;
  busy: boolean;
  voiding: boolean;
  onVoid: () => void;
  onCancel: () => void;
  onConfirm: (motivo: string) => void;
}) {
  const [motivo, setMotivo] = useState('');
  const detalle = pagoDetalle(pago, soles);
  const anulado = pago.estado === 'anulado';
  const name = `${pago.metodo} ${soles(pago.monto)}`;
  return (
    <>
      <tr class={anulado ? 'anulado' : undefined} aria-label={`Pago ${name}`}>
        <td>
          <span class="metodo-name">
            {pago.metodo}
            {anulado && <span class="pill eliminada">anulado</span>}
          </span>
          {detalle && <span class="muted small detalle">{detalle}</span>}
        </td>
        <td class="num monto">{soles(pago.monto)}</td>
        <td class="num">{soles(pago.propina)}</td>
        <td class="num">
          {pago.acciones.includes('anular') && !voiding && (
            <button
              type="button"
              class="link"
              aria-label={`Anular el pago ${name}`}
              disabled={busy}
              onClick={onVoid}
            >
              Anular
            </button>
          )}
        </td>
      </tr>
      {voiding && (
        <tr class="void-row">
          <td colSpan={4}>
            <form
              class="void-form"
              aria-label={`Anular el pago ${name}`}
              onSubmit={(e) => {
                e.preventDefault();
                if (motivo.trim()) onConfirm(motivo.trim());
              }}
            >
              <label>
                Motivo
                <input
                  value={motivo}
                  required
                  maxLength={500}
                  autoFocus
                  placeholder="se cobró con el método equivocado"
                  onInput={(e) => setMotivo(e.currentTarget.value)}
                />
              </label>
              <button type="submit" class="danger small" disabled={busy || !motivo.trim()}>
                Anular pago
              </button>
              <button type="button" class="secondary small" onClick={onCancel}>
                No anular
              </button>
            </form>
          </td>
        </tr>
      )}
    </>
  );
}

/** The discount of the comanda: a percentage of its lines or an amount, with its reason. */
function DescuentoForm({
  detail,
  busy,
  onCancel,
  onSave,
}: {
  detail: ComandaDetail;
  busy: boolean;
  onCancel: () => void;
  onSave: (body: Schemas['DescuentoBody']) => void;
}) {
  const regla = discountOf(detail);
  const [tipo, setTipo] = useState<'porcentaje' | 'monto'>(regla?.tipo ?? 'porcentaje');
  const [valor, setValor] = useState(regla ? String(regla.valor) : '');
  const [motivo, setMotivo] = useState(regla?.motivo ?? '');
  const checked = checkDescuento(tipo, valor, motivo);
  const ids = useId();
  return (
    <form
      class="descuento"
      aria-label="Descuento"
      onSubmit={(e) => {
        e.preventDefault();
        if (Object.keys(checked.errors).length === 0)
          onSave({ tipo, valor: checked.valor, motivo: motivo.trim() });
      }}
    >
      <label>
        Tipo
        <select
          value={tipo}
          onChange={(e) => setTipo(e.currentTarget.value as 'porcentaje' | 'monto')}
        >
          <option value="porcentaje">Porcentaje</option>
          <option value="monto">Monto</option>
        </select>
      </label>
      <div class="field">
        <label for={`${ids}-valor`}>{tipo === 'porcentaje' ? 'Porcentaje (%)' : 'Monto'}</label>
        <input
          id={`${ids}-valor`}
          class="amount"
          inputMode="decimal"
          value={valor}
          placeholder="0 lo quita"
          aria-invalid={valor !== '' && checked.errors.valor ? true : undefined}
          onInput={(e) => setValor(e.currentTarget.value)}
        />
        {valor !== '' && checked.errors.valor && (
          <span class="field-error">{checked.errors.valor}</span>
        )}
      </div>
      <label class="wide">
        Motivo
        <input
          value={motivo}
          maxLength={500}
          placeholder="cliente frecuente"
          onInput={(e) => setMotivo(e.currentTarget.value)}
        />
      </label>
      <div class="actions wide">
        <button
          type="submit"
          class="small"
          disabled={busy || Object.keys(checked.errors).length > 0}
        >
          Aplicar descuento
        </button>
        <button type="button" class="secondary small" onClick={onCancel}>
          Cancelar
        </button>
      </div>
    </form>
  );
}
