import { ApiProperty } from '@nestjs/swagger';
import {
  CONTEO_ESTADOS,
  MOVIMIENTO_TIPOS,
  type ConteoEstado,
  type MovimientoTipo,
} from './inventario-input.dto';

export const UNIDADES = ['kg', 'g', 'l', 'ml', 'unidad'] as const;
export type Unidad = (typeof UNIDADES)[number];

export const MOVIMIENTO_ORIGENES = ['inicial', 'compra', 'consumo', 'merma', 'conteo'] as const;
export type MovimientoOrigen = (typeof MOVIMIENTO_ORIGENES)[number];

export const CONTEO_ACTIONS = ['editar', 'aplicar', 'descartar'] as const;
export type ConteoAction = (typeof CONTEO_ACTIONS)[number];

/**
 * A raw material as waste is recorded of it: its name and unidad, no stock and no cost (the
 * kitchen records waste without reading the stock).
 */
export class MaterialDto {
  @ApiProperty({ example: 3 }) id_mat_prima!: number;
  @ApiProperty({ example: 'Pescado (corvina)' }) nombre!: string;
  @ApiProperty({ enum: UNIDADES }) unidad!: Unidad;
  @ApiProperty({ example: true }) activo!: boolean;
}

/** A material's stock: the sums of its movements and its moving-average cost. */
export class SaldoDto {
  @ApiProperty({ example: 3 }) id_mat_prima!: number;
  @ApiProperty({ example: 'Pescado (corvina)' }) nombre!: string;
  @ApiProperty({ enum: UNIDADES }) unidad!: Unidad;
  @ApiProperty({ example: true }) activo!: boolean;
  @ApiProperty({
    example: 12.35,
    description: 'In stock, in its unidad (negative: more used than recorded)',
  })
  cantidad!: number;
  @ApiProperty({ example: 38.5, description: 'Moving-average cost per unidad (soles, 6 decimals)' })
  costo_promedio!: number;
  @ApiProperty({
    example: 475.48,
    description: 'Value of the stock (soles, 4 decimals): the sum of its movements’ values',
  })
  valor!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 5,
    description: 'mate_primas.stock_minimo',
  })
  stock_minimo!: number | null;
  @ApiProperty({ example: false, description: 'cantidad below zero' }) negativo!: boolean;
  @ApiProperty({ example: false, description: 'cantidad below stock_minimo' })
  bajo_minimo!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-24T21:10:00-05:00',
    description: 'Its last movement',
  })
  ultimo_movimiento!: string | null;
}

/** A movement of the ledger (never changed once written). */
export class MovimientoStockDto {
  @ApiProperty({ example: 1042 }) id_movimiento!: number;
  @ApiProperty({ example: 3 }) id_mat_prima!: number;
  @ApiProperty({ example: 'Pescado (corvina)' }) material!: string;
  @ApiProperty({ enum: UNIDADES }) unidad!: Unidad;
  @ApiProperty({ enum: MOVIMIENTO_TIPOS }) tipo!: MovimientoTipo;
  @ApiProperty({ example: -0.18, description: 'Signed, in the material’s unidad' })
  cantidad!: number;
  @ApiProperty({
    example: 38.5,
    description: 'Per unidad: an inflow’s own cost, an outflow’s the average then',
  })
  costo_unitario!: number;
  @ApiProperty({ example: -6.93, description: 'cantidad × costo_unitario, signed' }) valor!: number;
  @ApiProperty({ example: 12.35, description: 'The material’s stock after it' })
  saldo_cantidad!: number;
  @ApiProperty({ example: 38.5, description: 'The average cost after it' }) saldo_costo!: number;
  @ApiProperty({ enum: MOVIMIENTO_ORIGENES, description: 'What caused it' })
  origen!: MovimientoOrigen;
  @ApiProperty({
    example: 877,
    description:
      'compra: the purchase line; consumo: the line’s consumption; merma: the waste record; conteo: the count',
  })
  id_origen!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 120,
    description: 'The purchase (compra), comanda (consumo) or count (conteo) it belongs to',
  })
  id_documento!: number | null;
  @ApiProperty({ example: '2026-11-24T21:10:00-05:00', description: 'When it counts in the stock' })
  fec!: string;
  @ApiProperty({ type: Number, nullable: true, example: 2 }) id_usuario!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Rosa Quispe' }) usuario!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) motivo!: string | null;
}

