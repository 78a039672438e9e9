import { useEffect, useState } from 'preact/hooks';
import { answer, isAbort } from '../api';
import { ErrorBanner, Pager } from '../components';
import { plural, soles, when } from '../format';
import { useSession } from '../session';
import {
  cantidadLabel,
  cantidadSigned,
  costoUnitario,
  documentoLabel,
  tipoHint,
  tipoLabel,
  TIPOS,
  unidadLabel,
  type Movimiento,
  type Saldo,
  type Tipo,
} from './inventario-rules';
import { Badges } from './inventario-existencias';

/** Movements per page of a material's ledger. */
const MOVIMIENTOS_PAGE = 20;
interface MovFilters {
  tipo: Tipo | '';
  desde: string;
  hasta: string;
}

const NO_FILTERS: MovFilters = { tipo: '', desde: '', hasta: '' };

/** A material's ledger, newest first, paged, filtered by tipo and dates. */
export function Movimientos({
  saldo,
  round,
  onBack,
}: {
  saldo: Saldo;
  round: number;
  onBack: () => void;
}) {
  const { api } = useSession();
  const [filters, setFilters] = useState<MovFilters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  /** The page shown, with the offset it was read at (the pager says what is on screen). */
  const [page, setPage] = useState<{ items: Movimiento[]; total: number; offset: number } | null>(
    null,
  );
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    answer(
      api.GET('/api/v1/inventario/movimientos', {
        params: {
          query: {
            id_mat_prima: saldo.id_mat_prima,
            tipo: filters.tipo || undefined,
            desde: filters.desde || undefined,
            hasta: filters.hasta || undefined,
            limit: MOVIMIENTOS_PAGE,
            offset,
          },
        },
        signal: controller.signal,
      }),
    )
      .then(({ data, response }) =>
        setPage({
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
          offset,
        }),
      )
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, saldo.id_mat_prima, filters, offset, round]);

  const set = (change: Partial<MovFilters>) => {
    setOffset(0);
    setFilters({ ...filters, ...change });
  };
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);
  const title = `Movimientos de ${saldo.nombre}`;

  return (
    <section class="panel movimientos-panel" aria-label={title}>
      <div class="mov-head">
        <button type="button" class="secondary small" onClick={onBack}>
          ← Existencias
        </button>
        <h3>{title}</h3>
      </div>
      <dl class="mov-saldo" aria-label={`Saldo de ${saldo.nombre}`}>
        <div>
          <dt>Cantidad</dt>
          <dd class={saldo.negativo ? 'negativo' : undefined}>
            {cantidadLabel(saldo.cantidad, saldo.unidad)}
          </dd>
        </div>
        <div>
          <dt>Costo promedio</dt>
          <dd>
            {costoUnitario(saldo.costo_promedio)} / {unidadLabel(saldo.unidad)}
          </dd>
        </div>
        <div>
          <dt>Valor</dt>
          <dd>{soles(saldo.valor)}</dd>
        </div>
        <div>
          <dt>Mínimo</dt>
          <dd>
            {saldo.stock_minimo === null ? '—' : cantidadLabel(saldo.stock_minimo, saldo.unidad)}
          </dd>
        </div>
        <div>
          <dt>Alertas</dt>
          <dd>
            <Badges saldo={saldo} />
          </dd>
        </div>
      </dl>
      <form
        class="toolbar"
        aria-label="Filtros de movimientos"
        onSubmit={(e) => e.preventDefault()}
      >
        <label>
          Tipo
          <select
            value={filters.tipo}
            onChange={(e) => set({ tipo: e.currentTarget.value as Tipo | '' })}
          >
            <option value="">Todos</option>
            {TIPOS.map((t) => (
              <option key={t.tipo} value={t.tipo}>
                {t.label}
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
        {filtered && (
          <button type="button" class="link" onClick={() => set(NO_FILTERS)}>
            Quitar filtros
          </button>
        )}
      </form>
      <ErrorBanner error={error} onClose={() => setError(null)} />
      {page === null && !error && <p class="muted">Cargando…</p>}
      {page && (
        <>
          <p class="muted" role="status">
            {plural(page.total, 'movimiento', 'movimientos')}
          </p>
          <table class="table movs" aria-label="Movimientos">
            <colgroup>
              <col class="c-fecha" />
              <col />
              <col class="c-cantidad-u" />
              <col class="c-costo" />
              <col class="c-valor" />
              <col class="c-cantidad-u" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Movimiento</th>
                <th scope="col" class="num">
                  Cantidad ({unidadLabel(saldo.unidad)})
                </th>
                <th scope="col" class="num">
                  Costo unit.
                </th>
                <th scope="col" class="num">
                  Valor
                </th>
                <th scope="col" class="num">
                  Saldo ({unidadLabel(saldo.unidad)})
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((m) => (
                <tr key={m.id_movimiento}>
                  <td class="nowrap">{when(m.fec)}</td>
                  <td class="mov-que">
                    <span class={`pill tipo ${m.tipo}`} title={tipoHint(m.tipo)}>
                      {tipoLabel(m.tipo)}
                    </span>{' '}
                    {(m.motivo || m.usuario || documentoLabel(m)) && (
                      <span class="muted small mov-detalle">
                        {[documentoLabel(m), m.motivo, m.usuario].filter(Boolean).join(' · ')}
                      </span>
                    )}
                  </td>
                  <td class={m.cantidad < 0 ? 'num sale' : 'num entra'}>
                    {cantidadSigned(m.cantidad)}
                  </td>
                  <td class="num">{costoUnitario(m.costo_unitario)}</td>
                  <td class="num">{soles(m.valor)}</td>
                  <td class="num">{cantidadLabel(m.saldo_cantidad)}</td>
                </tr>
              ))}
              {page.items.length === 0 && (
                <tr>
                  <td colSpan={6} class="muted">
                    {filtered
                      ? 'Ningún movimiento con estos filtros.'
                      : 'Este material no tiene movimientos todavía.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
          {page.total > MOVIMIENTOS_PAGE && (
            <Pager
              offset={page.offset}
              size={MOVIMIENTOS_PAGE}
              total={page.total}
              onOffset={setOffset}
            />
          )}
        </>
      )}
    </section>
  );
}
