import type { ExecutionContext, Type } from '@nestjs/common';

/** The handler and controller of a route, for reading their metadata. */
export type RouteTargets = [handler: (...args: unknown[]) => unknown, controller: Type];

/**
 * What a guard or a check needs to know of a route (its feature, permission, body types ...),
 * read from the decorators' metadata once per route instead of through `Reflector` on every
 * request. The RouteTable builds every route's plan at start-up (`prime`); a handler it did not
 * see (a test's probe controller) gets its plan on its first request.
 */
export class RoutePlans<T> {
  private readonly plans = new Map<object, T>();

  constructor(private readonly build: (targets: RouteTargets) => T) {}

  /** The plan of the route an HTTP request is being handled by. */
  of(context: ExecutionContext): T {
    const handler = context.getHandler();
    const plan = this.plans.get(handler);
    return plan !== undefined ? plan : this.prime([handler, context.getClass()] as RouteTargets);
  }

  /** Builds (once) and returns the plan of a route. */
  prime(targets: RouteTargets): T {
    let plan = this.plans.get(targets[0]);
    if (plan === undefined) {
      plan = this.build(targets);
      this.plans.set(targets[0], plan);
    }
    return plan;
  }
}

/** The value of a metadata key on the handler, else on its controller (Reflector's override). */
export function routeMetadata<V>(key: string, [handler, controller]: RouteTargets): V | undefined {
  return (Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller)) as
    V | undefined;
}
