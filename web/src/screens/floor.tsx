import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { newKey, ok, type ComandaSummary } from '../api';
import { useCatalog } from '../catalog';
import { ErrorBanner } from '../components';
import { applyEvent, floorOf, isOpen, sum, type TableOnFloor } from '../floor-state';
import { duracion, hora, minutesSince, plural, soles } from '../format';
import { followComandas, type LiveStatus } from '../live';
import { useSession } from '../session';
import { ComandaPanel } from './comanda-panel';

/** The time now, again every `every` ms: how long the tables have been open keeps counting. */
function useNow(every: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}

/** A table open this long (minutes) is marked: people waiting for the bill, or one forgotten. */
const LONG_OPEN = 150;

const LIVE: Record<LiveStatus, string> = {
  live: 'en vivo',
  connecting: 'conectando…',
  retrying: 'reconectando…',
};

/**
 * The floor: the tables at a glance (free, or occupied with their total, how long they have
 * been open and their tickets), the take-away orders, kept current by the live stream (which
 * reconnects and resumes by itself), and the selected ticket with what the service lets the
 * user do to it.
 */
export function Floor() {
  const { api, can } = useSession();
  const { catalog, error: catalogError } = useCatalog(api);
  const [open, setOpen] = useState<ComandaSummary[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [touched, setTouched] = useState(0);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(30_000);

  const reload = async () => {
    try {
      setOpen(
        await ok(
          api.GET('/api/v1/comandas', { params: { query: { estado: 'abierta', limit: 500 } } }),
        ),
      );
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    void reload();
    return followComandas(api, {
      onEvent: (event) => {
        setOpen((list) => applyEvent(list, event.comanda, isOpen));
        setSelected((current) => {
          if (current === event.id_comanda) setTouched((n) => n + 1);
          return current;
        });
      },
      onReset: () => void reload(),
      onStatus: setStatus,
    });
  }, [api]);

  const openAt = async (id_mesa: number | null) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const created = await ok(
        api.POST('/api/v1/comandas', {
          params: { header: { 'Idempotency-Key': newKey() } },
          body: { id_mesa },
        }),
      );
      setOpen((list) => applyEvent(list, created, isOpen));
      setSelected(created.id_comanda);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const floor = floorOf(catalog.mesas, open);
  const mayOpen = can('comandas:write');
  const ticket = (c: ComandaSummary) => (
    <TicketChip
      key={c.id_comanda}
      comanda={c}
      selected={c.id_comanda === selected}
      onSelect={() => setSelected(c.id_comanda)}
    />
  );

  return (
    <div class="floor">
      <section class="sala" aria-label="Sala">
        <header class="sala-head">
          <h2>Sala</h2>
          <span class={`live ${status === 'live' ? 'on' : 'off'}`} role="status">
            {LIVE[status]}
          </span>
          <p class="figures">
            <span>
              <strong>{floor.ocupadas}</strong> de {floor.mesas.length} mesas ocupadas
            </span>
            <span>
              <strong>{floor.comandas}</strong>{' '}
              {floor.comandas === 1 ? 'comanda abierta' : 'comandas abiertas'}
            </span>
            <span>
              <strong>{soles(floor.total)}</strong> en sala
            </span>
          </p>
        </header>
        <ErrorBanner error={error ?? catalogError} onClose={() => setError(null)} />
        <ul class="mesas" aria-label="Mesas">
          {floor.mesas.map((t) => (
            <TableCard
              key={t.mesa.id_mesa}
              table={t}
              now={now}
              busy={busy}
              mayOpen={mayOpen}
              ticket={ticket}
              onOpen={() => void openAt(t.mesa.id_mesa)}
            />
          ))}
        </ul>
        <section class="llevar" aria-label="Para llevar">
          <header>
            <h3>Para llevar</h3>
            <span class="muted">
              {floor.llevar.length > 0
                ? `${plural(floor.llevar.length, 'pedido', 'pedidos')} · ${soles(
                    sum(floor.llevar),
                  )}`
                : 'ningún pedido'}
            </span>
            {mayOpen && (
              <button
                type="button"
                class="secondary small"
                disabled={busy}
                aria-label="Abrir comanda para llevar"
                onClick={() => void openAt(null)}
              >
                Nuevo pedido
              </button>
            )}
          </header>
          {floor.llevar.length > 0 && <div class="tickets">{floor.llevar.map(ticket)}</div>}
        </section>
      </section>
      <div class="side">
        {selected !== null ? (
          <ComandaPanel
            id={selected}
            catalog={catalog}
            openOthers={open}
            refreshToken={touched}
            onChanged={(c) => setOpen((list) => applyEvent(list, c, isOpen))}
          />
        ) : (
          <p class="panel placeholder muted">
            Elija una comanda de la sala, o abra una nueva en una mesa libre.
          </p>
        )}
      </div>
    </div>
  );
}

function TableCard({
  table,
  now,
  busy,
  mayOpen,
  ticket,
  onOpen,
}: {
  table: TableOnFloor;
  now: number;
  busy: boolean;
  mayOpen: boolean;
  ticket: (c: ComandaSummary) => JSX.Element;
  onOpen: () => void;
}) {
  const { mesa, comandas, total, desde } = table;
  const name = `Mesa ${mesa.numero}`;
  return (
    <li class={desde ? 'mesa ocupada' : 'mesa libre'} aria-label={name}>
      <header>
        <h3>{name}</h3>
        {desde ? (
          <span
            class={minutesSince(desde, now) >= LONG_OPEN ? 'since long' : 'since'}
            title={`Abierta desde las ${hora(desde)}`}
          >
            {duracion(desde, now)}
          </span>
        ) : (
          <span class="free">Libre</span>
        )}
      </header>
      {desde && (
        <p class="mesa-total">
          <span>{soles(total)}</span>
          {comandas.length > 1 && <span class="muted">{comandas.length} cuentas</span>}
        </p>
      )}
      {comandas.length > 0 && <div class="tickets">{comandas.map(ticket)}</div>}
      {mayOpen && (
        <button
          type="button"
          class={desde ? 'link add' : 'secondary small'}
          disabled={busy}
          aria-label={`Abrir comanda en mesa ${mesa.numero}`}
          onClick={onOpen}
        >
          {desde ? '+ Otra cuenta' : 'Abrir comanda'}
        </button>
      )}
    </li>
  );
}

function TicketChip({
  comanda,
  selected,
  onSelect,
}: {
  comanda: ComandaSummary;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      class={selected ? 'ticket selected' : 'ticket'}
      aria-pressed={selected}
      title={[comanda.mozo, plural(comanda.n_items, 'línea', 'líneas')].filter(Boolean).join(' · ')}
      onClick={onSelect}
    >
      <span class="ticket-num">#{comanda.numero_ticket}</span>
      <span class="ticket-total">{soles(comanda.total)}</span>
    </button>
  );
}
