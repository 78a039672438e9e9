import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { RequiresFeature, TenantScoped } from '../common/decorators';
import { ErrorBody } from '../common/errors/error-body.dto';
import { ParseInt4IdPipe } from '../common/http/parse-id.pipe';
import { RpcService } from './rpc.service';

const result = {
  description: "The store function's JSON ({} when empty)",
  schema: { type: 'object' },
};
const failed = { type: ErrorBody, description: '{"error": "<operation> failed", "code": ...}' };
const failedWithDiagnostics = {
  type: ErrorBody,
  description: '{"error": "<operation> failed", "message", "detail", "where", "code" (SQLSTATE)}',
};
const object = (example: Record<string, unknown>) => ({ schema: { type: 'object', example } });

/**
 * Seed §4.2.2: one route per store function, switched off unless FEATURE_RPC=true or the
 * tenant's override. Bodies are read leniently, as the seed describes (defaults, non-arrays
 * treated as empty); a failure of the function is 500.
 */
@ApiTags('rpc')
@TenantScoped()
@RequiresFeature('rpc')
@RequirePermission('rpc:call')
@Controller('rpc')
export class RpcController {
  constructor(private readonly rpc: RpcService) {}

  @Get('get_producto/:id')
  @ApiOperation({ summary: 'A product with its recipe' })
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  getProducto(@Param('id', ParseInt4IdPipe) id: number) {
    return this.rpc.getProducto(id);
  }

  @Post('save_producto')
  @HttpCode(200)
  @ApiOperation({ summary: 'Insert or update a product and replace its recipe → {id_producto}' })
  @ApiBody(
    object({
      id_producto: null,
      nombre: 'Ceviche mixto',
      precio: 42,
      id_categoria: 1,
      receta: [{ id_mat_prima: 1, cantidad: 0.25 }],
    }),
  )
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  saveProducto(@Body() body: unknown) {
    return this.rpc.saveProducto(body);
  }

  @Get('get_materia/:id')
  @ApiOperation({ summary: 'A raw material with its suppliers' })
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  getMateria(@Param('id', ParseInt4IdPipe) id: number) {
    return this.rpc.getMateria(id);
  }

  @Post('save_materia')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Insert or update a raw material and replace its suppliers → {id_mat_prima}',
  })
  @ApiBody(
    object({ nombre: 'Limón', unidad: 'kg', proveedores: [{ id_proveedor: 2, precio: 4.5 }] }),
  )
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  saveMateria(@Body() body: unknown) {
    return this.rpc.saveMateria(body);
  }

  @Post('find_usuarios_por_documentos')
  @HttpCode(200)
  @ApiOperation({ summary: 'Users keyed by document number (a non-array docs is empty)' })
  @ApiBody(object({ docs: ['40000001', '40000002'] }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  findUsuarios(@Body() body: unknown) {
    return this.rpc.findUsuariosPorDocumentos(body);
  }

  @Post('import_asistencia')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import attendance punches (idempotent) and re-pair the affected days' })
  @ApiBody(
    object({
      origen: 'attlog.dat',
      registros: [{ doc: '40000001', fecha: '2026-11-20', hora: '08:01:00', modo: 'entrada' }],
    }),
  )
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  importAsistencia(@Body() body: unknown) {
    return this.rpc.importAsistencia(body);
  }

  @Post('asistencia_get')
  @HttpCode(200)
  @ApiOperation({ summary: "A person's raw punches and paired intervals for a range" })
  @ApiBody(object({ doc: '40000001', desde: '2026-11-01', hasta: '2026-11-30' }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  asistenciaGet(@Body() body: unknown) {
    return this.rpc.asistenciaGet(body);
  }

  @Post('asistencia_update_raw')
  @HttpCode(200)
  @ApiOperation({ summary: 'Correct a raw punch; the pairs are recalculated' })
  @ApiBody(object({ id_raw: 12, fecha: '2026-11-20', hora: '08:05:00', modo: 'entrada' }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  asistenciaUpdateRaw(@Body() body: unknown) {
    return this.rpc.asistenciaUpdateRaw(body);
  }

  @Post('asistencia_delete_raw')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a raw punch; the pairs are recalculated' })
  @ApiBody(object({ id_raw: 12 }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  asistenciaDeleteRaw(@Body() body: unknown) {
    return this.rpc.asistenciaDeleteRaw(body);
  }

  @Post('report_tickets')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Yearly ticket report: per month, count and total of closed comandas',
    description: 'year from the body, else the query; an integer 2000-2100, else the current year.',
  })
  @ApiQuery({ name: 'year', required: false })
  @ApiBody(object({ year: 2026 }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failedWithDiagnostics)
  reportTickets(@Body() body: unknown, @Query('year') year: unknown) {
    return this.rpc.reportTickets(body, year);
  }

  @Post('report_asistencia')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Attendance report per person',
    description: 'desde/hasta YYYY-MM-DD; otherwise the 30 days before today through today.',
  })
  @ApiBody(object({ desde: '2026-11-01', hasta: '2026-11-30' }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failedWithDiagnostics)
  reportAsistencia(@Body() body: unknown) {
    return this.rpc.reportAsistencia(body);
  }

  @Post('save_compra')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Insert (id_compra null) or update a purchase with its lines → {id_compra, total}',
  })
  @ApiBody(
    object({
      id_proveedor: 1,
      detalles: [
        { id_mat_prima: 3, cantidad: 10, costo_unitario: 4.2 },
        { id_producto: 31, cantidad: 24, costo_unitario: 2.5 },
      ],
    }),
  )
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failedWithDiagnostics)
  saveCompra(@Body() body: unknown) {
    return this.rpc.saveCompra(body);
  }

  @Post('get_compra')
  @HttpCode(200)
  @ApiOperation({ summary: 'A purchase with its lines, for editing' })
  @ApiBody(object({ id_compra: 5 }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  getCompra(@Body() body: unknown) {
    return this.rpc.getCompra(body);
  }

  @Post('delete_compra')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a purchase with its lines → {ok: true}' })
  @ApiBody(object({ id_compra: 5 }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse(failed)
  deleteCompra(@Body() body: unknown) {
    return this.rpc.deleteCompra(body);
  }

  @Post('report_gastos')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Yearly expenses: per month and per supplier (year: int, default current)',
  })
  @ApiBody(object({ year: 2026 }))
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse({
    type: ErrorBody,
    description: '{"error": "report_gastos failed", "message", "detail", "code"}',
  })
  reportGastos(@Body() body: unknown) {
    return this.rpc.reportGastos((body as { year?: unknown } | undefined)?.year);
  }

  @Get('report_gastos')
  @ApiOperation({ summary: 'Yearly expenses (query variant of POST report_gastos)' })
  @ApiQuery({ name: 'year', required: false })
  @ApiOkResponse(result)
  @ApiInternalServerErrorResponse({
    type: ErrorBody,
    description: '{"error": "report_gastos failed", "message", "detail", "code"}',
  })
  reportGastosQuery(@Query('year') year: unknown) {
    return this.rpc.reportGastos(year);
  }
}
