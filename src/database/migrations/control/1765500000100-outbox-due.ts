import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tenants whose outbox may have work due, and from when (docs/webhooks.md, "How a message
 * travels"): what an instance's poll reads, in one query on the control pool, instead of
 * visiting every tenant or holding a LISTEN connection per tenant. A hint, never the truth: the
 * tenant's own outbox is; a visit recomputes the row. `mark` grows with every write of the row,
 * so that a visit's result replaces only the row it read, not one another instance wrote since.
 */
export class OutboxDue1765500000100 implements MigrationInterface {
  name = 'OutboxDue1765500000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox_due (
        consumer  text        NOT NULL,
        tenant_id integer     NOT NULL,
        due_at    timestamptz NOT NULL,
        mark      bigint      NOT NULL DEFAULT 1,
        CONSTRAINT pk_outbox_due PRIMARY KEY (consumer, tenant_id),
        CONSTRAINT ck_outbox_due_consumer CHECK (consumer ~ '^[a-z_]{1,32}$'),
        CONSTRAINT fk_outbox_due_tenant_id FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query('CREATE INDEX ix_outbox_due_due_at ON outbox_due (consumer, due_at)');
    await queryRunner.query(
      `COMMENT ON TABLE outbox_due IS 'Tenants whose outbox (of a consumer: webhooks) may have work due from due_at'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE outbox_due');
  }
}
