import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../tenancy/entities/tenant.entity';

/** A clock's serial number (SN): letters, digits, _ and -, at most 64. */
export const DEVICE_SERIAL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A push time clock registered to a tenant (control database). */
@Entity({ name: 'devices' })
export class Device {
  @PrimaryColumn({ type: 'text' })
  serial!: string;

  @Column({ name: 'tenant_id', type: 'integer' })
  tenantId!: number;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant!: Tenant;

  @Column({ type: 'text' })
  driver!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;

  /** Stamp of the last ATTLOG push stored: answered in the handshake so the clock resumes there. */
  @Column({ name: 'attlog_stamp', type: 'text', nullable: true })
  attlogStamp!: string | null;
}