/** A line of a count sheet. */
export class ConteoLineaDto {
  @ApiProperty({ example: 3 }) id_mat_prima!: number;
  @ApiProperty({ example: 'Pescado (corvina)' }) nombre!: string;
  @ApiProperty({ enum: UNIDADES }) unidad!: Unidad;
  @ApiProperty({ example: 4.25 }) contado!: number;
  @ApiProperty({
    example: 4.6,
    description: 'The ledger’s quantity at the cut-off: live while a draft, frozen when applied',
  })
  sistema!: number;
  @ApiProperty({ example: -0.35, description: 'contado − sistema: the adjustment applying posts' })
  diferencia!: number;
  @ApiProperty({
    example: 38.5,
    description: 'Average cost now (draft) or the adjustment’s (applied)',
  })
  costo_promedio!: number;
  @ApiProperty({ example: -13.48, description: 'The difference’s value (soles, 2 decimals)' })
  valor_diferencia!: number;
}

/** A count sheet: a draft, then applied once (or discarded). */
export class ConteoDto {
  @ApiProperty({ example: 7 }) id_conteo!: number;
  @ApiProperty({ enum: CONTEO_ESTADOS }) estado!: ConteoEstado;
  @ApiProperty({ example: '2026-11-24T23:30:00-05:00' }) fec_corte!: string;
  @ApiProperty({ type: String, nullable: true, example: 'cierre de mes' }) observacion!:
    string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Rosa Quispe' }) creado_por!: string | null;
  @ApiProperty({ example: '2026-11-24T23:35:00-05:00' }) created_at!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) fec_aplicacion!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) aplicado_por!: string | null;
  @ApiProperty({ example: 42 }) total_lineas!: number;
  @ApiProperty({ example: -85.1, description: 'Σ valor_diferencia (soles)' })
  valor_diferencias!: number;
  @ApiProperty({ type: [ConteoLineaDto], description: 'By material name' })
  lineas!: ConteoLineaDto[];
  @ApiProperty({
    enum: CONTEO_ACTIONS,
    isArray: true,
    description:
      'What the caller may do now: editar (PATCH), aplicar, descartar (inventario:write) while a draft',
  })
  acciones!: readonly ConteoAction[];
}

/** A count in the list (its lines in GET /inventario/conteos/:id). */
export class ConteoResumenDto {
  @ApiProperty({ example: 7 }) id_conteo!: number;
  @ApiProperty({ enum: CONTEO_ESTADOS }) estado!: ConteoEstado;
  @ApiProperty({ example: '2026-11-24T23:30:00-05:00' }) fec_corte!: string;
  @ApiProperty({ type: String, nullable: true, example: 'cierre de mes' }) observacion!:
    string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Rosa Quispe' }) creado_por!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) fec_aplicacion!: string | null;
  @ApiProperty({ example: 42 }) total_lineas!: number;
  @ApiProperty({ enum: CONTEO_ACTIONS, isArray: true }) acciones!: readonly ConteoAction[];
}

