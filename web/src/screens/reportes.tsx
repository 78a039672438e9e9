import type { ChartConfiguration, ChartType, TooltipItem } from 'chart.js';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { isAbort, ok } from '../api';
import { ChartCanvas, COLORES } from '../chart';
import { ErrorBanner } from '../components';
import { todayIn } from '../dates';
import { plural, soles } from '../format';
import { useSession } from '../session';
import { personName } from './attendance-format';
import {
  agrupacionTiempo,
  archivoCsv,
  celdaLabel,
  celdaSemanal,
  DIAS_SEMANA,
  ejeLabel,
  ejeTiempo,
  enCurso,
  etiquetaCorta,
  hayVentas,
  horasVisibles,
  intensidad,
  presetDe,
  PRESETS,
  problemaDeRango,
  rangoDe,
  TITULO_TIEMPO,
  topPorVentaBruta,
  valorLabel,
  type Preset,
  type Rango,
  type ReporteAsistencia,
  type ReporteGastos,
  type ReporteVentas,
  type Unidad,
} from './reportes-rules';

type Agrupar = ReporteVentas['agrupar'];

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
interface Datos {
  columna: string;
  etiquetas: string[];
  ejes: (string | string[])[];
  series: Serie[];
  /** The last point is a day or week still going on: its stretch of the line is dashed. */
  ultimoEnCurso?: boolean;
}

/** The state of one report: its answer for the range asked, or why there is none. */
interface Carga<T> {
  data: T | null;
  error: unknown;
}

/**
 * One report of the range: loaded again when the range changes (or the user, "Cambiar de
 * usuario"), dropped (and its request aborted) when it changes before the answer.
 */
function useReporte<T>(load: ((signal: AbortSignal) => Promise<T>) | null, key: string): Carga<T> {
  const { api } = useSession();
  const [state, setState] = useState<{ key: string } & Carga<T>>({
    key: '',
    data: null,
    error: null,
  });
  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    load(controller.signal)
      .then((data) => setState({ key, data, error: null }))
      .catch((error: unknown) => !isAbort(error) && setState({ key, data: null, error }));
    return () => controller.abort();
  }, [key, api]);
  return state.key === key ? state : { data: null, error: null };
}

/**
 * The JSON answer of a report route: the document gives each both a JSON and a CSV answer, so
 * the client types its body as either; without `Accept: text/csv` it is the JSON one.
 */
function json<T extends object>(data: T | string): T {
  if (typeof data === 'string') throw new Error('El servicio respondió un CSV en lugar de JSON');
  return data;
}

