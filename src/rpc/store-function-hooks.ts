import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import type { Queryable } from '../database/sql';
import type { WritingStoreFunction } from './store-functions';

/**
 * One call of a store function through the RPC routes: its arguments as called, its JSON
 * answer, and who called it (the token's subject with AUTH_MODE=jwt; null without
 * authentication), for what the hooks record.
 */
export interface StoreFunctionCall {
  args: readonly unknown[];
  result: unknown;
  actor: Actor;
}

/**
 * What a module does after a store function has run through the RPC routes, in the call's
 * transaction (`tx`): what it writes commits or rolls back with the function's work, and a
 * failure of it fails the call.
 */
export type StoreFunctionHook = (call: StoreFunctionCall, tx: Queryable) => Promise<void>;

/**
 * The rules other modules keep on what the store functions change (stock follows a purchase's
 * raw-material lines: src/inventario), registered when those modules start. The RPC routes run
 * them without knowing those modules; a function with hooks runs in a transaction of its own.
 */
@Injectable()
export class StoreFunctionHooks {
  private readonly hooks = new Map<WritingStoreFunction, StoreFunctionHook[]>();

  /** Runs `hook` after every call of `fn` (a function that writes) through the RPC routes. */
  register(fn: WritingStoreFunction, hook: StoreFunctionHook): void {
    const hooks = this.hooks.get(fn);
    if (hooks) hooks.push(hook);
    else this.hooks.set(fn, [hook]);
  }

  has(fn: WritingStoreFunction): boolean {
    return (this.hooks.get(fn)?.length ?? 0) > 0;
  }

  /** Runs the hooks of `fn`, in the order registered. */
  async run(fn: WritingStoreFunction, call: StoreFunctionCall, tx: Queryable) {
    for (const hook of this.hooks.get(fn) ?? []) await hook(call, tx);
  }
}