/** A material in the consumption report: what the sales should have used against what went. */
export class ConsumoMaterialDto {
  @ApiProperty({ example: 3 }) id_mat_prima!: number;
  @ApiProperty({ example: 'Pescado (corvina)' }) nombre!: string;
  @ApiProperty({ enum: UNIDADES }) unidad!: Unidad;
  @ApiProperty({
    example: 18.4,
    description: 'Theoretical usage: the recipes of what was sold (net of reopened sales)',
  })
  teorico_cantidad!: number;
  @ApiProperty({ example: 708.4 }) teorico_valor!: number;
  @ApiProperty({ example: 0.5, description: 'Waste recorded' }) merma_cantidad!: number;
  @ApiProperty({ example: 19.25 }) merma_valor!: number;
  @ApiProperty({
    example: -0.35,
    description: 'Count adjustments (negative: less on the shelf than recorded)',
  })
  ajuste_cantidad!: number;
  @ApiProperty({ example: -13.48 }) ajuste_valor!: number;
  @ApiProperty({
    example: 19.25,
    description:
      'Actual usage: stock at desde + purchases − stock at hasta (= theoretical + waste − adjustments)',
  })
  real_cantidad!: number;
  @ApiProperty({ example: 741.13 }) real_valor!: number;
  @ApiProperty({ example: 0.85, description: 'real − teórico' }) varianza_cantidad!: number;
  @ApiProperty({ example: 32.73 }) varianza_valor!: number;
}

/** GET /inventario/consumo: a period's usage and food cost. */
export class ConsumoDto {
  @ApiProperty({ example: '2026-11-01T00:00:00-05:00' }) desde!: string;
  @ApiProperty({ example: '2026-11-25T00:00:00-05:00' }) hasta!: string;
  @ApiProperty({ example: 1240, description: 'Comandas closed in the period (not deleted)' })
  comandas!: number;
  @ApiProperty({
    example: 48210.17,
    description:
      'Their sales without IGV and recargo (after discounts), at the rates frozen at their close',
  })
  ventas_netas!: number;
  @ApiProperty({ example: 14923.5, description: 'Σ teorico_valor (soles, 2 decimals)' })
  costo_teorico!: number;
  @ApiProperty({ example: 15402.1, description: 'Σ real_valor (soles, 2 decimals)' })
  costo_real!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 30.95,
    description: 'costo_teorico / ventas_netas, in % (null without sales)',
  })
  food_cost_teorico_pct!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 31.95,
    description: 'costo_real / ventas_netas, in %',
  })
  food_cost_real_pct!: number | null;
  @ApiProperty({
    type: [ConsumoMaterialDto],
    description: 'Materials with a movement in the period, by name',
  })
  materiales!: ConsumoMaterialDto[];
}

/** An ingredient of a product's recipe, costed. */
export class IngredienteCostoDto {
  @ApiProperty({ example: 3 }) id_mat_prima!: number;
  @ApiProperty({ example: 'Pescado (corvina)' }) nombre!: string;
  @ApiProperty({ enum: UNIDADES }) unidad!: Unidad;
  @ApiProperty({ example: 0.18, description: 'Per portion, in its unidad' }) cantidad!: number;
  @ApiProperty({ example: 38.5 }) costo_promedio!: number;
  @ApiProperty({ example: 6.93, description: 'cantidad × costo_promedio (soles, 4 decimals)' })
  costo!: number;
}

/** GET /productos/:id/costo: what a dish costs from its recipe, against its price. */
export class ProductoCostoDto {
  @ApiProperty({ example: 12 }) id_producto!: number;
  @ApiProperty({ example: 'Ceviche clásico' }) nombre!: string;
  @ApiProperty({ example: 32, description: 'Its price (IGV included)' }) precio!: number;
  @ApiProperty({ example: 0.18, description: 'The IGV rate in force today' }) tasa_igv!: number;
  @ApiProperty({ example: 27.12, description: 'round(precio / (1 + tasa_igv), 2)' })
  precio_sin_igv!: number;
  @ApiProperty({ example: 8.42, description: 'Σ of the ingredients’ cost (soles, 2 decimals)' })
  costo!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 31.05,
    description: 'costo / precio_sin_igv in % (null at price 0)',
  })
  food_cost_pct!: number | null;
  @ApiProperty({
    example: true,
    description: 'Whether it has a recipe (without one its cost is 0)',
  })
  con_receta!: boolean;
  @ApiProperty({ type: [IngredienteCostoDto] }) ingredientes!: IngredienteCostoDto[];
}
