import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, isAbort, ok, type Schemas } from '../api';
import { ErrorBanner, Notice, Pager } from '../components';
import { hora, soles, when } from '../format';
import { followComandas, type LiveStatus } from '../live';
import { useSession } from '../session';
import type { Caja as CajaDto, Reporte, Sesion } from './caja-rules';
import { Receipt, ReportView } from './caja-reporte';
import { AbrirDialog, MovimientoDialog } from './caja-dialogs';
import { CerrarDialog } from './caja-cierre';

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
