import { Injectable } from '@nestjs/common';
import { pgErrorInfo } from '../common/errors/pg-error.translator';
import { firstRow, returnedRows, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { EnvioEstado, EstadoCocina } from './cocina-actions';
import { sinEstacion } from './cocina.errors';
import type { EstacionBody, EstacionPatchBody, EstacionTipo } from './dto/cocina-input.dto';

export interface EstacionRow {
  id_estacion: number;
  nombre: string;
  tipo: EstacionTipo;
  alerta_amarilla_min: number;
  alerta_roja_min: number;
  activo: boolean;
  categorias: number[];
}

export interface EnvioRow {
  id_envio: string;
  id_comanda: string;
  numero_ticket: string;
  mesa: number | null;
  mozo: string | null;
  id_estacion: number;
  curso: number;
  tipo: 'nuevo' | 'adicional' | 'anulacion';
  estado: EnvioEstado;
  fec_envio: Date;
  fec_listo: Date | null;
  fec_disparo: Date | null;
  lineas: {
    id_item: string;
    id_producto: number;
    producto: string;
    cantidad: string;
    nota: string | null;
    estado_cocina: EstadoCocina | null;
  }[];
}

export interface LineaCocinaRow {
  id_item: string;
  curso: number;
  estado_cocina: EstadoCocina;
  fec_enviado: Date | null;
  fec_preparacion: Date | null;
  fec_listo: Date | null;
  fec_entregado: Date | null;
}

const ESTACION_COLUMNS = `e.id_estacion, e.nombre, e.tipo, e.alerta_amarilla_min, e.alerta_roja_min, e.activo,
  coalesce((SELECT array_agg(ec.id_categoria ORDER BY ec.id_categoria)
              FROM estacion_categorias ec WHERE ec.id_estacion = e.id_estacion), '{}') AS categorias`;

/**
 * The comanda a ticket (`t`) belongs to now: the one it was sent for while one of its lines is
 * still there, else the one its lines were moved to (a merge, a split of whole lines), else the
 * one it was sent for (its lines voided).
 */
const COMANDA_OF_ENVIO = `coalesce(
    (SELECT d.id_comanda FROM envio_lineas l
       JOIN deta_comandas d ON d.id_deta_comanda = l.id_item
      WHERE l.id_envio = t.id_envio
      ORDER BY (d.id_comanda = t.id_comanda) DESC, l.id_item LIMIT 1),
    t.id_comanda)`;

/** A ticket with its comanda, table, waiter, course fired and lines (`t`: envios_cocina). */
const ENVIO_SELECT = `
  SELECT t.id_envio, c.id_comanda, c.numero_ticket, m.numero AS mesa,
         nullif(concat_ws(' ', u.nombre, u.apellido), '') AS mozo,
         t.id_estacion, t.curso, t.tipo, t.estado, t.fec_envio, t.fec_listo, cd.fec_disparo,
         (SELECT coalesce(json_agg(json_build_object(
                   'id_item', l.id_item::text, 'id_producto', l.id_producto, 'producto', p.nombre,
                   'cantidad', l.cantidad::text, 'nota', d.nota, 'estado_cocina', d.estado_cocina)
                   ORDER BY l.id_item), '[]'::json)
            FROM envio_lineas l
            JOIN productos p ON p.id_producto = l.id_producto
            LEFT JOIN deta_comandas d ON d.id_deta_comanda = l.id_item
           WHERE l.id_envio = t.id_envio) AS lineas
    FROM envios_cocina t
    JOIN comandas c ON c.id_comanda = ${COMANDA_OF_ENVIO}
    LEFT JOIN mesas m ON m.id_mesa = c.id_mesa
    LEFT JOIN usuarios u ON u.id_usuario = c.id_usuario
    LEFT JOIN cursos_disparados cd ON cd.id_comanda = t.id_comanda AND cd.curso = t.curso`;

/**
 * The kitchen's SQL (docs/cocina.md). The quantities sent are computed by PostgreSQL in numeric
 * (the store functions cocina_emitir and cocina_dividir_linea of the migration); TypeScript
 * passes them on as text.
 */
@Injectable()
export class CocinaRepository extends TenantRepository {
  // ---- stations ----

  estaciones(): Promise<EstacionRow[]> {
    return this.db.query<EstacionRow[]>(
      `SELECT ${ESTACION_COLUMNS} FROM estaciones_cocina e ORDER BY e.id_estacion`,
    );
  }

  estacion(id: number, db: Queryable = this.db): Promise<EstacionRow | undefined> {
    return firstRow<EstacionRow>(
      db,
      `SELECT ${ESTACION_COLUMNS} FROM estaciones_cocina e WHERE e.id_estacion = $1`,
      [id],
    );
  }

  async insertEstacion(tx: Queryable, body: EstacionBody): Promise<number> {
    const rows = await tx.query<{ id_estacion: number }[]>(
      `INSERT INTO estaciones_cocina (nombre, tipo, alerta_amarilla_min, alerta_roja_min, activo)
       VALUES ($1, coalesce($2, 'preparacion'), coalesce($3, 8), coalesce($4, 15), coalesce($5, true))
       RETURNING id_estacion`,
      [
        body.nombre,
        body.tipo ?? null,
        body.alerta_amarilla_min ?? null,
        body.alerta_roja_min ?? null,
        body.activo ?? null,
      ],
    );
    return rows[0].id_estacion;
  }

  async updateEstacion(tx: Queryable, id: number, body: EstacionPatchBody): Promise<boolean> {
    const result = await tx.query<unknown[] | [unknown[], number]>(
      `UPDATE estaciones_cocina
          SET nombre = coalesce($2, nombre),
              alerta_amarilla_min = coalesce($3, alerta_amarilla_min),
              alerta_roja_min = coalesce($4, alerta_roja_min),
              activo = coalesce($5, activo)
        WHERE id_estacion = $1
       RETURNING id_estacion`,
      [
        id,
        body.nombre ?? null,
        body.alerta_amarilla_min ?? null,
        body.alerta_roja_min ?? null,
        body.activo ?? null,
      ],
    );
    return returnedRows(result).length > 0;
  }

  /** The ids of `ids` that are no category. */
  async missingCategorias(tx: Queryable, ids: number[]): Promise<number[]> {
    const rows = await tx.query<{ id: number }[]>(
      `SELECT x.id FROM unnest($1::int[]) AS x(id)
        WHERE NOT EXISTS (SELECT 1 FROM categorias c WHERE c.id_categoria = x.id)
        ORDER BY x.id`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** The station's categories become `ids` (each one leaves the station it was at). */
  async setCategorias(tx: Queryable, id: number, ids: number[]): Promise<void> {
    await tx.query(
      'DELETE FROM estacion_categorias WHERE id_estacion = $1 AND id_categoria <> ALL($2::int[])',
      [id, ids],
    );
    await tx.query(
      `INSERT INTO estacion_categorias (id_categoria, id_estacion)
       SELECT DISTINCT x, $1::int FROM unnest($2::int[]) AS x
       ON CONFLICT (id_categoria) DO UPDATE SET id_estacion = EXCLUDED.id_estacion`,
      [id, ids],
    );
  }

  // ---- sends ----

  /** Locks the comanda's row (the change frame locks it again in the same transaction). */
  lockComanda(
    tx: Queryable,
    id: number,
  ): Promise<{ version: number; estado: 'abierta' | 'cerrada'; eliminada: boolean } | undefined> {
    return firstRow(
      tx,
      'SELECT version, estado, eliminada FROM comandas WHERE id_comanda = $1 FOR UPDATE',
      [id],
    );
  }

  /**
   * Whether a send would write anything: a line of a fired course (or of `curso`, about to be
   * fired) whose quantity is not what was sent.
   */
  async hasPending(tx: Queryable, id: number, curso: number): Promise<boolean> {
    const rows = await tx.query<{ pending: boolean }[]>(
      `SELECT EXISTS (
         SELECT 1 FROM deta_comandas d
          WHERE d.id_comanda = $1
            AND (d.curso = $2 OR EXISTS (SELECT 1 FROM cursos_disparados c
                                          WHERE c.id_comanda = d.id_comanda AND c.curso = d.curso))
            AND d.cantidad <> coalesce((SELECT sum(l.cantidad) FROM envio_lineas l
                                         WHERE l.id_item = d.id_deta_comanda), 0)) AS pending`,
      [id, curso],
    );
    return rows[0].pending;
  }

  /** Fires a course; false when it was fired already. */
  async fire(tx: Queryable, id: number, curso: number, idUsuario: number | null): Promise<boolean> {
    const rows = await tx.query<unknown[]>(
      `INSERT INTO cursos_disparados (id_comanda, curso, id_usuario) VALUES ($1, $2, $3)
       ON CONFLICT (id_comanda, curso) DO NOTHING RETURNING curso`,
      [id, curso, idUsuario],
    );
    return rows.length > 0;
  }

  /** cocina_emitir: the tickets of a send or a cancellation; answers their ids. */
  async emitir(
    tx: Queryable,
    id: number,
    idUsuario: number | null,
    modo: 'enviar' | 'anular_linea' | 'anular_comanda',
    idItem: number | null = null,
    objetivo: number | null = null,
  ): Promise<number[]> {
    try {
      const rows = await tx.query<{ ids: string[] }[]>(
        'SELECT cocina_emitir($1, $2, $3, $4, $5) AS ids',
        [id, idUsuario, modo, idItem, objetivo],
      );
      return rows[0].ids.map(Number);
    } catch (error) {
      // a line with no station to go to (no active preparation station)
      const info = pgErrorInfo(error);
      if (info?.code === '23502' && info.column === 'id_estacion') throw sinEstacion();
      throw error;
    }
  }

  /** cocina_dividir_linea: a split line's sent quantity follows the part moved. */
  async dividirLinea(tx: Queryable, origen: number, nueva: number, cantidad: number) {
    await tx.query('SELECT cocina_dividir_linea($1, $2, $3)', [origen, nueva, cantidad]);
  }

  /** What cancellation tickets took back, per product (the waste), as numeric text. */
  cancelled(tx: Queryable, ids: number[]): Promise<{ id_producto: number; cantidad: string }[]> {
    return tx.query(
      `SELECT l.id_producto, (-sum(l.cantidad))::text AS cantidad
         FROM envio_lineas l JOIN envios_cocina t ON t.id_envio = l.id_envio
        WHERE l.id_envio = ANY($1::bigint[]) AND t.tipo = 'anulacion'
        GROUP BY l.id_producto ORDER BY l.id_producto`,
      [ids],
    );
  }

  /** Whether the comanda has any ticket. */
  async hasEnvios(db: Queryable, id: number): Promise<boolean> {
    const rows = await db.query<unknown[]>(
      'SELECT 1 FROM envios_cocina WHERE id_comanda = $1 LIMIT 1',
      [id],
    );
    return rows.length > 0;
  }

  // ---- tickets ----

  envios(db: Queryable, ids: number[]): Promise<EnvioRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.query<EnvioRow[]>(
      `${ENVIO_SELECT} WHERE t.id_envio = ANY($1::bigint[]) ORDER BY t.id_envio`,
      [ids],
    );
  }

  async list(
    estacion: { id_estacion: number; tipo: EstacionTipo } | undefined,
    estado: 'pendiente' | 'listo' | 'todos',
    limit: number,
    offset: number,
  ): Promise<{ rows: EnvioRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (estacion && estacion.tipo === 'preparacion') {
      params.push(estacion.id_estacion);
      where.push(`t.id_estacion = $${params.length}`);
    }
    if (estado === 'pendiente') where.push("t.estado IN ('pendiente', 'en_preparacion')");
    if (estado === 'listo') where.push("t.estado = 'listo'");
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const order = estado === 'pendiente' ? 't.id_envio' : 't.id_envio DESC';
    const n = params.length;
    const [rows, count] = await Promise.all([
      this.db.query<EnvioRow[]>(
        `${ENVIO_SELECT} ${clause} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, limit, offset],
      ),
      this.db.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM envios_cocina t ${clause}`,
        params,
      ),
    ]);
    return { rows, total: count[0].total };
  }

  /**
   * The comandas holding a ticket's lines now, ascending (a split may leave one ticket with
   * lines in two comandas); its own comanda when none of its lines is left.
   */
  async comandasOfEnvio(id: number, db: Queryable = this.db): Promise<number[]> {
    const rows = await db.query<{ id_comanda: string }[]>(
      `SELECT DISTINCT d.id_comanda FROM envio_lineas l
         JOIN deta_comandas d ON d.id_deta_comanda = l.id_item
        WHERE l.id_envio = $1
       UNION
       SELECT ${COMANDA_OF_ENVIO} FROM envios_cocina t
        WHERE t.id_envio = $1
          AND NOT EXISTS (SELECT 1 FROM envio_lineas l JOIN deta_comandas d ON d.id_deta_comanda = l.id_item
                           WHERE l.id_envio = $1)
       ORDER BY 1`,
      [id],
    );
    return rows.map((r) => Number(r.id_comanda));
  }

  /** The comanda of each of these lines. */
  async comandasOfItems(tx: Queryable, ids: number[]): Promise<Map<number, number>> {
    const rows = await tx.query<{ id: string; id_comanda: string }[]>(
      'SELECT id_deta_comanda AS id, id_comanda FROM deta_comandas WHERE id_deta_comanda = ANY($1::bigint[])',
      [ids],
    );
    return new Map(rows.map((r) => [Number(r.id), Number(r.id_comanda)]));
  }

  lockEnvio(tx: Queryable, id: number): Promise<{ estado: EnvioEstado; tipo: string } | undefined> {
    return firstRow(tx, 'SELECT estado, tipo FROM envios_cocina WHERE id_envio = $1 FOR UPDATE', [
      id,
    ]);
  }

  /** preparar: the ticket and its lines still enviado start. Answers the lines moved. */
  async preparar(tx: Queryable, id: number): Promise<number[]> {
    await tx.query("UPDATE envios_cocina SET estado = 'en_preparacion' WHERE id_envio = $1", [id]);
    const rows = await tx.query<{ id: string }[]>(
      `UPDATE deta_comandas d SET estado_cocina = 'en_preparacion', fec_preparacion = clock_timestamp()
        WHERE d.estado_cocina = 'enviado'
          AND d.id_deta_comanda IN (SELECT id_item FROM envio_lineas WHERE id_envio = $1 AND cantidad > 0)
       RETURNING d.id_deta_comanda AS id`,
      [id],
    );
    return returnedRows(rows).map((r) => Number(r.id));
  }

  /**
   * listo: the ticket is bumped; its lines (not yet listo) become listo when every ticket that
   * sent them something is listo. Answers the lines moved.
   */
  async listo(tx: Queryable, id: number): Promise<number[]> {
    await tx.query(
      "UPDATE envios_cocina SET estado = 'listo', fec_listo = clock_timestamp() WHERE id_envio = $1",
      [id],
    );
    const rows = await tx.query<{ id: string }[]>(
      `UPDATE deta_comandas d SET estado_cocina = 'listo', fec_listo = clock_timestamp()
        WHERE d.estado_cocina IN ('enviado', 'en_preparacion')
          AND d.id_deta_comanda IN (SELECT id_item FROM envio_lineas WHERE id_envio = $1 AND cantidad > 0)
          AND NOT EXISTS (SELECT 1 FROM envio_lineas l JOIN envios_cocina t ON t.id_envio = l.id_envio
                           WHERE l.id_item = d.id_deta_comanda AND l.cantidad > 0 AND t.estado <> 'listo')
       RETURNING d.id_deta_comanda AS id`,
      [id],
    );
    return returnedRows(rows).map((r) => Number(r.id));
  }

  /** A line of the ticket already served, if any (a recall is refused then). */
  async entregada(tx: Queryable, id: number): Promise<number | undefined> {
    const row = await firstRow<{ id: string }>(
      tx,
      `SELECT d.id_deta_comanda AS id FROM deta_comandas d
        WHERE d.estado_cocina = 'entregado'
          AND d.id_deta_comanda IN (SELECT id_item FROM envio_lineas WHERE id_envio = $1 AND cantidad > 0)
        ORDER BY d.id_deta_comanda LIMIT 1`,
      [id],
    );
    return row ? Number(row.id) : undefined;
  }

  /** recuperar: the ticket is pending again, its listo lines enviado. Answers the lines moved. */
  async recuperar(tx: Queryable, id: number): Promise<number[]> {
    await tx.query(
      "UPDATE envios_cocina SET estado = 'pendiente', fec_listo = NULL WHERE id_envio = $1",
      [id],
    );
    const rows = await tx.query<{ id: string }[]>(
      `UPDATE deta_comandas d SET estado_cocina = 'enviado', fec_preparacion = NULL, fec_listo = NULL
        WHERE d.estado_cocina = 'listo'
          AND d.id_deta_comanda IN (SELECT id_item FROM envio_lineas WHERE id_envio = $1 AND cantidad > 0)
       RETURNING d.id_deta_comanda AS id`,
      [id],
    );
    return returnedRows(rows).map((r) => Number(r.id));
  }

  /** A line of the comanda, locked, with its kitchen state. */
  lockLinea(
    tx: Queryable,
    idComanda: number,
    idItem: number,
  ): Promise<{ estado_cocina: EstadoCocina } | undefined> {
    return firstRow(
      tx,
      'SELECT estado_cocina FROM deta_comandas WHERE id_comanda = $1 AND id_deta_comanda = $2 FOR UPDATE',
      [idComanda, idItem],
    );
  }

  async entregar(tx: Queryable, idItem: number): Promise<void> {
    await tx.query(
      "UPDATE deta_comandas SET estado_cocina = 'entregado', fec_entregado = clock_timestamp() WHERE id_deta_comanda = $1",
      [idItem],
    );
  }

  /** The ids of the tickets that sent something of the lines. */
  async enviosOfItems(db: Queryable, items: number[]): Promise<number[]> {
    const rows = await db.query<{ id: string }[]>(
      'SELECT DISTINCT id_envio AS id FROM envio_lineas WHERE id_item = ANY($1::bigint[]) ORDER BY 1',
      [items],
    );
    return rows.map((r) => Number(r.id));
  }

  /** The stations of tickets. */
  async estacionesOf(db: Queryable, ids: number[]): Promise<number[]> {
    const rows = await db.query<{ id: number }[]>(
      'SELECT DISTINCT id_estacion AS id FROM envios_cocina WHERE id_envio = ANY($1::bigint[]) ORDER BY 1',
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** The kitchen fields of a comanda's lines. */
  lineas(db: Queryable, idComanda: number): Promise<LineaCocinaRow[]> {
    return db.query<LineaCocinaRow[]>(
      `SELECT id_deta_comanda AS id_item, curso, estado_cocina, fec_enviado, fec_preparacion,
              fec_listo, fec_entregado
         FROM deta_comandas WHERE id_comanda = $1`,
      [idComanda],
    );
  }

  /**
   * Comandas with tickets of the last 24 hours at a station (every station's: undefined), for a
   * kitchen stream's filter.
   */
  async comandasOfEstacion(idEstacion: number | undefined): Promise<number[]> {
    const rows = await this.db.query<{ id: string }[]>(
      `SELECT DISTINCT ${COMANDA_OF_ENVIO} AS id FROM envios_cocina t
        WHERE ($1::int IS NULL OR t.id_estacion = $1) AND t.fec_envio > now() - interval '24 hours'`,
      [idEstacion ?? null],
    );
    return rows.map((r) => Number(r.id));
  }

  get reader(): Queryable {
    return this.db;
  }
}
