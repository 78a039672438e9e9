import { Injectable } from '@nestjs/common';
import { todayIn } from '../common/time';
import { TenantContext } from '../tenancy/tenant-context';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import type { AsistenciaQuery, GastosQuery, VentasQuery } from './dto/reportes-input.dto';
import type {
  ReporteAsistenciaDto,
  ReporteGastosDto,
  ReporteVentasDto,
} from './dto/reportes-output.dto';
import { DEFAULT_DESDE, resolveRange } from './report-range';
import { agrupacionRequiereCobros } from './reportes.errors';
import {
  ASISTENCIA_COLUMNS,
  GASTOS_COLUMNS,
  toAsistencia,
  toGastos,
  toVentas,
  ventasColumns,
} from './reportes.mapper';
import { ReportesRepository } from './reportes.repository';

/** A report and what its CSV needs: the columns, in order, and the file's name. */
export interface Report<T, R> {
  body: T;
  rows: R[];
  columns: (keyof R & string)[];
  filename: string;
}

/**
 * The reports (docs/reportes.md): the range's defaults and rules in the tenant's days, which
 * figures the tenant's features add, and the figures themselves from the repository.
 */
@Injectable()
export class ReportesService {
  constructor(
    private readonly repository: ReportesRepository,
    private readonly context: TenantContext,
    private readonly features: TenantFeatures,
  ) {}

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  async ventas(
    query: VentasQuery,
  ): Promise<Report<ReporteVentasDto, ReporteVentasDto['filas'][number]>> {
    const tenant = this.context.tenant;
    const agrupar = query.agrupar ?? 'dia';
    const rango = resolveRange(query, todayIn(this.timeZone), DEFAULT_DESDE.ventas);
    if (agrupar === 'metodo' && !this.features.isOn('cobros', tenant))
      throw agrupacionRequiereCobros();
    const conCosto = this.features.isOn('inventario', tenant);
    const rows = await this.repository.ventas(
      rango.desde,
      rango.hasta,
      this.timeZone,
      agrupar,
      conCosto,
    );
    const body = toVentas(rows, rango, agrupar, this.timeZone, conCosto);
    return {
      body,
      rows: body.filas,
      columns: ventasColumns(agrupar, conCosto),
      filename: `ventas-${agrupar}-${rango.desde}-${rango.hasta}.csv`,
    };
  }

  async gastos(
    query: GastosQuery,
  ): Promise<Report<ReporteGastosDto, ReporteGastosDto['filas'][number]>> {
    const rango = resolveRange(query, todayIn(this.timeZone), DEFAULT_DESDE.gastos);
    const body = toGastos(
      await this.repository.gastos(rango.desde, rango.hasta, this.timeZone),
      rango,
    );
    return {
      body,
      rows: body.filas,
      columns: GASTOS_COLUMNS,
      filename: `gastos-${rango.desde}-${rango.hasta}.csv`,
    };
  }

  async asistencia(
    query: AsistenciaQuery,
  ): Promise<Report<ReporteAsistenciaDto, ReporteAsistenciaDto['filas'][number]>> {
    const rango = resolveRange(query, todayIn(this.timeZone), DEFAULT_DESDE.asistencia);
    const body = toAsistencia(await this.repository.asistencia(rango.desde, rango.hasta), rango);
    return {
      body,
      rows: body.filas,
      columns: ASISTENCIA_COLUMNS,
      filename: `asistencia-${rango.desde}-${rango.hasta}.csv`,
    };
  }
}