/** Saves a file the page received (a CSV with its BOM, byte for byte) under `nombre`. */
function guardar(blob: Blob, nombre: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = nombre;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has started from the URL; keep it a little for slow disks
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Reportes (docs/reportes.md): a period (presets in the tenant's calendar or two dates) and the
 * charts of its sales, expenses and hours worked, each with its figures as a table and a CSV of
 * the same route. Every figure is the API's.
 */
export function Reportes() {
  const { api, tenant } = useSession();
  const today = todayIn(tenant.timeZone);
  const [rango, setRango] = useState<Rango>(() => rangoDe('mes', today));
  const [elegido, setElegido] = useState<Preset | null>('mes');
  const [fechas, setFechas] = useState<Rango>(rango);
  const problema = problemaDeRango(fechas);
  const preset = presetDe(rango, today, elegido);
  const cobros = Boolean(tenant.features?.cobros);
  const inventario = Boolean(tenant.features?.inventario);
  const key = `${rango.desde}|${rango.hasta}`;
  const tiempo = agrupacionTiempo(rango);

  const ventas = (agrupar: Agrupar) => (signal: AbortSignal) =>
    ok(
      api.GET('/api/v1/reportes/ventas', {
        params: { query: { ...rango, agrupar } },
        signal,
      }),
    ).then(json);

  const ventasCsv = (agrupar: Agrupar) => async () =>
    guardar(
      await ok(
        api.GET('/api/v1/reportes/ventas', {
          params: { query: { ...rango, agrupar } },
          headers: { Accept: 'text/csv' },
          parseAs: 'blob',
        }),
      ),
      archivoCsv(`ventas-${agrupar}`, rango),
    );

  const porTiempo = useReporte(ventas(tiempo), `${key}|${tiempo}`);
  const porSemana = useReporte(ventas('dia_semana_hora'), `${key}|dia_semana_hora`);
  const porProducto = useReporte(ventas('producto'), `${key}|producto`);
  const porMozo = useReporte(ventas('mozo'), `${key}|mozo`);
  const porMetodo = useReporte(cobros ? ventas('metodo') : null, `${key}|metodo`);
  const porMes = useReporte(inventario ? ventas('mes') : null, `${key}|mes`);
  const gastos = useReporte(
    (signal) =>
      ok(api.GET('/api/v1/reportes/gastos', { params: { query: rango }, signal })).then(json),
    `${key}|gastos`,
  );
  const asistencia = useReporte(
    (signal) =>
      ok(api.GET('/api/v1/reportes/asistencia', { params: { query: rango }, signal })).then(json),
    `${key}|asistencia`,
  );

  const gastosCsv = async () =>
    guardar(
      await ok(
        api.GET('/api/v1/reportes/gastos', {
          params: { query: rango },
          headers: { Accept: 'text/csv' },
          parseAs: 'blob',
        }),
      ),
      archivoCsv('gastos', rango),
    );
  const asistenciaCsv = async () =>
    guardar(
      await ok(
        api.GET('/api/v1/reportes/asistencia', {
          params: { query: rango },
          headers: { Accept: 'text/csv' },
          parseAs: 'blob',
        }),
      ),
      archivoCsv('asistencia', rango),
    );

  const elegir = (next: Rango) => {
    setRango(next);
    setFechas(next);
  };

  return (
    <div class="reportes">
      <header class="rep-head">
        <h2>Reportes</h2>
        <div class="segmented" role="group" aria-label="Periodo">
          {PRESETS.map((p) => (
            <button
              key={p.preset}
              type="button"
              class={p.preset === preset ? 'seg active' : 'seg'}
              aria-pressed={p.preset === preset}
              onClick={() => {
                setElegido(p.preset);
                elegir(rangoDe(p.preset, today));
              }}
            >
              {p.label}
            </button>
          ))}
        </div>
        <form
          class="rep-fechas"
          onSubmit={(e) => {
            e.preventDefault();
            if (!problema) setRango(fechas);
          }}
        >
          <label>
            Desde
            <input
              type="date"
              value={fechas.desde}
              max={today}
              onChange={(e) => setFechas({ ...fechas, desde: e.currentTarget.value })}
            />
          </label>
          <label>
            Hasta
            <input
              type="date"
              value={fechas.hasta}
              onChange={(e) => setFechas({ ...fechas, hasta: e.currentTarget.value })}
            />
          </label>
          <button
            type="submit"
            class="secondary"
            disabled={
              problema !== null || (fechas.desde === rango.desde && fechas.hasta === rango.hasta)
            }
          >
            Ver
          </button>
        </form>
      </header>
      {problema && <p class="field-error">{problema}</p>}

      <Resumen carga={porTiempo} />

      <div class="rep-grid">
        <TiempoCard
          carga={porTiempo}
          agrupar={tiempo}
          onCsv={ventasCsv(tiempo)}
          titulo={TITULO_TIEMPO[tiempo]}
        />
        <SemanaCard carga={porSemana} onCsv={ventasCsv('dia_semana_hora')} />
        <BarrasVentasCard
          id="productos"
          titulo="Productos más vendidos"
          nota="Los 10 de mayor venta bruta"
          columna="Producto"
          carga={porProducto}
          filas={(r) => topPorVentaBruta(r.filas)}
          onCsv={ventasCsv('producto')}
        />
        {/* the waiters and the methods, short lists, share the column beside the products */}
        <div class="rep-stack">
          <BarrasVentasCard
            id="mozos"
            titulo="Ventas por mozo"
            columna="Mozo"
            carga={porMozo}
            filas={(r) => r.filas.filter((f) => f.comandas > 0)}
            onCsv={ventasCsv('mozo')}
          />
          {cobros && (
            <BarrasVentasCard
              id="metodos"
              titulo="Ventas por método de pago"
              nota="Lo cobrado con cada método, sin propinas"
              columna="Método"
              carga={porMetodo}
              filas={(r) => r.filas.filter((f) => f.comandas > 0)}
              onCsv={ventasCsv('metodo')}
            />
          )}
        </div>
        {inventario && <FoodCostCard carga={porMes} onCsv={ventasCsv('mes')} />}
        <GastosCard carga={gastos} onCsv={gastosCsv} />
        {/* the third of a row of its own with the food cost: the whole width */}
        <AsistenciaCard carga={asistencia} onCsv={asistenciaCsv} wide={inventario} />
      </div>
    </div>
  );
}

/** The period's figures above the charts: the totals of the sales report. */
function Resumen({ carga }: { carga: Carga<ReporteVentas> }) {
  const r = carga.data;
  if (!r) return null;
  const t = r.totales;
  return (
    <p class="figures rep-figures" role="status" aria-label="Totales del periodo">
      <span>
        <strong>{plural(t.comandas, 'comanda', 'comandas')}</strong>
      </span>
      <span>
        Venta bruta <strong>{soles(t.venta_bruta)}</strong>
      </span>
      <span>
        Descuentos <strong>{soles(t.descuentos)}</strong>
      </span>
      <span>
        Venta neta <strong>{soles(t.venta_neta)}</strong>
      </span>
      <span>
        Ticket promedio{' '}
        <strong>{t.ticket_promedio === null ? '—' : soles(t.ticket_promedio)}</strong>
      </span>
    </p>
  );
}

/** The table of a chart's figures: the very labels and series the chart draws. */
function TablaDatos({ titulo, datos }: { titulo: string; datos: Datos }) {
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
function ChartCard<T>({
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

const SIN_VENTAS = 'Sin ventas en este periodo';

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
function Grafico({
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

/** Sales over time: hour by hour (one day), day by day, or week by week. */
function TiempoCard({
  carga,
  agrupar,
  titulo,
  onCsv,
}: {
  carga: Carga<ReporteVentas>;
  agrupar: Agrupar;
  titulo: string;
  onCsv: () => Promise<void>;
}) {
  const datos = useMemo<Datos | null>(
    () =>
      carga.data && {
        columna: agrupar === 'hora' ? 'Hora' : agrupar === 'semana' ? 'Semana' : 'Día',
        etiquetas: carga.data.filas.map((f) => f.etiqueta),
        ejes: carga.data.filas.map((f) => ejeTiempo(f.clave, agrupar)),
        series: [
          {
            nombre: 'Venta bruta',
            valores: carga.data.filas.map((f) => f.venta_bruta),
            unidad: 'soles',
            color: COLORES.verde,
          },
        ],
        ultimoEnCurso: enCurso(
          carga.data.filas.at(-1)?.clave ?? '',
          agrupar,
          todayIn(carga.data.zona_horaria),
        ),
      },
    [carga.data],
  );
  const base =
    agrupar === 'semana'
      ? 'Más de dos meses: una semana por punto, desde su lunes'
      : 'Venta bruta: con IGV, antes de descuentos';
  const enCursoNota =
    agrupar === 'semana' ? 'la semana en curso, punteada' : 'hoy, en curso, punteado';
  return (
    <ChartCard
      id="tiempo"
      titulo={titulo}
      nota={datos?.ultimoEnCurso ? `${base}; ${enCursoNota}` : base}
      carga={carga}
      vacio={(r) => (hayVentas(r) ? null : SIN_VENTAS)}
      onCsv={onCsv}
      wide
    >
      {() => datos && <Grafico titulo={titulo} datos={datos} tipo="line" height={240} />}
    </ChartCard>
  );
}

/** The week's heat map: a cell per weekday and hour, darker where more was sold. */
function SemanaCard({ carga, onCsv }: { carga: Carga<ReporteVentas>; onCsv: () => Promise<void> }) {
  const titulo = 'Ventas por día y hora';
  const built = useMemo(() => {
    if (!carga.data) return null;
    const filas = carga.data.filas;
    const datos: Datos = {
      columna: 'Día y hora',
      etiquetas: filas.map((f) => celdaLabel(f.clave)),
      ejes: filas.map((f) => f.clave),
      series: [
        {
          nombre: 'Venta bruta',
          valores: filas.map((f) => f.venta_bruta),
          unidad: 'soles',
          color: COLORES.verde,
        },
      ],
    };
    const valores = datos.series[0].valores as number[];
    const max = Math.max(0, ...valores);
    const todas = filas.flatMap((f, i) => {
      const celda = celdaSemanal(f.clave);
      return celda ? [{ hora: celda.hora, y: DIAS_SEMANA[celda.dia - 1], v: valores[i], i }] : [];
    });
    // only the hours around those that sold: the table below keeps all 24
    const horas = horasVisibles(todas.filter((c) => c.v > 0).map((c) => c.hora)).map(String);
    const cells = todas
      .filter((c) => horas.includes(String(c.hora)))
      .map(({ hora, y, v, i }) => ({ x: String(hora), y, v, i }));
    const config: ChartConfiguration<'matrix'> = {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: 'Venta bruta',
            data: cells,
            backgroundColor: (ctx) => {
              const v = (ctx.raw as { v?: number } | undefined)?.v ?? 0;
              const k = intensidad(v, max);
              return k === 0 ? '#f1efea' : `rgba(11, 110, 79, ${(0.12 + 0.88 * k).toFixed(3)})`;
            },
            borderWidth: 0,
            width: ({ chart }) => (chart.chartArea?.width ?? 0) / horas.length - 2,
            height: ({ chart }) => (chart.chartArea?.height ?? 0) / 7 - 2,
          },
        ],
      },
      options: {
        scales: {
          x: {
            type: 'category',
            labels: horas,
            offset: true,
            grid: { display: false },
            border: { display: false },
            ticks: { maxRotation: 0, autoSkip: true, callback: (_v, i) => `${horas[i]}h` },
          },
          y: {
            type: 'category',
            labels: [...DIAS_SEMANA],
            // Monday on top, as a calendar reads (the matrix's default turns the y axis over)
            reverse: false,
            offset: true,
            grid: { display: false },
            border: { display: false },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => {
                const raw = items[0]?.raw as { i: number } | undefined;
                return raw ? datos.etiquetas[raw.i] : '';
              },
              label: (item) => {
                const raw = item.raw as { v: number };
                return `Venta bruta: ${soles(raw.v)}`;
              },
            },
          },
        },
      },
    };
    return { datos, config, max };
  }, [carga.data]);
  return (
    <ChartCard
      id="semana"
      titulo={titulo}
      nota={
        built &&
        built.max > 0 &&
        `Más oscuro, más venta bruta; la hora más fuerte, ${soles(built.max)}`
      }
      carga={carga}
      vacio={(r) => (hayVentas(r) ? null : SIN_VENTAS)}
      onCsv={onCsv}
      wide
    >
      {() =>
        built && (
          <>
            <ChartCanvas config={built.config} label={titulo} height={230} />
            <TablaDatos titulo={titulo} datos={built.datos} />
          </>
        )
      }
    </ChartCard>
  );
}

/** Horizontal bars of a sales grouping by name (products, waiters, methods): venta bruta. */
function BarrasVentasCard({
  id,
  titulo,
  nota,
  columna,
  carga,
  filas,
  onCsv,
}: {
  id: string;
  titulo: string;
  nota?: string;
  columna: string;
  carga: Carga<ReporteVentas>;
  filas: (r: ReporteVentas) => ReporteVentas['filas'];
  onCsv: () => Promise<void>;
}) {
  const datos = useMemo<Datos | null>(() => {
    if (!carga.data) return null;
    const shown = filas(carga.data);
    return {
      columna,
      etiquetas: shown.map((f) => f.etiqueta),
      ejes: shown.map((f) => etiquetaCorta(f.etiqueta)),
      series: [
        {
          nombre: 'Venta bruta',
          valores: shown.map((f) => f.venta_bruta),
          unidad: 'soles',
          color: COLORES.verde,
        },
      ],
    };
  }, [carga.data]);
  return (
    <ChartCard
      id={id}
      titulo={titulo}
      nota={nota}
      carga={carga}
      vacio={(r) => (hayVentas(r) && filas(r).length > 0 ? null : SIN_VENTAS)}
      onCsv={onCsv}
    >
      {() =>
        datos && (
          <Grafico
            titulo={titulo}
            datos={datos}
            tipo="bar"
            horizontal
            height={Math.max(160, datos.etiquetas.length * 34 + 40)}
          />
        )
      }
    </ChartCard>
  );
}

/** The food cost of each month: theoretical recipe cost over net sales. */
function FoodCostCard({
  carga,
  onCsv,
}: {
  carga: Carga<ReporteVentas>;
  onCsv: () => Promise<void>;
}) {
  const titulo = 'Food cost por mes';
  const datos = useMemo<Datos | null>(
    () =>
      carga.data && {
        columna: 'Mes',
        etiquetas: carga.data.filas.map((f) => f.etiqueta),
        ejes: carga.data.filas.map((f) => ejeTiempo(f.clave, 'mes')),
        series: [
          {
            nombre: 'Food cost',
            valores: carga.data.filas.map((f) => f.food_cost ?? null),
            unidad: 'porcentaje',
            color: COLORES.naranja,
          },
        ],
      },
    [carga.data],
  );
  // the period's figure only when every month of it has one: a month from before the stock
  // was followed has no cost, and the period's figure would count its sales without it
  const sinCosto =
    carga.data?.filas.some((f) => f.comandas > 0 && (f.food_cost ?? null) === null) ?? false;
  const total = carga.data?.filas.every((f) => f.food_cost !== null && f.food_cost !== undefined)
    ? carga.data.totales.food_cost
    : undefined;
  return (
    <ChartCard
      id="food-cost"
      titulo={titulo}
      nota={
        <>
          Costo teórico de las recetas sobre la venta neta
          {sinCosto && '; un mes sin barra no tiene costo registrado (antes del inventario)'}
          {total !== undefined && total !== null && (
            <>
              ; en el periodo <strong>{valorLabel(total, 'porcentaje')}</strong>
            </>
          )}
        </>
      }
      carga={carga}
      vacio={(r) => (hayVentas(r) ? null : SIN_VENTAS)}
      onCsv={onCsv}
    >
      {() => datos && <Grafico titulo={titulo} datos={datos} tipo="bar" height={240} />}
    </ChartCard>
  );
}

/** Sales against purchases, month by month. */
function GastosCard({ carga, onCsv }: { carga: Carga<ReporteGastos>; onCsv: () => Promise<void> }) {
  const titulo = 'Ventas y gastos por mes';
  const datos = useMemo<Datos | null>(
    () =>
      carga.data && {
        columna: 'Mes',
        etiquetas: carga.data.filas.map((f) => f.etiqueta),
        ejes: carga.data.filas.map((f) => ejeTiempo(f.clave, 'mes')),
        series: [
          {
            nombre: 'Ventas',
            valores: carga.data.filas.map((f) => f.ventas),
            unidad: 'soles',
            color: COLORES.verde,
          },
          {
            nombre: 'Gastos',
            valores: carga.data.filas.map((f) => f.gastos),
            unidad: 'soles',
            color: COLORES.naranja,
          },
        ],
      },
    [carga.data],
  );
  return (
    <ChartCard
      id="gastos"
      titulo={titulo}
      nota="Gastos: las compras registradas en el mes"
      carga={carga}
      vacio={(r) =>
        r.filas.some((f) => f.ventas !== 0 || f.gastos !== 0)
          ? null
          : 'Sin ventas ni compras en este periodo'
      }
      onCsv={onCsv}
    >
      {() => datos && <Grafico titulo={titulo} datos={datos} tipo="bar" height={240} />}
    </ChartCard>
  );
}

/** Hours worked by each person with punches in the period. */
function AsistenciaCard({
  carga,
  onCsv,
  wide,
}: {
  carga: Carga<ReporteAsistencia>;
  onCsv: () => Promise<void>;
  wide: boolean;
}) {
  const titulo = 'Horas trabajadas';
  const datos = useMemo<Datos | null>(() => {
    if (!carga.data) return null;
    const filas = carga.data.filas;
    return {
      columna: 'Persona',
      etiquetas: filas.map((f) => personName(f)),
      ejes: filas.map((f) => etiquetaCorta(personName(f))),
      series: [
        {
          nombre: 'Horas',
          valores: filas.map((f) => f.horas),
          unidad: 'horas',
          color: COLORES.azul,
        },
      ],
    };
  }, [carga.data]);
  return (
    <ChartCard
      id="asistencia"
      titulo={titulo}
      nota="Según las marcaciones: solo cuentan los intervalos con entrada y salida"
      carga={carga}
      vacio={(r) => (r.filas.length > 0 ? null : 'Sin marcaciones en este periodo')}
      onCsv={onCsv}
      wide={wide}
    >
      {() =>
        datos && (
          <Grafico
            titulo={titulo}
            datos={datos}
            tipo="bar"
            horizontal
            height={Math.max(160, datos.etiquetas.length * 34 + 40)}
          />
        )
      }
    </ChartCard>
  );
}
