/**
 * Demo data of a tenant: a Lima-style cevichería with a year of order tickets, a year of
 * purchases, the stock ledger they and the sales make, and a month of staff attendance.
 *
 * Deterministic: one mulberry32 generator with a fixed seed drives every choice, so the same
 * `today` always gives the same rows, ids, names and amounts. Every date is an offset in days
 * before `today`; nothing is placed on `today` itself or later, so no demo row lies in the
 * future whatever the hour of provisioning. Timestamps are built in SQL from (days before
 * today, seconds after local midnight) and converted with `AT TIME ZONE` of the tenant.
 *
 * Each table is one bulk INSERT ... SELECT FROM jsonb_to_recordset($1) (every value is a
 * bound parameter). Keys are assigned here in chronological order and the identity sequences
 * are moved past them at the end. Totals and summaries are computed in SQL from the generated
 * subtotal columns, so they equal what the database itself would compute.
 *
 * restaurant.ts holds the fixed definitions (menu, suppliers, staff, customers), sections/ one
 * function per group of tables, seed-helpers.ts what the sections share (the generator, exact
 * decimal texts, the SQL of a timestamp); seedDemoData below runs the sections in order.
 */

import { seedAttendance } from './sections/attendance';
import { seedCatalogue } from './sections/catalogue';
import { seedCobros } from './sections/cobros';
import { seedCocina, seedKitchenStations } from './sections/cocina';
import { seedComandas } from './sections/comandas';
import { seedCustomersAndTables } from './sections/customers';
import { seedInventario } from './sections/inventario';
import { seedStaff } from './sections/staff';
import { seedPurchases, seedSuppliers } from './sections/suppliers';
import {
  type DemoDataSummary,
  type DemoQuery,
  type DemoSeed,
  Documentos,
  Rng,
  parseToday,
} from './seed-helpers';

export type { DemoDataSummary, DemoQuery, DemoTable } from './seed-helpers';

export interface DemoDataOptions {
  /** YYYY-MM-DD, the provisioning day in the tenant time zone. */
  today: string;
  /** IANA time zone of the tenant (e.g. America/Lima). */
  timeZone: string;
  /**
   * The share of the restaurant's tickets per day, in (0, 1]: 1 (the default) is the demo as a
   * restaurant would see it, 60–150 a day; 0.01 gives one a day, for benchmarks and tests that
   * need many small tenants.
   */
  scale?: number;
}

const SEED = 0x0ce71c4e;

/**
 * Inserts the demo data into an empty, migrated tenant database. The caller runs it inside
 * one transaction. Returns the number of rows inserted per table.
 *
 * The sections run in this order because they draw from one generator one after the other:
 * moving a section, or a draw within one, changes every value drawn after it.
 */
export async function seedDemoData(
  query: DemoQuery,
  options: DemoDataOptions,
): Promise<DemoDataSummary> {
  const todayUtc = parseToday(options.today);
  const scale = options.scale ?? 1;
  if (!(scale > 0 && scale <= 1)) {
    throw new Error(`demo data: "scale" must be a number in (0, 1], got ${String(options.scale)}`);
  }
  const rng = new Rng(SEED);
  const seed: DemoSeed = {
    query,
    today: options.today,
    timeZone: options.timeZone,
    scale,
    todayUtc,
    rng,
    documentos: new Documentos(rng),
  };

  // a year of rows is sorted, joined and indexed in memory, not in temporary files, and its
  // few large statements are not compiled by the JIT (which costs more than it saves on them);
  // these settings end with the transaction (temp_buffers must come before the first
  // temporary table)
  await query(
    `SELECT set_config('temp_buffers', '128MB', true), set_config('work_mem', '128MB', true),
            set_config('maintenance_work_mem', '256MB', true), set_config('jit', 'off', true)`,
  );
  await query(REPORT_TRIGGERS.map(([t, g]) => `ALTER TABLE ${t} DISABLE TRIGGER ${g}`).join(';\n'));
  const staff = await seedStaff(seed);
  const catalogue = await seedCatalogue(seed);
  const suppliers = await seedSuppliers(seed);
  const customers = await seedCustomersAndTables(seed);
  await seedKitchenStations(seed);
  const tickets = await seedComandas(seed);
  const purchases = await seedPurchases(seed);
  const attendance = await seedAttendance(seed);
  const cobros = await seedCobros(seed);
  const inventario = await seedInventario(seed);
  await seedCocina(seed);
  await continueIdentities(query);
  // every closed comanda is logged for the sales report's read model (finishDemoData, else the
  // first report, computes it)
  await query(
    [
      ...REPORT_TRIGGERS.map(([t, g]) => `ALTER TABLE ${t} ENABLE TRIGGER ${g}`),
      `INSERT INTO reportes_cambios (id_comanda)
         SELECT id_comanda FROM comandas WHERE estado = 'cerrada' AND NOT eliminada`,
    ].join(';\n'),
  );

  return {
    roles: staff.roles,
    usuarios: staff.usuarios,
    usua_roles: staff.usua_roles,
    categorias: catalogue.categorias,
    productos: catalogue.productos,
    clientes: customers.clientes,
    mesas: customers.mesas,
    comandas: tickets.comandas,
    deta_comandas: tickets.deta_comandas,
    comanda_eventos: tickets.comanda_eventos,
    proveedores: suppliers.proveedores,
    mate_primas: catalogue.mate_primas,
    compras: purchases.compras + inventario.compras,
    deta_comp_producto: purchases.deta_comp_producto,
    deta_comp_materias: purchases.deta_comp_materias + inventario.deta_comp_materias,
    prov_producto: suppliers.prov_producto,
    prov_mate_prima: suppliers.prov_mate_prima,
    receta_producto: catalogue.receta_producto,
    asistencia_detalle: attendance.asistencia_detalle,
    asistencia_intervalo: attendance.asistencia_intervalo,
    asistencia_resumen_diario: attendance.asistencia_resumen_diario,
    sesiones_caja: cobros.sesiones_caja,
    pagos: cobros.pagos,
    stock_movimientos: inventario.stock_movimientos,
    mermas: inventario.mermas,
    conteos: inventario.conteos,
  };
}

