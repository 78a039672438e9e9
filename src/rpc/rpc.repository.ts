import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../tenancy/tenant-repository';
import { STORE_FUNCTIONS, type StoreFunction } from './store-functions';

/** Calls one store function with bound, typed parameters; returns its JSON result. */
@Injectable()
export class RpcRepository extends TenantRepository {
  async call(fn: StoreFunction, args: unknown[]): Promise<unknown> {
    const types = STORE_FUNCTIONS[fn].params;
    const params = types.map((type, i) =>
      type === 'jsonb' ? JSON.stringify(args[i] ?? null) : (args[i] ?? null),
    );
    const placeholders = types.map((type, i) => `$${i + 1}::${type}`).join(', ');
    const rows = await this.db.query<{ result: unknown }[]>(
      `SELECT public.${fn}(${placeholders}) AS result`,
      params,
    );
    return rows[0]?.result;
  }
}
