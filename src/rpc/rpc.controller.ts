import { Body, Controller, Param, Query } from '@nestjs/common';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { ApiTag } from '../common/decorators';
import { ParseInt4IdPipe } from '../common/http/parse-id.pipe';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { AsistenciaGetDto, ReportAsistenciaDto } from './dto/asistencia.dto';
import { RpcService } from './rpc.service';
import { StoreFunctionRoute } from './store-function.decorators';

/**
 * The business routes (docs/rpc.md): one route per store function, switched off unless
 * FEATURE_RPC=true or the tenant's override. Bodies are read leniently (defaults, non-arrays
 * treated as empty); a failure of the function is 500 with its operation's diagnostics.
 */
@ApiTag(
  'rpc',
  'Business operations over store functions: recipes, raw materials, purchases, attendance, yearly reports',
)
@TenantScoped()
@RequiresFeature('rpc')
@RequirePermission('rpc:call')
@Controller('rpc')
export class RpcController {
  constructor(private readonly rpc: RpcService) {}

  @StoreFunctionRoute('get_producto', { get: true, id: true, summary: 'A product with its recipe' })
  getProducto(@Param('id', ParseInt4IdPipe) id: number) {
    return this.rpc.getProducto(id);
  }

  @StoreFunctionRoute('save_producto', {
    summary: 'Insert or update a product and replace its recipe → {id_producto}',
    example: {
      id_producto: null,
      nombre: 'Ceviche mixto',
      precio: 42,
      id_categoria: 1,
      receta: [{ id_mat_prima: 1, cantidad: 0.25 }],
    },
  })
  saveProducto(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.saveProducto(body, actor);
  }

  @StoreFunctionRoute('get_materia', {
    get: true,
    id: true,
    summary: 'A raw material with its suppliers',
  })
  getMateria(@Param('id', ParseInt4IdPipe) id: number) {
    return this.rpc.getMateria(id);
  }

  @StoreFunctionRoute('save_materia', {
    summary: 'Insert or update a raw material and replace its suppliers → {id_mat_prima}',
    example: { nombre: 'Limón', unidad: 'kg', proveedores: [{ id_proveedor: 2, precio: 4.5 }] },
  })
  saveMateria(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.saveMateria(body, actor);
  }

  @StoreFunctionRoute('find_usuarios_por_documentos', {
    summary: 'Users keyed by document number (a non-array docs is empty)',
    example: { docs: ['40000001', '40000002'] },
  })
  findUsuarios(@Body() body: unknown) {
    return this.rpc.findUsuariosPorDocumentos(body);
  }

  @StoreFunctionRoute('import_asistencia', {
    summary: 'Import attendance punches (idempotent) and re-pair the affected days',
    example: {
      origen: 'attlog.dat',
      registros: [{ doc: '40000001', fecha: '2026-11-20', hora: '08:01:00', modo: 'entrada' }],
    },
  })
  importAsistencia(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.importAsistencia(body, actor);
  }

  @StoreFunctionRoute('asistencia_get', {
    summary: "A person's raw punches and paired intervals for a range",
    description:
      'doc, desde and hasta are required: a missing or malformed one (a date that is not YYYY-MM-DD, ' +
      'a blank document) is 400 VALIDATION_FAILED naming it.',
    example: { doc: '40000001', desde: '2026-11-01', hasta: '2026-11-30' },
    validated: ['desde must be a date YYYY-MM-DD'],
    response: AsistenciaGetDto,
  })
  asistenciaGet(@Body() body: unknown) {
    return this.rpc.asistenciaGet(body);
  }

  @StoreFunctionRoute('asistencia_update_raw', {
    summary: 'Correct a raw punch; the pairs are recalculated',
    example: { id_raw: 12, fecha: '2026-11-20', hora: '08:05:00', modo: 'entrada' },
  })
  asistenciaUpdateRaw(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.asistenciaUpdateRaw(body, actor);
  }

  @StoreFunctionRoute('asistencia_delete_raw', {
    summary: 'Delete a raw punch; the pairs are recalculated',
    example: { id_raw: 12 },
  })
  asistenciaDeleteRaw(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.asistenciaDeleteRaw(body, actor);
  }

  @StoreFunctionRoute('report_tickets', {
    summary: 'Yearly ticket report: per month, count and total of closed comandas',
    description: 'year from the body, else the query; an integer 2000-2100, else the current year.',
    year: true,
    example: { year: 2026 },
  })
  reportTickets(@Body() body: unknown, @Query('year') year: unknown) {
    return this.rpc.reportTickets(body, year);
  }

  @StoreFunctionRoute('report_asistencia', {
    summary: 'Attendance report per person',
    description: 'desde/hasta YYYY-MM-DD; otherwise the 30 days before today through today.',
    example: { desde: '2026-11-01', hasta: '2026-11-30' },
    response: ReportAsistenciaDto,
  })
  reportAsistencia(@Body() body: unknown) {
    return this.rpc.reportAsistencia(body);
  }

  @StoreFunctionRoute('save_compra', {
    summary: 'Insert (id_compra null) or update a purchase with its lines → {id_compra, total}',
    example: {
      id_proveedor: 1,
      detalles: [
        { id_mat_prima: 3, cantidad: 10, costo_unitario: 4.2 },
        { id_producto: 31, cantidad: 24, costo_unitario: 2.5 },
      ],
    },
  })
  saveCompra(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.saveCompra(body, actor);
  }

  @StoreFunctionRoute('get_compra', {
    summary: 'A purchase with its lines, for editing',
    example: { id_compra: 5 },
  })
  getCompra(@Body() body: unknown) {
    return this.rpc.getCompra(body);
  }

  @StoreFunctionRoute('delete_compra', {
    summary: 'Delete a purchase with its lines → {ok: true}',
    example: { id_compra: 5 },
  })
  deleteCompra(@Body() body: unknown, @CurrentActor() actor: Actor) {
    return this.rpc.deleteCompra(body, actor);
  }

  @StoreFunctionRoute('report_gastos', {
    summary: 'Yearly expenses: per month and per supplier (year: int, default current)',
    example: { year: 2026 },
  })
  reportGastos(@Body() body: unknown) {
    return this.rpc.reportGastos((body as { year?: unknown } | undefined)?.year);
  }

  @StoreFunctionRoute('report_gastos', {
    get: true,
    year: true,
    summary: 'Yearly expenses (query variant of POST report_gastos)',
  })
  reportGastosQuery(@Query('year') year: unknown) {
    return this.rpc.reportGastos(year);
  }
}
