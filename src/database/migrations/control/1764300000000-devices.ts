import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Time clocks that push their logs (ADMS / iClock): a device serial belongs to one tenant and
 * is read with one driver. Unknown serials are refused.
 */
export class Devices1764300000000 implements MigrationInterface {
  name = 'Devices1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE devices (
        serial       text        NOT NULL,
        tenant_id    integer     NOT NULL,
        driver       text        NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NULL,
        attlog_stamp text        NULL,
        CONSTRAINT pk_devices PRIMARY KEY (serial),
        CONSTRAINT ck_devices_serial CHECK (serial ~ '^[A-Za-z0-9_-]{1,64}$'),
        CONSTRAINT ck_devices_attlog_stamp CHECK (attlog_stamp ~ '^[0-9]{1,20}$'),
        CONSTRAINT fk_devices_tenant_id FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query('CREATE INDEX ix_devices_tenant_id ON devices (tenant_id)');
    await queryRunner.query(
      `COMMENT ON TABLE devices IS 'Push time clocks: serial -> tenant and driver'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE devices');
  }
}
