import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reports (docs/reportes.md) read the comandas closed in a range of days: a partial index
 * of the closed, not voided comandas by their close, carrying the columns the sales figures
 * read, answers them with an index-only scan (docs/performance.md, Reports).
 */
export class Reportes1765200000000 implements MigrationInterface {
  name = 'Reportes1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX ix_comandas_fec_cierre_cerradas ON comandas (fec_cierre)
        INCLUDE (id_comanda, total, id_mesa, id_usuario)
        WHERE estado = 'cerrada' AND NOT eliminada`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_comandas_fec_cierre_cerradas');
  }
}
