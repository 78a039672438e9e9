import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two indexes every close with the stock on wrote and almost nothing read (docs/performance.md,
 * "Stock"):
 *
 * - the ledger's `(origen, id_documento)` served one lookup only, a purchase's movements
 *   (`inventario_sincronizar_compra`, `origen = 'compra'`; a comanda's reversal finds its
 *   movements by the unique `(origen, id_origen, …)` index), yet each of a close's twenty
 *   movements wrote it: a partial index of the purchases' movements answers the same lookup;
 * - `consumos_venta (fec)` served the sales report's costs by date, which the report's read
 *   model (migration `1765300000000-reportes-ventas`) now keeps per comanda: nothing reads
 *   consumptions by date any more.
 */
export class InventarioIndices1765300000001 implements MigrationInterface {
  name = 'InventarioIndices1765300000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX ix_stock_movimientos_compra ON stock_movimientos (id_documento)
        WHERE origen = 'compra';
      DROP INDEX ix_stock_movimientos_documento;
      DROP INDEX ix_consumos_venta_fec`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX ix_consumos_venta_fec ON consumos_venta (fec);
      CREATE INDEX ix_stock_movimientos_documento ON stock_movimientos (origen, id_documento);
      DROP INDEX ix_stock_movimientos_compra`);
  }
}
