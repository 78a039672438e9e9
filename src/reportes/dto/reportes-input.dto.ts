import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Validate } from 'class-validator';
import { IsBusinessDate } from '../../common/validation';

/** The groupings of the sales report: the time ones first, in the order the docs list them. */
export const AGRUPACIONES = [
  'dia',
  'semana',
  'mes',
  'hora',
  'dia_semana_hora',
  'producto',
  'categoria',
  'mozo',
  'mesa',
  'metodo',
] as const;
export type Agrupacion = (typeof AGRUPACIONES)[number];

/** The groupings by time: every bucket of the range is listed, in time order. */
export const AGRUPACIONES_DE_TIEMPO: readonly Agrupacion[] = [
  'dia',
  'semana',
  'mes',
  'hora',
  'dia_semana_hora',
];

/** The longest range a report covers, in days (both ends included): two years, one leap. */
export const MAX_DIAS = 731;

const DAY_RULE = `The tenant’s local day, YYYY-MM-DD (both ends included; at most ${MAX_DIAS} days)`;

/** A day of a report's range: optional, a calendar date, documented with its default. */
const Day = (example: string, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date', example, description }),
    IsOptional(),
    Validate(IsBusinessDate),
  );

export class VentasQuery {
  @Day('2026-11-01', `From: ${DAY_RULE}. Default: the first day of hasta’s month`)
  desde?: string;

  @Day('2026-11-30', `To: ${DAY_RULE}. Default: today`)
  hasta?: string;

  @ApiPropertyOptional({
    enum: AGRUPACIONES,
    default: 'dia',
    description:
      'One row per day, ISO week (its Monday), month, hour of the day, (weekday, hour), product, ' +
      'category, waiter, table or payment method (metodo: feature cobros)',
  })
  @IsOptional()
  @IsIn(AGRUPACIONES)
  agrupar?: Agrupacion;
}

export class GastosQuery {
  @Day(
    '2025-12-01',
    `From: ${DAY_RULE}. Default: the first day of the month 11 months before hasta’s`,
  )
  desde?: string;

  @Day('2026-11-30', `To: ${DAY_RULE}. Default: today`)
  hasta?: string;
}

export class AsistenciaQuery {
  @Day('2026-11-01', `From (a work day): ${DAY_RULE}. Default: 29 days before hasta (30 days)`)
  desde?: string;

  @Day('2026-11-30', `To (a work day): ${DAY_RULE}. Default: today`)
  hasta?: string;
}
