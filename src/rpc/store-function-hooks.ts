import { Injectable } from '@nestjs/common';
import type { Queryable } from '../database/sql';
import type { StoreFunction } from './store-functions';

/**
 * What a module does after a store function has run through the RPC routes, in the call's
 * transaction (`tx`): what it writes commits or rolls back with the function's work, and a
 * failure of it fails the call. `args` are the function's arguments as called, `result` its
 * JSON answer.
 */
export type StoreFunctionHook = (
  call: { args: readonly unknown[]; result: unknown },
  tx: Queryable,
) => Promise<void>;

/**
 * The rules other modules keep on what the store functions change (stock follows a purchase's
 * raw-material lines: src/inventario), registered when those modules start. The RPC routes run
 * them without knowing those modules; a function with hooks runs in a transaction of its own.
 */
@Injectable()
export class StoreFunctionHooks {
  private readonly hooks = new Map<StoreFunction, StoreFunctionHook[]>();

  /** Runs `hook` after every call of `fn` through the RPC routes. */
  register(fn: StoreFunction, hook: StoreFunctionHook): void {
    const hooks = this.hooks.get(fn);
    if (hooks) hooks.push(hook);
    else this.hooks.set(fn, [hook]);
  }

  has(fn: StoreFunction): boolean {
    return (this.hooks.get(fn)?.length ?? 0) > 0;
  }

  /** Runs the hooks of `fn`, in the order registered. */
  async run(fn: StoreFunction, call: { args: readonly unknown[]; result: unknown }, tx: Queryable) {
    for (const hook of this.hooks.get(fn) ?? []) await hook(call, tx);
  }
}
