import { Injectable } from '@nestjs/common';
import { firstRow, returnedRows, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { EntregaEstado } from './webhook-actions';
import { DISABLE_AFTER_FAILING_MS, RETENTION_DAYS, TEST_EVENT } from './webhook-events';

/** An endpoint as PostgreSQL returns it (the secrets are not read here). */
export interface WebhookRow {
  id_webhook: number;
  url: string;
  eventos: string[];
  descripcion: string | null;
  activo: boolean;
  motivo_desactivacion: string | null;
  fec_desactivacion: Date | null;
  fallando_desde: Date | null;
  secreto_anterior_hasta: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An endpoint with its current secret (the answers of a creation and a rotation). */
export interface WebhookWithSecretRow extends WebhookRow {
  secreto: string;
}

export interface IntentoRow {
  fec: string;
  status: number | null;
  error: string | null;
  duracion_ms: number;
}

/** A message as its deliveries list shows it (bigint as a string, attempts as JSON). */
export interface EntregaRow {
  id_mensaje: string;
  id_webhook: number;
  webhook_id: string;
  tipo: string;
  estado: EntregaEstado;
  intentos: number;
  proximo_intento: Date;
  ultimo_status: number | null;
  ultimo_error: string | null;
  fec_creacion: Date;
  fec_entrega: Date | null;
  cuerpo: string;
  /** Whether its endpoint is on (a delivery is re-sent only then). */
  webhook_activo: boolean;
  historial: IntentoRow[];
}

/** A message claimed for delivery, with what sending it needs. */
export interface ClaimedMessage {
  id_mensaje: string;
  id_webhook: number;
  webhook_id: string;
  tipo: string;
  clave: string | null;
  cuerpo: string;
  intentos: number;
  url: string;
  secreto: string;
  secreto_anterior: string | null;
  /** The claim's lease end, as PostgreSQL wrote it (text: to the microsecond). */
  lease_until: string;
}

/** A message a receiver took (2xx), for its batch's record. */
export interface Delivered {
  id_mensaje: string;
  status: number;
  durationMs: number;
  startedAt: Date;
}

/** What recording a failed attempt did to the endpoint. */
export interface FailureOutcome {
  /** The message was given up (its last retry, or a 410). */
  given_up: boolean;
  /** The endpoint was switched off by this failure, and why. */
  disabled: string | null;
}

export type WebhookFields = Partial<{
  url: string;
  eventos: string[];
  descripcion: string | null;
  activo: boolean;
}>;

const COLUMNS = `
  id_webhook, url, eventos, descripcion, activo, motivo_desactivacion, fec_desactivacion,
  fallando_desde,
  CASE WHEN secreto_anterior_hasta > now() THEN secreto_anterior_hasta END AS secreto_anterior_hasta,
  created_at, updated_at`;

const ENTREGA_COLUMNS = `
  m.id_mensaje, m.id_webhook, m.webhook_id, m.tipo, m.estado, m.intentos, m.proximo_intento,
  m.ultimo_status, m.ultimo_error, m.fec_creacion, m.fec_entrega, m.cuerpo,
  (SELECT w.activo FROM webhooks w WHERE w.id_webhook = m.id_webhook) AS webhook_activo,
  coalesce((SELECT json_agg(json_build_object(
                  'fec', i.fec, 'status', i.status, 'error', i.error, 'duracion_ms', i.duracion_ms)
                  ORDER BY i.id_intento)
              FROM webhook_intentos i WHERE i.id_mensaje = m.id_mensaje), '[]'::json) AS historial`;

/** What the motivo of an endpoint the service switched off says. */
export const DISABLED_GONE = 'the receiver answered 410 Gone';
export const DISABLED_FAILING = 'no message delivered for 5 days';

/** The only place of the webhooks' SQL: endpoints, their outbox and its delivery. */
@Injectable()
export class WebhooksRepository extends TenantRepository {
  list(): Promise<WebhookRow[]> {
    return this.db.query<WebhookRow[]>(`SELECT ${COLUMNS} FROM webhooks ORDER BY id_webhook`);
  }

  find(id: number, db: Queryable = this.db): Promise<WebhookRow | undefined> {
    return firstRow<WebhookRow>(db, `SELECT ${COLUMNS} FROM webhooks WHERE id_webhook = $1`, [id]);
  }

  /** Locks the endpoint's row for the rest of the transaction. */
  lock(tx: Queryable, id: number): Promise<WebhookRow | undefined> {
    return firstRow<WebhookRow>(
      tx,
      `SELECT ${COLUMNS} FROM webhooks WHERE id_webhook = $1 FOR UPDATE`,
      [id],
    );
  }

  async insert(
    fields: { url: string; eventos: string[]; descripcion: string | null },
    secreto: string,
  ): Promise<WebhookWithSecretRow> {
    const row = await firstRow<WebhookWithSecretRow>(
      this.db,
      `INSERT INTO webhooks (url, eventos, descripcion, secreto) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}, secreto`,
      [fields.url, fields.eventos, fields.descripcion, secreto],
    );
    return row!;
  }

  /**
   * Changes the fields sent. Switching an endpoint on clears its failure record and the reason
   * the service switched it off; switching it off by hand leaves no reason.
   */
  async update(tx: Queryable, id: number, fields: WebhookFields): Promise<WebhookRow> {
    const row = await firstRow<WebhookRow>(
      tx,
      `UPDATE webhooks
          SET url = coalesce($2, url),
              eventos = coalesce($3, eventos),
              descripcion = CASE WHEN $4 THEN $5 ELSE descripcion END,
              activo = coalesce($6, activo),
              fallando_desde = CASE WHEN $6 AND NOT activo THEN NULL ELSE fallando_desde END,
              motivo_desactivacion = CASE WHEN $6 IS NOT NULL AND $6 <> activo THEN NULL
                                          ELSE motivo_desactivacion END,
              fec_desactivacion = CASE WHEN $6 IS NOT NULL AND $6 <> activo THEN NULL
                                       ELSE fec_desactivacion END,
              updated_at = now()
        WHERE id_webhook = $1
       RETURNING ${COLUMNS}`,
      [
        id,
        fields.url ?? null,
        fields.eventos ?? null,
        fields.descripcion !== undefined,
        fields.descripcion ?? null,
        fields.activo ?? null,
      ],
    );
    return row!;
  }

  async delete(tx: Queryable, id: number): Promise<void> {
    await tx.query('DELETE FROM webhooks WHERE id_webhook = $1', [id]);
  }

  /** A new secret; the one it replaces keeps signing for 24 hours. */
  async rotate(tx: Queryable, id: number, secreto: string): Promise<WebhookWithSecretRow> {
    const row = await firstRow<WebhookWithSecretRow>(
      tx,
      `UPDATE webhooks
          SET secreto_anterior = secreto, secreto_anterior_hasta = now() + interval '24 hours',
              secreto = $2, updated_at = now()
        WHERE id_webhook = $1
       RETURNING ${COLUMNS}, secreto`,
      [id, secreto],
    );
    return row!;
  }

  /** A `webhook.prueba` message to the endpoint, due now. */
  async enqueueTest(tx: Queryable, id: number): Promise<EntregaRow> {
    const row = await firstRow<{ id_mensaje: string }>(
      tx,
      `INSERT INTO webhook_mensajes (id_webhook, tipo, clave, cuerpo)
       VALUES ($1::integer, $2::text, 'webhook:' || $1::integer,
               json_build_object(
                 'type', $2::text,
                 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                 'data', json_build_object('id_webhook', $1::integer))::text)
       RETURNING id_mensaje`,
      [id, TEST_EVENT],
    );
    return (await this.entrega(row!.id_mensaje, tx))!;
  }

  async entregas(
    idWebhook: number,
    filter: { estado?: EntregaEstado },
    limit: number,
    offset: number,
  ): Promise<{ rows: EntregaRow[]; total: number }> {
    const where = 'm.id_webhook = $1 AND ($2::text IS NULL OR m.estado = $2)';
    const [rows, count] = await Promise.all([
      this.db.query<EntregaRow[]>(
        `SELECT ${ENTREGA_COLUMNS} FROM webhook_mensajes m WHERE ${where}
          ORDER BY m.id_mensaje DESC LIMIT $3 OFFSET $4`,
        [idWebhook, filter.estado ?? null, limit, offset],
      ),
      firstRow<{ total: string }>(
        this.db,
        `SELECT count(*) AS total FROM webhook_mensajes m WHERE ${where}`,
        [idWebhook, filter.estado ?? null],
      ),
    ]);
    return { rows, total: Number(count!.total) };
  }

  entrega(id: number | string, db: Queryable = this.db): Promise<EntregaRow | undefined> {
    return firstRow<EntregaRow>(
      db,
      `SELECT ${ENTREGA_COLUMNS} FROM webhook_mensajes m WHERE m.id_mensaje = $1`,
      [id],
    );
  }

  /** The endpoint of a message, its row locked (a resend and a switch-off are serialized). */
  lockEndpointOf(tx: Queryable, idMensaje: number): Promise<WebhookRow | undefined> {
    return firstRow<WebhookRow>(
      tx,
      `SELECT ${COLUMNS} FROM webhooks
        WHERE id_webhook = (SELECT id_webhook FROM webhook_mensajes WHERE id_mensaje = $1)
        FOR UPDATE`,
      [idMensaje],
    );
  }

  /** The message again, due now, its retry schedule from the start (same webhook-id). */
  async resend(tx: Queryable, id: number): Promise<EntregaRow> {
    await tx.query(
      `UPDATE webhook_mensajes
          SET estado = 'pendiente', intentos = 0, proximo_intento = clock_timestamp(),
              fec_entrega = NULL
        WHERE id_mensaje = $1`,
      [id],
    );
    return (await this.entrega(id, tx))!;
  }

  // ---------------------------------------------------------------------------------------
  // Delivery (webhook-dispatcher.service.ts)
  // ---------------------------------------------------------------------------------------

  /**
   * Claims up to `limit` due messages of active endpoints: each is this instance's for
   * `leaseMs` (its due time moves forward by that much) and other instances skip it, both while
   * the claim's transaction runs (SKIP LOCKED) and after its commit (not due). Oldest due first.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    const rows = returnedRows(
      await this.db.query<ClaimedMessage[] | [ClaimedMessage[], number]>(
        `WITH due AS (
           SELECT m.id_mensaje
             FROM webhook_mensajes m
            WHERE m.estado = 'pendiente' AND m.proximo_intento <= clock_timestamp()
              AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id_webhook = m.id_webhook AND w.activo)
            ORDER BY m.proximo_intento, m.id_mensaje
            LIMIT $1
              FOR UPDATE OF m SKIP LOCKED)
         UPDATE webhook_mensajes m
            SET proximo_intento = clock_timestamp() + $2 * interval '1 millisecond'
           FROM due, webhooks w
          WHERE m.id_mensaje = due.id_mensaje AND w.id_webhook = m.id_webhook
         RETURNING m.id_mensaje, m.id_webhook, m.webhook_id, m.tipo, m.clave, m.cuerpo,
                   m.intentos, m.proximo_intento::text AS lease_until, w.url, w.secreto,
                   CASE WHEN w.secreto_anterior_hasta > now() THEN w.secreto_anterior END
                     AS secreto_anterior`,
        [limit, leaseMs],
      ),
    );
    return rows.sort((a, b) => Number(a.id_mensaje) - Number(b.id_mensaje));
  }

  /**
   * Hands claimed messages back, due now, that this instance will not send (it is shutting
   * down, or their lease would end before their timeout): another claim takes them at once
   * rather than after the lease. Only while the claim is still this one's (its lease end
   * unchanged): a message another instance has claimed since is left alone.
   */
  async release(messages: ClaimedMessage[]): Promise<void> {
    await this.db.query(
      `UPDATE webhook_mensajes m SET proximo_intento = clock_timestamp()
         FROM unnest($1::bigint[], $2::timestamptz[]) AS c(id_mensaje, lease_until)
        WHERE m.id_mensaje = c.id_mensaje AND m.estado = 'pendiente'
          AND m.proximo_intento = c.lease_until`,
      [messages.map((m) => m.id_mensaje), messages.map((m) => m.lease_until)],
    );
  }

  /** When the next message of an active endpoint is due (null: none pending). */
  async nextDue(): Promise<Date | null> {
    const row = await firstRow<{ due: Date | null }>(
      this.db,
      `SELECT min(m.proximo_intento) AS due FROM webhook_mensajes m
        WHERE m.estado = 'pendiente'
          AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id_webhook = m.id_webhook AND w.activo)`,
    );
    return row?.due ?? null;
  }

  /**
   * Delivered messages, in one statement: each its attempt and its state, and their endpoints'
   * failure records cleared.
   */
  async recordDelivered(delivered: Delivered[]): Promise<void> {
    await this.db.query(
      `WITH d AS (
         SELECT * FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::timestamptz[])
                    AS d(id_mensaje, status, duracion_ms, fec)),
       m AS (
         UPDATE webhook_mensajes m
            SET estado = 'entregado', intentos = m.intentos + 1, fec_entrega = clock_timestamp(),
                ultimo_status = d.status, ultimo_error = NULL
           FROM d
          WHERE m.id_mensaje = d.id_mensaje
         RETURNING m.id_mensaje, m.id_webhook),
       i AS (
         INSERT INTO webhook_intentos (id_mensaje, fec, status, duracion_ms)
         SELECT d.id_mensaje, d.fec, d.status, d.duracion_ms FROM d JOIN m USING (id_mensaje))
       UPDATE webhooks w SET fallando_desde = NULL
        WHERE w.id_webhook IN (SELECT id_webhook FROM m) AND w.fallando_desde IS NOT NULL`,
      [
        delivered.map((d) => d.id_mensaje),
        delivered.map((d) => d.status),
        delivered.map((d) => d.durationMs),
        delivered.map((d) => d.startedAt.toISOString()),
      ],
    );
  }

  /**
   * A failed attempt: recorded, the message due again after its next wait (`delaysMs`, by the
   * attempts made) or given up after the last one or on a 410; the endpoint's failure record
   * starts, and the endpoint is switched off on a 410 or when it has failed for 5 days.
   */
  recordFailed(
    message: ClaimedMessage,
    attempt: { status: number | null; error: string; durationMs: number; startedAt: Date },
    delaysMs: readonly number[],
  ): Promise<FailureOutcome> {
    const gone = attempt.status === 410;
    return this.transaction(async (tx) => {
      const endpoint = await firstRow<{ fallando_desde: Date | null; activo: boolean }>(
        tx,
        'SELECT fallando_desde, activo FROM webhooks WHERE id_webhook = $1 FOR UPDATE',
        [message.id_webhook],
      );
      const updated = await firstRow<{ estado: string }>(
        tx,
        `WITH i AS (
           INSERT INTO webhook_intentos (id_mensaje, fec, status, error, duracion_ms)
           VALUES ($1, $7, $2, $3, $4))
         UPDATE webhook_mensajes
            SET intentos = intentos + 1, ultimo_status = $2, ultimo_error = $3,
                estado = CASE WHEN $5 OR intentos + 1 > cardinality($6::integer[])
                              THEN 'fallido' ELSE 'pendiente' END,
                proximo_intento = clock_timestamp()
                  + coalesce(($6::integer[])[intentos + 1], 0) * interval '1 millisecond'
          WHERE id_mensaje = $1
         RETURNING estado`,
        [
          message.id_mensaje,
          attempt.status,
          attempt.error,
          attempt.durationMs,
          gone,
          delaysMs,
          attempt.startedAt,
        ],
      );
      if (!endpoint) return { given_up: updated?.estado === 'fallido', disabled: null };
      const since = endpoint.fallando_desde ?? attempt.startedAt;
      const failingTooLong = Date.now() - since.getTime() >= DISABLE_AFTER_FAILING_MS;
      const disabled = endpoint.activo && (gone || failingTooLong);
      const motivo = gone ? DISABLED_GONE : DISABLED_FAILING;
      await tx.query(
        `UPDATE webhooks
            SET fallando_desde = coalesce(fallando_desde, $2),
                activo = CASE WHEN $3 THEN false ELSE activo END,
                motivo_desactivacion = CASE WHEN $3 THEN $4 ELSE motivo_desactivacion END,
                fec_desactivacion = CASE WHEN $3 THEN now() ELSE fec_desactivacion END,
                updated_at = CASE WHEN $3 THEN now() ELSE updated_at END
          WHERE id_webhook = $1`,
        [message.id_webhook, attempt.startedAt, disabled, motivo],
      );
      return { given_up: updated?.estado === 'fallido', disabled: disabled ? motivo : null };
    });
  }

  /** Deletes messages (and their attempts) older than the retention, a batch at a time. */
  async purge(batch = 10_000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const rows = returnedRows(
        await this.db.query<{ id_mensaje: string }[] | [{ id_mensaje: string }[], number]>(
          `DELETE FROM webhook_mensajes
            WHERE id_mensaje IN (
              SELECT id_mensaje FROM webhook_mensajes
               WHERE fec_creacion < now() - make_interval(days => $1)
               LIMIT $2)
           RETURNING id_mensaje`,
          [RETENTION_DAYS, batch],
        ),
      );
      deleted += rows.length;
      if (rows.length < batch) return deleted;
    }
  }
}
