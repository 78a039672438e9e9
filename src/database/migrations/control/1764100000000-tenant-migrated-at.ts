import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the tenant database was last migrated. Services cache per-tenant schema metadata
 * (generic table routes) under this value, so a `tenant migrate` refreshes their caches.
 */
export class TenantMigratedAt1764100000000 implements MigrationInterface {
  name = 'TenantMigratedAt1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tenants ADD COLUMN migrated_at timestamptz NULL');
    await queryRunner.query(
      "UPDATE tenants SET migrated_at = updated_at WHERE status <> 'provisioning'",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tenants DROP COLUMN migrated_at');
  }
}
