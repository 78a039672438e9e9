import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import { DomainError } from '../common/errors/domain-error';
import { isConnectionError } from '../common/errors/pg-error.translator';
import { TenantContext } from '../tenancy/tenant-context';
import { mergeRefused, splitStorable, storableOrigen } from './import-asistencia-input';
import { RpcFailedError } from './rpc.errors';
import { RpcRepository } from './rpc.repository';
import { StoreFunctionHooks } from './store-function-hooks';
import {
  STORE_FUNCTIONS,
  type ReadingStoreFunction,
  type StoreFunction,
  type WritingStoreFunction,
} from './store-functions';
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

  /** A function that only reads. */
  private read(fn: ReadingStoreFunction, args: unknown[]): Promise<unknown> {
    return this.failures(fn, async () => resultOrEmpty(await this.repository.call(fn, args)));
  }

  /**
   * A function that changes rows, called by `actor`: another module's rules follow its changes
   * (hooks), in the same transaction, and record the actor as who did it.
   */
  private write(fn: WritingStoreFunction, args: unknown[], actor: Actor): Promise<unknown> {
    return this.failures(fn, async () => {
      if (!this.hooks.has(fn)) return resultOrEmpty(await this.repository.call(fn, args));
      return this.repository.transaction(async (tx) => {
        const result = await this.repository.call(fn, args);
        await this.hooks.run(fn, { args, result, actor }, tx);
        return resultOrEmpty(result);
      });
    });
  }

  /** A failure of the function is its 500 with diagnostics; a domain error or 503 stays one. */
  private async failures(fn: StoreFunction, work: () => Promise<unknown>): Promise<unknown> {
    try {
      return await work();
    } catch (error) {
      if (isConnectionError(error) || error instanceof DomainError) throw error;
      throw new RpcFailedError(fn, error, STORE_FUNCTIONS[fn].diagnostics);
    }
  }

  getProducto(id: number) {
    return this.read('get_producto', [id]);
  }

  saveProducto(body: unknown, actor: Actor) {
    return this.write('save_producto', [productoInput(body)], actor);
  }

  getMateria(id: number) {
    return this.read('get_materia', [id]);
  }

  saveMateria(body: unknown, actor: Actor) {
    return this.write('save_materia', [materiaInput(body)], actor);
  }

  findUsuariosPorDocumentos(body: unknown) {
    const docs = arrayOrEmpty(fieldsOf(body).docs).map((doc) =>
      typeof doc === 'string' ? doc : String(doc),
    );
    return this.read('find_usuarios_por_documentos', [docs]);
  }

  /**
   * Records holding text PostgreSQL cannot store (NUL, unpaired surrogates) would fail the jsonb
   * cast of the whole call: they are left out of it and reported in `invalidos` at their index,
   * so the good ones are stored.
   */
  async importAsistencia(body: unknown, actor: Actor) {
    const f = fieldsOf(body);
    const registros = arrayOrEmpty(f.registros);
    const split = splitStorable(registros);
    const result = await this.write(
      'import_asistencia',
      [split.kept, storableOrigen(f.origen)],
      actor,
    );
    return mergeRefused(result, registros.length, split);
  }

  asistenciaGet(body: unknown) {
    const { doc, desde, hasta } = attendanceQueryInput(body);
    return this.read('asistencia_get', [doc, desde, hasta]);
  }

  asistenciaUpdateRaw(body: unknown, actor: Actor) {
    const f = fieldsOf(body);
    return this.write(
      'asistencia_update_raw',
      [f.id_raw, f.fecha, f.hora, valueOr(f, 'modo', null)],
      actor,
    );
  }

  asistenciaDeleteRaw(body: unknown, actor: Actor) {
    return this.write('asistencia_delete_raw', [fieldsOf(body).id_raw], actor);
  }

  reportTickets(body: unknown, queryYear: unknown) {
    return this.read('report_tickets', [
      reportTicketsYear(fieldsOf(body).year, queryYear, this.timeZone),
      this.timeZone,
    ]);
  }

  reportAsistencia(body: unknown) {
    const f = fieldsOf(body);
    const range = attendanceRange(f.desde, f.hasta, this.timeZone);
    return this.read('report_asistencia', [range.desde, range.hasta]);
  }

  saveCompra(body: unknown, actor: Actor) {
    return this.write('save_compra', [compraInput(body)], actor);
  }

  getCompra(body: unknown) {
    return this.read('get_compra', [fieldsOf(body).id_compra]);
  }

  deleteCompra(body: unknown, actor: Actor) {
    return this.write('delete_compra', [fieldsOf(body).id_compra], actor);
  }

  reportGastos(year: unknown) {
    return this.read('report_gastos', [reportGastosYear(year, this.timeZone), this.timeZone]);
  }
}
