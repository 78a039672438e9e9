import { useEffect, useState } from 'preact/hooks';
import { newKey } from '../api';
import { ErrorBanner } from '../components';
import { soles } from '../format';
import { followComandas, type LiveStatus } from '../live';
import { applyEvent, byTable } from '../rules';
import { useSession } from '../session';
import type { ComandaDetail, ComandaSummary, Mesa, Producto } from '../types';
import { ComandaPanel } from './comanda-panel';

const isOpen = (c: ComandaSummary) => c.estado === 'abierta' && !c.eliminada;

/**
 * The floor: the open comandas grouped by table, kept current by the live stream (which
 * reconnects and resumes by itself), and the selected one with its actions.
 */
export function Floor() {
  const { api, can } = useSession();
  const [open, setOpen] = useState<ComandaSummary[]>([]);
  const [mesas, setMesas] = useState<Mesa[]>([]);
  const [productos, setProductos] = useState<Producto[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [touched, setTouched] = useState(0);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const reload = async () => {
    try {
      const [list, tables, menu] = await Promise.all([
        api.get<ComandaSummary[]>('/comandas?estado=abierta&limit=500'),
        api.get<Mesa[]>('/mesas'),
        api.get<Producto[]>('/productos?activo=true&limit=500'),
      ]);
      setOpen(list);
      setMesas(tables);
      setProductos(menu);
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

  const openAt = async (mesa: number | null) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const created = await api.post<ComandaDetail>(
        '/comandas',
        { id_mesa: mesa },
        { idempotencyKey: newKey() },
      );
      setOpen((list) => applyEvent(list, created, isOpen));
      setSelected(created.id_comanda);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const groups = byTable(open);
  const numbers = new Map(mesas.map((m) => [m.id_mesa, m.numero]));
  const tables: (Mesa | null)[] = [...mesas, ...(groups.has(null) ? [null] : [])];

  return (
    <div class="floor">
      <section aria-label="Sala">
        <div class="toolbar">
          <h2>Sala</h2>
          <span class={`live ${status === 'live' ? 'on' : 'off'}`} role="status">
            {status === 'live'
              ? 'en vivo'
              : status === 'connecting'
                ? 'conectando…'
                : 'reconectando…'}
          </span>
        </div>
        <ErrorBanner error={error} onClose={() => setError(null)} />
        <div class="mesas">
          {tables.map((m) => {
            const key = m?.id_mesa ?? null;
            const tickets = groups.get(key) ?? [];
            return (
              <div class={tickets.length > 0 ? 'mesa ocupada' : 'mesa'} key={key ?? 'llevar'}>
                <h3>
                  <span>{m ? `Mesa ${m.numero}` : 'Para llevar'}</span>
                  <span class="muted">
                    {tickets.length > 0 ? soles(tickets.reduce((s, c) => s + c.total, 0)) : ''}
                  </span>
                </h3>
                {tickets.map((c) => (
                  <button
                    type="button"
                    key={c.id_comanda}
                    class={c.id_comanda === selected ? 'ticket selected' : 'ticket'}
                    aria-pressed={c.id_comanda === selected}
                    onClick={() => setSelected(c.id_comanda)}
                  >
                    <span>#{c.numero_ticket}</span>
                    <span>
                      {c.n_items} · {soles(c.total)}
                    </span>
                  </button>
                ))}
                {can('comandas:write') && (
                  <button
                    type="button"
                    class="secondary"
                    disabled={busy}
                    aria-label={
                      m ? `Abrir comanda en mesa ${m.numero}` : 'Abrir comanda para llevar'
                    }
                    onClick={() => void openAt(key)}
                  >
                    Abrir comanda
                  </button>
                )}
              </div>
            );
          })}
        </div>
        {open.some((c) => c.id_mesa !== null && !numbers.has(c.id_mesa)) && (
          <p class="muted">Hay comandas en mesas que ya no existen.</p>
        )}
      </section>
      <div>
        {selected !== null ? (
          <ComandaPanel
            id={selected}
            mesas={mesas}
            productos={productos}
            openOthers={open}
            refreshToken={touched}
            onChanged={(detail) => setOpen((list) => applyEvent(list, detail, isOpen))}
          />
        ) : (
          <p class="panel muted">Elija una comanda de la sala, o abra una nueva en una mesa.</p>
        )}
      </div>
    </div>
  );
}
