import { seedMenu } from '../../support/fixtures';
import { TestDatabases } from '../../support/test-databases';
import { tenantSql } from '../support/tenant-sql';

/**
 * The sales report's read model (migration 1765300000000-reportes-ventas, docs/reportes.md "How
 * the figures are kept"), called with SQL on a real tenant database: a change of the tenant's
 * time zone computes again only the comandas whose IGV rate may depend on it (closed without a
 * frozen rate within a day of a rate's start), and leaves the model exactly as computing every
 * comanda from scratch in the new zone would.
 */

interface Fila {
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
      db.rows<Fila>(
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
