import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CONTROL_CONNECTION } from '../common/config/config.tokens';
import { firstRow } from '../database/sql';

/** A tenant the poll found due: its slug and the row's mark as read. */
export interface DueTenant {
  slug: string;
  mark: string;
}

/**
 * The control database's `outbox_due` (control migration 1765500000100): per consumer, the
 * tenants whose outbox may have work due and from when. One query a poll, on the control pool,
 * whatever the number of tenants. A hint: the tenant's outbox is the truth, a visit recomputes
 * the row (`settle`), and a row written since the visit read it is left for the next visit.
 */
@Injectable()
export class OutboxDueRepository {
  constructor(@InjectDataSource(CONTROL_CONNECTION) private readonly control: DataSource) {}

  /** The active tenants of `consumer` due now. */
  due(consumer: string): Promise<DueTenant[]> {
    return this.control.query<DueTenant[]>(
      `SELECT t.slug, d.mark::text AS mark
         FROM outbox_due d JOIN tenants t ON t.id = d.tenant_id
        WHERE d.consumer = $1 AND d.due_at <= now() AND t.status = 'active'
        ORDER BY d.due_at`,
      [consumer],
    );
  }

  /**
   * The tenant has work due at `dueAt` at the latest (a claim's lease end, a retry found by a
   * visit): the row's due time becomes the earlier of the two. Answers the row's new mark.
   */
  async mark(consumer: string, tenantId: number, dueAt: Date): Promise<string> {
    const row = await firstRow<{ mark: string }>(
      this.control,
      `INSERT INTO outbox_due AS d (consumer, tenant_id, due_at) VALUES ($1, $2, $3)
       ON CONFLICT (consumer, tenant_id)
         DO UPDATE SET due_at = least(d.due_at, excluded.due_at), mark = d.mark + 1
       RETURNING d.mark::text AS mark`,
      [consumer, tenantId, dueAt],
    );
    return row!.mark;
  }

  /**
   * A visit's result: the tenant's next due time (null: nothing pending), written only while
   * the row is still the one of `mark` (another instance's claim or retry written since keeps
   * its row, visited again when due).
   */
  async settle(consumer: string, tenantId: number, mark: string, next: Date | null): Promise<void> {
    if (next === null) {
      await this.control.query(
        'DELETE FROM outbox_due WHERE consumer = $1 AND tenant_id = $2 AND mark = $3',
        [consumer, tenantId, mark],
      );
    } else {
      await this.control.query(
        `UPDATE outbox_due SET due_at = $4, mark = mark + 1
          WHERE consumer = $1 AND tenant_id = $2 AND mark = $3`,
        [consumer, tenantId, mark, next],
      );
    }
  }
}
