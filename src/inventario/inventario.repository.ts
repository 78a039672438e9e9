import { Injectable } from '@nestjs/common';
import { pgErrorInfo } from '../common/errors/pg-error.translator';
import { firstRow, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { ConteoEstado, MovimientoTipo } from './dto/inventario-input.dto';
import type { MaterialDto, MovimientoOrigen, Unidad } from './dto/inventario-output.dto';
import { periodoCerrado } from './inventario.errors';

/** A quantity or an amount as PostgreSQL computed it: numeric text, never a float here. */
export type Cantidad = string;

/**
 * Instants go in as text with the tenant's zone: an instant written without an offset is that
 * zone's local time. `$n` is the text, `$z` the zone.
 */
const instant = (n: number, z: number) =>
  `CASE WHEN $${n}::text ~ '(Z|[+-]\\d\\d:\\d\\d)$' THEN $${n}::timestamptz ELSE $${n}::timestamp AT TIME ZONE $${z} END`;

/**
 * A bound of a period as the routes take it: a date (`YYYY-MM-DD`, its start in the tenant's
 * zone; as `hasta`, the next day's start) or an instant.
 */
const bound = (n: number, z: number, end: boolean) =>
  `CASE WHEN $${n}::text ~ '^\\d{4}-\\d{2}-\\d{2}$'
        THEN ($${n}::date + ${end ? 1 : 0})::timestamp AT TIME ZONE $${z}
        ELSE ${instant(n, z)} END`;

const PERSON = (alias: string) => `nullif(concat_ws(' ', ${alias}.nombre, ${alias}.apellido), '')`;

export interface SaldoRow {
  id_mat_prima: number;
  nombre: string;
  unidad: Unidad;
  activo: boolean;
  stock_minimo: Cantidad | null;
  cantidad: Cantidad;
  costo_promedio: Cantidad;
  valor: Cantidad;
  negativo: boolean;
  bajo_minimo: boolean;
  ultimo_movimiento: Date | null;
}

export interface MovimientoRow {
  id_movimiento: string;
  id_mat_prima: number;
  material: string;
  unidad: Unidad;
  tipo: MovimientoTipo;
  cantidad: Cantidad;
  costo_unitario: Cantidad;
  valor: Cantidad;
  saldo_cantidad: Cantidad;
  saldo_costo: Cantidad;
  origen: MovimientoOrigen;
  id_origen: string;
  id_documento: string | null;
  fec: Date;
  id_usuario: number | null;
  usuario: string | null;
  motivo: string | null;
}

export interface ConteoRow {
  id_conteo: string;
  estado: ConteoEstado;
  fec_corte: Date;
  observacion: string | null;
  creado_por: string | null;
  created_at: Date;
  fec_aplicacion: Date | null;
  aplicado_por: string | null;
  total_lineas: string;
}

export interface ConteoLineaRow {
  id_mat_prima: number;
  nombre: string;
  unidad: Unidad;
  contado: Cantidad;
  sistema: Cantidad;
  diferencia: Cantidad;
  costo_promedio: Cantidad;
  valor_diferencia: Cantidad;
  /** Σ valor_diferencia of the sheet (the same on every line). */
  valor_diferencias: Cantidad;
}

export interface ConsumoMaterialRow {
  id_mat_prima: number;
  nombre: string;
  unidad: Unidad;
  teorico_cantidad: Cantidad;
  teorico_valor: Cantidad;
  merma_cantidad: Cantidad;
  merma_valor: Cantidad;
  ajuste_cantidad: Cantidad;
  ajuste_valor: Cantidad;
  real_cantidad: Cantidad;
  real_valor: Cantidad;
  varianza_cantidad: Cantidad;
  varianza_valor: Cantidad;
}

export interface ConsumoTotalesRow {
  desde: Date;
  hasta: Date;
  comandas: string;
  ventas_netas: Cantidad;
  costo_teorico: Cantidad;
  costo_real: Cantidad;
  food_cost_teorico_pct: Cantidad | null;
  food_cost_real_pct: Cantidad | null;
}

/** A row of the consumption report: the period's totals, with a material or alone. */
type ConsumoRow = ConsumoTotalesRow &
  (ConsumoMaterialRow | { [K in keyof ConsumoMaterialRow]: null });

const movedMaterial = (row: ConsumoRow): row is ConsumoTotalesRow & ConsumoMaterialRow =>
  row.id_mat_prima !== null;

export interface ProductoCostoRow {
  id_producto: number;
  nombre: string;
  precio: Cantidad;
  tasa_igv: Cantidad;
  precio_sin_igv: Cantidad;
  costo: Cantidad;
  food_cost_pct: Cantidad | null;
}

export interface IngredienteRow {
  id_mat_prima: number;
  nombre: string;
  unidad: Unidad;
  cantidad: Cantidad;
  costo_promedio: Cantidad;
  costo: Cantidad;
}

export interface MovimientosFilter {
  id_mat_prima?: number;
  tipo?: MovimientoTipo;
  desde?: string;
  hasta?: string;
}

const MOVIMIENTO_COLUMNS = `
  m.id_movimiento::text, m.id_mat_prima, mp.nombre AS material, mp.unidad, m.tipo,
  m.cantidad, m.costo_unitario, m.valor, m.saldo_cantidad, m.saldo_costo, m.origen,
  m.id_origen::text, m.id_documento::text, m.fec, m.id_usuario, ${PERSON('u')} AS usuario, m.motivo`;
const MOVIMIENTO_JOINS = `
  JOIN mate_primas mp ON mp.id_mat_prima = m.id_mat_prima
  LEFT JOIN usuarios u ON u.id_usuario = m.id_usuario`;

/**
 * The stock ledger's SQL (docs/inventario.md). Every quantity, cost, value and percentage is
 * computed by PostgreSQL in numeric (the posting rules are the migration's store functions);
 * TypeScript passes them on as text. A posting dated at or before the last applied count's
 * cut-off fails in the store function and leaves here as 409 PERIODO_CERRADO.
 */
@Injectable()
export class InventarioRepository extends TenantRepository {
  /** Runs a statement that posts to the ledger, turning the period's refusal into its 409. */
  private async posting<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const info = pgErrorInfo(error);
      if (info?.code === 'P0001' && info.message === 'PERIODO_CERRADO')
        throw periodoCerrado(info.detail ?? null);
      throw error;
    }
  }

  // ---- the effects of other modules' changes ----

  /** The ledger follows a purchase's raw-material lines as they are now, posted by `idUsuario`. */
  syncCompra(tx: Queryable, idCompra: number, idUsuario: number | null): Promise<void> {
    return this.posting(async () => {
      await tx.query('SELECT inventario_sincronizar_compra($1, $2)', [idCompra, idUsuario]);
    });
  }

  /** A closed comanda's lines use their recipes. */
  consume(tx: Queryable, idComanda: number, idUsuario: number | null): Promise<void> {
    return this.posting(async () => {
      await tx.query('SELECT inventario_consumir_comanda($1, $2)', [idComanda, idUsuario]);
    });
  }

  /** A reopened or deleted closed comanda gives its ingredients back. */
  revert(tx: Queryable, idComanda: number, idUsuario: number | null): Promise<void> {
    return this.posting(async () => {
      await tx.query('SELECT inventario_revertir_comanda($1, $2)', [idComanda, idUsuario]);
    });
  }

  // ---- balances and movements ----

  /** Every material by name: what waste is recorded of (no stock, no cost). */
  materiales(db: Queryable = this.db): Promise<MaterialDto[]> {
    return db.query<MaterialDto[]>(
      `SELECT id_mat_prima, nombre, unidad, activo FROM mate_primas ORDER BY nombre, id_mat_prima`,
    );
  }

  saldos(db: Queryable = this.db): Promise<SaldoRow[]> {
    return db.query<SaldoRow[]>(
      `SELECT mp.id_mat_prima, mp.nombre, mp.unidad, mp.activo, mp.stock_minimo,
              coalesce(s.cantidad, 0) AS cantidad, coalesce(s.costo_promedio, 0) AS costo_promedio,
              coalesce(s.valor, 0) AS valor, coalesce(s.cantidad, 0) < 0 AS negativo,
              (mp.stock_minimo IS NOT NULL AND coalesce(s.cantidad, 0) < mp.stock_minimo) AS bajo_minimo,
              (SELECT max(m.fec) FROM stock_movimientos m WHERE m.id_mat_prima = mp.id_mat_prima) AS ultimo_movimiento
         FROM mate_primas mp
         LEFT JOIN stock_saldos s ON s.id_mat_prima = mp.id_mat_prima
        ORDER BY mp.nombre, mp.id_mat_prima`,
    );
  }

  async materialExists(db: Queryable, id: number): Promise<boolean> {
    const row = await firstRow(db, 'SELECT 1 AS ok FROM mate_primas WHERE id_mat_prima = $1', [id]);
    return row !== undefined;
  }

  /** The ids among `ids` that name no material. */
  async unknownMaterials(db: Queryable, ids: number[]): Promise<number[]> {
    const rows = await db.query<{ id: number }[]>(
      `SELECT i.id FROM unnest($1::int[]) AS i(id)
        WHERE NOT EXISTS (SELECT 1 FROM mate_primas mp WHERE mp.id_mat_prima = i.id)
        ORDER BY i.id`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  async movimientos(
    filter: MovimientosFilter,
    timeZone: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: MovimientoRow[]; total: number }> {
    const where = `
      WHERE ($1::int IS NULL OR m.id_mat_prima = $1)
        AND ($2::text IS NULL OR m.tipo = $2)
        AND ($3::text IS NULL OR m.fec > ${bound(3, 5, false)})
        AND ($4::text IS NULL OR m.fec <= ${bound(4, 5, true)})`;
    const params = [
      filter.id_mat_prima ?? null,
      filter.tipo ?? null,
      filter.desde ?? null,
      filter.hasta ?? null,
      timeZone,
    ];
    const rows = await this.db.query<MovimientoRow[]>(
      `SELECT ${MOVIMIENTO_COLUMNS} FROM stock_movimientos m ${MOVIMIENTO_JOINS} ${where}
        ORDER BY m.fec DESC, m.id_movimiento DESC LIMIT $6 OFFSET $7`,
      [...params, limit, offset],
    );
    const count = await firstRow<{ total: string }>(
      this.db,
      `SELECT count(*)::text AS total FROM stock_movimientos m ${where}`,
      params,
    );
    return { rows, total: Number(count?.total ?? 0) };
  }

  movimiento(db: Queryable, id: string): Promise<MovimientoRow | undefined> {
    return firstRow<MovimientoRow>(
      db,
      `SELECT ${MOVIMIENTO_COLUMNS} FROM stock_movimientos m ${MOVIMIENTO_JOINS} WHERE m.id_movimiento = $1`,
      [id],
    );
  }

  // ---- waste ----

  /**
   * Products sent to the kitchen and then cancelled (the kitchen module's cancellations): each
   * recipe ingredient × the quantity cancelled is recorded as waste and posted, per material in
   * ascending id order (the posting rule's lock order).
   */
  async mermasDeProductos(
    tx: Queryable,
    items: readonly { id_producto: number; cantidad: string }[],
    motivo: string,
    idUsuario: number | null,
  ): Promise<void> {
    await this.posting(() =>
      tx.query(
        `WITH items AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(id_producto int, cantidad numeric)),
         por_materia AS (
           SELECT rp.id_mat_prima, sum(rp.cantidad * i.cantidad) AS cantidad
             FROM items i JOIN receta_producto rp ON rp.id_producto = i.id_producto
            GROUP BY rp.id_mat_prima),
         merma AS (
           INSERT INTO mermas (id_mat_prima, cantidad, motivo, fec, id_usuario)
           SELECT id_mat_prima, cantidad, $2, now(), $3 FROM por_materia
            WHERE cantidad > 0 ORDER BY id_mat_prima
           RETURNING *)
         SELECT (stock_asentar(m.id_mat_prima, 'merma', -m.cantidad, NULL, 'merma', m.id_merma,
                               NULL, m.fec, m.id_usuario, m.motivo)).id_movimiento
           FROM merma m ORDER BY m.id_mat_prima`,
        [JSON.stringify(items), motivo, idUsuario],
      ),
    );
  }

  /** Records the waste and posts its movement; answers the movement's id. */
  merma(
    tx: Queryable,
    body: { id_mat_prima: number; cantidad: number; motivo: string; fec?: string },
    timeZone: string,
    idUsuario: number | null,
  ): Promise<string> {
    return this.posting(async () => {
      const row = await firstRow<{ id_movimiento: string }>(
        tx,
        `WITH merma AS (
           INSERT INTO mermas (id_mat_prima, cantidad, motivo, fec, id_usuario)
           VALUES ($1, $2::numeric, btrim($3), coalesce(${instant(4, 5)}, now()), $6)
           RETURNING *)
         SELECT (stock_asentar(m.id_mat_prima, 'merma', -m.cantidad, NULL, 'merma', m.id_merma,
                               NULL, m.fec, m.id_usuario, m.motivo)).id_movimiento::text AS id_movimiento
           FROM merma m`,
        [
          body.id_mat_prima,
          String(body.cantidad),
          body.motivo,
          body.fec ?? null,
          timeZone,
          idUsuario,
        ],
      );
      return row!.id_movimiento;
    });
  }

  // ---- counts ----

  /** The last applied count's cut-off (null: none yet). */
  async cerradoHasta(db: Queryable): Promise<Date | null> {
    const row = await firstRow<{ cerrado_hasta: Date | null }>(
      db,
      'SELECT cerrado_hasta FROM inventario_periodo',
    );
    return row?.cerrado_hasta ?? null;
  }

  /**
   * A cut-off as the database reads it, with whether it is in the future or in the closed
   * period (at or before the last applied count's cut-off).
   */
  async cutOff(
    db: Queryable,
    fecCorte: string | null,
    timeZone: string,
  ): Promise<{ corte: Date; futuro: boolean; cerrado_hasta: Date | null; antes: boolean }> {
    const row = await firstRow<{
      corte: Date;
      futuro: boolean;
      cerrado_hasta: Date | null;
      antes: boolean;
    }>(
      db,
      `SELECT c.corte, c.corte > now() AS futuro, p.cerrado_hasta, c.corte <= p.cerrado_hasta AS antes
         FROM (SELECT coalesce(${instant(1, 2)}, now()) AS corte) c CROSS JOIN inventario_periodo p`,
      [fecCorte, timeZone],
    );
    return { ...row!, antes: row!.antes === true };
  }

  async createConteo(
    tx: Queryable,
    corte: Date,
    observacion: string | null,
    lineas: { id_mat_prima: number; contado: number }[],
    idUsuario: number | null,
  ): Promise<number> {
    const row = await firstRow<{ id_conteo: string }>(
      tx,
      `INSERT INTO conteos (fec_corte, observacion, id_usuario) VALUES ($1, nullif(btrim($2), ''), $3)
       RETURNING id_conteo::text`,
      [corte, observacion, idUsuario],
    );
    const id = Number(row!.id_conteo);
    await this.setLineas(tx, id, lineas);
    return id;
  }

  /** Sets (adds or replaces) count lines. */
  async setLineas(
    tx: Queryable,
    idConteo: number,
    lineas: { id_mat_prima: number; contado: number }[],
  ): Promise<void> {
    if (lineas.length === 0) return;
    await tx.query(
      `INSERT INTO conteo_lineas (id_conteo, id_mat_prima, contado)
       SELECT $1, l.id_mat_prima, l.contado
         FROM jsonb_to_recordset($2::jsonb) AS l(id_mat_prima int, contado numeric)
       ON CONFLICT (id_conteo, id_mat_prima) DO UPDATE SET contado = EXCLUDED.contado`,
      [idConteo, JSON.stringify(lineas.map((l) => ({ ...l, contado: String(l.contado) })))],
    );
  }

  async removeLineas(tx: Queryable, idConteo: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.query(
      'DELETE FROM conteo_lineas WHERE id_conteo = $1 AND id_mat_prima = ANY ($2::int[])',
      [idConteo, ids],
    );
  }

  async touchConteo(tx: Queryable, idConteo: number, observacion: string | null | undefined) {
    await tx.query(
      `UPDATE conteos SET updated_at = now(),
              observacion = CASE WHEN $2 THEN nullif(btrim($3), '') ELSE observacion END
        WHERE id_conteo = $1`,
      [idConteo, observacion !== undefined, observacion ?? null],
    );
  }

  lockConteo(tx: Queryable, id: number): Promise<{ estado: ConteoEstado } | undefined> {
    return firstRow<{ estado: ConteoEstado }>(
      tx,
      'SELECT estado FROM conteos WHERE id_conteo = $1 FOR UPDATE',
      [id],
    );
  }

  apply(tx: Queryable, id: number, idUsuario: number | null): Promise<void> {
    return this.posting(async () => {
      await tx.query('SELECT inventario_aplicar_conteo($1, $2)', [id, idUsuario]);
    });
  }

  async discard(tx: Queryable, id: number): Promise<void> {
    await tx.query(
      `UPDATE conteos SET estado = 'descartado', updated_at = now() WHERE id_conteo = $1`,
      [id],
    );
  }

  private readonly conteoColumns = `
    c.id_conteo::text, c.estado, c.fec_corte, c.observacion, ${PERSON('uc')} AS creado_por,
    c.created_at, c.fec_aplicacion, ${PERSON('ua')} AS aplicado_por,
    (SELECT count(*) FROM conteo_lineas l WHERE l.id_conteo = c.id_conteo)::text AS total_lineas`;
  private readonly conteoJoins = `
    LEFT JOIN usuarios uc ON uc.id_usuario = c.id_usuario
    LEFT JOIN usuarios ua ON ua.id_usuario = c.id_usuario_aplica`;

  conteo(id: number, db: Queryable = this.db): Promise<ConteoRow | undefined> {
    return firstRow<ConteoRow>(
      db,
      `SELECT ${this.conteoColumns} FROM conteos c ${this.conteoJoins} WHERE c.id_conteo = $1`,
      [id],
    );
  }

  async conteos(
    estado: ConteoEstado | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: ConteoRow[]; total: number }> {
    const rows = await this.db.query<ConteoRow[]>(
      `SELECT ${this.conteoColumns} FROM conteos c ${this.conteoJoins}
        WHERE ($1::text IS NULL OR c.estado = $1)
        ORDER BY c.fec_corte DESC, c.id_conteo DESC LIMIT $2 OFFSET $3`,
      [estado ?? null, limit, offset],
    );
    const count = await firstRow<{ total: string }>(
      this.db,
      'SELECT count(*)::text AS total FROM conteos c WHERE ($1::text IS NULL OR c.estado = $1)',
      [estado ?? null],
    );
    return { rows, total: Number(count?.total ?? 0) };
  }

  /**
   * A count's lines: the ledger's quantity at the cut-off (live for a draft, frozen once
   * applied), the difference and its value at the average cost (now for a draft; the
   * adjustment's for an applied count).
   */
  conteoLineas(id: number, db: Queryable = this.db): Promise<ConteoLineaRow[]> {
    return db.query<ConteoLineaRow[]>(
      `WITH l AS (
         SELECT l.id_mat_prima, mp.nombre, mp.unidad, l.contado,
                coalesce(l.sistema, (SELECT coalesce(sum(m.cantidad), 0) FROM stock_movimientos m
                                      WHERE m.id_mat_prima = l.id_mat_prima AND m.fec <= c.fec_corte)) AS sistema,
                coalesce((SELECT a.costo_unitario FROM stock_movimientos a
                           WHERE a.origen = 'conteo' AND a.id_origen = c.id_conteo
                             AND a.id_mat_prima = l.id_mat_prima AND a.tipo = 'ajuste_conteo'),
                         s.costo_promedio, 0) AS costo_promedio
           FROM conteo_lineas l
           JOIN conteos c ON c.id_conteo = l.id_conteo
           JOIN mate_primas mp ON mp.id_mat_prima = l.id_mat_prima
           LEFT JOIN stock_saldos s ON s.id_mat_prima = l.id_mat_prima
          WHERE l.id_conteo = $1)
       SELECT id_mat_prima, nombre, unidad, contado, sistema, contado - sistema AS diferencia,
              costo_promedio, round((contado - sistema) * costo_promedio, 2) AS valor_diferencia,
              sum(round((contado - sistema) * costo_promedio, 2)) OVER () AS valor_diferencias
         FROM l ORDER BY nombre, id_mat_prima`,
      [id],
    );
  }

  // ---- reports ----

  /**
   * The consumption report of a period. The period's bounds are worked out first, on their own
   * (`hasta` defaults to now, `desde` to the last applied cut-off before `hasta`, else 30 days
   * before it), and the report's statement gets them as parameters: PostgreSQL plans it with the
   * period's real length, so a year is read by a parallel scan and a month through the `fec`
   * index. That statement reads the period's movements once (per material and type; the
   * materials' figures and the period's costs are both sums of those). Its rows: the period's
   * totals, each with one material that moved in it (ordered by name), or alone (the material's
   * columns null) when none did.
   */
  async consumo(
    desde: string | null,
    hasta: string | null,
    timeZone: string,
  ): Promise<{ totales: ConsumoTotalesRow; materiales: ConsumoMaterialRow[] }> {
    // as text, to keep the microseconds a Date would drop
    const [periodo] = await this.db.query<{ desde: string; hasta: string }[]>(
      `WITH r0 AS (SELECT coalesce(${bound(2, 3, true)}, now()) AS hasta)
       SELECT coalesce(${bound(1, 3, false)},
                       (SELECT max(c.fec_corte) FROM conteos c
                         WHERE c.estado = 'aplicado' AND c.fec_corte < r0.hasta),
                       r0.hasta - interval '30 days')::text AS desde, r0.hasta::text AS hasta
         FROM r0`,
      [desde, hasta, timeZone],
    );
    const rows = await this.db.query<ConsumoRow[]>(
      `WITH r AS (SELECT $1::timestamptz AS desde, $2::timestamptz AS hasta),
       g AS (
         SELECT m.id_mat_prima, m.tipo, sum(m.cantidad) AS q, sum(m.valor) AS v
           FROM stock_movimientos m
          WHERE m.fec > $1::timestamptz AND m.fec <= $2::timestamptz
            AND m.tipo IN ('consumo_venta', 'reverso_consumo', 'merma', 'ajuste_conteo')
          GROUP BY m.id_mat_prima, m.tipo),
       z AS (
         SELECT id_mat_prima,
                coalesce(-sum(q) FILTER (WHERE tipo IN ('consumo_venta', 'reverso_consumo')), 0) AS tc,
                coalesce(-sum(v) FILTER (WHERE tipo IN ('consumo_venta', 'reverso_consumo')), 0) AS tv,
                coalesce(-sum(q) FILTER (WHERE tipo = 'merma'), 0) AS mc,
                coalesce(-sum(v) FILTER (WHERE tipo = 'merma'), 0) AS mv,
                coalesce(sum(q) FILTER (WHERE tipo = 'ajuste_conteo'), 0) AS ac,
                coalesce(sum(v) FILTER (WHERE tipo = 'ajuste_conteo'), 0) AS av
           FROM g
          GROUP BY id_mat_prima),
       k AS (SELECT coalesce(sum(z.tv), 0) AS teorico, coalesce(sum(z.tv + z.mv - z.av), 0) AS real FROM z),
       -- the net sales: the sales of the period (ventas, src/cobros/sql/: without IGV, the
       -- discount off), as the sales report has them
       v AS (
         SELECT count(*) AS comandas, coalesce(sum(s.neta), 0) AS ventas_netas
           FROM ventas($3) s
          WHERE s.fec_cierre > $1::timestamptz AND s.fec_cierre <= $2::timestamptz),
       t AS (
         SELECT r.desde, r.hasta, v.comandas::text, v.ventas_netas,
                round(k.teorico, 2) AS costo_teorico, round(k.real, 2) AS costo_real,
                CASE WHEN v.ventas_netas > 0 THEN round(k.teorico * 100 / v.ventas_netas, 2) END AS food_cost_teorico_pct,
                CASE WHEN v.ventas_netas > 0 THEN round(k.real * 100 / v.ventas_netas, 2) END AS food_cost_real_pct
           FROM r, v, k),
       x AS (
         SELECT z.id_mat_prima, mp.nombre, mp.unidad,
                z.tc AS teorico_cantidad, round(z.tv, 2) AS teorico_valor,
                z.mc AS merma_cantidad, round(z.mv, 2) AS merma_valor,
                z.ac AS ajuste_cantidad, round(z.av, 2) AS ajuste_valor,
                z.tc + z.mc - z.ac AS real_cantidad, round(z.tv + z.mv - z.av, 2) AS real_valor,
                z.mc - z.ac AS varianza_cantidad, round(z.mv - z.av, 2) AS varianza_valor
           FROM z JOIN mate_primas mp ON mp.id_mat_prima = z.id_mat_prima
          WHERE z.tc <> 0 OR z.mc <> 0 OR z.ac <> 0)
       SELECT t.*, x.* FROM t LEFT JOIN x ON true
        ORDER BY x.nombre, x.id_mat_prima`,
      [periodo.desde, periodo.hasta, timeZone],
    );
    return { totales: rows[0], materiales: rows.filter(movedMaterial) };
  }

  /** A product's recipe cost at today's average costs, against its price without IGV. */
  async productoCosto(
    id: number,
    timeZone: string,
  ): Promise<{ producto: ProductoCostoRow; ingredientes: IngredienteRow[] } | undefined> {
    const ingredientes = await this.db.query<IngredienteRow[]>(
      `SELECT r.id_mat_prima, mp.nombre, mp.unidad, r.cantidad,
              coalesce(s.costo_promedio, 0) AS costo_promedio,
              round(r.cantidad * coalesce(s.costo_promedio, 0), 4) AS costo
         FROM receta_producto r
         JOIN mate_primas mp ON mp.id_mat_prima = r.id_mat_prima
         LEFT JOIN stock_saldos s ON s.id_mat_prima = r.id_mat_prima
        WHERE r.id_producto = $1
        ORDER BY mp.nombre, r.id_mat_prima`,
      [id],
    );
    const producto = await firstRow<ProductoCostoRow>(
      this.db,
      `WITH p AS (
         SELECT p.id_producto, p.nombre, p.precio,
                igv_tasa((now() AT TIME ZONE $2)::date) AS tasa_igv,
                (SELECT round(coalesce(sum(round(r.cantidad * coalesce(s.costo_promedio, 0), 4)), 0), 2)
                   FROM receta_producto r
                   LEFT JOIN stock_saldos s ON s.id_mat_prima = r.id_mat_prima
                  WHERE r.id_producto = p.id_producto) AS costo
           FROM productos p WHERE p.id_producto = $1),
       q AS (SELECT p.*, monto_neto(p.precio, p.tasa_igv) AS precio_sin_igv FROM p)
       SELECT q.id_producto, q.nombre, q.precio, q.tasa_igv, q.precio_sin_igv, q.costo,
              CASE WHEN q.precio_sin_igv > 0 THEN round(q.costo * 100 / q.precio_sin_igv, 2) END AS food_cost_pct
         FROM q`,
      [id, timeZone],
    );
    return producto ? { producto, ingredientes } : undefined;
  }
}
