import { MENU, seedMenu } from '../../support/fixtures';
import { TestDatabases } from '../../support/test-databases';
import { json, tenantSql } from '../support/tenant-sql';

/**
 * Integration specs of the store functions shipped by the tenant migrations
 * (src/database/migrations/tenant/17642000000*-store-functions-*.ts): each function is called
 * with SQL on a real, migrated tenant database (no HTTP), and both its JSON result and the
 * tables afterwards are asserted. docs/rpc.md describes the rules tested here.
 *
 * This file: purchases, the yearly reports of expenses and tickets, and the sales report's read
 * model (migration 1765300000000-reportes-ventas, docs/reportes.md "How the figures are kept"):
 * a change of the tenant's time zone computes again only the comandas whose IGV rate may depend
 * on it (closed without a frozen rate within a day of a rate's start), and leaves the model
 * exactly as computing every comanda from scratch in the new zone would.
 */

/** A row of the sales report's read model, as the spec compares it. */
interface FilaModelo {
  id_comanda: string;
  neta: string;
  descuento: string;
  costo: string;
  tasa_congelada: boolean;
}

describe('store functions (tenant migrations, called with SQL)', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });
  afterAll(() => dbs.drop());

  const tenant = tenantSql(() => dbs);

  describe('purchases (save_compra, get_compra, delete_compra) and report_gastos', () => {
    const db = tenant('compras');
    const PESQUERA = 1;
    const BEBIDAS = 2;
    const PESCADO = 1;
    const LIMON = 2;

    beforeAll(async () => {
      await dbs.createTenant('compras');
      await seedMenu(dbs, 'compras');
      await db.rows(
        `INSERT INTO proveedores (razon_social) VALUES ('Pesquera del Callao SAC'), ('Bebidas Lima SA');
         INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg'), ('Limón', 'unidad');`,
      );
    });

    const save = (body: object) =>
      db.call<{ id_compra: number; total: number }>('save_compra($1::jsonb)', json(body));
    const compra = (extra: object) => ({
      id_compra: null,
      id_proveedor: PESQUERA,
      fec_compra: null,
      observacion: null,
      detalles: [],
      ...extra,
    });
    const lineas = async (id: number) => ({
      productos: await db.rows(
        `SELECT id_producto, cantidad, costo_unitario, subtotal FROM deta_comp_producto
          WHERE id_compra = $1 ORDER BY id_deta_comp_producto`,
        [id],
      ),
      materias: await db.rows(
        `SELECT id_mat_prima, cantidad, costo_unitario, subtotal FROM deta_comp_materias
          WHERE id_compra = $1 ORDER BY id_deta_comp_materia`,
        [id],
      ),
    });

    it('inserts a purchase with product and raw-material lines; the database computes the total', async () => {
      const result = await save(
        compra({
          fec_compra: '2026-03-10T09:15:00-05:00',
          observacion: 'Factura F001-233',
          detalles: [
            { id_mat_prima: PESCADO, cantidad: 12.5, costo_unitario: 28 },
            { id_producto: MENU.chicha.id, cantidad: 24, costo_unitario: 2.35 },
            { id_mat_prima: LIMON, cantidad: 3, costo_unitario: 0.333 },
          ],
        }),
      );
      expect(result).toEqual({ id_compra: expect.any(Number), total: 407.39 });
      const { id_compra } = result;

      expect(await lineas(id_compra)).toEqual({
        productos: [
          {
            id_producto: MENU.chicha.id,
            cantidad: '24.000',
            costo_unitario: '2.35',
            subtotal: '56.40',
          },
        ],
        materias: [
          {
            id_mat_prima: PESCADO,
            cantidad: '12.500',
            costo_unitario: '28.00',
            subtotal: '350.00',
          },
          { id_mat_prima: LIMON, cantidad: '3.000', costo_unitario: '0.33', subtotal: '0.99' },
        ],
      });
      expect(
        await db.rows(
          `SELECT id_proveedor, total, observacion, fec_compra = '2026-03-10 14:15:00+00' AS fecha
             FROM compras WHERE id_compra = $1`,
          [id_compra],
        ),
      ).toEqual([
        { id_proveedor: PESQUERA, total: '407.39', observacion: 'Factura F001-233', fecha: true },
      ]);
    });

    it('reads a purchase for editing with typed, named lines', async () => {
      const { id_compra } = await save(
        compra({
          id_proveedor: BEBIDAS,
          fec_compra: '2026-04-01T10:00:00Z',
          detalles: [
            { id_mat_prima: LIMON, cantidad: 100, costo_unitario: 0.3 },
            { id_producto: MENU.chicha.id, cantidad: 12, costo_unitario: 2.5 },
          ],
        }),
      );
      const leida = await db.call<Record<string, unknown>>('get_compra($1)', id_compra);
      expect(leida).toEqual({
        id_compra,
        id_proveedor: BEBIDAS,
        razon_social: 'Bebidas Lima SA',
        fec_compra: expect.any(String),
        total: 60,
        observacion: null,
        detalles: [
          {
            tipo: 'producto',
            id_producto: MENU.chicha.id,
            nombre: 'Chicha morada',
            cantidad: 12,
            costo_unitario: 2.5,
            subtotal: 30,
          },
          {
            tipo: 'materia',
            id_mat_prima: LIMON,
            nombre: 'Limón',
            cantidad: 100,
            costo_unitario: 0.3,
            subtotal: 30,
          },
        ],
      });
      expect(new Date(leida.fec_compra as string).toISOString()).toBe('2026-04-01T10:00:00.000Z');
      expect(await db.call('get_compra($1)', 4242)).toBeNull();
    });

    it('an update replaces the lines, recalculates the total and keeps the date when null', async () => {
      const { id_compra } = await save(
        compra({
          fec_compra: '2026-05-05T08:00:00-05:00',
          observacion: 'borrador',
          detalles: [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }],
        }),
      );
      const [antes] = await db.rows<{ updated_at: Date }>(
        'SELECT updated_at FROM compras WHERE id_compra = $1',
        [id_compra],
      );
      expect(
        await save(
          compra({
            id_compra,
            id_proveedor: BEBIDAS,
            detalles: [
              { id_producto: MENU.chicha.id, cantidad: 6, costo_unitario: 2.5 },
              { id_producto: MENU.chicha.id, cantidad: 6, costo_unitario: 2.25 },
            ],
          }),
        ),
      ).toEqual({ id_compra, total: 28.5 });
      expect(await lineas(id_compra)).toEqual({
        productos: [
          {
            id_producto: MENU.chicha.id,
            cantidad: '6.000',
            costo_unitario: '2.50',
            subtotal: '15.00',
          },
          {
            id_producto: MENU.chicha.id,
            cantidad: '6.000',
            costo_unitario: '2.25',
            subtotal: '13.50',
          },
        ],
        materias: [],
      });
      expect(
        await db.rows(
          `SELECT id_proveedor, total, observacion, fec_compra = '2026-05-05 13:00:00+00' AS fecha,
                  updated_at > $2 AS tocado
             FROM compras WHERE id_compra = $1`,
          [id_compra, antes.updated_at],
        ),
      ).toEqual([
        { id_proveedor: BEBIDAS, total: '28.50', observacion: null, fecha: true, tocado: true },
      ]);
    });

    it('a line needs exactly one of id_producto and id_mat_prima; nothing is written otherwise', async () => {
      const [{ n: antes }] = await db.rows<{ n: number }>('SELECT count(*)::int AS n FROM compras');
      for (const linea of [
        { id_producto: MENU.chicha.id, id_mat_prima: LIMON, cantidad: 1, costo_unitario: 1 },
        { cantidad: 1, costo_unitario: 1 },
      ]) {
        await expect(
          save(
            compra({
              detalles: [{ id_mat_prima: LIMON, cantidad: 1, costo_unitario: 1 }, linea],
            }),
          ),
        ).rejects.toMatchObject({
          code: '22023',
          message: 'detalles[1]: indique id_producto o id_mat_prima (exactamente uno)',
        });
      }
      await expect(save(compra({ id_proveedor: null }))).rejects.toMatchObject({
        code: '22023',
        message: 'id_proveedor es obligatorio',
      });
      await expect(
        save(compra({ detalles: [{ id_mat_prima: LIMON, cantidad: 0, costo_unitario: 1 }] })),
      ).rejects.toMatchObject({ code: '23514', constraint: 'ck_deta_comp_materias_cantidad' });
      await expect(save(compra({ id_proveedor: 99 }))).rejects.toMatchObject({
        code: '23503',
        constraint: 'fk_compras_id_proveedor',
      });
      await expect(save(compra({ id_compra: 4242 }))).rejects.toMatchObject({
        code: 'P0002',
        message: 'compra 4242 no existe',
      });
      expect(await db.rows('SELECT count(*)::int AS n FROM compras')).toEqual([{ n: antes }]);
    });

    it('delete_compra removes the purchase with its lines; an unknown id is P0002', async () => {
      const { id_compra } = await save(
        compra({
          detalles: [
            { id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 30 },
            { id_producto: MENU.chicha.id, cantidad: 1, costo_unitario: 2 },
          ],
        }),
      );
      expect(await db.call('delete_compra($1)', id_compra)).toEqual({ ok: true });
      expect(await db.rows('SELECT 1 FROM compras WHERE id_compra = $1', [id_compra])).toEqual([]);
      expect(await lineas(id_compra)).toEqual({ productos: [], materias: [] });
      await expect(db.call('delete_compra($1)', id_compra)).rejects.toMatchObject({
        code: 'P0002',
        message: `compra ${id_compra} no existe`,
      });
    });

    it('report_gastos: purchases per month in the time zone and per supplier', async () => {
      const db2 = tenant('gastos');
      await dbs.createTenant('gastos');
      await db2.rows(
        `INSERT INTO proveedores (razon_social) VALUES ('Pesquera del Callao SAC'), ('Bebidas Lima SA');
         INSERT INTO compras (id_proveedor, fec_compra, total) VALUES
           (1, '2026-01-31 23:30:00-05', 100.00),  -- 04:30 UTC on Feb 1: January in Lima
           (1, '2026-02-15 12:00:00-05', 50.25),
           (2, '2026-02-20 12:00:00-05', 300.00),
           (2, '2025-12-31 23:00:00-05', 999.00),  -- 2026 in UTC, 2025 in Lima
           (2, '2027-01-01 00:30:00-05', 999.00);`,
      );
      const report = await db2.call<{
        year: number;
        meses: { mes: number; total: number }[];
        proveedores: unknown[];
        total: number;
      }>('report_gastos($1, $2)', 2026, 'America/Lima');
      expect(report.year).toBe(2026);
      expect(report.meses).toHaveLength(12);
      expect(report.meses.slice(0, 3)).toEqual([
        { mes: 1, total: 100 },
        { mes: 2, total: 350.25 },
        { mes: 3, total: 0 },
      ]);
      expect(report.meses.slice(3).every((m) => m.total === 0)).toBe(true);
      expect(report.proveedores).toEqual([
        { id_proveedor: 2, razon_social: 'Bebidas Lima SA', total: 300 },
        { id_proveedor: 1, razon_social: 'Pesquera del Callao SAC', total: 150.25 },
      ]);
      expect(report.total).toBe(450.25);

      // the same instants seen from UTC: the Jan 31 purchase is February's, Dec 31 is 2026's
      const utc = await db2.call<{ meses: { mes: number; total: number }[]; total: number }>(
        'report_gastos($1, $2)',
        2026,
        'UTC',
      );
      expect(utc.meses.slice(0, 2)).toEqual([
        { mes: 1, total: 999 },
        { mes: 2, total: 450.25 },
      ]);
      expect(await db2.call('report_gastos($1, $2)', 2030, 'America/Lima')).toMatchObject({
        proveedores: [],
        total: 0,
      });
      await expect(db2.call('report_gastos($1, $2)', 2026, 'Mars/Olympus')).rejects.toMatchObject({
        code: '22023',
      });
    });
  });

  describe('report_tickets', () => {
    const db = tenant('tickets');

    beforeAll(async () => {
      await dbs.createTenant('tickets');
      await seedMenu(dbs, 'tickets');
      await db.rows(
        `INSERT INTO comandas (estado, fec_apertura, fec_cierre, total, eliminada, fec_eliminacion) VALUES
           -- closed at 23:30 in Lima on Jan 31 (04:30 UTC on Feb 1): January
           ('cerrada', '2026-01-31 22:00-05', '2026-01-31 23:30-05', 80.00, false, NULL),
           ('cerrada', '2026-01-10 13:00-05', '2026-01-10 14:00-05', 42.50, false, NULL),
           ('cerrada', '2026-02-01 13:00-05', '2026-02-01 14:10-05', 16.00, false, NULL),
           -- a void (deleted) and an open ticket never count
           ('cerrada', '2026-01-12 13:00-05', '2026-01-12 13:30-05', 500.00, true, '2026-01-12 14:00-05'),
           ('abierta', '2026-01-20 13:00-05', NULL, 0, false, NULL),
           -- closed at 23:00 in Lima on Dec 31, 2025 (2026 in UTC): 2025's
           ('cerrada', '2025-12-31 21:00-05', '2025-12-31 23:00-05', 70.00, false, NULL);`,
      );
    });

    it('counts closed, not deleted tickets per month of their close in the time zone', async () => {
      const report = await db.call<{
        year: number;
        meses: { mes: number; tickets: number; total: number }[];
        total_tickets: number;
        total: number;
      }>('report_tickets($1, $2)', 2026, 'America/Lima');
      expect(report.year).toBe(2026);
      expect(report.meses.map((m) => m.mes)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(report.meses.slice(0, 3)).toEqual([
        { mes: 1, tickets: 2, total: 122.5 },
        { mes: 2, tickets: 1, total: 16 },
        { mes: 3, tickets: 0, total: 0 },
      ]);
      expect(report.total_tickets).toBe(3);
      expect(report.total).toBe(138.5);

      const utc = await db.call<{ meses: { tickets: number }[]; total_tickets: number }>(
        'report_tickets($1, $2)',
        2026,
        'UTC',
      );
      expect(utc.meses.slice(0, 2).map((m) => m.tickets)).toEqual([2, 2]);
      expect(utc.total_tickets).toBe(4);

      expect(await db.call('report_tickets($1, $2)', 2025, 'America/Lima')).toMatchObject({
        total_tickets: 1,
        total: 70,
      });
      await expect(db.call('report_tickets(NULL, $1)', 'America/Lima')).rejects.toMatchObject({
        code: '22023',
      });
    });
  });

  describe('reportes_refrescar: the read model of the sales report', () => {
    const db = tenant('modelo');
    /** Closes around the new rate's first day (2026-03-11), in several zones' days. */
    const CIERRES = [
      '2026-03-10T23:30:00-05:00', // Lima's 10th, Tokyo's 11th
      '2026-03-11T00:30:00-05:00', // the 11th in Lima and Tokyo, the 11th in UTC
      '2026-03-10T16:00:00Z', // the 10th in Lima and UTC, the 11th in Tokyo
      '2026-03-11T20:00:00Z', // the 11th in Lima and UTC, the 12th in Tokyo
      '2026-03-12T12:00:00Z', // a day after: the 12th anywhere but Tokyo's 12th 21:00
      '2026-02-01T12:00:00Z', // far from any change
      '2026-03-10T23:30:00-05:00', // as the first, but its rate frozen at the close
    ];
    const model = () =>
      db.rows<FilaModelo>(
        `SELECT id_comanda::text, neta::text, descuento::text, costo::text, tasa_congelada
           FROM reporte_ventas ORDER BY id_comanda`,
      );
    const refrescar = async (zona: string) =>
      Number((await db.rows<{ n: number }>('SELECT reportes_refrescar($1) AS n', [zona]))[0].n);

    beforeAll(async () => {
      await dbs.createTenant('modelo');
      await seedMenu(dbs, 'modelo');
      await db.rows(`INSERT INTO tasas_igv (vigente_desde, tasa) VALUES ('2026-03-11', 0.10)`);
      for (const [i, cierre] of CIERRES.entries()) {
        await db.rows(
          `WITH c AS (
             INSERT INTO comandas (estado, fec_apertura, fec_cierre, total)
             VALUES ('cerrada', $1::timestamptz - interval '1 hour', $1, 76) RETURNING id_comanda)
           INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario)
           SELECT id_comanda, 1, 2, 38 FROM c`,
          [cierre],
        );
        if (i === CIERRES.length - 1)
          await db.rows(
            `INSERT INTO cuentas_comanda (id_comanda, tasa_igv, tasa_recargo, paso_redondeo)
             SELECT max(id_comanda), 0.18, 0, 0.10 FROM comandas`,
          );
      }
    });

    it('computes again only what another zone changes, and the same as from scratch', async () => {
      expect(await refrescar('America/Lima')).toBe(CIERRES.length);
      const lima = await model();
      // Lima's 10th, before the new rate: 76 / 1.18; the frozen one too
      expect(lima.map((f) => f.neta)).toEqual([
        '64.41',
        '69.09',
        '64.41',
        '69.09',
        '69.09',
        '64.41',
        '64.41',
      ]);
      expect(await refrescar('America/Lima')).toBe(0);

      // Tokyo: the comandas closed without a frozen rate within a day of the 11th (five of the
      // six), not the one of February nor the one whose rate was frozen
      expect(await refrescar('Asia/Tokyo')).toBe(5);
      const tokyo = await model();
      expect(tokyo.map((f) => f.neta)).toEqual([
        '69.09',
        '69.09',
        '69.09',
        '69.09',
        '69.09',
        '64.41',
        '64.41',
      ]);

      // from scratch in Tokyo: the same rows
      await db.rows(
        `DELETE FROM reporte_ventas_metodos; DELETE FROM reporte_ventas_productos;
         DELETE FROM reporte_ventas;
         INSERT INTO reportes_cambios (id_comanda) SELECT id_comanda FROM comandas`,
      );
      expect(await refrescar('Asia/Tokyo')).toBe(CIERRES.length);
      expect(await model()).toEqual(tokyo);
    });
  });
});
