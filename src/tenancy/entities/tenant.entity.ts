import type { TenantFeatureOverrides } from '../../common/config/features';
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export type TenantStatus = 'provisioning' | 'active' | 'suspended';

/** A row of the tenant catalog (control database). */
@Entity({ name: 'tenants' })
export class Tenant {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  slug!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'database_name', type: 'text' })
  databaseName!: string;

  /** Full URL of the tenant's database when it lives on another server; null: control server. */
  @Column({ name: 'database_url', type: 'text', nullable: true })
  databaseUrl!: string | null;

  @Column({ type: 'text' })
  status!: TenantStatus;

  @Column({ name: 'time_zone', type: 'text' })
  timeZone!: string;

  @Column({ type: 'jsonb' })
  features!: TenantFeatureOverrides;

  /** Last time the tenant database was migrated (caches of its schema key on it). */
  @Column({ name: 'migrated_at', type: 'timestamptz', nullable: true })
  migratedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
