import { useEffect, useState } from 'preact/hooks';
import { ErrorBanner } from '../components';
import { soles, when } from '../format';
import { stateOf } from '../rules';
import { useSession } from '../session';
import type { ComandaSummary, Mesa, Producto } from '../types';
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

/** The query string of the list: only the filters that are set, and the page. */
export function listQuery(filters: Filters, offset: number): string {
  const params = new URLSearchParams();
  if (filters.estado) params.set('estado', filters.estado);
  if (filters.id_mesa) params.set('id_mesa', filters.id_mesa);
  if (filters.id_usuario) params.set('id_usuario', filters.id_usuario);
  if (filters.desde) params.set('desde', filters.desde);
  if (filters.hasta) params.set('hasta', filters.hasta);
  if (filters.eliminada) params.set('eliminada', 'true');
  params.set('limit', String(PAGE));
  params.set('offset', String(offset));
  return params.toString();
}

/** History: the list with the API's filters and paging, and a comanda with its timeline. */
export function History() {
  const { api } = useSession();
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<ComandaSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [mesas, setMesas] = useState<Mesa[]>([]);
  const [productos, setProductos] = useState<Producto[]>([]);

  const load = async (f: Filters, from: number) => {
    setError(null);
    try {
      const answer = await api.call<ComandaSummary[]>('GET', `/comandas?${listQuery(f, from)}`);
      setRows(answer.body);
      setTotal(Number(answer.headers.get('X-Total-Count') ?? answer.body.length));
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    void load(filters, offset);
  }, [filters, offset]);

  useEffect(() => {
    Promise.all([
      api.get<Mesa[]>('/mesas'),
      api.get<Producto[]>('/productos?activo=true&limit=500'),
    ])
      .then(([m, p]) => {
        setMesas(m);
        setProductos(p);
      })
      .catch(setError);
  }, [api]);

  const set = (change: Partial<Filters>) => {
    setOffset(0);
    setFilters({ ...filters, ...change });
  };

  return (
    <div class="floor">
      <section class="panel" aria-label="Historial">
        <h2>Historial</h2>
        <form class="toolbar" aria-label="Filtros" onSubmit={(e) => e.preventDefault()}>
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
              {mesas.map((m) => (
                <option key={m.id_mesa} value={m.id_mesa}>
                  {m.numero}
                </option>
              ))}
            </select>
          </label>
          <label>
            Mozo (id)
            <input
              type="number"
              min={1}
              value={filters.id_usuario}
              onChange={(e) => set({ id_usuario: e.currentTarget.value })}
            />
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
          <label class="inline">
            <input
              type="checkbox"
              checked={filters.eliminada}
              onChange={(e) => set({ eliminada: e.currentTarget.checked })}
            />{' '}
            Anuladas
          </label>
        </form>
        <ErrorBanner error={error} onClose={() => setError(null)} />
        <p class="muted" role="status">
          {total === 1 ? '1 comanda' : `${total} comandas`}
        </p>
        <table class="table" aria-label="Comandas">
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
              <tr key={c.id_comanda}>
                <td>
                  <button type="button" class="link" onClick={() => setSelected(c.id_comanda)}>
                    #{c.numero_ticket}
                  </button>
                </td>
                <td>{when(c.fec_apertura)}</td>
                <td>{c.mesa ?? '—'}</td>
                <td>{c.mozo ?? '—'}</td>
                <td>
                  <span class={`pill ${stateOf(c)}`}>{stateOf(c)}</span>
                </td>
                <td class="num">{soles(c.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div class="pager">
          <button
            type="button"
            class="secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE))}
          >
            Anterior
          </button>
          <span class="muted">
            {total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE, total)} de {total}
          </span>
          <button
            type="button"
            class="secondary"
            disabled={offset + PAGE >= total}
            onClick={() => setOffset(offset + PAGE)}
          >
            Siguiente
          </button>
        </div>
      </section>
      <div>
        {selected !== null ? (
          <ComandaPanel
            id={selected}
            mesas={mesas}
            productos={productos}
            showTimeline
            onChanged={() => void load(filters, offset)}
          />
        ) : (
          <p class="panel muted">Elija una comanda para ver sus líneas y su historial.</p>
        )}
      </div>
    </div>
  );
}
