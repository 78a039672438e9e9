import { Injectable } from '@nestjs/common';
import { firstRow, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import { PERSON, type Money } from './cobros.repository';
import type { MovimientoTipo, SesionEstado } from './dto/caja-input.dto';
import type { MetodoTipo } from './dto/caja-output.dto';

export interface MetodoRow {
  id_metodo_pago: number;
  nombre: string;
  tipo: MetodoTipo;
  cuenta_en_caja: boolean;
  activo: boolean;
}

export interface CajaRow {
  id_caja: number;
  nombre: string;
  id_sesion: string | null;
  monto_apertura: Money | null;
  fec_apertura: Date | null;
  abierta_por: string | null;
}

export interface SesionRow {
  id_sesion: string;
  id_caja: number;
  caja: string;
  estado: SesionEstado;
  numero_z: number | null;
  monto_apertura: Money;
  fec_apertura: Date;
  fec_cierre: Date | null;
  id_usuario_apertura: number | null;
  abierta_por: string | null;
  id_usuario_cierre: number | null;
  cerrada_por: string | null;
  nota: string | null;
  conteo: { denominacion: number; cantidad: number }[] | null;
}

export interface FiguraRow {
  id_metodo_pago: number;
  nombre: string;
  tipo: MetodoTipo;
  cuenta_en_caja: boolean;
  pagos: string;
  ventas: Money;
  propinas: Money;
  reembolsos: Money;
  apertura: Money;
  ingresos: Money;
  retiros: Money;
  esperado: Money;
  contado: Money | null;
  diferencia: Money | null;
}

/** The totals of a session's figures (the methods' rows summed), and the comandas paid in it. */
export type TotalesRow = Pick<
  FiguraRow,
  | 'pagos'
  | 'ventas'
  | 'propinas'
  | 'reembolsos'
  | 'ingresos'
  | 'retiros'
  | 'esperado'
  | 'contado'
  | 'diferencia'
> & { comandas: string };

export interface MovimientoRow {
  id_movimiento: string;
  id_sesion: string;
  tipo: MovimientoTipo;
  monto: Money;
  motivo: string;
  id_usuario: number | null;
  usuario: string | null;
  fec_movimiento: Date;
}

export interface AjustesRow {
  tasa_recargo: string;
  paso_redondeo: string;
  tolerancia_cierre: Money;
  tasas_igv: { vigente_desde: string; tasa: string }[];
}

const SESION_COLUMNS = `
  s.id_sesion, s.id_caja, k.nombre AS caja, s.estado, s.numero_z, s.monto_apertura,
  s.fec_apertura, s.fec_cierre, s.id_usuario_apertura, ${PERSON('ua')} AS abierta_por,
  s.id_usuario_cierre, ${PERSON('uc')} AS cerrada_por, s.nota, s.conteo`;
const SESION_FROM = `
  FROM sesiones_caja s
  JOIN cajas k ON k.id_caja = s.id_caja
  LEFT JOIN usuarios ua ON ua.id_usuario = s.id_usuario_apertura
  LEFT JOIN usuarios uc ON uc.id_usuario = s.id_usuario_cierre`;

/**
 * The SQL of the tills (CajasService): the payment methods, the tills and their sessions, the
 * cash movements, the X / Z figures and the close, and the settings. The sessions a payment or a
 * refund goes to are read here too, by CobrosService.
 */
@Injectable()
export class CajasRepository extends TenantRepository {
  /** The tenant database, or the request's transaction (for reads outside a change). */
  get reader(): Queryable {
    return this.db;
  }

  // ---- methods, tills, settings ----

  metodos(): Promise<MetodoRow[]> {
    return this.db.query<MetodoRow[]>(
      `SELECT id_metodo_pago, nombre, tipo, cuenta_en_caja, activo
         FROM metodos_pago WHERE activo ORDER BY id_metodo_pago`,
    );
  }

  metodo(db: Queryable, id: number): Promise<MetodoRow | undefined> {
    return firstRow<MetodoRow>(
      db,
      'SELECT id_metodo_pago, nombre, tipo, cuenta_en_caja, activo FROM metodos_pago WHERE id_metodo_pago = $1',
      [id],
    );
  }

  cajas(): Promise<CajaRow[]> {
    return this.db.query<CajaRow[]>(
      `SELECT k.id_caja, k.nombre, s.id_sesion, s.monto_apertura, s.fec_apertura,
              ${PERSON('ua')} AS abierta_por
         FROM cajas k
         LEFT JOIN sesiones_caja s ON s.id_caja = k.id_caja AND s.estado = 'abierta'
         LEFT JOIN usuarios ua ON ua.id_usuario = s.id_usuario_apertura
        WHERE k.activa
        ORDER BY k.id_caja`,
    );
  }

  /** Locks a till's row: opening and closing its sessions are serialized (gapless Z numbers). */
  lockCaja(tx: Queryable, id: number): Promise<{ id_caja: number; activa: boolean } | undefined> {
    return firstRow(tx, 'SELECT id_caja, activa FROM cajas WHERE id_caja = $1 FOR UPDATE', [id]);
  }

  async cajaExists(db: Queryable, id: number): Promise<boolean> {
    return (
      (await firstRow(db, 'SELECT 1 FROM cajas WHERE id_caja = $1 AND activa', [id])) !== undefined
    );
  }

  async ajustes(db: Queryable = this.db): Promise<AjustesRow> {
    const row = await firstRow<AjustesRow>(
      db,
      `SELECT a.tasa_recargo, a.paso_redondeo, a.tolerancia_cierre,
              (SELECT json_agg(json_build_object('vigente_desde', t.vigente_desde::text,
                                                 'tasa', t.tasa::text) ORDER BY t.vigente_desde)
                 FROM tasas_igv t) AS tasas_igv
         FROM cobros_ajustes a`,
    );
    return row!;
  }

  async saveAjustes(
    tx: Queryable,
    change: {
      tasa_recargo?: number;
      paso_redondeo?: number;
      tolerancia_cierre?: number;
      tasas_igv?: { vigente_desde: string; tasa: number }[];
    },
  ): Promise<void> {
    await tx.query(
      `UPDATE cobros_ajustes SET
         tasa_recargo = coalesce($1::numeric, tasa_recargo),
         paso_redondeo = coalesce($2::numeric, paso_redondeo),
         tolerancia_cierre = coalesce($3::numeric, tolerancia_cierre)`,
      [change.tasa_recargo ?? null, change.paso_redondeo ?? null, change.tolerancia_cierre ?? null],
    );
    if (change.tasas_igv) {
      await tx.query('DELETE FROM tasas_igv');
      await tx.query(
        `INSERT INTO tasas_igv (vigente_desde, tasa)
         SELECT vigente_desde, tasa FROM jsonb_to_recordset($1::jsonb) AS t(vigente_desde date, tasa numeric)`,
        [JSON.stringify(change.tasas_igv)],
      );
    }
  }

  // ---- sessions ----

  /** The open sessions a payment of `actor` may go to (of `idCaja` when named), the actor's first. */
  openSessions(
    db: Queryable,
    idCaja: number | undefined,
    actor: number | null,
  ): Promise<{ id_sesion: string; propia: boolean }[]> {
    return db.query(
      `SELECT id_sesion, id_usuario_apertura IS NOT DISTINCT FROM $2::int AS propia FROM sesiones_caja
        WHERE estado = 'abierta' AND ($1::int IS NULL OR id_caja = $1)
        ORDER BY (id_usuario_apertura IS NOT DISTINCT FROM $2::int) DESC, id_sesion
        LIMIT 2`,
      [idCaja ?? null, actor],
    );
  }

  /**
   * Takes a session's row for a payment, a refund or a movement (FOR SHARE: several at once,
   * none while it is being closed, which takes it FOR UPDATE). Answers its state after any close
   * that was under way.
   */
  shareSession(
    tx: Queryable,
    id: number,
  ): Promise<{ id_sesion: string; id_caja: number; estado: SesionEstado } | undefined> {
    return firstRow(
      tx,
      'SELECT id_sesion, id_caja, estado FROM sesiones_caja WHERE id_sesion = $1 FOR SHARE',
      [id],
    );
  }

  lockSession(
    tx: Queryable,
    id: number,
  ): Promise<{ id_sesion: string; id_caja: number; estado: SesionEstado } | undefined> {
    return firstRow(
      tx,
      'SELECT id_sesion, id_caja, estado FROM sesiones_caja WHERE id_sesion = $1 FOR UPDATE',
      [id],
    );
  }

  async openSession(
    tx: Queryable,
    idCaja: number,
    monto: number,
    actor: number | null,
  ): Promise<number> {
    const row = await firstRow<{ id_sesion: string }>(
      tx,
      `INSERT INTO sesiones_caja (id_caja, monto_apertura, id_usuario_apertura)
       VALUES ($1, $2::numeric, $3) RETURNING id_sesion`,
      [idCaja, monto, actor],
    );
    return Number(row!.id_sesion);
  }

  session(id: number, db: Queryable = this.db): Promise<SesionRow | undefined> {
    return firstRow<SesionRow>(
      db,
      `SELECT ${SESION_COLUMNS} ${SESION_FROM} WHERE s.id_sesion = $1`,
      [id],
    );
  }

  async sessions(
    filter: {
      id_caja?: number;
      estado?: SesionEstado;
      desde?: string;
      hasta?: string;
      timeZone: string;
    },
    limit: number,
    offset: number,
  ): Promise<{ rows: SesionRow[]; total: number }> {
    const params: unknown[] = [
      filter.id_caja ?? null,
      filter.estado ?? null,
      filter.desde ?? null,
      filter.hasta ?? null,
      filter.timeZone,
    ];
    const where = `($1::int IS NULL OR s.id_caja = $1)
      AND ($2::text IS NULL OR s.estado = $2)
      AND ($3::date IS NULL OR s.fec_apertura >= ($3::date)::timestamp AT TIME ZONE $5)
      AND ($4::date IS NULL OR s.fec_apertura < ($4::date + 1)::timestamp AT TIME ZONE $5)`;
    const [rows, count] = await Promise.all([
      this.db.query<SesionRow[]>(
        `SELECT ${SESION_COLUMNS} ${SESION_FROM} WHERE ${where}
          ORDER BY s.fec_apertura DESC, s.id_sesion DESC LIMIT $6 OFFSET $7`,
        [...params, limit, offset],
      ),
      this.db.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM sesiones_caja s WHERE ${where}`,
        params,
      ),
    ]);
    return { rows, total: count[0].total };
  }

  async movement(
    tx: Queryable,
    idSesion: number,
    tipo: MovimientoTipo,
    monto: number,
    motivo: string,
    actor: number | null,
  ): Promise<MovimientoRow> {
    const row = await firstRow<{ id_movimiento: string }>(
      tx,
      `INSERT INTO movimientos_caja (id_sesion, tipo, monto, motivo, id_usuario)
       VALUES ($1, $2, $3::numeric, $4, $5) RETURNING id_movimiento`,
      [idSesion, tipo, monto, motivo, actor],
    );
    const [movement] = await this.movements(tx, idSesion, Number(row!.id_movimiento));
    return movement;
  }

  movements(db: Queryable, idSesion: number, only?: number): Promise<MovimientoRow[]> {
    return db.query<MovimientoRow[]>(
      `SELECT m.id_movimiento, m.id_sesion, m.tipo, m.monto, m.motivo, m.id_usuario,
              ${PERSON('u')} AS usuario, m.fec_movimiento
         FROM movimientos_caja m LEFT JOIN usuarios u ON u.id_usuario = m.id_usuario
        WHERE m.id_sesion = $1 AND ($2::bigint IS NULL OR m.id_movimiento = $2)
        ORDER BY m.id_movimiento`,
      [idSesion, only ?? null],
    );
  }

  async sessionEvent(
    tx: Queryable,
    idSesion: number,
    accion: 'abrir' | 'ingreso' | 'retiro' | 'cerrar',
    actor: number | null,
    detalle: unknown,
  ): Promise<void> {
    await tx.query(
      'INSERT INTO caja_eventos (id_sesion, accion, id_usuario, detalle) VALUES ($1, $2, $3, $4::jsonb)',
      [idSesion, accion, actor, JSON.stringify(detalle)],
    );
  }

  /**
   * The X / Z figures per method (with the close's count and difference once closed) and their
   * totals, in one statement over one call of figuras_sesion_caja: the totals are the grouping
   * set `()` of the same rows, so they are summed here, not in the caller, and never disagree.
   */
  async figures(
    db: Queryable,
    idSesion: number,
  ): Promise<{ metodos: FiguraRow[]; totales: TotalesRow }> {
    const rows = await db.query<(FiguraRow & { comandas: string })[]>(
      `SELECT f.id_metodo_pago, f.nombre, f.tipo, f.cuenta_en_caja,
              sum(f.pagos) AS pagos, sum(f.ventas) AS ventas, sum(f.propinas) AS propinas,
              sum(f.reembolsos) AS reembolsos, sum(f.apertura) AS apertura,
              sum(f.ingresos) AS ingresos, sum(f.retiros) AS retiros,
              sum(coalesce(z.esperado, f.esperado)) AS esperado,
              CASE WHEN bool_and(z.contado IS NOT NULL) THEN sum(z.contado) END AS contado,
              CASE WHEN bool_and(z.contado IS NOT NULL) THEN sum(z.diferencia) END AS diferencia,
              (SELECT count(DISTINCT id_comanda) FROM pagos
                WHERE id_sesion = $1 AND estado = 'aplicado') AS comandas
         FROM figuras_sesion_caja($1) f
         LEFT JOIN sesion_caja_cierres z ON z.id_sesion = $1 AND z.id_metodo_pago = f.id_metodo_pago
        GROUP BY GROUPING SETS ((f.id_metodo_pago, f.nombre, f.tipo, f.cuenta_en_caja), ())
        ORDER BY f.id_metodo_pago NULLS LAST`,
      [idSesion],
    );
    const totales = rows.pop()!;
    return { metodos: rows, totales };
  }

  /** Comandas still abierta with an applied payment in the session (they block its close). */
  async openComandasPaidIn(tx: Queryable, idSesion: number): Promise<number[]> {
    const rows = await tx.query<{ id_comanda: string }[]>(
      `SELECT DISTINCT c.id_comanda FROM pagos p JOIN comandas c ON c.id_comanda = p.id_comanda
        WHERE p.id_sesion = $1 AND p.estado = 'aplicado' AND c.estado = 'abierta' AND NOT c.eliminada
        ORDER BY c.id_comanda`,
      [idSesion],
    );
    return rows.map((r) => Number(r.id_comanda));
  }

  /**
   * The close's count per method, worked out in SQL: the methods listed take their count, the
   * cash method without one takes the sum of the denominations, any other not listed its
   * expected figure. Answers per method, with whether the difference is beyond the tolerance, or
   * the problems (an unknown method; cash without a count; a count that disagrees with conteo).
   */
  async plannedClose(
    tx: Queryable,
    idSesion: number,
    contado: { id_metodo_pago: number; monto: number }[],
    conteo: { denominacion: number; cantidad: number }[] | undefined,
  ): Promise<
    {
      id_metodo_pago: number;
      cuenta_en_caja: boolean;
      esperado: Money;
      contado: Money | null;
      conteo_total: Money | null;
      conteo_coincide: boolean;
      fuera_de_tolerancia: boolean;
      desconocido: boolean;
    }[]
  > {
    return tx.query(
      `WITH dado AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb) AS d(id_metodo_pago int, monto numeric)),
       conteo AS (
         SELECT sum(denominacion * cantidad) AS total
           FROM jsonb_to_recordset($3::jsonb) AS c(denominacion numeric, cantidad int)),
       f AS (SELECT * FROM figuras_sesion_caja($1)),
       tol AS (SELECT tolerancia_cierre FROM cobros_ajustes)
       SELECT f.id_metodo_pago, f.cuenta_en_caja, f.esperado,
              coalesce(d.monto, CASE WHEN f.cuenta_en_caja THEN conteo.total ELSE f.esperado END) AS contado,
              CASE WHEN f.cuenta_en_caja THEN conteo.total END AS conteo_total,
              coalesce(d.monto = conteo.total, true) AS conteo_coincide,
              abs(coalesce(d.monto, CASE WHEN f.cuenta_en_caja THEN conteo.total ELSE f.esperado END, 0)
                  - f.esperado) > tol.tolerancia_cierre AS fuera_de_tolerancia,
              false AS desconocido
         FROM f CROSS JOIN conteo CROSS JOIN tol
         LEFT JOIN dado d ON d.id_metodo_pago = f.id_metodo_pago
       UNION ALL
       SELECT d.id_metodo_pago, false, 0, d.monto, NULL, true, false, true
         FROM dado d WHERE NOT EXISTS (SELECT 1 FROM f WHERE f.id_metodo_pago = d.id_metodo_pago)
       ORDER BY 1`,
      [idSesion, JSON.stringify(contado), JSON.stringify(conteo ?? [])],
    );
  }

  /** Records the close: the count per method, the next Z number of the till, the session closed. */
  async close(
    tx: Queryable,
    idSesion: number,
    idCaja: number,
    contado: { id_metodo_pago: number; esperado: Money; contado: Money }[],
    conteo: { denominacion: number; cantidad: number }[] | undefined,
    nota: string | undefined,
    actor: number | null,
  ): Promise<number> {
    await tx.query(
      `INSERT INTO sesion_caja_cierres (id_sesion, id_metodo_pago, esperado, contado)
       SELECT $1, id_metodo_pago, esperado, contado
         FROM jsonb_to_recordset($2::jsonb) AS c(id_metodo_pago int, esperado numeric, contado numeric)`,
      [idSesion, JSON.stringify(contado)],
    );
    const z = await firstRow<{ ultimo_z: number }>(
      tx,
      'UPDATE cajas SET ultimo_z = ultimo_z + 1 WHERE id_caja = $1 RETURNING ultimo_z',
      [idCaja],
    );
    await tx.query(
      `UPDATE sesiones_caja
          SET estado = 'cerrada', numero_z = $2, fec_cierre = clock_timestamp(),
              id_usuario_cierre = $3, conteo = $4::jsonb, nota = $5
        WHERE id_sesion = $1`,
      [idSesion, z!.ultimo_z, actor, conteo ? JSON.stringify(conteo) : null, nota ?? null],
    );
    return z!.ultimo_z;
  }
}
