import type {
  FilaAsistenciaDto,
  FilaGastosDto,
  FilaVentasDto,
  ReporteAsistenciaDto,
  ReporteGastosDto,
  ReporteVentasDto,
  TotalesGastosDto,
  TotalesVentasDto,
} from './dto/reportes-output.dto';
import type { Agrupacion } from './dto/reportes-input.dto';
import type { Rango } from './report-range';
import type { AsistenciaRow, GastosRow, VentasRow } from './reportes.repository';

/**
 * Rows → answers. Figures arrive as numeric text and leave as JSON numbers: a conversion, never
 * arithmetic (PostgreSQL computed and rounded every one of them).
 */
const amount = (value: string): number => Number(value);
const amountOrNull = (value: string | null): number | null =>
  value === null ? null : Number(value);

/** The sales figures of a row or of the totals; propinas and the cost only where they apply. */
function cifras(row: VentasRow, agrupar: Agrupacion, conCosto: boolean): TotalesVentasDto {
  return {
    comandas: amount(row.comandas),
    unidades: amountOrNull(row.unidades),
    venta_bruta: amount(row.venta_bruta),
    descuentos: amount(row.descuentos),
    venta_neta: amount(row.venta_neta),
    ticket_promedio: amountOrNull(row.ticket_promedio),
    ...(agrupar === 'metodo' ? { propinas: amount(row.propinas ?? '0') } : {}),
    ...(conCosto
      ? { costo_teorico: amount(row.costo_teorico ?? '0'), food_cost: amountOrNull(row.food_cost) }
      : {}),
  };
}

export function toVentas(
  rows: VentasRow[],
  rango: Rango,
  agrupar: Agrupacion,
  zona: string,
  conCosto: boolean,
): ReporteVentasDto {
  const filas: FilaVentasDto[] = rows
    .filter((row) => !row.es_total)
    .map((row) => ({
      clave: row.clave!,
      etiqueta: row.etiqueta!,
      ...cifras(row, agrupar, conCosto),
    }));
  const totales = cifras(
    rows.find((row) => row.es_total)!,
    agrupar,
    conCosto,
  );
  return { desde: rango.desde, hasta: rango.hasta, agrupar, zona_horaria: zona, filas, totales };
}

const gastosCifras = (row: GastosRow): TotalesGastosDto => ({
  comandas: amount(row.comandas),
  ventas: amount(row.ventas),
  gastos: amount(row.gastos),
});

export function toGastos(rows: GastosRow[], rango: Rango): ReporteGastosDto {
  const filas: FilaGastosDto[] = rows
    .filter((row) => !row.es_total)
    .map((row) => ({ clave: row.clave!, etiqueta: row.etiqueta!, ...gastosCifras(row) }));
  return {
    desde: rango.desde,
    hasta: rango.hasta,
    filas,
    totales: gastosCifras(rows.find((row) => row.es_total)!),
  };
}

export function toAsistencia(rows: AsistenciaRow[], rango: Rango): ReporteAsistenciaDto {
  const filas: FilaAsistenciaDto[] = rows.map((row) => ({
    id_usuario: row.id_usuario,
    nombre: row.nombre,
    apellido: row.apellido,
    dias_trabajados: row.dias_trabajados,
    minutos: row.minutos,
    horas: amount(row.horas),
    dias_incompletos: row.dias_incompletos,
  }));
  return { desde: rango.desde, hasta: rango.hasta, filas };
}

/** The CSV columns of each report: the JSON field names of its rows, in their order. */
export function ventasColumns(agrupar: Agrupacion, conCosto: boolean): (keyof FilaVentasDto)[] {
  return [
    'clave',
    'etiqueta',
    'comandas',
    'unidades',
    'venta_bruta',
    'descuentos',
    'venta_neta',
    'ticket_promedio',
    ...(agrupar === 'metodo' ? (['propinas'] as const) : []),
    ...(conCosto ? (['costo_teorico', 'food_cost'] as const) : []),
  ];
}

export const GASTOS_COLUMNS: (keyof FilaGastosDto)[] = [
  'clave',
  'etiqueta',
  'comandas',
  'ventas',
  'gastos',
];

export const ASISTENCIA_COLUMNS: (keyof FilaAsistenciaDto)[] = [
  'id_usuario',
  'nombre',
  'apellido',
  'dias_trabajados',
  'minutos',
  'horas',
  'dias_incompletos',
];
