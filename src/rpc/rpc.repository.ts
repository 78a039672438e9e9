import { Injectable } from '@nestjs/common';
import { TenantContext } from '../tenancy/tenant-context';

/** The store functions of the tenant migrations and the types of their parameters. */
export const STORE_FUNCTIONS = {
  get_producto: ['integer'],
  save_producto: ['jsonb'],
  get_materia: ['integer'],
  save_materia: ['jsonb'],
  find_usuarios_por_documentos: ['text[]'],
  import_asistencia: ['jsonb', 'text'],
  asistencia_get: ['text', 'date', 'date'],
  asistencia_update_raw: ['bigint', 'date', 'text', 'text'],
  asistencia_delete_raw: ['bigint'],
  report_tickets: ['integer', 'text'],
  report_asistencia: ['date', 'date'],
  save_compra: ['jsonb'],
  get_compra: ['integer'],
  delete_compra: ['integer'],
  report_gastos: ['integer', 'text'],
} as const;

export type StoreFunction = keyof typeof STORE_FUNCTIONS;

/** Calls one store function with bound, typed parameters; returns its JSON result. */
@Injectable()
export class RpcRepository {
  constructor(private readonly context: TenantContext) {}

  async call(fn: StoreFunction, args: unknown[]): Promise<unknown> {
    const types = STORE_FUNCTIONS[fn];
    const params = types.map((type, i) =>
      type === 'jsonb' ? JSON.stringify(args[i] ?? null) : (args[i] ?? null),
    );
    const placeholders = types.map((type, i) => `$${i + 1}::${type}`).join(', ');
    const rows = await this.context.dataSource.query<{ result: unknown }[]>(
      `SELECT public.${fn}(${placeholders}) AS result`,
      params,
    );
    return rows[0]?.result;
  }
}
