import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { answer, isAbort, newKey, ok, type Schemas } from '../api';
import { Dialog, ErrorBanner, Notice, Pager } from '../components';
import { hora, plural, soles, when } from '../format';
import { followComandas, type LiveStatus } from '../live';
import { amountText, centimosOf, formatCentimos, parseAmount, toAmount, total } from '../money';
import { useSession } from '../session';
import {
  closeBody,
  conteoTotal,
  DENOMINACIONES,
  denominacionLabel,
  diferencia,
  metodosShown,
  type Caja as CajaDto,
  type CloseDraft,
  type Reporte,
  type ReporteMetodo,
  type Sesion,
} from './caja-rules';

/** Sessions per page of the list. */
const PAGE = 10;

/** The comanda changes that move a till's money: the X shown is read again after each. */
const MONEY_EVENTS = new Set(['pagar', 'anular_pago', 'reembolsar']);

type Open =
  | { kind: 'abrir'; caja: CajaDto }
  | { kind: 'movimiento'; sesion: Sesion }
  | { kind: 'cerrar'; reporte: Reporte };

const LIVE: Record<LiveStatus, string> = {
  live: 'en vivo',
  connecting: 'conectando…',
  retrying: 'reconectando…',
};

/** `Z N° 3`, or the open session's X. */
const reportName = (sesion: Sesion) =>
  sesion.numero_z !== null ? `Z N° ${sesion.numero_z}` : 'X (abierta)';

/**
 * Caja: the tills and their state; open a session with its float; the open
 * session's X, live (read again after each payment on the stream and after each change here),
 * its cash movements, its close with the count (by denomination if wanted), then the Z; the
 * report as the receipt printer lays it out (42 columns), printable; the sessions before, to
 * read a Z again. Each button is an action the till's or the session's `acciones` lists.
 */

/** The till's open session, when it has one (the answer gives its fields flat). */
function openSessionOf(caja: Schemas['CajaDto']) {
  return caja.id_sesion_abierta === null
    ? null
    : {
        id_sesion: caja.id_sesion_abierta,
        monto_apertura: caja.monto_apertura ?? 0,
        fec_apertura: caja.fec_apertura ?? '',
        abierta_por: caja.abierta_por,
      };
}

