import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { isConnectionError } from '../common/errors/pg-error.translator';
import { TenantContext } from '../tenancy/tenant-context';
import { mergeRefused, splitStorable, storableOrigen } from './import-asistencia-input';
import { RpcFailedError } from './rpc.errors';
import { RpcRepository } from './rpc.repository';
import { StoreFunctionHooks } from './store-function-hooks';
import { STORE_FUNCTIONS, type StoreFunction } from './store-functions';
import {
  arrayOrEmpty,
  attendanceQueryInput,
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

/**
 * The business RPC routes (docs/api-contract.md, RPC routes): each applies the input rules and
 * calls one store function. Success is the function's JSON ({} when empty); a failure is 500
 * `{error: "<operation> failed"}` with the operation's diagnostics. An unreachable database
 * stays a 503, like everywhere else.
 */
@Injectable()
export class RpcService {
  constructor(
    private readonly repository: RpcRepository,
    private readonly context: TenantContext,
    private readonly hooks: StoreFunctionHooks,
  ) {}

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  private async call(fn: StoreFunction, args: unknown[]): Promise<unknown> {
    try {
      if (!this.hooks.has(fn)) return resultOrEmpty(await this.repository.call(fn, args));
      // another module's rules follow the function's changes, in the same transaction
      return await this.repository.transaction(async (tx) => {
        const result = await this.repository.call(fn, args);
        await this.hooks.run(fn, { args, result }, tx);
        return resultOrEmpty(result);
      });
    } catch (error) {
      if (isConnectionError(error) || error instanceof DomainError) throw error;
      throw new RpcFailedError(fn, error, STORE_FUNCTIONS[fn].diagnostics);
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

  /**
   * Records holding text PostgreSQL cannot store (NUL, unpaired surrogates) would fail the jsonb
   * cast of the whole call: they are left out of it and reported in `invalidos` at their index,
   * so the good ones are stored.
   */
  async importAsistencia(body: unknown) {
    const f = fieldsOf(body);
    const registros = arrayOrEmpty(f.registros);
    const split = splitStorable(registros);
    const result = await this.call('import_asistencia', [split.kept, storableOrigen(f.origen)]);
    return mergeRefused(result, registros.length, split);
  }

  asistenciaGet(body: unknown) {
    const { doc, desde, hasta } = attendanceQueryInput(body);
    return this.call('asistencia_get', [doc, desde, hasta]);
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
