import { AsyncLocalStorage } from 'node:async_hooks';
import { InternalError } from '../errors/common.errors';

/**
 * A typed slot of the request context. A module declares its own keys and keeps them to itself
 * (the tenancy module's keys are private to `src/tenancy`), so only the owner reads or writes
 * its state and the compiler knows each value's type.
 */
export class ContextKey<T> {
  /** Phantom field: ties the key to its value type. */
  declare readonly valueType?: T;
  constructor(readonly description: string) {}
}

/** What every log line written during a request carries (see logging/logger.ts). */
export interface LogBindings {
  requestId?: string;
  tenant?: string;
  user?: number;
}

interface Store {
  readonly values: Map<ContextKey<unknown>, unknown>;
  readonly log: LogBindings;
}

const storage = new AsyncLocalStorage<Store>();

/**
 * The one request context of the service: an AsyncLocalStorage opened for each HTTP request
 * (after the body is parsed, see app.factory.ts) and by anything that runs outside a request on
 * purpose (CLI commands, imports, jobs: `RequestContext.run`). It behaves like a request scope
 * without rebuilding the DI graph per request. Logging reads its bindings; modules keep their
 * own state in it through their `ContextKey`s.
 */
export const RequestContext = {
  /**
   * Runs `work` in a new context (a nested call gets its own; the outer one is untouched).
   * `log` becomes the context's bindings object itself: `assignLog` adds to it, so whoever
   * passed it (the request logger) sees the tenant and user assigned during the request.
   */
  run<T>(log: LogBindings, work: () => T): T {
    return storage.run({ values: new Map(), log }, work);
  },

  /** Whether a context is active here. */
  get active(): boolean {
    return storage.getStore() !== undefined;
  },

  get<T>(key: ContextKey<T>): T | undefined {
    return storage.getStore()?.values.get(key) as T | undefined;
  },

  /** Sets a value of the active context; without one it is a bug, and says so. */
  set<T>(key: ContextKey<T>, value: T): void {
    const store = storage.getStore();
    if (!store) {
      const bug = new Error(`No request context is active (setting ${key.description})`);
      throw new InternalError('REQUEST_CONTEXT_MISSING', bug);
    }
    store.values.set(key, value);
  },

  /**
   * Runs `work` with `key` set to `value` for it (and what it awaits) alone: a nested context
   * that starts as a copy of the active one and shares its log bindings. Other work of the same
   * request running meanwhile does not see the value, and it is gone when `work` ends. Values
   * `work` sets stay in the nested context.
   */
  runWith<T, V>(key: ContextKey<V>, value: V, work: () => T): T {
    const store = storage.getStore();
    if (!store) {
      const bug = new Error(`No request context is active (setting ${key.description})`);
      throw new InternalError('REQUEST_CONTEXT_MISSING', bug);
    }
    const values = new Map(store.values);
    values.set(key, value);
    return storage.run({ values, log: store.log }, work);
  },

  /** The log bindings of the active context (undefined outside any context). */
  logBindings(): LogBindings | undefined {
    return storage.getStore()?.log;
  },

  /** Adds bindings to every later log line of the active context (no-op outside one). */
  assignLog(bindings: LogBindings): void {
    const store = storage.getStore();
    if (store) Object.assign(store.log, bindings);
  },
};
