import { useEffect, useRef, useState } from 'preact/hooks';
import { newKey, ok } from '../api';
import { ErrorBanner } from '../components';
import { cantidad } from '../format';
import { followCocina, type LiveStatus } from '../live';
import { useSession } from '../session';
import {
  alerta,
  allDay,
  duration,
  heldCourses,
  heldMarker,
  inSendOrder,
  minutesSince,
  pickStation,
  struck,
  TIPO_ENVIO,
  type Envio,
  type Estacion,
} from './cocina-rules';

/** The station this device shows, kept across reloads. */
const STATION_KEY = 'cocina.estacion';
/** The recently bumped tickets shown for a recall. */
const RECENT = 4;

/** "hh:mm" of the device's clock. */
const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 5);

/**
 * Cocina (docs/cocina.md): the kitchen display of one station, for a landscape tablet. One card
 * per pending ticket in send order, with its timers coloured by the station's thresholds, the
 * held courses of its comanda, and exactly the buttons of its `acciones` (Empezar, Listo,
 * Recuperar); the all-day count per product; live from GET /cocina/stream?estacion=, every
 * event refetching the station's tickets. A lost stream says so ("Sin conexión desde"): the
 * board is never silently stale.
 */
export function Cocina() {
  const { api } = useSession();
  const [estaciones, setEstaciones] = useState<Estacion[] | null>(null);
  const [estacionId, setEstacionId] = useState<number | null>(null);
  const [pendientes, setPendientes] = useState<Envio[] | null>(null);
  const [listos, setListos] = useState<Envio[]>([]);
  const [held, setHeld] = useState<Map<number, number[]>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [lostAt, setLostAt] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());
  const loading = useRef(0);

  useEffect(() => {
    ok(api.GET('/api/v1/cocina/estaciones'))
      .then((list) => {
        setEstaciones(list);
        setEstacionId(pickStation(list, localStorage.getItem(STATION_KEY))?.id_estacion ?? null);
      })
      .catch(setError);
  }, [api]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);

  /** The station's pending tickets, its last bumped ones, and the held courses of their comandas. */
  const load = async (estacion: number) => {
    const call = ++loading.current;
    try {
      const [pending, done] = await Promise.all([
        ok(api.GET('/api/v1/cocina/envios', { params: { query: { estacion, limit: 100 } } })),
        ok(
          api.GET('/api/v1/cocina/envios', {
            params: { query: { estacion, estado: 'listo', limit: RECENT } },
          }),
        ),
      ]);
      const comandas = [...new Set(pending.map((e) => e.id_comanda))];
      const details = await Promise.all(
        comandas.map((id) =>
          ok(api.GET('/api/v1/comandas/{id}', { params: { path: { id } } })).catch(() => null),
        ),
      );
      if (call !== loading.current) return;
      setPendientes(inSendOrder(pending));
      setListos(done);
      setHeld(
        new Map(
          details.flatMap((d) => (d ? [[d.id_comanda, heldCourses(d.lineas)] as const] : [])),
        ),
      );
      setError(null);
    } catch (err) {
      if (call === loading.current) setError(err);
    }
  };

  useEffect(() => {
    if (estacionId === null) return;
    setPendientes(null);
    void load(estacionId);
    const stop = followCocina(api, estacionId, {
      onEvent: () => void load(estacionId),
      onReset: () => void load(estacionId),
      onStatus: (s) => {
        setStatus(s);
        if (s === 'live') {
          setLostAt(null);
          // what happened while it was away
          void load(estacionId);
        } else if (s === 'retrying') setLostAt((at) => at ?? Date.now());
      },
    });
    return stop;
  }, [api, estacionId]);

  const choose = (id: number) => {
    localStorage.setItem(STATION_KEY, String(id));
    setEstacionId(id);
  };

  const move = async (envio: Envio, accion: Envio['acciones'][number]) => {
    if (busy !== null) return;
    setBusy(envio.id_envio);
    setError(null);
    const params = { path: { id: envio.id_envio }, header: { 'Idempotency-Key': newKey() } };
    try {
      if (accion === 'preparar')
        await ok(api.POST('/api/v1/cocina/envios/{id}/preparar', { params }));
      else if (accion === 'listo')
        await ok(api.POST('/api/v1/cocina/envios/{id}/listo', { params }));
      else await ok(api.POST('/api/v1/cocina/envios/{id}/recuperar', { params }));
      if (estacionId !== null) await load(estacionId);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const estacion = estaciones?.find((e) => e.id_estacion === estacionId) ?? null;
  const counts = allDay(pendientes ?? []);

  return (
    <section class="cocina-screen" aria-label="Cocina">
      <header class="cocina-head">
        <div class="stations" role="group" aria-label="Estación">
          {(estaciones ?? [])
            .filter((e) => e.activo)
            .map((e) => (
              <button
                key={e.id_estacion}
                type="button"
                class={e.id_estacion === estacionId ? 'station active' : 'station secondary'}
                aria-pressed={e.id_estacion === estacionId}
                onClick={() => choose(e.id_estacion)}
              >
                {e.nombre}
              </button>
            ))}
        </div>
        <span class={`live-state ${status}`} data-testid="cocina-live">
          {status === 'live' ? 'En vivo' : lostAt === null ? 'Conectando…' : ''}
        </span>
      </header>
      {lostAt !== null && (
        <p class="offline" role="alert" data-testid="cocina-offline">
          Sin conexión desde {clock(lostAt)}: lo que se ve puede estar desactualizado.
        </p>
      )}
      <ErrorBanner error={error} onClose={() => setError(null)} />
      {estaciones !== null && estacion === null && <p class="muted">No hay estaciones activas.</p>}
      {estacion && (
        <div class="cocina-body">
          <div class="kds-tickets" aria-label="Tickets">
            {pendientes === null && <p class="loading">Cargando tickets…</p>}
            {pendientes?.length === 0 && (
              <p class="muted empty-board">Sin tickets pendientes en {estacion.nombre}.</p>
            )}
            {pendientes?.map((e) => (
              <Ticket
                key={e.id_envio}
                envio={e}
                estacion={estacion}
                now={now}
                held={held.get(e.id_comanda) ?? []}
                busy={busy !== null}
                onMove={(accion) => void move(e, accion)}
              />
            ))}
          </div>
          <aside class="all-day" aria-label="Todo el día">
            <h3>Por preparar</h3>
            {counts.length === 0 ? (
              <p class="muted small">Nada.</p>
            ) : (
              <ul>
                {counts.map((c) => (
                  <li key={c.producto}>
                    <strong>{cantidad(c.cantidad)}</strong> <span>{c.producto}</span>
                  </li>
                ))}
              </ul>
            )}
            {listos.length > 0 && (
              <>
                <h3>Listos</h3>
                <ul class="recent">
                  {listos.map((e) => (
                    <li key={e.id_envio} data-testid="recent">
                      <span>
                        #{e.numero_ticket} {e.mesa !== null ? `Mesa ${e.mesa}` : 'Llevar'}
                      </span>
                      {e.acciones.includes('recuperar') && (
                        <button
                          type="button"
                          class="secondary"
                          disabled={busy !== null}
                          aria-label={`Recuperar ticket ${e.numero_ticket}`}
                          onClick={() => void move(e, 'recuperar')}
                        >
                          Recuperar
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </aside>
        </div>
      )}
    </section>
  );
}

function Ticket({
  envio,
  estacion,
  now,
  held,
  busy,
  onMove,
}: {
  envio: Envio;
  estacion: Estacion;
  now: number;
  held: number[];
  busy: boolean;
  onMove(accion: Envio['acciones'][number]): void;
}) {
  const age = minutesSince(envio.fec_envio, now);
  const fired = envio.fec_disparo ? minutesSince(envio.fec_disparo, now) : null;
  const marker = heldMarker(held.filter((n) => n > envio.curso));
  return (
    <article
      class={`kds-ticket ${envio.tipo} ${envio.estado} alerta-${alerta(age, estacion)}`}
      aria-label={`Ticket ${envio.numero_ticket}`}
      data-testid="ticket"
    >
      <div class="kds-top">
        <strong class="kds-mesa">
          {envio.mesa !== null ? `Mesa ${envio.mesa}` : 'Para llevar'}
        </strong>
        <span class={`timer alerta-${alerta(age, estacion)}`} title="Desde el envío">
          {duration(age)}
        </span>
      </div>
      <p class="kds-meta">
        <span>#{envio.numero_ticket}</span>
        <span class="mozo">{envio.mozo ?? 'sin mozo'}</span>
        <span>Curso {envio.curso}</span>
        {fired !== null && (
          <span
            class={`fire alerta-${alerta(fired, estacion)}`}
            title="Desde que se disparó el curso"
          >
            disparado hace {duration(fired)}
          </span>
        )}
      </p>
      {envio.tipo !== 'nuevo' && <p class={`tipo ${envio.tipo}`}>{TIPO_ENVIO[envio.tipo]}</p>}
      {envio.estado === 'en_preparacion' && <p class="tipo preparando">En preparación</p>}
      <ul class="kds-lines">
        {envio.lineas.map((l) => (
          <li key={l.id_item} class={struck(l) ? 'struck' : undefined}>
            <strong>{cantidad(l.cantidad)}</strong> <span>{l.producto}</span>
            {l.nota && <em class="nota">{l.nota}</em>}
          </li>
        ))}
      </ul>
      {marker && <p class="held">{marker}</p>}
      <div class="kds-actions">
        {envio.acciones.includes('preparar') && (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => onMove('preparar')}
          >
            Empezar
          </button>
        )}
        {envio.acciones.includes('listo') && (
          <button type="button" disabled={busy} onClick={() => onMove('listo')}>
            Listo
          </button>
        )}
      </div>
    </article>
  );
}
