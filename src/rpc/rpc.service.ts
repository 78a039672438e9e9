import { Injectable } from '@nestjs/common';
import { isConnectionError } from '../common/errors/pg-error.translator';
import { TenantContext } from '../tenancy/tenant-context';
import { RpcFailedError, type Diagnostics } from './rpc.errors';
import { RpcRepository, type StoreFunction } from './rpc.repository';
import {
  arrayOrEmpty,
  attendanceRange,
  compraInput,
  fieldsOf,
  materiaInput,
  productoInput,
  reportGastosYear,
  reportTicketsYear,
  resultOrEmpty,
  valueOr,
} from './rpc.rules';

/** Seed §4.2.2 rule 3: which operations add diagnostics to their 500 body. */
const DIAGNOSTICS: Partial<Record<StoreFunction, Diagnostics>> = {
  report_tickets: 'message-detail-where-code',
  report_asistencia: 'message-detail-where-code',
  save_compra: 'message-detail-where-code',
  report_gastos: 'message-detail-code',
};

/**
 * The business routes of seed §4.2.2: each applies the seed's input rules and calls one store
 * function. Success is the function's JSON ({} when empty); a failure is 500 with the body of
 * rule 3. An unreachable database stays a 503, like everywhere else.
 */
@Injectable()
export class RpcService {
  constructor(
    private readonly repository: RpcRepository,
    private readonly context: TenantContext,
  ) {}

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  private async call(fn: StoreFunction, args: unknown[]): Promise<unknown> {
    try {
      return resultOrEmpty(await this.repository.call(fn, args));
    } catch (error) {
      if (isConnectionError(error)) throw error;
      throw new RpcFailedError(fn, error, DIAGNOSTICS[fn] ?? 'none');
    }
  }

  getProducto(id: number) {
    return this.call('get_producto', [id]);
  }

  saveProducto(body: unknown) {
    return this.call('save_producto', [productoInput(body)]);
  }

  getMateria(id: number) {
    return this.call('get_materia', [id]);
  }

  saveMateria(body: unknown) {
    return this.call('save_materia', [materiaInput(body)]);
  }

  findUsuariosPorDocumentos(body: unknown) {
    const docs = arrayOrEmpty(fieldsOf(body).docs).map((doc) =>
      typeof doc === 'string' ? doc : String(doc),
    );
    return this.call('find_usuarios_por_documentos', [docs]);
  }

  importAsistencia(body: unknown) {
    const f = fieldsOf(body);
    const origen = typeof f.origen === 'string' ? f.origen : null;
    return this.call('import_asistencia', [arrayOrEmpty(f.registros), origen]);
  }

  asistenciaGet(body: unknown) {
    const f = fieldsOf(body);
    return this.call('asistencia_get', [f.doc, f.desde, f.hasta]);
  }

  asistenciaUpdateRaw(body: unknown) {
    const f = fieldsOf(body);
    return this.call('asistencia_update_raw', [
      f.id_raw,
      f.fecha,
      f.hora,
      valueOr(f, 'modo', null),
    ]);
  }

  asistenciaDeleteRaw(body: unknown) {
    return this.call('asistencia_delete_raw', [fieldsOf(body).id_raw]);
  }

  reportTickets(body: unknown, queryYear: unknown) {
    return this.call('report_tickets', [
      reportTicketsYear(fieldsOf(body).year, queryYear, this.timeZone),
      this.timeZone,
    ]);
  }

  reportAsistencia(body: unknown) {
    const f = fieldsOf(body);
    const range = attendanceRange(f.desde, f.hasta, this.timeZone);
    return this.call('report_asistencia', [range.desde, range.hasta]);
  }

  saveCompra(body: unknown) {
    return this.call('save_compra', [compraInput(body)]);
  }

  getCompra(body: unknown) {
    return this.call('get_compra', [fieldsOf(body).id_compra]);
  }

  deleteCompra(body: unknown) {
    return this.call('delete_compra', [fieldsOf(body).id_compra]);
  }

  reportGastos(year: unknown) {
    return this.call('report_gastos', [reportGastosYear(year, this.timeZone), this.timeZone]);
  }
}
