import { Controller, Get, Query, Req, Res, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequirePermission } from '../auth/auth.decorators';
import { ApiTag } from '../common/decorators';
import { attachment, CSV_CONTENT_TYPE, toCsv } from '../common/csv';
import { ApiErrors } from '../common/http/openapi-errors';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { AsistenciaQuery, GastosQuery, VentasQuery } from './dto/reportes-input.dto';
import {
  ReporteAsistenciaDto,
  ReporteGastosDto,
  ReporteVentasDto,
} from './dto/reportes-output.dto';
import { ReportesService, type Report } from './reportes.service';
import { statementTimeout, validationError } from '../common/errors/common.errors';
import { agrupacionRequiereCobros } from './reportes.errors';

/** A report's answer: JSON, or with `Accept: text/csv` its rows as a CSV download. */
const CsvOrJson = (type: Type<unknown>, what: string, example: string) =>
  ApiOkResponse({
    description: `${what}: JSON, or with Accept: text/csv its rows as a CSV file (UTF-8 with a BOM, CRLF, RFC 4180; Content-Disposition: attachment)`,
    content: {
      'application/json': { schema: { $ref: getSchemaPath(type) } },
      'text/csv': { schema: { type: 'string', example } },
    },
  });

function answer<T, R extends object>(
  report: Report<T, R>,
  req: Request,
  res: Response,
): T | string {
  // one URL, two representations: a cache keeps them apart
  res.vary('Accept');
  if (req.accepts(['application/json', 'text/csv']) !== 'text/csv') return report.body;
  res.setHeader('Content-Type', CSV_CONTENT_TYPE);
  res.setHeader('Content-Disposition', attachment(report.filename));
  return toCsv(report.columns, report.rows);
}

/**
 * The reports (docs/reportes.md): sales by period, product, waiter, table and payment method;
 * sales against purchases per month; hours worked. Read only, as JSON or CSV.
 */
@ApiTag(
  'reportes',
  'Reports: sales grouped by period, product, category, waiter, table or payment method, with discounts, IGV and food cost; sales against purchases per month; hours worked; as JSON or CSV (feature reportes).',
)
@ApiExtraModels(ReporteVentasDto, ReporteGastosDto, ReporteAsistenciaDto)
@TenantScoped()
@RequiresFeature('reportes')
@RequirePermission('reportes:read')
@Controller('reportes')
export class ReportesController {
  constructor(private readonly reportes: ReportesService) {}

  @Get('ventas')
  @ApiOperation({
    summary: 'Sales of a range of local days, grouped by period, product, waiter, table or method',
    description:
      'The comandas closed (not voided) between desde 00:00 and hasta 24:00 in the tenant’s time ' +
      'zone. Time groupings list every bucket of the range (zeros included) in time order; the ' +
      'others are ordered by venta_bruta. totales counts each comanda once. With the feature ' +
      'inventario, costo_teorico and food_cost too; agrupar=metodo needs the feature cobros ' +
      '(400 REPORTE_REQUIERE_COBROS).',
  })
  @ApiProduces('application/json', 'text/csv')
  @CsvOrJson(
    ReporteVentasDto,
    'The report',
    '\uFEFFclave,etiqueta,comandas,unidades,venta_bruta,descuentos,venta_neta,ticket_promedio\r\n2026-11-03,03/11/2026,42,,3140.5,120.4,2559.43,71.91\r\n',
  )
  @ApiErrors(validationError, agrupacionRequiereCobros, statementTimeout)
  async ventas(
    @Query() query: VentasQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(await this.reportes.ventas(query), req, res);
  }

  @Get('gastos')
  @ApiOperation({
    summary: 'Sales against purchases per local month of a range of days',
    description:
      'Per month the range touches: the closed, not voided comandas and their total (by fec_cierre), ' +
      'and the purchases’ total (by fec_compra), within the range’s days in the tenant’s time zone.',
  })
  @ApiProduces('application/json', 'text/csv')
  @CsvOrJson(
    ReporteGastosDto,
    'The report',
    '\uFEFFclave,etiqueta,comandas,ventas,gastos\r\n2026-11,noviembre 2026,910,48210.5,17320\r\n',
  )
  @ApiErrors(validationError, statementTimeout)
  async gastos(
    @Query() query: GastosQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(await this.reportes.gastos(query), req, res);
  }

  @Get('asistencia')
  @ApiOperation({
    summary: 'Days and hours worked per person over a range of work days',
    description:
      'From the attendance’s daily summaries (the report_asistencia store function): days with ' +
      'punches, minutes of the closed intervals, hours, and days left incomplete.',
  })
  @ApiProduces('application/json', 'text/csv')
  @CsvOrJson(
    ReporteAsistenciaDto,
    'The report',
    '\uFEFFid_usuario,nombre,apellido,dias_trabajados,minutos,horas,dias_incompletos\r\n3,Rosa,Quispe,22,10575,176.25,1\r\n',
  )
  @ApiErrors(validationError, statementTimeout)
  async asistencia(
    @Query() query: AsistenciaQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(await this.reportes.asistencia(query), req, res);
  }
}
