import type { MigrationInterface } from 'typeorm';
import { DomainSchema1764000000000 } from './1764000000000-domain-schema';
import { StoreFunctionsCatalog1764200000000 } from './1764200000000-store-functions-catalog';
import { StoreFunctionsCompras1764200000001 } from './1764200000001-store-functions-compras';
import { StoreFunctionsAsistencia1764200000002 } from './1764200000002-store-functions-asistencia';
import { StoreFunctionsReports1764200000003 } from './1764200000003-store-functions-reports';
import { Reservas1764400000000 } from './1764400000000-reservas';
import { FloorOperations1764500000000 } from './1764500000000-floor-operations';
import { ComandaEventsNotify1764600000000 } from './1764600000000-comanda-events-notify';
import { SetBasedAttendanceImport1764700000000 } from './1764700000000-set-based-attendance-import';
import { Credenciales1764800000000 } from './1764800000000-credenciales';
import { Cobros1764900000000 } from './1764900000000-cobros';
import { Inventario1765000000000 } from './1765000000000-inventario';
import { Cocina1765100000000 } from './1765100000000-cocina';
import { Reportes1765200000000 } from './1765200000000-reportes';
import { ReportesVentas1765300000000 } from './1765300000000-reportes-ventas';
import { InventarioIndices1765300000001 } from './1765300000001-inventario-indices';
import { InventarioCierre1765300000002 } from './1765300000002-inventario-cierre';
import { Webhooks1765400000000 } from './1765400000000-webhooks';
import { IntentosAcceso1765500000000 } from './1765500000000-intentos-acceso';
import { WebhooksSinNotify1765500000200 } from './1765500000200-webhooks-sin-notify';
import { InventarioUsuarioCompra1765500000300 } from './1765500000300-inventario-usuario-compra';
import { FinDeSesiones1765500000400 } from './1765500000400-fin-de-sesiones';
import { AccionesComanda1765500000500 } from './1765500000500-acciones-comanda';
import { FuncionesApagadas1765600000000 } from './1765600000000-funciones-apagadas';
import { SqlSource1796150766861 } from './1796150766861-sql-source';
import { ReglasDelDinero1796152894424 } from './1796152894424-reglas-del-dinero';
import { FuncionesApagadasArchivos1796154253222 } from './1796154253222-funciones-apagadas-archivos';
import { IgvVigencias1796164384400 } from './1796164384400-igv-vigencias';

/**
 * The tenant migrations kept here, oldest first: the domain's and those written before the
 * modules kept their own (src/<module>/migrations/). `tenantMigrations()` (../module-migrations.ts)
 * is every tenant database's history: these and the modules', merged by timestamp.
 */
export const SHARED_TENANT_MIGRATIONS: (new () => MigrationInterface)[] = [
  DomainSchema1764000000000,
  StoreFunctionsCatalog1764200000000,
  StoreFunctionsCompras1764200000001,
  StoreFunctionsAsistencia1764200000002,
  StoreFunctionsReports1764200000003,
  Reservas1764400000000,
  FloorOperations1764500000000,
  ComandaEventsNotify1764600000000,
  SetBasedAttendanceImport1764700000000,
  Credenciales1764800000000,
  Cobros1764900000000,
  Inventario1765000000000,
  Cocina1765100000000,
  Reportes1765200000000,
  ReportesVentas1765300000000,
  InventarioIndices1765300000001,
  InventarioCierre1765300000002,
  Webhooks1765400000000,
  IntentosAcceso1765500000000,
  WebhooksSinNotify1765500000200,
  InventarioUsuarioCompra1765500000300,
  FinDeSesiones1765500000400,
  AccionesComanda1765500000500,
  FuncionesApagadas1765600000000,
  SqlSource1796150766861,
  ReglasDelDinero1796152894424,
  FuncionesApagadasArchivos1796154253222,
  IgvVigencias1796164384400,
];
