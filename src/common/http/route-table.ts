import { Injectable, RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { RoutePlans, type RouteTargets } from './route-plans';

export interface RouteEntry {
  /** Upper-case HTTP method. */
  method: string;
  /** The path as Express registered it (`/api/v1/comandas/:id`). */
  path: string;
  targets: RouteTargets;
  matches(path: string): boolean;
}

/** Decides whether a route is served for the current request (e.g. its feature is on). */
export type RouteAvailability = (route: RouteEntry) => boolean;

/** What Express 5's router keeps of a route (the `router` package's Layer). */
interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match?: (path: string) => boolean;
}

const normalise = (...parts: string[]) =>
  parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');

/**
 * Every route of the application, read once after start-up from the router (paths and methods)
 * and Nest's metadata (handler and controller). It answers what HTTP clients expect from a path
 * called with a method it does not serve: 405 with the methods it does serve (`Allow`),
 * counting only the routes that are served for this request (a switched-off feature stays a
 * path that does not exist: the module that owns the switch registers an availability check).
 */
@Injectable()
export class RouteTable {
  private routes: RouteEntry[] = [];
  private readonly checks: RouteAvailability[] = [];
  private readonly plans: RoutePlans<unknown>[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  /** A module that can switch routes off tells the table how to ask. */
  addAvailabilityCheck(check: RouteAvailability): void {
    this.checks.push(check);
  }

  /**
   * Route plans of a guard or check (route-plans.ts): `load` builds the plan of every route at
   * start-up, so no request reads decorator metadata.
   */
  plansOf<T>(build: (targets: RouteTargets) => T): RoutePlans<T> {
    const plans = new RoutePlans(build);
    this.plans.push(plans);
    for (const route of this.routes) plans.prime(route.targets);
    return plans;
  }

  /** Reads the routes of the application (after `app.init()`). */
  load(app: NestExpressApplication): void {
    const handlers = this.handlers();
    const express = app.getHttpAdapter().getInstance() as {
      router?: { stack: ExpressLayer[] };
    };
    const routes: RouteEntry[] = [];
    for (const layer of express.router?.stack ?? []) {
      const match = layer.match;
      if (!layer.route || typeof match !== 'function') continue;
      const methods = Object.keys(layer.route.methods).map((m) => m.toUpperCase());
      if (methods.length !== 1) continue; // middleware mounted for every method
      const [method] = methods;
      const targets = this.targetsOf(handlers, method, layer.route.path);
      if (!targets) continue; // not a controller route (the OpenAPI pages)
      routes.push({
        method,
        path: layer.route.path,
        targets,
        matches: (path) => match.call(layer, path),
      });
    }
    this.routes = routes;
    for (const plans of this.plans) for (const route of routes) plans.prime(route.targets);
  }

  /** All the routes read (tests, documentation). */
  get entries(): readonly RouteEntry[] {
    return this.routes;
  }

  /**
   * The methods `path` is served with for the current request, `HEAD` with `GET`; empty when
   * the path does not exist (or only exists switched off).
   */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (!route.matches(path) || !this.checks.every((check) => check(route))) continue;
      methods.add(route.method);
      if (route.method === 'GET') methods.add('HEAD');
    }
    return [...methods].sort();
  }

  /** Every controller handler with its method and the end of its path (`comandas/:id`). */
  private handlers(): { method: string; suffix: string; targets: RouteTargets }[] {
    const out: { method: string; suffix: string; targets: RouteTargets }[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as Type | undefined;
      if (!controller) continue;
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as RouteTargets[0];
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        out.push({
          method: RequestMethod[method],
          suffix: normalise(base, path),
          targets: [handler, controller],
        });
      }
    }
    return out;
  }

  /** The handler whose path is the longest tail of the registered path (prefix and version aside). */
  private targetsOf(
    handlers: { method: string; suffix: string; targets: RouteTargets }[],
    method: string,
    path: string,
  ): RouteTargets | undefined {
    const registered = `/${normalise(path)}`;
    let best: { suffix: string; targets: RouteTargets } | undefined;
    for (const handler of handlers) {
      if (handler.method !== method) continue;
      if (!registered.endsWith(`/${handler.suffix}`)) continue;
      if (!best || handler.suffix.length > best.suffix.length) best = handler;
    }
    return best?.targets;
  }
}
