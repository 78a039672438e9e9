import { ApiProperty } from '@nestjs/swagger';

/**
 * The answers of `POST /rpc/asistencia_get` and `POST /rpc/report_asistencia` (docs/rpc.md), as
 * their store functions build them: the attendance shapes the back-office page reads, declared
 * so that the OpenAPI document (and the page's generated types) name them. The other RPC
 * answers stay `additionalProperties: true`.
 */

class AsistenciaMarcaDto {
  @ApiProperty({ type: 'integer', example: 1 })
  id_raw!: number;

  @ApiProperty({ type: String, format: 'date', example: '2026-06-01', description: 'As read' })
  fecha!: string;

  @ApiProperty({ type: String, example: '18:00:00', description: 'HH:MM:SS, as read' })
  hora!: string;

  @ApiProperty({
    type: String,
    enum: ['entrada', 'salida'],
    nullable: true,
    description: 'null: no mode (the punches alternate)',
  })
  modo!: 'entrada' | 'salida' | null;

  @ApiProperty({ type: String, nullable: true, example: 'attlog.dat' })
  origen!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { device_id: 'ZK-01', verify: 1 },
    description: 'The clock’s other fields; `original` and `editado_en` after a manual edit',
  })
  datos!: Record<string, unknown>;

  @ApiProperty({
    type: String,
    format: 'date',
    example: '2026-06-01',
    description: 'The work day it counts for (before the day cut-off: the previous day)',
  })
  fecha_trabajo!: string;
}

class AsistenciaIntervaloDto {
  @ApiProperty({ type: 'integer', example: 1 })
  id_intervalo!: number;

  @ApiProperty({ type: String, format: 'date', example: '2026-06-01' })
  fecha_trabajo!: string;

  @ApiProperty({ type: String, example: '2026-06-01T18:00:00', description: 'Local date-time' })
  entrada!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-06-02T01:30:00',
    description: 'Local date-time; null: still open (its out-punch is missing)',
  })
  salida!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 450, description: 'null while open' })
  minutos!: number | null;
}

class AsistenciaResumenDiaDto {
  @ApiProperty({ type: String, format: 'date', example: '2026-06-01' })
  fecha_trabajo!: string;

  @ApiProperty({ type: 'integer', example: 450, description: 'Minutes of the closed intervals' })
  minutos!: number;

  @ApiProperty({ type: 'integer', example: 1, description: 'Intervals, open ones included' })
  intervalos!: number;

  @ApiProperty({ type: 'integer', example: 2, description: 'Punches used by the intervals' })
  marcas!: number;

  @ApiProperty({
    type: Boolean,
    description: 'An open interval or an out-punch with nothing open',
  })
  incompleto!: boolean;
}

/** A person's punches, intervals and days over a range of work days. */
export class AsistenciaGetDto {
  // Inline and nullable: in OpenAPI 3.0 `nullable` beside a `$ref` does not let null through.
  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'The person; null when no user has the document (the lists are then empty)',
    properties: {
      id_usuario: { type: 'integer', example: 1 },
      documento: { type: 'string', example: '40000001' },
      nombre: { type: 'string', example: 'Rosa' },
      apellido: { type: 'string', nullable: true, example: 'Quispe' },
    },
    required: ['id_usuario', 'documento', 'nombre', 'apellido'],
    selfRequired: true,
  })
  usuario!: {
    id_usuario: number;
    documento: string;
    nombre: string;
    apellido: string | null;
  } | null;

  @ApiProperty({
    type: [AsistenciaMarcaDto],
    description: 'The raw punches of the work days, in time order (near-duplicates included)',
  })
  marcas!: AsistenciaMarcaDto[];

  @ApiProperty({ type: [AsistenciaIntervaloDto], description: 'The paired intervals' })
  intervalos!: AsistenciaIntervaloDto[];

  @ApiProperty({
    type: [AsistenciaResumenDiaDto],
    description: 'One summary per work day with punches, in date order',
  })
  resumen!: AsistenciaResumenDiaDto[];
}

class ReportAsistenciaPersonaDto {
  @ApiProperty({ type: 'integer', example: 1 })
  id_usuario!: number;

  @ApiProperty({ type: String, example: '40000001' })
  documento!: string;

  @ApiProperty({ type: String, example: 'Rosa' })
  nombre!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Quispe' })
  apellido!: string | null;

  @ApiProperty({ type: 'integer', example: 1, description: 'Work days with punches' })
  dias_trabajados!: number;

  @ApiProperty({ type: 'integer', example: 480, description: 'Minutes of the closed intervals' })
  minutos!: number;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'Days with an open interval or an out-punch with nothing open',
  })
  dias_incompletos!: number;
}

/** Attendance per person over a range of work days. */
export class ReportAsistenciaDto {
  @ApiProperty({ type: String, format: 'date', example: '2026-06-01' })
  desde!: string;

  @ApiProperty({ type: String, format: 'date', example: '2026-06-30' })
  hasta!: string;

  @ApiProperty({
    type: [ReportAsistenciaPersonaDto],
    description: 'People with at least one work day in the range, by apellido and nombre',
  })
  personas!: ReportAsistenciaPersonaDto[];
}
