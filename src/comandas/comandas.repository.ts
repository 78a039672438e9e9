import { Injectable } from '@nestjs/common';
import { returnedRows, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { ComandaAction, ComandaEstado } from './comanda-state';
import type { EditableField } from './dto/comanda-input.dto';

/** A comanda row as PostgreSQL returns it (bigint and numeric come back as strings). */
export interface ComandaRow {
  id_comanda: string;
  numero_ticket: string;
  id_mesa: number | null;
  mesa_numero: number | null;
  id_usuario: number | null;
  mozo: string | null;
  id_cliente: number | null;
  cliente: string | null;
  estado: ComandaEstado;
  fec_apertura: Date;
  fec_cierre: Date | null;
  total: string;
  observacion: string | null;
  eliminada: boolean;
  fec_eliminacion: Date | null;
  version: number;
  items: number;
}

export interface ItemRow {
  id_deta_comanda: string;
  id_producto: number;
  producto: string;
  cantidad: string;
  precio_unitario: string;
  subtotal: string;
  nota: string | null;
  id_usuario: number | null;
  usuario: string | null;
  fec_registro: Date;
}

/** A line as the detail's JSON carries it: its time in epoch milliseconds. */
type JsonItemRow = Omit<ItemRow, 'fec_registro'> & { fec_registro_ms: number };

export interface EventoRow {
  id_evento: string;
  accion: ComandaAction | 'crear';
  id_usuario: number | null;
  usuario: string | null;
  motivo: string | null;
  antes: unknown;
  despues: unknown;
  fec_evento: Date;
}

/** The columns a transition reads under the row lock. */
export interface LockedComanda {
  id_comanda: string;
  numero_ticket: string;
  estado: ComandaEstado;
  eliminada: boolean;
  version: number;
  total: string;
  id_mesa: number | null;
  id_usuario: number | null;
  id_cliente: number | null;
  observacion: string | null;
}

export interface ComandaFilter {
  estado?: ComandaEstado;
  id_mesa?: number;
  id_usuario?: number;
  desde?: string;
  hasta?: string;
  eliminada: boolean;
  timeZone: string;
}

export interface NewItem {
  id_producto: number;
  cantidad: number;
  nota: string | null;
  id_usuario: number | null;
  /** The course (feature cocina); null: the category's default course, else 1. */
  curso: number | null;
}

const SUMMARY_COLUMNS = `
  c.id_comanda, c.numero_ticket, c.id_mesa, m.numero AS mesa_numero,
  c.id_usuario, nullif(concat_ws(' ', u.nombre, u.apellido), '') AS mozo,
  c.id_cliente, nullif(concat_ws(' ', cl.nombre, cl.apellido), '') AS cliente,
  c.estado, c.fec_apertura, c.fec_cierre, c.total, c.observacion, c.eliminada,
  c.fec_eliminacion, c.version,
  (SELECT count(*)::int FROM deta_comandas d WHERE d.id_comanda = c.id_comanda) AS items`;

const SUMMARY_FROM = `
  FROM comandas c
  LEFT JOIN mesas m ON m.id_mesa = c.id_mesa
  LEFT JOIN usuarios u ON u.id_usuario = c.id_usuario
  LEFT JOIN clientes cl ON cl.id_cliente = c.id_cliente`;

/** An audit entry with the summary of its comanda as it is now (the live stream's events). */
export interface StreamEventRow extends ComandaRow {
  id_evento: string;
  accion: ComandaAction | 'crear';
  actor_id: number | null;
  actor: string | null;
  motivo: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
  fec_evento: Date;
}

/**
 * The live stream's query: audit entries matching `where` (over `e`, the entry, with bound
 * parameters), in id order, each with the summary of its comanda. Run by the stream's replay
 * on the request's DataSource and by the tenant feed on its own LISTEN connection.
 */
export function streamEventsQuery(where: string, limit: number): string {
  return `SELECT e.id_evento, e.accion, e.id_usuario AS actor_id,
                 nullif(concat_ws(' ', eu.nombre, eu.apellido), '') AS actor,
                 e.motivo, e.antes, e.despues, e.fec_evento, ${SUMMARY_COLUMNS}
            ${SUMMARY_FROM}
            JOIN comanda_eventos e ON e.id_comanda = c.id_comanda
            LEFT JOIN usuarios eu ON eu.id_usuario = e.id_usuario
           WHERE ${where}
           ORDER BY e.id_evento
           LIMIT ${limit}`;
}

/**
 * A comanda's total, in an `UPDATE comandas`: the sum of its lines' subtotals (the one place of
 * that rule, whichever route added the lines).
 */
const TOTAL_OF_LINES =
  '(SELECT coalesce(sum(d.subtotal), 0) FROM deta_comandas d WHERE d.id_comanda = comandas.id_comanda)';

const LOCKED_COLUMNS =
  'id_comanda, numero_ticket, estado, eliminada, version, total, id_mesa, id_usuario, id_cliente, observacion';

/** The columns of a line the service snapshots into the audit trail. */
const ITEM_COLUMNS =
  'id_deta_comanda, id_producto, cantidad, precio_unitario, subtotal, nota, id_usuario';

/** The only place with the SQL of comandas. Every value is a bound parameter. */
@Injectable()
export class ComandasRepository extends TenantRepository {
  private where(filter: ComandaFilter): { sql: string; params: unknown[] } {
    const params: unknown[] = [filter.eliminada];
    const clauses = ['c.eliminada = $1'];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      clauses.push(clause(`$${params.length}`));
    };
    if (filter.estado) add((n) => `c.estado = ${n}`, filter.estado);
    if (filter.id_mesa !== undefined) add((n) => `c.id_mesa = ${n}`, filter.id_mesa);
    if (filter.id_usuario !== undefined) add((n) => `c.id_usuario = ${n}`, filter.id_usuario);
    if (filter.desde || filter.hasta) params.push(filter.timeZone);
    const tz = `$${params.length}`;
    // business days in the tenant's zone: [desde 00:00, hasta+1 00:00) local time
    if (filter.desde)
      add((n) => `c.fec_apertura >= (${n}::date)::timestamp AT TIME ZONE ${tz}`, filter.desde);
    if (filter.hasta)
      add((n) => `c.fec_apertura < (${n}::date + 1)::timestamp AT TIME ZONE ${tz}`, filter.hasta);
    return { sql: clauses.join(' AND '), params };
  }

  async list(
    filter: ComandaFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: ComandaRow[]; total: number }> {
    const where = this.where(filter);
    const n = where.params.length;
    const [rows, count] = await Promise.all([
      this.db.query<ComandaRow[]>(
        `SELECT ${SUMMARY_COLUMNS} ${SUMMARY_FROM}
         WHERE ${where.sql}
         ORDER BY c.fec_apertura DESC, c.id_comanda DESC
         LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...where.params, limit, offset],
      ),
      this.db.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM comandas c WHERE ${where.sql}`,
        where.params,
      ),
    ]);
    return { rows, total: count[0].total };
  }

  /**
   * A comanda and its lines as of one moment: one statement, so one snapshot (a line added or
   * moved by a concurrent change is either in both the total and the lines, or in neither).
   * The lines come as JSON with the columns' text, as the driver gives them for a row.
   */
  async detail(
    id: number,
    db: Queryable = this.db,
  ): Promise<{ row: ComandaRow; lines: ItemRow[] } | undefined> {
    const rows = await db.query<(ComandaRow & { lineas: JsonItemRow[] })[]>(
      `SELECT ${SUMMARY_COLUMNS},
              (SELECT coalesce(json_agg(json_build_object(
                        'id_deta_comanda', d.id_deta_comanda::text,
                        'id_producto', d.id_producto,
                        'producto', p.nombre,
                        'cantidad', d.cantidad::text,
                        'precio_unitario', d.precio_unitario::text,
                        'subtotal', d.subtotal::text,
                        'nota', d.nota,
                        'id_usuario', d.id_usuario,
                        'usuario', nullif(concat_ws(' ', u.nombre, u.apellido), ''),
                        'fec_registro_ms', floor(extract(epoch FROM d.fec_registro) * 1000)
                      ) ORDER BY d.id_deta_comanda), '[]'::json)
                 FROM deta_comandas d
                 JOIN productos p ON p.id_producto = d.id_producto
                 LEFT JOIN usuarios u ON u.id_usuario = d.id_usuario
                WHERE d.id_comanda = c.id_comanda) AS lineas
         ${SUMMARY_FROM} WHERE c.id_comanda = $1`,
      [id],
    );
    const found = rows[0];
    if (!found) return undefined;
    const { lineas, ...row } = found;
    const lines = lineas.map(({ fec_registro_ms, ...line }) => ({
      ...line,
      fec_registro: new Date(fec_registro_ms),
    }));
    return { row, lines };
  }

  /**
   * The audit trail in the order the changes happened: by id, since a comanda's entries are
   * written while its row is locked (a transaction's `now()` is when it began, which can be
   * before another change of the comanda that it waited for).
   */
  events(id: number): Promise<EventoRow[]> {
    return this.db.query<EventoRow[]>(
      `SELECT e.id_evento, e.accion, e.id_usuario,
              nullif(concat_ws(' ', u.nombre, u.apellido), '') AS usuario,
              e.motivo, e.antes, e.despues, e.fec_evento
         FROM comanda_eventos e
         LEFT JOIN usuarios u ON u.id_usuario = e.id_usuario
        WHERE e.id_comanda = $1
        ORDER BY e.id_evento`,
      [id],
    );
  }

  /**
   * Where a stream resuming after entry `after` stands: how many entries came since, the time of
   * the oldest of them, and the newest id (to tell an id from the future).
   */
  async streamBacklog(
    after: number,
  ): Promise<{ since: number; oldest: Date | null; newest: number }> {
    const rows = await this.db.query<{ since: number; oldest: Date | null; newest: string }[]>(
      `SELECT count(*) FILTER (WHERE id_evento > $1)::int AS since,
              min(fec_evento) FILTER (WHERE id_evento > $1) AS oldest,
              coalesce(max(id_evento), 0) AS newest
         FROM comanda_eventos`,
      [after],
    );
    return { ...rows[0], newest: Number(rows[0].newest) };
  }

  /** The entries after `after`, oldest first, for a stream's replay. */
  streamEventsAfter(after: number, limit: number): Promise<StreamEventRow[]> {
    return this.db.query<StreamEventRow[]>(streamEventsQuery('e.id_evento > $1', limit), [after]);
  }

  async exists(id: number): Promise<boolean> {
    const rows = await this.db.query<unknown[]>('SELECT 1 FROM comandas WHERE id_comanda = $1', [
      id,
    ]);
    return rows.length > 0;
  }

  /** Locks the comanda's row for the rest of the transaction: transitions are serialized. */
  async lock(tx: Queryable, id: number): Promise<LockedComanda | undefined> {
    const rows = await tx.query<LockedComanda[]>(
      `SELECT ${LOCKED_COLUMNS} FROM comandas WHERE id_comanda = $1 FOR UPDATE`,
      [id],
    );
    return rows[0];
  }

  /**
   * Locks several comandas for the rest of the transaction, in id order (the sort is below the
   * row locks in the plan), so that two changes of overlapping sets of comandas (two merges, a
   * merge and a split) wait for each other instead of deadlocking. Missing ids are not returned.
   */
  lockAll(tx: Queryable, ids: number[]): Promise<LockedComanda[]> {
    return tx.query<LockedComanda[]>(
      `SELECT ${LOCKED_COLUMNS} FROM comandas
        WHERE id_comanda = ANY($1::bigint[])
        ORDER BY id_comanda
          FOR UPDATE`,
      [ids],
    );
  }

  /** The lines of a locked comanda, in entry order (to split or merge them). */
  lines(tx: Queryable, id: number): Promise<ItemRow[]> {
    return tx.query<ItemRow[]>(
      `SELECT ${ITEM_COLUMNS} FROM deta_comandas WHERE id_comanda = $1 ORDER BY id_deta_comanda`,
      [id],
    );
  }

  /** Moves whole lines to another comanda (they keep their ids, prices, authors and times). */
  async moveItems(tx: Queryable, itemIds: number[], toId: number): Promise<void> {
    if (itemIds.length === 0) return;
    await tx.query(
      'UPDATE deta_comandas SET id_comanda = $2 WHERE id_deta_comanda = ANY($1::bigint[])',
      [itemIds, toId],
    );
  }

  /**
   * Splits `cantidad` off a line into a new line of comanda `toId` with the same product, price,
   * note, author and time, course and kitchen state; the line keeps the rest. Answers the new line.
   */
  async splitItem(tx: Queryable, itemId: number, cantidad: number, toId: number): Promise<ItemRow> {
    await tx.query('UPDATE deta_comandas SET cantidad = cantidad - $2 WHERE id_deta_comanda = $1', [
      itemId,
      cantidad,
    ]);
    const rows = await tx.query<ItemRow[]>(
      `INSERT INTO deta_comandas
              (id_comanda, id_producto, cantidad, precio_unitario, nota, id_usuario, fec_registro,
               curso, estado_cocina, fec_enviado, fec_preparacion, fec_listo, fec_entregado)
       SELECT $3, id_producto, $2, precio_unitario, nota, id_usuario, fec_registro,
              curso, estado_cocina, fec_enviado, fec_preparacion, fec_listo, fec_entregado
         FROM deta_comandas WHERE id_deta_comanda = $1
       RETURNING ${ITEM_COLUMNS}`,
      [itemId, cantidad, toId],
    );
    return rows[0];
  }

  /**
   * Moves every line of comandas `fromIds` to comanda `toId`. Answers the lines moved, in
   * entry order, each with the comanda it came from (`origen`).
   */
  async moveAllItems(
    tx: Queryable,
    fromIds: number[],
    toId: number,
  ): Promise<(ItemRow & { origen: string })[]> {
    const result = await tx.query<
      (ItemRow & { origen: string })[] | [(ItemRow & { origen: string })[], number]
    >(
      `UPDATE deta_comandas d SET id_comanda = $2
         FROM (SELECT id_deta_comanda, id_comanda AS origen
                 FROM deta_comandas WHERE id_comanda = ANY($1::bigint[])) o
        WHERE d.id_deta_comanda = o.id_deta_comanda
       RETURNING ${ITEM_COLUMNS.split(', ')
         .map((c) => `d.${c}`)
         .join(', ')}, o.origen`,
      [fromIds, toId],
    );
    return returnedRows(result).sort(
      (a, b) => Number(a.id_deta_comanda) - Number(b.id_deta_comanda),
    );
  }

  async insert(tx: Queryable, fields: Partial<Record<EditableField, unknown>>): Promise<number> {
    const rows = await tx.query<{ id_comanda: string }[]>(
      `INSERT INTO comandas (id_mesa, id_usuario, id_cliente, observacion)
       VALUES ($1, $2, $3, $4) RETURNING id_comanda`,
      [
        fields.id_mesa ?? null,
        fields.id_usuario ?? null,
        fields.id_cliente ?? null,
        fields.observacion ?? null,
      ],
    );
    return Number(rows[0].id_comanda);
  }

  /** Products by id with whether they can be ordered. */
  products(tx: Queryable, ids: number[]): Promise<{ id_producto: number; activo: boolean }[]> {
    return tx.query(
      'SELECT id_producto, activo FROM productos WHERE id_producto = ANY($1::int[])',
      [ids],
    );
  }

  /** Adds lines at the products' current prices, in the given order. */
  async insertItems(tx: Queryable, id: number, lines: NewItem[]): Promise<ItemRow[]> {
    return tx.query<ItemRow[]>(
      `INSERT INTO deta_comandas
              (id_comanda, id_producto, cantidad, precio_unitario, nota, id_usuario, curso)
       SELECT $1, p.id_producto, l.cantidad, p.precio, l.nota, l.id_usuario,
              coalesce(l.curso, cat.curso_defecto, 1)
         FROM jsonb_to_recordset($2::jsonb)
              AS l(ord int, id_producto int, cantidad numeric, nota text, id_usuario int, curso smallint)
         JOIN productos p ON p.id_producto = l.id_producto
         LEFT JOIN categorias cat ON cat.id_categoria = p.id_categoria
        ORDER BY l.ord
       RETURNING id_deta_comanda, id_producto, cantidad, precio_unitario, subtotal, nota, id_usuario`,
      [id, JSON.stringify(lines.map((line, ord) => ({ ord, ...line })))],
    );
  }

  async item(tx: Queryable, id: number, itemId: number): Promise<ItemRow | undefined> {
    const rows = await tx.query<ItemRow[]>(
      `SELECT id_deta_comanda, id_producto, cantidad, precio_unitario, subtotal, nota, id_usuario
         FROM deta_comandas WHERE id_comanda = $1 AND id_deta_comanda = $2`,
      [id, itemId],
    );
    return rows[0];
  }

  async updateItem(
    tx: Queryable,
    itemId: number,
    cantidad: number | undefined,
    nota: string | null | undefined,
  ): Promise<ItemRow> {
    const result = await tx.query<ItemRow[] | [ItemRow[], number]>(
      `UPDATE deta_comandas
          SET cantidad = coalesce($2, cantidad),
              nota = CASE WHEN $3 THEN $4 ELSE nota END
        WHERE id_deta_comanda = $1
       RETURNING id_deta_comanda, id_producto, cantidad, precio_unitario, subtotal, nota, id_usuario`,
      [itemId, cantidad ?? null, nota !== undefined, nota ?? null],
    );
    return returnedRows(result)[0];
  }

  async deleteItem(tx: Queryable, itemId: number): Promise<void> {
    await tx.query('DELETE FROM deta_comandas WHERE id_deta_comanda = $1', [itemId]);
  }

  /** Sets the total of a new comanda from its lines (its version stays 1). */
  async refreshTotal(tx: Queryable, id: number): Promise<LockedComanda> {
    const result = await tx.query<LockedComanda[] | [LockedComanda[], number]>(
      `UPDATE comandas
          SET total = ${TOTAL_OF_LINES}
        WHERE id_comanda = $1
       RETURNING ${LOCKED_COLUMNS}`,
      [id],
    );
    return returnedRows(result)[0];
  }

  async countItems(tx: Queryable, id: number): Promise<number> {
    const rows = await tx.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM deta_comandas WHERE id_comanda = $1',
      [id],
    );
    return rows[0].n;
  }

  /**
   * Applies a change to the locked comanda: the given columns, the total recomputed from the
   * lines (in the same transaction), and the next version.
   */
  async applyChange(
    tx: Queryable,
    id: number,
    change: {
      estado?: ComandaEstado;
      eliminada?: boolean;
      fields?: Partial<Record<EditableField, unknown>>;
    },
  ): Promise<LockedComanda> {
    const f = change.fields ?? {};
    const has = (name: EditableField) => Object.prototype.hasOwnProperty.call(f, name);
    const result = await tx.query<LockedComanda[] | [LockedComanda[], number]>(
      `UPDATE comandas SET
         estado = coalesce($2, estado),
         fec_cierre = CASE WHEN $2::text IS NULL THEN fec_cierre
                           WHEN $2 = 'cerrada' THEN now() ELSE NULL END,
         eliminada = coalesce($3, eliminada),
         fec_eliminacion = CASE WHEN $3::boolean IS NULL THEN fec_eliminacion
                                WHEN $3 THEN now() ELSE NULL END,
         id_mesa = CASE WHEN $4 THEN $5::int ELSE id_mesa END,
         id_usuario = CASE WHEN $6 THEN $7::int ELSE id_usuario END,
         id_cliente = CASE WHEN $8 THEN $9::int ELSE id_cliente END,
         observacion = CASE WHEN $10 THEN $11::text ELSE observacion END,
         total = ${TOTAL_OF_LINES},
         version = version + 1
       WHERE id_comanda = $1
       RETURNING ${LOCKED_COLUMNS}`,
      [
        id,
        change.estado ?? null,
        change.eliminada ?? null,
        has('id_mesa'),
        f.id_mesa ?? null,
        has('id_usuario'),
        f.id_usuario ?? null,
        has('id_cliente'),
        f.id_cliente ?? null,
        has('observacion'),
        f.observacion ?? null,
      ],
    );
    return returnedRows(result)[0];
  }

  async audit(
    tx: Queryable,
    event: {
      id_comanda: number;
      accion: ComandaAction | 'crear';
      id_usuario: number | null;
      motivo: string | null;
      antes: unknown;
      despues: unknown;
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO comanda_eventos (id_comanda, accion, id_usuario, motivo, antes, despues)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
      [
        event.id_comanda,
        event.accion,
        event.id_usuario,
        event.motivo,
        event.antes === null ? null : JSON.stringify(event.antes),
        event.despues === null ? null : JSON.stringify(event.despues),
      ],
    );
  }
}
