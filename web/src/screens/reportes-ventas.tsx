import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import { ChartCanvas, COLORES } from '../chart';
import { todayIn } from '../dates';
import { soles } from '../format';
import {
  celdaLabel,
  celdaSemanal,
  DIAS_SEMANA,
  ejeTiempo,
  enCurso,
  etiquetaCorta,
  hayVentas,
  horasVisibles,
  intensidad,
  valorLabel,
  type ReporteVentas,
} from './reportes-rules';
import {
  type Carga,
  ChartCard,
  type Datos,
  Grafico,
  SIN_VENTAS,
  TablaDatos,
} from './reportes-card';

/** How the sales report groups its rows (`agrupar` of GET /reportes/ventas). */
export type Agrupar = ReporteVentas['agrupar'];

/** Sales over time: hour by hour (one day), day by day, or week by week. */
export function TiempoCard({
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
export function SemanaCard({
  carga,
  onCsv,
}: {
  carga: Carga<ReporteVentas>;
  onCsv: () => Promise<void>;
}) {
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
export function BarrasVentasCard({
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
export function FoodCostCard({
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
