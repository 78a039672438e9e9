import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { StoreFunctionsCatalog1764200000000 } from '../../../src/database/migrations/tenant/1764200000000-store-functions-catalog';
import { StoreFunctionsCompras1764200000001 } from '../../../src/database/migrations/tenant/1764200000001-store-functions-compras';
import { StoreFunctionsAsistencia1764200000002 } from '../../../src/database/migrations/tenant/1764200000002-store-functions-asistencia';
import { StoreFunctionsReports1764200000003 } from '../../../src/database/migrations/tenant/1764200000003-store-functions-reports';
import { ComandaEventsNotify1764600000000 } from '../../../src/database/migrations/tenant/1764600000000-comanda-events-notify';
import { Cobros1764900000000 } from '../../../src/database/migrations/tenant/1764900000000-cobros';
import { Inventario1765000000000 } from '../../../src/database/migrations/tenant/1765000000000-inventario';
import { Cocina1765100000000 } from '../../../src/database/migrations/tenant/1765100000000-cocina';
import { ReportesVentas1765300000000 } from '../../../src/database/migrations/tenant/1765300000000-reportes-ventas';
import { InventarioCierre1765300000002 } from '../../../src/database/migrations/tenant/1765300000002-inventario-cierre';
import { Webhooks1765400000000 } from '../../../src/database/migrations/tenant/1765400000000-webhooks';
import { WebhooksSinNotify1765500000200 } from '../../../src/database/migrations/tenant/1765500000200-webhooks-sin-notify';
import { InventarioUsuarioCompra1765500000300 } from '../../../src/database/migrations/tenant/1765500000300-inventario-usuario-compra';
import { FuncionesApagadas1765600000000 } from '../../../src/database/migrations/tenant/1765600000000-funciones-apagadas';
import { FinDeSesiones1765500000400 } from '../../../src/database/migrations/tenant/1765500000400-fin-de-sesiones';
import { AccionesComanda1765500000500 } from '../../../src/database/migrations/tenant/1765500000500-acciones-comanda';
import { SqlSource1796150766861 } from '../../../src/database/migrations/tenant/1796150766861-sql-source';
import { ReglasDelDinero1796152894424 } from '../../../src/database/migrations/tenant/1796152894424-reglas-del-dinero';
import { IgvVigencias1796164384400 } from '../../../src/database/migrations/tenant/1796164384400-igv-vigencias';
import { TestDatabases } from '../../support/test-databases';

/**
 * Integration specs of the store functions shipped by the tenant migrations
 * (src/database/migrations/tenant/17642000000*-store-functions-*.ts): each function is called
 * with SQL on a real, migrated tenant database (no HTTP), and both its JSON result and the
 * tables afterwards are asserted. docs/rpc.md describes the rules tested here.
 *
 * This file: the store-function migrations themselves (down, then up again).
 */

describe('store functions (tenant migrations, called with SQL)', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });
  afterAll(() => dbs.drop());

  describe('the migrations', () => {
    /** Objects of schema public besides the domain schema's tables and view. */
    const extras = (slug: string) =>
      dbs.query<{ nombre: string }>(
        dbs.tenantUrl(slug),
        `SELECT p.proname AS nombre FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
         UNION ALL
         SELECT c.relname FROM pg_class c
          WHERE c.relnamespace = 'public'::regnamespace AND c.relname = 'parametros'
         ORDER BY 1`,
      );

    it('down drops exactly what up created, and up again restores it', async () => {
      await dbs.createTenant('migraciones');
      const creado = (await extras('migraciones')).map((r) => r.nombre);
      expect(creado).toEqual(
        expect.arrayContaining([
          'parametros',
          'get_producto',
          'save_producto',
          'import_asistencia',
          'asistencia_recalcular',
          'report_gastos',
        ]),
      );
      const client = new Client({ connectionString: dbs.tenantUrl('migraciones') });
      await client.connect();
      try {
        const runner = { query: (sql: string) => client.query(sql) } as unknown as QueryRunner;
        const storeFunctions = [
          new StoreFunctionsCatalog1764200000000(),
          new StoreFunctionsCompras1764200000001(),
          new StoreFunctionsAsistencia1764200000002(),
          new StoreFunctionsReports1764200000003(),
          // the audit trail's NOTIFY trigger function (live updates)
          new ComandaEventsNotify1764600000000(),
          // the money's SQL functions (cuenta_comanda, figuras_sesion_caja), with its tables
          new Cobros1764900000000(),
          // the stock's store functions (stock_asentar ...), with its tables
          new Inventario1765000000000(),
          // the kitchen's store functions (cocina_emitir, cocina_dividir_linea), with its tables
          new Cocina1765100000000(),
          // the sales report's read model (reportes_refrescar and its triggers), with its tables
          new ReportesVentas1765300000000(),
          // the close's consumption written once (inventario_consumir_comanda, replaced)
          new InventarioCierre1765300000002(),
          // the webhooks' outbox triggers (webhooks_encolar ...), with their tables
          new Webhooks1765400000000(),
          // the outbox's triggers without their NOTIFY (webhooks_encolar, webhooks_comanda_eventos, replaced)
          new WebhooksSinNotify1765500000200(),
          // a purchase's stock movements name who saved it (inventario_sincronizar_compra, replaced)
          new InventarioUsuarioCompra1765500000300(),
          // a deactivation ends the user's sessions (usuarios_fin_de_sesiones), with its column
          new FinDeSesiones1765500000400(),
          // the audit trail's actions as rows (acciones_comanda): its down gives back the CHECK
          // the downs of cobros and cocina rewrite
          new AccionesComanda1765500000500(),
          // the triggers of a feature skip while it is off (reportes_seguimiento), with its column
          new FuncionesApagadas1765600000000(),
          // every function, trigger and view as its file of src/<module>/sql/ has it (docs/sql.md)
          new SqlSource1796150766861(),
          // the money's rules written once: igv_tasa, comanda_descuento, monto_neto, ventas,
          // ventas_lineas, and cuenta_comanda and reportes_refrescar asking them (replaced)
          new ReglasDelDinero1796152894424(),
          // the IGV rates' periods (igv_vigencias) a sale joins (ventas, igv_tasa replaced)
          new IgvVigencias1796164384400(),
        ];
        for (const migration of [...storeFunctions].reverse()) await migration.down(runner);
        expect(await extras('migraciones')).toEqual([]);
        for (const migration of storeFunctions) await migration.up(runner);
      } finally {
        await client.end();
      }
      expect((await extras('migraciones')).map((r) => r.nombre)).toEqual(creado);
    });
  });
});