export function Caja() {
  const { api } = useSession();
  const [cajas, setCajas] = useState<CajaDto[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [reporte, setReporte] = useState<Reporte | null>(null);
  const [ticket, setTicket] = useState<string | null>(null);
  const [sesiones, setSesiones] = useState<{ items: Sesion[]; total: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<Open | null>(null);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  /** Bumped to read the tills and the sessions again. */
  const [round, setRound] = useState(0);
  /** Bumped to read the report shown again. */
  const [fresh, setFresh] = useState(0);
  /** Whether the report shown is an X (the stream's payments change it). */
  const showingX = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/cajas', { signal: controller.signal, cache: 'no-store' }))
      .then((list) => {
        setCajas(list);
        // the open session of the first till that has one, when none is shown yet
        setSelected(
          (current) =>
            current ?? list.find((c) => c.id_sesion_abierta !== null)?.id_sesion_abierta ?? null,
        );
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, round]);

  useEffect(() => {
    const controller = new AbortController();
    answer(
      api.GET('/api/v1/sesiones-caja', {
        params: { query: { limit: PAGE, offset } },
        signal: controller.signal,
        cache: 'no-store',
      }),
    )
      .then(({ data, response }) =>
        setSesiones({
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
        }),
      )
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, round, offset]);

  useEffect(() => {
    if (selected === null) return undefined;
    const controller = new AbortController();
    const signal = controller.signal;
    const path = { id: selected };
    Promise.all([
      ok(api.GET('/api/v1/sesiones-caja/{id}', { params: { path }, signal, cache: 'no-store' })),
      ok(
        api.GET('/api/v1/sesiones-caja/{id}/reporte', {
          params: { path },
          headers: { Accept: 'text/plain' },
          parseAs: 'text',
          signal,
          cache: 'no-store',
        }),
      ),
    ])
      .then(([report, text]) => {
        showingX.current = report.tipo === 'X';
        setReporte(report);
        setTicket(text);
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, selected, fresh]);

  // a payment taken or voided anywhere: the X shown follows
  useEffect(
    () =>
      followComandas(api, {
        onEvent: (event) => {
          if (MONEY_EVENTS.has(event.accion) && showingX.current) setFresh((n) => n + 1);
        },
        onReset: () => showingX.current && setFresh((n) => n + 1),
        onStatus: setStatus,
      }),
    [api],
  );

  const refresh = () => {
    setRound((n) => n + 1);
    setFresh((n) => n + 1);
  };

  /** After a write: the dialog closes, the user is told, everything shown is read again. */
  const done = (text: string, session?: number) => {
    setOpen(null);
    setError(null);
    setNotice(text);
    if (session !== undefined) setSelected(session);
    refresh();
  };

  const shown = reporte && reporte.sesion.id_sesion === selected ? reporte : null;
  return (
    <div class="caja-screen">
      <section class="panel cajas-panel" aria-labelledby="cajas-titulo">
        <header class="caja-head">
          <h2 id="cajas-titulo">Cajas</h2>
          <span class={`live ${status === 'live' ? 'on' : 'off'}`} role="status">
            {LIVE[status]}
          </span>
          <button type="button" class="secondary small" onClick={refresh}>
            Actualizar
          </button>
        </header>
        {notice && <Notice>{notice}</Notice>}
        <ErrorBanner error={error} onClose={() => setError(null)} />
        {cajas === null && !error && <p class="muted">Cargando…</p>}
        <ul class="cajas" aria-label="Cajas">
          {cajas?.map((c) => (
            <CajaCard
              key={c.id_caja}
              caja={c}
              shown={c.id_sesion_abierta !== null && c.id_sesion_abierta === selected}
              onShow={(id) => setSelected(id)}
              onOpen={() => setOpen({ kind: 'abrir', caja: c })}
            />
          ))}
        </ul>
      </section>

      {shown && (
        <div class="caja-body">
          <ReportView
            reporte={shown}
            onMovement={() => setOpen({ kind: 'movimiento', sesion: shown.sesion })}
            onClose={() => setOpen({ kind: 'cerrar', reporte: shown })}
          />
          <Receipt reporte={shown} text={ticket} />
        </div>
      )}

      <section class="panel sesiones" aria-labelledby="sesiones-titulo">
        <h2 id="sesiones-titulo">Sesiones</h2>
        {sesiones && sesiones.items.length === 0 && (
          <p class="muted">Ninguna sesión de caja todavía.</p>
        )}
        {sesiones && sesiones.items.length > 0 && (
          <>
            <table class="table sesiones-list" aria-label="Sesiones de caja">
              <thead>
                <tr>
                  <th>Reporte</th>
                  <th>Caja</th>
                  <th>Apertura</th>
                  <th>Cierre</th>
                  <th class="num">Fondo</th>
                </tr>
              </thead>
              <tbody>
                {sesiones.items.map((s) => (
                  <tr key={s.id_sesion} class={s.id_sesion === selected ? 'chosen' : undefined}>
                    <td class="nowrap">
                      <button
                        type="button"
                        class="link"
                        aria-label={`Ver ${reportName(s)} de ${s.caja}`}
                        aria-pressed={s.id_sesion === selected}
                        onClick={() => setSelected(s.id_sesion)}
                      >
                        {reportName(s)}
                      </button>
                    </td>
                    <td class="ellipsis">{s.caja}</td>
                    <td>
                      <span class="nowrap">{when(s.fec_apertura)}</span>
                      {s.abierta_por && <span class="muted small who-did">{s.abierta_por}</span>}
                    </td>
                    <td>
                      <span class="nowrap">{when(s.fec_cierre)}</span>
                      {s.cerrada_por && <span class="muted small who-did">{s.cerrada_por}</span>}
                    </td>
                    <td class="num">{soles(s.monto_apertura)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {sesiones.total > PAGE && (
              <Pager offset={offset} size={PAGE} total={sesiones.total} onOffset={setOffset} />
            )}
          </>
        )}
      </section>

      {open?.kind === 'abrir' && (
        <AbrirDialog
          caja={open.caja}
          onClose={() => setOpen(null)}
          onOpened={(x) =>
            done(
              `${x.sesion.caja} abierta con ${soles(x.sesion.monto_apertura)} de fondo.`,
              x.sesion.id_sesion,
            )
          }
        />
      )}
      {open?.kind === 'movimiento' && (
        <MovimientoDialog
          sesion={open.sesion}
          onClose={() => setOpen(null)}
          onDone={(m) =>
            done(
              `${m.tipo === 'ingreso' ? 'Ingreso' : 'Retiro'} de ${soles(m.monto)} registrado: ${m.motivo}.`,
            )
          }
        />
      )}
      {open?.kind === 'cerrar' && (
        <CerrarDialog
          reporte={open.reporte}
          onClose={() => setOpen(null)}
          onClosed={(z) => {
            setReporte(z);
            done(`${z.sesion.caja} cerrada: Z N° ${z.sesion.numero_z ?? ''}.`, z.sesion.id_sesion);
          }}
        />
      )}
    </div>
  );
}

function CajaCard({
  caja,
  shown,
  onShow,
  onOpen,
}: {
  caja: CajaDto;
  shown: boolean;
  onShow: (idSesion: number) => void;
  onOpen: () => void;
}) {
  const sesion = openSessionOf(caja);
  return (
    <li class={sesion ? 'caja-card en-uso' : 'caja-card libre'} aria-label={caja.nombre}>
      <header>
        <h3>{caja.nombre}</h3>
        <span class={sesion ? 'pill abierta' : 'pill cerrada'}>
          {sesion ? 'Abierta' : 'Sin abrir'}
        </span>
      </header>
      {sesion ? (
        <p class="caja-info">
          <span>
            Desde las {hora(sesion.fec_apertura)}
            {sesion.abierta_por && ` · ${sesion.abierta_por}`}
          </span>
          <span>Fondo {soles(sesion.monto_apertura)}</span>
        </p>
      ) : (
        <p class="caja-info muted">Sin sesión abierta.</p>
      )}
      <div class="caja-actions">
        {sesion && (
          <button
            type="button"
            class="secondary small"
            aria-pressed={shown}
            disabled={shown}
            onClick={() => onShow(sesion.id_sesion)}
          >
            {shown ? 'Mostrando el X' : 'Ver el X'}
          </button>
        )}
        {caja.acciones.includes('abrir_sesion') && (
          <button type="button" class="small" onClick={onOpen}>
            Abrir caja
          </button>
        )}
      </div>
    </li>
  );
}

/** The X or the Z on screen: figures per method, the cash in the till, the movements. */
function ReportView({
  reporte,
  onMovement,
  onClose,
}: {
  reporte: Reporte;
  onMovement: () => void;
  onClose: () => void;
}) {
  const { sesion, totales } = reporte;
  const z = reporte.tipo === 'Z';
  const metodos = metodosShown(reporte);
  const reembolsos = metodos.some((m) => m.reembolsos !== 0);
  const efectivo = reporte.metodos.filter((m) => m.cuenta_en_caja);
  const title = z
    ? `Reporte Z N° ${sesion.numero_z ?? ''} · ${sesion.caja}`
    : `Reporte X · ${sesion.caja}`;
  const columns = 4 + (reembolsos ? 1 : 0) + (z ? 2 : 0);
  return (
    <section class="panel reporte" aria-label={title}>
      <header class="reporte-head">
        <h2>
          {title}{' '}
          <span class={z ? 'pill cerrada' : 'pill abierta'}>{z ? 'cerrada' : 'abierta'}</span>
        </h2>
        <p class="meta">
          Abierta {when(sesion.fec_apertura)}
          {sesion.abierta_por && ` por ${sesion.abierta_por}`} · fondo{' '}
          {soles(sesion.monto_apertura)}
        </p>
        <p class="meta">
          {z
            ? `Cerrada ${when(sesion.fec_cierre)}${sesion.cerrada_por ? ` por ${sesion.cerrada_por}` : ''}`
            : `Parcial, leído a las ${hora(reporte.fec_reporte)}: la sesión sigue abierta`}
        </p>
      </header>
      {sesion.acciones.length > 0 && (
        <div class="actions">
          {sesion.acciones.includes('registrar_movimiento') && (
            <button type="button" class="secondary" onClick={onMovement}>
              Ingreso o retiro
            </button>
          )}
          {sesion.acciones.includes('cerrar') && (
            <button type="button" onClick={onClose}>
              Cerrar caja
            </button>
          )}
        </div>
      )}

      <p class="figures reporte-figures">
        <span>
          <strong>{soles(totales.ventas)}</strong> ventas
        </span>
        <span>
          <strong>{soles(totales.propinas)}</strong> propinas
        </span>
        <span>
          <strong>{plural(totales.comandas, 'comanda cobrada', 'comandas cobradas')}</strong>
        </span>
        <span>
          <strong>{plural(totales.pagos, 'pago', 'pagos')}</strong>
        </span>
      </p>

      <table class="table figuras" aria-label="Por método de pago">
        <thead>
          <tr>
            <th>Método</th>
            <th class="num">Pagos</th>
            <th class="num">Ventas</th>
            <th class="num">Propinas</th>
            {reembolsos && <th class="num">Reembolsos</th>}
            <th class="num">Esperado</th>
            {z && <th class="num">Contado</th>}
            {z && <th class="num">Diferencia</th>}
          </tr>
        </thead>
        <tbody>
          {metodos.map((m) => (
            <tr key={m.id_metodo_pago} aria-label={m.nombre}>
              <th scope="row">{m.nombre}</th>
              <td class="num">{m.pagos}</td>
              <td class="num">{soles(m.ventas)}</td>
              <td class="num">{soles(m.propinas)}</td>
              {reembolsos && <td class="num">{soles(m.reembolsos)}</td>}
              <td class="num">{soles(m.esperado)}</td>
              {z && <td class="num">{m.contado === null ? '—' : soles(m.contado)}</td>}
              {z && <Diferencia value={m.diferencia} />}
            </tr>
          ))}
          {metodos.length === 0 && (
            <tr>
              <td colSpan={columns} class="muted">
                Ningún pago todavía.
              </td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr aria-label="Total">
            <th scope="row">Total</th>
            <td class="num">{totales.pagos}</td>
            <td class="num">{soles(totales.ventas)}</td>
            <td class="num">{soles(totales.propinas)}</td>
            {reembolsos && <td class="num">{soles(totales.reembolsos)}</td>}
            <td class="num">{soles(totales.esperado)}</td>
            {z && <td class="num">{totales.contado === null ? '—' : soles(totales.contado)}</td>}
            {z && <Diferencia value={totales.diferencia} />}
          </tr>
        </tfoot>
      </table>

      <div class="reporte-grid">
        {efectivo.map((m) => (
          <EnCaja key={m.id_metodo_pago} metodo={m} />
        ))}
        {conteoOf(reporte).length > 0 && <ConteoView conteo={conteoOf(reporte)} />}
      </div>

      <h3>Movimientos</h3>
      {reporte.movimientos.length === 0 ? (
        <p class="muted">Ningún ingreso ni retiro.</p>
      ) : (
        <table class="table movimientos" aria-label="Movimientos">
          <thead>
            <tr>
              <th>Hora</th>
              <th>Motivo</th>
              <th>Quién</th>
              <th class="num">Monto</th>
            </tr>
          </thead>
          <tbody>
            {reporte.movimientos.map((m) => (
              <tr key={m.id_movimiento}>
                <td class="nowrap">{hora(m.fec_movimiento)}</td>
                <td>
                  <span class={`pill ${m.tipo}`}>
                    {m.tipo === 'ingreso' ? 'Ingreso' : 'Retiro'}
                  </span>{' '}
                  {m.motivo}
                </td>
                <td class="ellipsis">{m.usuario ?? '—'}</td>
                <td class="num">
                  {m.tipo === 'retiro' ? '−' : '+'}
                  {soles(m.monto)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sesion.nota && <p class="observacion">Nota: {sesion.nota}</p>}
    </section>
  );
}

/**
 * The Z's cash count by denomination. The service documents ReporteCajaDto.conteo as bare
 * objects (`type: Object`), so the generated type names no field: the two numbers each entry
 * has are read here, and an entry without them is left out.
 */
function conteoOf(reporte: Reporte): { denominacion: number; cantidad: number }[] {
  const entries: Record<string, unknown>[] = reporte.conteo ?? [];
  return entries.flatMap(({ denominacion, cantidad }) =>
    typeof denominacion === 'number' && typeof cantidad === 'number'
      ? [{ denominacion, cantidad }]
      : [],
  );
}

/** The cash counted note by note at the close: each denomination, how many, and their sum. */
function ConteoView({ conteo }: { conteo: { denominacion: number; cantidad: number }[] }) {
  const lines = conteo.map((c) => ({ ...c, subtotal: centimosOf(c.denominacion) * c.cantidad }));
  return (
    <table class="table conteo" aria-label="Conteo por denominación">
      <caption>Billetes y monedas</caption>
      <tbody>
        {lines.map((c) => (
          <tr key={c.denominacion}>
            <th scope="row">{denominacionLabel(centimosOf(c.denominacion))}</th>
            <td class="num">× {c.cantidad}</td>
            <td class="num">{formatCentimos(c.subtotal)}</td>
          </tr>
        ))}
        <tr class="strong">
          <th scope="row" colSpan={2}>
            Total contado
          </th>
          <td class="num">{formatCentimos(total(lines.map((c) => c.subtotal)))}</td>
        </tr>
      </tbody>
    </table>
  );
}

function Diferencia({ value }: { value: number | null }) {
  if (value === null) return <td class="num">—</td>;
  return (
    <td class={value === 0 ? 'num' : value < 0 ? 'num falta' : 'num sobra'}>{soles(value)}</td>
  );
}

/** The cash in the till: the float and what came in and went out, against what was counted. */
function EnCaja({ metodo: m }: { metodo: ReporteMetodo }) {
  const rows: [string, string][] = [
    ['Fondo inicial', soles(m.apertura)],
    ['+ Ventas', soles(m.ventas)],
    ['+ Propinas', soles(m.propinas)],
    ['+ Ingresos', soles(m.ingresos)],
    ['− Retiros', soles(m.retiros)],
    ['− Reembolsos', soles(m.reembolsos)],
  ];
  return (
    <table class="table en-caja" aria-label={`${m.nombre} en caja`}>
      <caption>{m.nombre} en caja</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td class="num">{value}</td>
          </tr>
        ))}
        <tr class="strong">
          <th scope="row">= Esperado</th>
          <td class="num">{soles(m.esperado)}</td>
        </tr>
        {m.contado !== null && (
          <tr class="strong">
            <th scope="row">Contado</th>
            <td class="num">{soles(m.contado)}</td>
          </tr>
        )}
        {m.diferencia !== null && (
          <tr>
            <th scope="row">Diferencia</th>
            <Diferencia value={m.diferencia} />
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** The report as the receipt printer prints it (the service lays it out), and "Imprimir". */
function Receipt({ reporte, text }: { reporte: Reporte; text: string | null }) {
  const name =
    reporte.tipo === 'Z' ? `Ticket del Z N° ${reporte.sesion.numero_z ?? ''}` : 'Ticket del X';
  return (
    <aside class="panel ticket-panel" aria-label={name}>
      <header class="ticket-head">
        <h3>{name}</h3>
        <button type="button" class="small" disabled={text === null} onClick={() => window.print()}>
          Imprimir
        </button>
      </header>
      {text === null ? (
        <p class="muted">Cargando…</p>
      ) : (
        <pre class="receipt" aria-label="Ticket">
          {text}
        </pre>
      )}
    </aside>
  );
}

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

function AbrirDialog({
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

function MovimientoDialog({
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

/**
 * The close: what was counted per method against what is expected (the difference shown as it
 * is typed); the cash typed, or counted note by note and coin by coin; a note. The answer is the Z.
 */
function CerrarDialog({
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
