import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AGRUPACIONES, type Agrupacion } from './reportes-input.dto';

/**
 * The answers of the reports (docs/reportes.md). Every amount is soles with at most two
 * decimals, computed by PostgreSQL in numeric.
 */

const DAY = { type: String, format: 'date' } as const;

/** The figures of a sales row and of the totals, whatever the grouping. */
class CifrasVentasDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 42,
    description: 'Distinct comandas covered (closed, not voided, in the range)',
  })
  comandas!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 57,
    description:
      'Σ of the lines’ quantities (agrupar=producto or categoria; in totales, of every line), else null',
  })
  unidades!: number | null;

  @ApiProperty({
    example: 3140.5,
    description:
      'Σ of the comandas’ total (their lines’ subtotals, IGV included, before discounts); producto/categoria: Σ of the line subtotals; metodo: Σ of the payments’ monto (tips excluded)',
  })
  venta_bruta!: number;

  @ApiProperty({
    example: 120.4,
    description:
      'Σ of the comandas’ discounts (porcentaje: round(total × valor / 100, 2); monto: least(valor, total)); producto/categoria/metodo: each line’s or payment’s share',
  })
  descuentos!: number;

  @ApiProperty({
    example: 2559.43,
    description:
      'Without IGV and service charge: Σ per comanda of round((total − descuento) / (1 + tasa_igv), 2); producto/categoria/metodo: shares',
  })
  venta_neta!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 71.91,
    description:
      'round((venta_bruta − descuentos) / comandas, 2) (metodo: round(venta_bruta / comandas, 2)); null with no comandas and for producto/categoria rows',
  })
  ticket_promedio!: number | null;

  @ApiPropertyOptional({
    example: 35.5,
    description: 'Only with agrupar=metodo: Σ of the applied payments’ tips',
  })
  propinas?: number;

  @ApiPropertyOptional({
    example: 812.3,
    description:
      'Only with the feature inventario: Σ of the theoretical recipe cost of the lines consumed at close',
  })
  costo_teorico?: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 31.74,
    description:
      'Only with the feature inventario: costo_teorico × 100 / venta_neta, 2 decimals; null when venta_neta is 0',
  })
  food_cost?: number | null;
}

export class FilaVentasDto extends CifrasVentasDto {
  @ApiProperty({
    example: '2026-11-03',
    description:
      'Stable key: YYYY-MM-DD (dia), the ISO week’s Monday (semana), YYYY-MM (mes), 0..23 (hora), isodow-hour such as 1-13 (dia_semana_hora), the id (producto, categoria, mozo, metodo; sin_categoria, sin_mozo), the id_mesa or para_llevar (mesa)',
  })
  clave!: string;

  @ApiProperty({
    example: '03/11/2026',
    description:
      'For people: 03/11/2026, Semana del 03/11/2026, noviembre 2026, 13:00, lunes 13:00, the product’s or category’s name, the waiter’s name, Mesa 4 / Para llevar, the method’s name',
  })
  etiqueta!: string;
}

export class TotalesVentasDto extends CifrasVentasDto {}

export class ReporteVentasDto {
  @ApiProperty({ ...DAY, example: '2026-11-01' }) desde!: string;
  @ApiProperty({ ...DAY, example: '2026-11-30' }) hasta!: string;
  @ApiProperty({ enum: AGRUPACIONES, example: 'dia' }) agrupar!: Agrupacion;
  @ApiProperty({
    example: 'America/Lima',
    description: 'The tenant’s time zone: the days and hours of the report are its',
  })
  zona_horaria!: string;
  @ApiProperty({
    type: [FilaVentasDto],
    description:
      'Time groupings: every bucket of the range in time order, empty ones with zeros; the others: by venta_bruta, highest first, then clave',
  })
  filas!: FilaVentasDto[];
  @ApiProperty({
    type: TotalesVentasDto,
    description: 'Over all the covered comandas (a comanda counts once)',
  })
  totales!: TotalesVentasDto;
}

class CifrasGastosDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 910,
    description: 'Closed, not voided comandas closed in the month (within the range)',
  })
  comandas!: number;
  @ApiProperty({ example: 48210.5, description: 'Σ of those comandas’ total' }) ventas!: number;
  @ApiProperty({
    example: 17320,
    description: 'Σ of the purchases’ total (compras.total) dated in the month (within the range)',
  })
  gastos!: number;
}

export class FilaGastosDto extends CifrasGastosDto {
  @ApiProperty({ example: '2026-11', description: 'The local month, YYYY-MM' }) clave!: string;
  @ApiProperty({ example: 'noviembre 2026' }) etiqueta!: string;
}

export class TotalesGastosDto extends CifrasGastosDto {}

export class ReporteGastosDto {
  @ApiProperty({ ...DAY, example: '2025-12-01' }) desde!: string;
  @ApiProperty({ ...DAY, example: '2026-11-30' }) hasta!: string;
  @ApiProperty({
    type: [FilaGastosDto],
    description: 'Every month the range touches, in order, empty ones with zeros',
  })
  filas!: FilaGastosDto[];
  @ApiProperty({ type: TotalesGastosDto }) totales!: TotalesGastosDto;
}

export class FilaAsistenciaDto {
  @ApiProperty({ type: 'integer', example: 3 }) id_usuario!: number;
  @ApiProperty({ example: 'Rosa' }) nombre!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Quispe' }) apellido!: string | null;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 22,
    description: 'Work days with punches',
  })
  dias_trabajados!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 10575,
    description: 'Minutes of the closed intervals',
  })
  minutos!: number;
  @ApiProperty({ example: 176.25, description: 'minutos / 60, 2 decimals' }) horas!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 1,
    description: 'Days with an open interval or an unpaired out-punch',
  })
  dias_incompletos!: number;
}

export class ReporteAsistenciaDto {
  @ApiProperty({ ...DAY, example: '2026-11-01' }) desde!: string;
  @ApiProperty({ ...DAY, example: '2026-11-30' }) hasta!: string;
  @ApiProperty({
    type: [FilaAsistenciaDto],
    description: 'People with at least one work day in the range, by apellido, nombre',
  })
  filas!: FilaAsistenciaDto[];
}
