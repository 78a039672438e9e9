import { useEffect, useState } from 'preact/hooks';
import { answer, type ComandaSummary } from '../api';
import { useCatalog } from '../catalog';
import { ErrorBanner, Pager } from '../components';
import { ESTADO, estadoDe } from '../floor-state';
import { plural, soles, when } from '../format';
import { useSession } from '../session';
import { ComandaPanel } from './comanda-panel';

const PAGE = 25;

interface Filters {
  estado: '' | 'abierta' | 'cerrada';
  id_mesa: string;
  id_usuario: string;
  desde: string;
  hasta: string;
  eliminada: boolean;
}

const EMPTY: Filters = {
  estado: '',
  id_mesa: '',
  id_usuario: '',
  desde: '',
  hasta: '',
  eliminada: false,
};

/** History: the list with the API's filters and paging, and a comanda with its timeline. */
export function History() {
  const { api } = useSession();
  const { catalog, error: catalogError } = useCatalog(api);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<ComandaSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<number | null>(null);

  const load = async (f: Filters, from: number) => {
    setError(null);
    try {
      const { data, response } = await answer(
        api.GET('/api/v1/comandas', {
          params: {
            query: {
              estado: f.estado || undefined,
              id_mesa: f.id_mesa ? Number(f.id_mesa) : undefined,
              id_usuario: f.id_usuario ? Number(f.id_usuario) : undefined,
              desde: f.desde || undefined,
              hasta: f.hasta || undefined,
              eliminada: f.eliminada || undefined,
              limit: PAGE,
              offset: from,
            },
          },
        }),
      );
      setRows(data);
      setTotal(Number(response.headers.get('X-Total-Count') ?? data.length));
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    void load(filters, offset);
  }, [filters, offset, api]);

  const set = (change: Partial<Filters>) => {
    setOffset(0);
    setFilters({ ...filters, ...change });
  };
  const filtered = JSON.stringify(filters) !== JSON.stringify(EMPTY);

  return (
    <div class="floor history">
      <section class="panel" aria-label="Historial">
        <h2>Historial</h2>
        <form class="filters" aria-label="Filtros" onSubmit={(e) => e.preventDefault()}>
          <label>
            Estado
            <select
              value={filters.estado}
              onChange={(e) => set({ estado: e.currentTarget.value as Filters['estado'] })}
            >
              <option value="">Todas</option>
              <option value="abierta">Abiertas</option>
              <option value="cerrada">Cerradas</option>
            </select>
          </label>
          <label>
            Mesa
            <select
              value={filters.id_mesa}
              onChange={(e) => set({ id_mesa: e.currentTarget.value })}
            >
              <option value="">Todas</option>
              {catalog.mesas.map((m) => (
                <option key={m.id_mesa} value={m.id_mesa}>
                  Mesa {m.numero}
                </option>
              ))}
            </select>
          </label>
          <label>
            Mozo
            <select
              value={filters.id_usuario}
              onChange={(e) => set({ id_usuario: e.currentTarget.value })}
            >
              <option value="">Todos</option>
              {catalog.mozos.map((m) => (
                <option key={m.id_usuario} value={m.id_usuario}>
                  {m.activo ? m.nombre : `${m.nombre} (ya no trabaja)`}
                </option>
              ))}
            </select>
          </label>
          <label>
            Desde
            <input
              type="date"
              value={filters.desde}
              onChange={(e) => set({ desde: e.currentTarget.value })}
            />
          </label>
          <label>
            Hasta
            <input
              type="date"
              value={filters.hasta}
              onChange={(e) => set({ hasta: e.currentTarget.value })}
            />
          </label>
          <label class="inline check">
            <input
              type="checkbox"
              checked={filters.eliminada}
              onChange={(e) => set({ eliminada: e.currentTarget.checked })}
            />
            <span>Solo anuladas</span>
          </label>
        </form>
        <ErrorBanner error={error ?? catalogError} onClose={() => setError(null)} />
        <div class="list-head">
          <p class="muted" role="status">
            {plural(total, 'comanda', 'comandas')}
          </p>
          {filtered && (
            <button type="button" class="link" onClick={() => set(EMPTY)}>
              Quitar filtros
            </button>
          )}
        </div>
        <table class="table history-list" aria-label="Comandas">
          <colgroup>
            <col class="c-ticket" />
            <col class="c-when" />
            <col class="c-mesa" />
            <col class="c-mozo" />
            <col class="c-estado" />
            <col class="c-total" />
          </colgroup>
          <thead>
            <tr>
              <th>Ticket</th>
              <th>Apertura</th>
              <th>Mesa</th>
              <th>Mozo</th>
              <th>Estado</th>
              <th class="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id_comanda} class={c.id_comanda === selected ? 'selected' : undefined}>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-pressed={c.id_comanda === selected}
                    onClick={() => setSelected(c.id_comanda)}
                  >
                    #{c.numero_ticket}
                  </button>
                </td>
                <td class="nowrap">{when(c.fec_apertura)}</td>
                <td class="nowrap">{c.mesa ?? 'Llevar'}</td>
                <td class="ellipsis" title={c.mozo ?? undefined}>
                  {c.mozo ?? '—'}
                </td>
                <td>
                  <span class={`pill ${estadoDe(c)}`}>{ESTADO[estadoDe(c)]}</span>
                </td>
                <td class="num">{soles(c.total)}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  Ninguna comanda con estos filtros.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <Pager offset={offset} size={PAGE} total={total} onOffset={setOffset} />
      </section>
      <div class="side">
        {selected !== null ? (
          <ComandaPanel
            id={selected}
            catalog={catalog}
            showTimeline
            onChanged={() => void load(filters, offset)}
          />
        ) : (
          <p class="panel placeholder muted">
            Elija una comanda para ver sus líneas y su historial.
          </p>
        )}
      </div>
    </div>
  );
}
