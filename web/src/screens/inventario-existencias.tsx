import { useState } from 'preact/hooks';
import { plural, soles } from '../format';
import { formatCentimos } from '../money';
import {
  cantidadLabel,
  costoUnitario,
  enAlerta,
  filtrarSaldos,
  unidadLabel,
  valorTotal,
  type Saldo,
} from './inventario-rules';

/** The balances: a filter by name, the alerts only, each material's figures, the total value. */
export function Existencias({
  saldos,
  onSelect,
  onRefresh,
}: {
  saldos: Saldo[] | null;
  onSelect: (id: number) => void;
  onRefresh: () => void;
}) {
  const [texto, setTexto] = useState('');
  const [soloAlertas, setSoloAlertas] = useState(false);
  if (saldos === null) return <p class="muted">Cargando…</p>;
  const shown = filtrarSaldos(saldos, texto, soloAlertas);
  const alertas = saldos.filter(enAlerta).length;
  const filtered = texto.trim() !== '' || soloAlertas;
  return (
    <section class="panel existencias" aria-labelledby="existencias-titulo">
      <div class="inv-section-head">
        <h3 id="existencias-titulo">Existencias</h3>
        <p class="figures inv-figures" role="status">
          <span>
            <strong>{plural(saldos.length, 'material', 'materiales')}</strong>
          </span>
          <span class={alertas > 0 ? 'alertas' : undefined}>
            <strong>{alertas}</strong> {alertas === 1 ? 'con alerta' : 'con alertas'}
          </span>
          <span>
            Valor del inventario{' '}
            <strong data-testid="valor-total">{formatCentimos(valorTotal(saldos))}</strong>
          </span>
        </p>
      </div>
      <div class="toolbar">
        <label class="grow">
          Buscar material
          <input
            type="search"
            value={texto}
            placeholder="Nombre del material"
            onInput={(e) => setTexto(e.currentTarget.value)}
          />
        </label>
        <label class="inline check">
          <input
            type="checkbox"
            checked={soloAlertas}
            onChange={(e) => setSoloAlertas(e.currentTarget.checked)}
          />
          <span>Solo alertas</span>
        </label>
        <button type="button" class="secondary push" onClick={onRefresh}>
          Actualizar
        </button>
      </div>
      <table class="table saldos" aria-label="Existencias">
        <colgroup>
          <col />
          <col class="c-unidad" />
          <col class="c-cantidad" />
          <col class="c-minimo" />
          <col class="c-costo" />
          <col class="c-valor" />
          <col class="c-alertas" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Material</th>
            <th scope="col">Unidad</th>
            <th scope="col" class="num">
              Cantidad
            </th>
            <th scope="col" class="num">
              Mínimo
            </th>
            <th scope="col" class="num">
              Costo prom.
            </th>
            <th scope="col" class="num">
              Valor
            </th>
            <th scope="col">Alertas</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((s) => (
            <tr
              key={s.id_mat_prima}
              aria-label={s.nombre}
              class={[enAlerta(s) ? 'alerta' : '', s.activo ? '' : 'inactivo'].join(' ').trim()}
            >
              <th scope="row" class="material">
                <button
                  type="button"
                  class="link"
                  title={`Ver los movimientos de ${s.nombre}`}
                  onClick={() => onSelect(s.id_mat_prima)}
                >
                  {s.nombre}
                </button>
                {!s.activo && <span class="muted small"> · inactivo</span>}
              </th>
              <td>{unidadLabel(s.unidad)}</td>
              <td class={s.negativo ? 'num negativo' : 'num'}>{cantidadLabel(s.cantidad)}</td>
              <td class="num muted">
                {s.stock_minimo === null ? '—' : cantidadLabel(s.stock_minimo)}
              </td>
              <td class="num">{costoUnitario(s.costo_promedio)}</td>
              <td class="num">{soles(s.valor)}</td>
              <td>
                <Badges saldo={s} />
              </td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={7} class="muted">
                {filtered
                  ? 'Ningún material con estos filtros.'
                  : 'Ningún material registrado todavía.'}
              </td>
            </tr>
          )}
        </tbody>
        {shown.length > 0 && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                {filtered
                  ? `Valor de los ${plural(shown.length, 'material mostrado', 'materiales mostrados')}`
                  : 'Valor del inventario'}
              </th>
              <td class="num">{formatCentimos(valorTotal(shown))}</td>
              <td />
            </tr>
          </tfoot>
        )}
      </table>
      <p class="hint">
        Elija un material para ver sus movimientos. Los valores son los del libro de inventario, a
        costo promedio.
      </p>
    </section>
  );
}

/** The flags of a balance as badges: below zero, below its minimum. */
export function Badges({ saldo }: { saldo: Pick<Saldo, 'negativo' | 'bajo_minimo'> }) {
  if (!enAlerta(saldo)) return <span class="muted">—</span>;
  return (
    <span class="badges">
      {saldo.negativo && (
        <span class="badge negativo" title="Se usó más de lo que se registró como comprado">
          Negativo
        </span>
      )}
      {saldo.bajo_minimo && (
        <span class="badge bajo-minimo" title="Por debajo del stock mínimo">
          Bajo mínimo
        </span>
      )}
    </span>
  );
}
