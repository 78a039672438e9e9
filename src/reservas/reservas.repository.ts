import { Injectable } from '@nestjs/common';
import { firstRow, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { EditableField } from './dto/reserva-input.dto';
import type { ReservaEstado } from './reservas-state';

/** A reservation as PostgreSQL returns it (bigint as a string; fecha and hora as text). */
export interface ReservaRow {
  id_reserva: string;
  nombre: string;
  personas: number;
  fecha: string;
  hora: string;
  id_mesa: number | null;
  mesa_numero: number | null;
  telefono: string | null;
  observacion: string | null;
  id_cliente: number | null;
  cliente: string | null;
  estado: ReservaEstado;
  id_comanda: string | null;
  motivo: string | null;
  id_usuario_registro: number | null;
  fec_registro: Date;
  id_usuario_estado: number | null;
  fec_estado: Date | null;
  version: number;
}

/** The columns a change reads under the row lock. */
export interface LockedReserva {
  id_reserva: string;
  nombre: string;
  personas: number;
  fecha: string;
  hora: string;
  id_mesa: number | null;
  id_cliente: number | null;
  estado: ReservaEstado;
  version: number;
}

export interface ReservaFilter {
  fecha: string;
  estado?: ReservaEstado;
  id_mesa?: number;
}

/** Another pendiente reservation of a table too close in time. */
export interface ConflictingReserva {
  id_reserva: number;
  fecha: string;
  hora: string;
}

export type ReservaFields = Partial<Record<EditableField, unknown>>;

const COLUMNS = `
  r.id_reserva, r.nombre, r.personas, to_char(r.fecha, 'YYYY-MM-DD') AS fecha,
  to_char(r.hora, 'HH24:MI') AS hora, r.id_mesa, m.numero AS mesa_numero, r.telefono,
  r.observacion, r.id_cliente, nullif(concat_ws(' ', cl.nombre, cl.apellido), '') AS cliente,
  r.estado, r.id_comanda, r.motivo, r.id_usuario_registro, r.fec_registro,
  r.id_usuario_estado, r.fec_estado, r.version`;

const FROM = `
  FROM reservas r
  LEFT JOIN mesas m ON m.id_mesa = r.id_mesa
  LEFT JOIN clientes cl ON cl.id_cliente = r.id_cliente`;

const LOCKED_COLUMNS = `id_reserva, nombre, personas, to_char(fecha, 'YYYY-MM-DD') AS fecha,
  to_char(hora, 'HH24:MI') AS hora, id_mesa, id_cliente, estado, version`;

/** The only place with the SQL of reservations. Every value is a bound parameter. */
@Injectable()
export class ReservasRepository extends TenantRepository {
  async list(
    filter: ReservaFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: ReservaRow[]; total: number }> {
    const params: unknown[] = [filter.fecha];
    const clauses = ['r.fecha = $1::date'];
    if (filter.estado) {
      params.push(filter.estado);
      clauses.push(`r.estado = $${params.length}`);
    }
    if (filter.id_mesa !== undefined) {
      params.push(filter.id_mesa);
      clauses.push(`r.id_mesa = $${params.length}`);
    }
    const where = clauses.join(' AND ');
    const n = params.length;
    const [rows, count] = await Promise.all([
      this.db.query<ReservaRow[]>(
        `SELECT ${COLUMNS} ${FROM}
          WHERE ${where}
          ORDER BY r.hora, r.id_reserva
          LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, limit, offset],
      ),
      this.db.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM reservas r WHERE ${where}`,
        params,
      ),
    ]);
    return { rows, total: count[0].total };
  }

  find(id: number, db: Queryable = this.db): Promise<ReservaRow | undefined> {
    return firstRow<ReservaRow>(db, `SELECT ${COLUMNS} ${FROM} WHERE r.id_reserva = $1`, [id]);
  }

  /** Locks the reservation's row for the rest of the transaction: its changes are serialized. */
  lock(tx: Queryable, id: number): Promise<LockedReserva | undefined> {
    return firstRow<LockedReserva>(
      tx,
      `SELECT ${LOCKED_COLUMNS} FROM reservas WHERE id_reserva = $1 FOR UPDATE`,
      [id],
    );
  }

  /**
   * Locks a table's row against other bookings of it until the transaction ends (FOR NO KEY
   * UPDATE: comandas can still reference the table meanwhile). False when there is no such
   * table (the insert then fails on its foreign key, 400).
   */
  async lockMesa(tx: Queryable, idMesa: number): Promise<boolean> {
    const row = await firstRow<{ id_mesa: number }>(
      tx,
      'SELECT id_mesa FROM mesas WHERE id_mesa = $1 FOR NO KEY UPDATE',
      [idMesa],
    );
    return row !== undefined;
  }

  /**
   * The first other pendiente reservation of the table that starts less than `minutes` before
   * or after `fecha hora` (wall-clock times of the tenant's zone, compared as such).
   */
  conflicting(
    tx: Queryable,
    at: { id_mesa: number; fecha: string; hora: string; minutes: number; except: number },
  ): Promise<ConflictingReserva | undefined> {
    return firstRow<ConflictingReserva>(
      tx,
      `WITH t AS (
         SELECT $2::date + $3::time AS at, make_interval(mins => $4::int) AS w
       )
       SELECT r.id_reserva::int AS id_reserva, to_char(r.fecha, 'YYYY-MM-DD') AS fecha,
              to_char(r.hora, 'HH24:MI') AS hora
         FROM reservas r, t
        WHERE r.id_mesa = $1 AND r.estado = 'pendiente' AND r.id_reserva <> $5
          AND r.fecha BETWEEN (t.at - t.w)::date AND (t.at + t.w)::date
          AND r.fecha + r.hora > t.at - t.w
          AND r.fecha + r.hora < t.at + t.w
        ORDER BY r.fecha, r.hora, r.id_reserva
        LIMIT 1`,
      [at.id_mesa, at.fecha, at.hora, at.minutes, at.except],
    );
  }

  async insert(tx: Queryable, fields: ReservaFields, actor: number | null): Promise<number> {
    const row = await firstRow<{ id_reserva: string }>(
      tx,
      `INSERT INTO reservas (nombre, personas, fecha, hora, id_mesa, telefono, observacion,
                             id_cliente, id_usuario_registro)
       VALUES ($1, $2, $3::date, $4::time, $5, $6, $7, $8, $9)
       RETURNING id_reserva`,
      [
        fields.nombre,
        fields.personas,
        fields.fecha,
        fields.hora,
        fields.id_mesa ?? null,
        fields.telefono ?? null,
        fields.observacion ?? null,
        fields.id_cliente ?? null,
        actor,
      ],
    );
    return Number(row!.id_reserva);
  }

  /** Changes the given fields of the locked reservation (the others stay) and its version. */
  async update(tx: Queryable, id: number, fields: ReservaFields): Promise<void> {
    const has = (name: EditableField) => Object.hasOwn(fields, name);
    await tx.query(
      `UPDATE reservas SET
         nombre = CASE WHEN $2 THEN $3::text ELSE nombre END,
         personas = CASE WHEN $4 THEN $5::int ELSE personas END,
         fecha = CASE WHEN $6 THEN $7::date ELSE fecha END,
         hora = CASE WHEN $8 THEN $9::time ELSE hora END,
         id_mesa = CASE WHEN $10 THEN $11::int ELSE id_mesa END,
         telefono = CASE WHEN $12 THEN $13::text ELSE telefono END,
         observacion = CASE WHEN $14 THEN $15::text ELSE observacion END,
         id_cliente = CASE WHEN $16 THEN $17::int ELSE id_cliente END,
         version = version + 1
       WHERE id_reserva = $1`,
      [
        id,
        has('nombre'),
        fields.nombre ?? null,
        has('personas'),
        fields.personas ?? null,
        has('fecha'),
        fields.fecha ?? null,
        has('hora'),
        fields.hora ?? null,
        has('id_mesa'),
        fields.id_mesa ?? null,
        has('telefono'),
        fields.telefono ?? null,
        has('observacion'),
        fields.observacion ?? null,
        has('id_cliente'),
        fields.id_cliente ?? null,
      ],
    );
  }

  /** Moves the locked reservation out of pendiente: who and when, and what the state keeps. */
  async close(
    tx: Queryable,
    id: number,
    change: {
      estado: ReservaEstado;
      actor: number | null;
      id_mesa?: number;
      id_comanda?: number;
      motivo?: string;
    },
  ): Promise<void> {
    await tx.query(
      `UPDATE reservas SET
         estado = $2,
         id_mesa = coalesce($3::int, id_mesa),
         id_comanda = $4,
         motivo = $5,
         id_usuario_estado = $6,
         fec_estado = now(),
         version = version + 1
       WHERE id_reserva = $1`,
      [
        id,
        change.estado,
        change.id_mesa ?? null,
        change.id_comanda ?? null,
        change.motivo ?? null,
        change.actor,
      ],
    );
  }
}