/**
 * What follows the demo's commit: the planner's statistics of the tables just filled (without
 * them the first reports over the year, before autovacuum gets to the new database, plan for
 * empty tables and take seconds instead of a fraction of one), then the sales report's read
 * model computed for the year (docs/reportes.md) and its statistics. Outside the demo's
 * transaction, so that `npm start` can serve while it runs; the tenant CLI waits for it.
 */
export async function finishDemoData(query: DemoQuery, timeZone: string): Promise<void> {
  await query(`ANALYZE ${ANALYZED.join(', ')}`);
  await query('SELECT reportes_refrescar($1)', [timeZone]);
  await query('ANALYZE reporte_ventas, reporte_ventas_productos, reporte_ventas_metodos');
}

/** Moves the identity sequences past the keys given by the demo, so new rows continue after them. */
async function continueIdentities(query: DemoQuery): Promise<void> {
  await query(
    `SELECT ${IDENTITIES.map(
      ([table, column]) =>
        `setval(pg_get_serial_sequence('${table}', '${column}'),
                (SELECT coalesce(max(${column}), 0) + 1 FROM ${table}), false)`,
    ).join(',\n            ')},
            setval('comandas_numero_ticket_seq',
                   (SELECT coalesce(max(numero_ticket), 0) + 1 FROM comandas), false)`,
  );
}

/**
 * The triggers that mark a comanda for the sales report's read model (docs/reportes.md), quiet
 * while the year is written: one mark per closed comanda at the end instead of one per row.
 */
const REPORT_TRIGGERS = [
  ['comandas', 'tg_reportes_comandas_insert'],
  ['comandas', 'tg_reportes_comandas_update'],
  ['comandas', 'tg_reportes_comandas_delete'],
  ['cuentas_comanda', 'tg_reportes_cuentas'],
  ['pagos', 'tg_reportes_pagos'],
] as const;

/** The tables with a year of rows. */
const ANALYZED = [
  'comandas',
  'deta_comandas',
  'comanda_eventos',
  'cuentas_comanda',
  'pagos',
  'consumos_venta',
  'stock_movimientos',
  'asistencia_detalle',
  'asistencia_intervalo',
  'asistencia_resumen_diario',
  'compras',
  'deta_comp_materias',
];

/** Identity columns whose sequences must move past the explicit demo keys (fixed names only). */
const IDENTITIES: readonly (readonly [string, string])[] = [
  ['roles', 'id_rol'],
  ['usuarios', 'id_usuario'],
  ['categorias', 'id_categoria'],
  ['productos', 'id_producto'],
  ['clientes', 'id_cliente'],
  ['mesas', 'id_mesa'],
  ['comandas', 'id_comanda'],
  ['deta_comandas', 'id_deta_comanda'],
  ['comanda_eventos', 'id_evento'],
  ['proveedores', 'id_proveedor'],
  ['mate_primas', 'id_mat_prima'],
  ['compras', 'id_compra'],
  ['deta_comp_producto', 'id_deta_comp_producto'],
  ['deta_comp_materias', 'id_deta_comp_materia'],
  ['asistencia_detalle', 'id_raw'],
  ['asistencia_intervalo', 'id_intervalo'],
  ['consumos_venta', 'id_consumo'],
  ['stock_movimientos', 'id_movimiento'],
];
