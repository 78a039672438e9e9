import { useEffect, useState } from 'preact/hooks';
import { isAbort, ok } from '../api';
import { ErrorBanner } from '../components';
import { todayIn } from '../dates';
import { plural, soles } from '../format';
import { useSession } from '../session';
import {
  cantidadLabel,
  mensajeError,
  periodoLabel,
  periodoQuery,
  porcentaje,
  PRESETS,
  type Consumo,
  type Preset,
  type Saldo,
} from './inventario-rules';

/**
 * Theoretical against actual usage per material over a period (since the last count by
 * default), and the period's sales and food cost: every figure the API's.
 */
export function ConsumoReport({ round }: { round: number }) {
  const { api, tenant } = useSession();
  const today = todayIn(tenant.timeZone);
  const [preset, setPreset] = useState<Preset>('ultimo_conteo');
  const [otro, setOtro] = useState({ desde: '', hasta: '' });
  const [report, setReport] = useState<{ key: string; data: Consumo } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const query = periodoQuery(preset, today, otro);
  const queryKey = JSON.stringify(query);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    ok(
      api.GET('/api/v1/inventario/consumo', {
        params: { query },
        signal: controller.signal,
      }),
    )
      .then((data) => setReport({ key: queryKey, data }))
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, queryKey, round]);

  const shown = report?.key === queryKey ? report.data : null;

  return (
    <section class="panel consumo" aria-labelledby="consumo-titulo">
      <div class="inv-section-head">
        <h3 id="consumo-titulo">Consumo y food cost</h3>
      </div>
      <div class="toolbar">
        <div class="segmented small" role="group" aria-label="Periodo">
          {PRESETS.map((p) => (
            <button
              key={p.preset}
              type="button"
              class={p.preset === preset ? 'seg active' : 'seg'}
              aria-pressed={p.preset === preset}
              onClick={() => setPreset(p.preset)}
            >
              {p.label}
            </button>
          ))}
        </div>
        {preset === 'otro' && (
          <>
            <label>
              Desde
              <input
                type="date"
                value={otro.desde}
                onChange={(e) => setOtro({ ...otro, desde: e.currentTarget.value })}
              />
            </label>
            <label>
              Hasta
              <input
                type="date"
                value={otro.hasta}
                onChange={(e) => setOtro({ ...otro, hasta: e.currentTarget.value })}
              />
            </label>
          </>
        )}
      </div>
      <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
      {!shown && !error && <p class="muted">Cargando…</p>}
      {shown && (
        <>
          <p class="meta" role="status">
            {periodoLabel(shown.desde, shown.hasta)} ·{' '}
            {plural(shown.comandas, 'comanda cerrada', 'comandas cerradas')}
          </p>
          <dl class="kpis" aria-label="Cifras del periodo">
            <div>
              <dt>Ventas netas</dt>
              <dd>{soles(shown.ventas_netas)}</dd>
              <span class="hint">sin IGV ni recargo</span>
            </div>
            <div>
              <dt>Costo teórico</dt>
              <dd>{soles(shown.costo_teorico)}</dd>
              <span class="hint">según las recetas</span>
            </div>
            <div>
              <dt>Costo real</dt>
              <dd>{soles(shown.costo_real)}</dd>
              <span class="hint">lo que salió del almacén</span>
            </div>
            <div>
              <dt>Food cost teórico</dt>
              <dd>{porcentaje(shown.food_cost_teorico_pct)}</dd>
              <span class="hint">de las ventas netas</span>
            </div>
            <div class="destacado">
              <dt>Food cost real</dt>
              <dd>{porcentaje(shown.food_cost_real_pct)}</dd>
              <span class="hint">de las ventas netas</span>
            </div>
          </dl>
          <table class="table consumo-tabla" aria-label="Consumo por material">
            <colgroup>
              <col />
              <col class="c-valor" />
              <col class="c-valor" />
              <col class="c-valor" />
              <col class="c-valor" />
              <col class="c-valor" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Material</th>
                <th scope="col" class="num" title="Lo que dicen las recetas de lo vendido">
                  Teórico
                </th>
                <th scope="col" class="num" title="Stock inicial + compras − stock final">
                  Real
                </th>
                <th scope="col" class="num">
                  Merma
                </th>
                <th scope="col" class="num" title="Ajustes de conteo">
                  Ajuste
                </th>
                <th scope="col" class="num" title="Real − teórico">
                  Varianza
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.materiales.map((m) => (
                <tr key={m.id_mat_prima} aria-label={m.nombre}>
                  <th scope="row">{m.nombre}</th>
                  <Pair valor={m.teorico_valor} cantidad={m.teorico_cantidad} unidad={m.unidad} />
                  <Pair valor={m.real_valor} cantidad={m.real_cantidad} unidad={m.unidad} />
                  <Pair valor={m.merma_valor} cantidad={m.merma_cantidad} unidad={m.unidad} />
                  <Pair valor={m.ajuste_valor} cantidad={m.ajuste_cantidad} unidad={m.unidad} />
                  <Pair
                    valor={m.varianza_valor}
                    cantidad={m.varianza_cantidad}
                    unidad={m.unidad}
                    varianza
                  />
                </tr>
              ))}
              {shown.materiales.length === 0 && (
                <tr>
                  <td colSpan={6} class="muted">
                    Ningún material se movió en este periodo.
                  </td>
                </tr>
              )}
            </tbody>
            {shown.materiales.length > 0 && (
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td class="num">{soles(shown.costo_teorico)}</td>
                  <td class="num">{soles(shown.costo_real)}</td>
                  <td colSpan={3} />
                </tr>
              </tfoot>
            )}
          </table>
          <p class="hint">
            Cada celda: el valor en soles y, debajo, la cantidad. Entre dos conteos el consumo real
            es exacto; en otro periodo es el del libro, corregido por los conteos aplicados en él.
          </p>
        </>
      )}
    </section>
  );
}

/** A value in soles over its quantity, in one cell of the report. */
function Pair({
  valor,
  cantidad,
  unidad,
  varianza = false,
}: {
  valor: number;
  cantidad: number;
  unidad: Saldo['unidad'];
  varianza?: boolean;
}) {
  const cls = varianza && valor > 0 ? 'num pair sobre' : 'num pair';
  return (
    <td class={cls}>
      <span class="pair-valor">{soles(valor)}</span>
      <span class="pair-cantidad">{cantidadLabel(cantidad, unidad)}</span>
    </td>
  );
}
