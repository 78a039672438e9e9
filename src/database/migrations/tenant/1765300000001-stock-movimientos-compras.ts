import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's `(origen, id_documento)` index served one lookup only: a purchase's movements
 * (`inventario_sincronizar_compra`, `origen = 'compra'`); a comanda's reversal finds its
 * movements by the unique `(origen, id_origen, …)` index. Yet every movement wrote it, the
 * twenty of each close first of all. A partial index of the purchases' movements answers the
 * same lookup and is not written by a sale's (docs/performance.md, "Stock").
 */
export class StockMovimientosCompras1765300000001 implements MigrationInterface {
  name = 'StockMovimientosCompras1765300000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX ix_stock_movimientos_compra ON stock_movimientos (id_documento)
        WHERE origen = 'compra';
      DROP INDEX ix_stock_movimientos_documento`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX ix_stock_movimientos_documento ON stock_movimientos (origen, id_documento);
      DROP INDEX ix_stock_movimientos_compra`);
  }
}
