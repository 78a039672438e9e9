import type { ChartConfiguration, ChartType, TooltipItem } from 'chart.js';
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { ChartCanvas, COLORES } from '../chart';
import { ErrorBanner } from '../components';
import { ejeLabel, valorLabel, type Unidad } from './reportes-rules';

/** A series of a chart: its name, one figure per label, how they read, its colour. */
interface Serie {
  nombre: string;
  valores: (number | null)[];
  unidad: Unidad;
  color: string;
}

/**
 * What a chart draws and its table lists, built once from the API's rows: the labels as people
 * read them (the table, the tooltips), as the axis shows them, and the series.
 */
export interface Datos {
  columna: string;
  etiquetas: string[];
  ejes: (string | string[])[];
  series: Serie[];
  /** The last point is a day or week still going on: its stretch of the line is dashed. */
  ultimoEnCurso?: boolean;
}

/** The state of one report: its answer for the range asked, or why there is none. */
export interface Carga<T> {
  data: T | null;
  error: unknown;
}

/** The table of a chart's figures: the very labels and series the chart draws. */
export function TablaDatos({ titulo, datos }: { titulo: string; datos: Datos }) {
  return (
    <details class="rep-datos">
      <summary>Ver datos</summary>
      <div class="rep-tabla">
        <table class="table" aria-label={`Datos: ${titulo}`}>
          <thead>
            <tr>
              <th scope="col">{datos.columna}</th>
              {datos.series.map((s) => (
                <th key={s.nombre} scope="col" class="num">
                  {s.nombre}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {datos.etiquetas.map((etiqueta, i) => (
              <tr key={`${i}-${etiqueta}`}>
                <th scope="row">{etiqueta}</th>
                {datos.series.map((s) => (
                  <td key={s.nombre} class="num">
                    {valorLabel(s.valores[i], s.unidad)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/**
 * A chart's card: its title, the CSV of its route, then the chart and its table, or why there
 * is none (loading, the API's error, nothing in the period).
 */
export function ChartCard<T>({
  id,
  titulo,
  nota,
  carga,
  vacio,
  onCsv,
  wide,
  children,
}: {
  id: string;
  titulo: string;
  nota?: ComponentChildren;
  carga: Carga<T>;
  /** What the card says instead of an empty chart, or null when there is something to draw. */
  vacio: (data: T) => string | null;
  onCsv: () => Promise<void>;
  wide?: boolean;
  children: (data: T) => ComponentChildren;
}) {
  const [csvError, setCsvError] = useState<unknown>(null);
  const [bajando, setBajando] = useState(false);
  const empty = carga.data === null ? null : vacio(carga.data);
  return (
    <figure
      class={wide ? 'panel rep-card wide' : 'panel rep-card'}
      aria-labelledby={`rep-${id}`}
      data-chart={id}
    >
      <figcaption class="rep-card-head">
        <h3 id={`rep-${id}`}>{titulo}</h3>
        <button
          type="button"
          class="secondary small"
          aria-label={`Descargar CSV: ${titulo}`}
          title={`Descargar ${titulo} como CSV`}
          disabled={bajando}
          onClick={() => {
            setBajando(true);
            setCsvError(null);
            onCsv()
              .catch(setCsvError)
              .finally(() => setBajando(false));
          }}
        >
          CSV
        </button>
      </figcaption>
      {nota && <p class="hint rep-nota">{nota}</p>}
      <ErrorBanner error={csvError} onClose={() => setCsvError(null)} />
      <ErrorBanner error={carga.error} />
      {carga.data === null && !carga.error && <p class="muted rep-cargando">Cargando…</p>}
      {empty && <p class="rep-vacio">{empty}</p>}
      {carga.data !== null && !empty && children(carga.data)}
    </figure>
  );
}

export const SIN_VENTAS = 'Sin ventas en este periodo';

/** The tooltip of a point: its whole label and each series' figure as the table writes it. */
function tooltip<T extends ChartType>(datos: Datos) {
  return {
    callbacks: {
      title: (items: TooltipItem<T>[]) => datos.etiquetas[items[0]?.dataIndex ?? 0] ?? '',
      label: (item: TooltipItem<T>) => {
        const serie = datos.series[item.datasetIndex];
        return `${serie.nombre}: ${valorLabel(serie.valores[item.dataIndex], serie.unidad)}`;
      },
    },
  };
}

/** A line or bar chart of `datos`: the value axis written in its unit. */
function configDe(
  datos: Datos,
  tipo: 'line' | 'bar',
  horizontal = false,
): ChartConfiguration<'line' | 'bar'> {
  const unidad = datos.series[0]?.unidad ?? 'soles';
  const valueAxis = {
    beginAtZero: true,
    // a few round figures, level: the table has the exact ones
    ticks: {
      maxTicksLimit: 6,
      maxRotation: 0,
      callback: (value: number | string) => ejeLabel(Number(value), unidad),
    },
  };
  // level labels: every one up to a year of months, else as many as fit (the table has them all)
  const categoryAxis = {
    grid: { display: false },
    ticks: {
      autoSkip: !horizontal && datos.etiquetas.length > 13,
      autoSkipPadding: 10,
      maxRotation: 0,
    },
  };
  return {
    type: tipo,
    data: {
      labels: datos.ejes,
      datasets: datos.series.map((s) => ({
        label: s.nombre,
        data: s.valores,
        borderColor: s.color,
        backgroundColor: tipo === 'line' ? COLORES.verdeClaro : s.color,
        pointRadius: datos.etiquetas.length > 40 ? 0 : 3,
        pointHoverRadius: 5,
        borderWidth: tipo === 'line' ? 2 : 0,
        fill: tipo === 'line',
        // smooth without overshooting: a day without sales stays on zero, never below it
        cubicInterpolationMode: 'monotone' as const,
        maxBarThickness: 28,
        spanGaps: false,
        segment: {
          borderDash: (ctx: { p1DataIndex: number }) =>
            datos.ultimoEnCurso && ctx.p1DataIndex === datos.etiquetas.length - 1
              ? [6, 4]
              : undefined,
        },
      })),
    },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      interaction: { mode: 'index', intersect: false },
      scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
      plugins: {
        legend: { display: datos.series.length > 1, position: 'bottom' },
        tooltip: tooltip<'line' | 'bar'>(datos),
      },
    },
  };
}

/** A chart of `datos` and its table. */
export function Grafico({
  titulo,
  datos,
  tipo,
  horizontal,
  height,
}: {
  titulo: string;
  datos: Datos;
  tipo: 'line' | 'bar';
  horizontal?: boolean;
  height: number;
}) {
  const config = useMemo(() => configDe(datos, tipo, horizontal), [datos, tipo, horizontal]);
  return (
    <>
      <ChartCanvas config={config} label={titulo} height={height} />
      <TablaDatos titulo={titulo} datos={datos} />
    </>
  );
}
