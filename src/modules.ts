import type { ComandaExtensionContract } from './comandas/comanda-contract';
import { installModules, loadModules, type LoadedModule } from './module-plugin';
import { RESERVAS_PLUGIN } from './reservas/reservas.plugin';
import { DEVICE_DRIVERS_PLUGIN } from './device-drivers/device-drivers.plugin';
import { GENERIC_TABLES_PLUGIN } from './generic-tables/generic-tables.plugin';
import { RPC_PLUGIN } from './rpc/rpc.plugin';
import { SIGN_IN_PLUGIN } from './sign-in/sign-in.plugin';
import { COBROS_PLUGIN } from './cobros/cobros.plugin';
import { INVENTARIO_PLUGIN } from './inventario/inventario.plugin';
import { COCINA_PLUGIN } from './cocina/cocina.plugin';
import { REPORTES_PLUGIN } from './reportes/reportes.plugin';
import { WEBHOOKS_PLUGIN } from './webhooks/webhooks.plugin';

/**
 * The application's modules beyond the shared ones (tenancy, auth, health, comandas, outbox,
 * catalog, idempotency: src/app.module.ts), one line each (docs/adding-a-module.md). Their order
 * is the order of:
 * - their permissions after the comandas' own (`/me`, the token CLI) and of their features
 *   (`GET /api/v1/tenant`, the CLI);
 * - the comanda extensions (cobros, inventario, cocina): their actions after the comanda's own
 *   in `acciones` and the state machine, their fields after the comanda's in the answers, and
 *   their hooks on every change of a comanda: the money's rules first (a close is refused
 *   before the stock or the kitchen do anything), then the stock's, then the kitchen's;
 * - their Nest modules among the root module's imports.
 *
 * Reading this file installs them: their features, permissions and migrations join what the
 * configuration, the permission checks and the migrations read.
 */
export const MODULES = installModules([
  RESERVAS_PLUGIN,
  DEVICE_DRIVERS_PLUGIN,
  GENERIC_TABLES_PLUGIN,
  RPC_PLUGIN,
  SIGN_IN_PLUGIN,
  COBROS_PLUGIN,
  INVENTARIO_PLUGIN,
  COCINA_PLUGIN,
  REPORTES_PLUGIN,
  WEBHOOKS_PLUGIN,
]);

/** The modules' Nest modules and what they add, in the list's order (loaded on first use). */
export function loadedModules(): LoadedModule[] {
  return loadModules(MODULES);
}

/** The comanda extensions, in the list's order (ComandasModule.extendWith). */
export function comandaExtensions(): ComandaExtensionContract[] {
  return loadedModules().flatMap(({ comandaExtension }) =>
    comandaExtension ? [comandaExtension] : [],
  );
}
