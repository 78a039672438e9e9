import { Injectable } from '@nestjs/common';
import { firstRow, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { SesionEstado } from './dto/caja-input.dto';
import type { MetodoTipo } from './dto/caja-output.dto';
import type { DescuentoTipo } from './dto/pago-input.dto';
import type { EstadoPago } from './dto/cobros-output.dto';

/**
 * Money travels as text between PostgreSQL and here: numeric columns come back as strings and
 * amounts go in as bound parameters cast to numeric. Every sum, difference and comparison of
 * money is in the SQL below and in CajasRepository's (docs/cobros.md, "Money is numeric").
 */
export type Money = string;

export interface CuentaRow {
  subtotal: Money;
  descuento: Money;
  recargo_consumo: Money;
  total: Money;
  tasa_igv: string;
  base_imponible: Money;
  igv: Money;
  redondeo: Money;
  propinas: Money;
  pagado: Money;
  reembolsado: Money;
  saldo: Money;
  saldo_efectivo: Money;
  estado_pago: EstadoPago;
  saldado: boolean;
  comanda_estado: 'abierta' | 'cerrada';
  descuento_tipo: DescuentoTipo | null;
  descuento_valor: Money | null;
  descuento_motivo: string | null;
}

export interface PagoRow {
  id_pago: string;
  id_metodo_pago: number;
  metodo: string;
  tipo: MetodoTipo;
  monto: Money;
  propina: Money;
  recibido: Money | null;
  vuelto: Money;
  referencia: string | null;
  estado: 'aplicado' | 'anulado';
  reembolsado: Money;
  reembolsable: boolean;
  id_sesion: string;
  id_caja: number;
  sesion_abierta: boolean;
  id_usuario: number | null;
  usuario: string | null;
  fec_pago: Date;
  motivo_anulacion: string | null;
  fec_anulacion: Date | null;
}

/** What a payment would be, worked out in SQL on the bill as it is now. */
export interface PaymentPlan {
  saldo: Money;
  saldo_efectivo: Money;
  aplicado: Money;
  recibido: Money | null;
  vuelto: Money;
  /** Nothing is due, or (not cash) the amount is above the balance. */
  excede: boolean;
  /** Cash: what was handed over does not cover the amount applied and the tip. */
  insuficiente: boolean;
}

/** A person's name (usuarios' nombre and apellido) of the row `alias`, null when blank. */
export const PERSON = (alias: string) =>
  `nullif(concat_ws(' ', ${alias}.nombre, ${alias}.apellido), '')`;

/**
 * A payment as PagoRow has it, each field's expression over `p` (a pagos row) and PAGO_JOINS;
 * `text`: numeric or bigint, read as text; `ms`: an instant, as epoch milliseconds in JSON.
 */
const PAGO_FIELDS: [keyof PagoRow, string, ('text' | 'ms')?][] = [
  ['id_pago', 'p.id_pago', 'text'],
  ['id_metodo_pago', 'p.id_metodo_pago'],
  ['metodo', 'm.nombre'],
  ['tipo', 'm.tipo'],
  ['monto', 'p.monto', 'text'],
  ['propina', 'p.propina', 'text'],
  ['recibido', 'p.recibido', 'text'],
  ['vuelto', 'p.vuelto', 'text'],
  ['referencia', 'p.referencia'],
  ['estado', 'p.estado'],
  ['reembolsado', 'coalesce(r.reembolsado, 0)', 'text'],
  ['reembolsable', "p.estado = 'aplicado' AND coalesce(r.reembolsado, 0) < p.monto"],
  ['id_sesion', 'p.id_sesion', 'text'],
  ['id_caja', 's.id_caja'],
  ['sesion_abierta', "s.estado = 'abierta'"],
  ['id_usuario', 'p.id_usuario'],
  ['usuario', PERSON('u')],
  ['fec_pago', 'p.fec_pago', 'ms'],
  ['motivo_anulacion', 'p.motivo_anulacion'],
  ['fec_anulacion', 'p.fec_anulacion', 'ms'],
];
/** What PAGO_FIELDS read besides `p`: its method, its session, its user, its refunds. */
const PAGO_JOINS = `
  JOIN metodos_pago m ON m.id_metodo_pago = p.id_metodo_pago
  JOIN sesiones_caja s ON s.id_sesion = p.id_sesion
  LEFT JOIN usuarios u ON u.id_usuario = p.id_usuario
  LEFT JOIN LATERAL (SELECT sum(monto) AS reembolsado FROM reembolsos WHERE id_pago = p.id_pago) r ON true`;
/** The payment's columns, as the driver reads a row. */
const PAGO_COLUMNS = PAGO_FIELDS.map(([name, expression]) => `${expression} AS ${name}`).join(', ');
/** The payment as a JSON object with the columns' text, its instants in epoch milliseconds. */
const PAGO_JSON = `json_build_object(${PAGO_FIELDS.map(
  ([name, expression, as]) =>
    `'${name}', ${
      as === 'text'
        ? `(${expression})::text`
        : as === 'ms'
          ? `floor(extract(epoch FROM ${expression}) * 1000)`
          : expression
    }`,
).join(', ')})`;
/** The fields PAGO_JSON carries as epoch milliseconds. */
const PAGO_INSTANTS = PAGO_FIELDS.filter(([, , as]) => as === 'ms').map(([name]) => name);

/**
 * The SQL of a comanda's money (CobrosService): its bill, its payments and their voids, its
 * refunds, its discount and the rates frozen at its close. The tills' is CajasRepository's.
 */
@Injectable()
export class CobrosRepository extends TenantRepository {
  /** The tenant database, or the request's transaction (for reads outside a change). */
  get reader(): Queryable {
    return this.db;
  }

  // ---- a comanda's bill ----

  async cuenta(db: Queryable, idComanda: number, timeZone: string): Promise<CuentaRow> {
    const row = await firstRow<CuentaRow>(
      db,
      `SELECT k.*, k.saldo = 0 AS saldado, c.estado AS comanda_estado,
              cc.descuento_tipo, cc.descuento_valor, cc.descuento_motivo
         FROM cuenta_comanda($1, $2) k
         CROSS JOIN comandas c
         LEFT JOIN cuentas_comanda cc ON cc.id_comanda = $1
        WHERE c.id_comanda = $1`,
      [idComanda, timeZone],
    );
    return row!;
  }

  /**
   * A comanda's bill (as `cuenta`) and its payments (as `pagos`), of one moment: one statement,
   * the payments as JSON with the columns' text, their instants back to Dates here.
   */
  async bill(
    db: Queryable,
    idComanda: number,
    timeZone: string,
  ): Promise<{ cuenta: CuentaRow; pagos: PagoRow[] }> {
    const row = await firstRow<CuentaRow & { lista_pagos: Record<string, unknown>[] }>(
      db,
      `SELECT k.*, k.saldo = 0 AS saldado, c.estado AS comanda_estado,
              cc.descuento_tipo, cc.descuento_valor, cc.descuento_motivo,
              (SELECT coalesce(json_agg(${PAGO_JSON} ORDER BY p.id_pago), '[]'::json)
                 FROM pagos p ${PAGO_JOINS}
                WHERE p.id_comanda = $1) AS lista_pagos
         FROM cuenta_comanda($1, $2) k
         CROSS JOIN comandas c
         LEFT JOIN cuentas_comanda cc ON cc.id_comanda = $1
        WHERE c.id_comanda = $1`,
      [idComanda, timeZone],
    );
    const { lista_pagos, ...cuenta } = row!;
    const pagos = lista_pagos.map((pago) => {
      for (const name of PAGO_INSTANTS)
        if (pago[name] !== null) pago[name] = new Date(pago[name] as number);
      return pago as unknown as PagoRow;
    });
    return { cuenta, pagos };
  }

  pagos(db: Queryable, idComanda: number, only?: number): Promise<PagoRow[]> {
    return db.query<PagoRow[]>(
      `SELECT ${PAGO_COLUMNS}
         FROM pagos p ${PAGO_JOINS}
        WHERE p.id_comanda = $1 AND ($2::bigint IS NULL OR p.id_pago = $2)
        ORDER BY p.id_pago`,
      [idComanda, only ?? null],
    );
  }

  /**
   * A payment worked out on the bill as it is (the comanda's row is locked): cash applies at most
   * the balance, and exactly the cash balance (rounded down) when it reaches it; what was handed
   * over defaults to the amount and tip sent; the change is the rest.
   */
  async planPayment(
    tx: Queryable,
    idComanda: number,
    timeZone: string,
    cash: boolean,
    pago: { monto: number; propina: number; recibido: number | null },
  ): Promise<PaymentPlan> {
    const row = await firstRow<PaymentPlan>(
      tx,
      `WITH k AS (SELECT saldo, saldo_efectivo FROM cuenta_comanda($1, $2)),
       a AS (
         SELECT k.*,
                CASE WHEN NOT $3 THEN $4::numeric
                     WHEN k.saldo_efectivo > 0 AND $4::numeric >= k.saldo_efectivo THEN k.saldo_efectivo
                     ELSE least($4::numeric, k.saldo) END AS aplicado,
                CASE WHEN $3 THEN coalesce($6::numeric, $4::numeric + $5::numeric) END AS recibido
           FROM k)
       SELECT saldo, saldo_efectivo, aplicado, recibido,
              CASE WHEN recibido IS NULL THEN 0 ELSE greatest(recibido - aplicado - $5::numeric, 0) END AS vuelto,
              saldo <= 0 OR aplicado <= 0 OR (NOT $3 AND $4::numeric > saldo) AS excede,
              coalesce(recibido < aplicado + $5::numeric, false) AS insuficiente
         FROM a`,
      [idComanda, timeZone, cash, pago.monto, pago.propina, pago.recibido],
    );
    return row!;
  }

  /** Inserts a payment and answers it as `pagos` reads it, in one statement. */
  async insertPago(
    tx: Queryable,
    pago: {
      id_comanda: number;
      id_sesion: number;
      id_metodo_pago: number;
      monto: Money;
      propina: number;
      recibido: Money | null;
      vuelto: Money;
      referencia: string | null;
      id_usuario: number | null;
    },
  ): Promise<PagoRow> {
    const row = await firstRow<PagoRow>(
      tx,
      `WITH p AS (
         INSERT INTO pagos (id_comanda, id_sesion, id_metodo_pago, monto, propina, recibido, vuelto, referencia, id_usuario)
         VALUES ($1, $2, $3, $4::numeric, $5::numeric, $6::numeric, $7::numeric, $8, $9) RETURNING *)
       SELECT ${PAGO_COLUMNS} FROM p ${PAGO_JOINS}`,
      [
        pago.id_comanda,
        pago.id_sesion,
        pago.id_metodo_pago,
        pago.monto,
        pago.propina,
        pago.recibido,
        pago.vuelto,
        pago.referencia,
        pago.id_usuario,
      ],
    );
    return row!;
  }

  lockPago(
    tx: Queryable,
    idComanda: number,
    idPago: number,
  ): Promise<
    { id_pago: string; id_sesion: string; estado: 'aplicado' | 'anulado'; monto: Money } | undefined
  > {
    return firstRow(
      tx,
      'SELECT id_pago, id_sesion, estado, monto FROM pagos WHERE id_comanda = $1 AND id_pago = $2 FOR UPDATE',
      [idComanda, idPago],
    );
  }

  async voidPago(
    tx: Queryable,
    idPago: number,
    motivo: string,
    actor: number | null,
  ): Promise<void> {
    await tx.query(
      `UPDATE pagos SET estado = 'anulado', motivo_anulacion = $2, id_usuario_anulacion = $3,
              fec_anulacion = clock_timestamp()
        WHERE id_pago = $1`,
      [idPago, motivo, actor],
    );
  }

  async hasAppliedPayments(tx: Queryable, idComanda: number): Promise<boolean> {
    const rows = await tx.query<unknown[]>(
      "SELECT 1 FROM pagos WHERE id_comanda = $1 AND estado = 'aplicado' LIMIT 1",
      [idComanda],
    );
    return rows.length > 0;
  }

  /** The sessions of the comanda's applied payments, taken FOR SHARE, with whether each is open. */
  paymentSessions(
    tx: Queryable,
    idComanda: number,
  ): Promise<{ id_sesion: string; estado: SesionEstado }[]> {
    return tx.query(
      `SELECT s.id_sesion, s.estado FROM sesiones_caja s
        WHERE s.id_sesion IN (SELECT id_sesion FROM pagos WHERE id_comanda = $1 AND estado = 'aplicado')
        ORDER BY s.id_sesion FOR SHARE OF s`,
      [idComanda],
    );
  }

  async hasRefunds(tx: Queryable, idComanda: number): Promise<boolean> {
    const rows = await tx.query<unknown[]>(
      'SELECT 1 FROM reembolsos WHERE id_comanda = $1 LIMIT 1',
      [idComanda],
    );
    return rows.length > 0;
  }

  /** Whether `monto` more fits in the payment's refunds (Σ refunds ≤ its monto), and what is left. */
  refundable(
    tx: Queryable,
    idPago: number,
    monto: number,
  ): Promise<{ disponible: Money; cabe: boolean }> {
    return firstRow<{ disponible: Money; cabe: boolean }>(
      tx,
      `SELECT p.monto - coalesce(sum(r.monto), 0) AS disponible,
              $2::numeric <= p.monto - coalesce(sum(r.monto), 0) AS cabe
         FROM pagos p LEFT JOIN reembolsos r ON r.id_pago = p.id_pago
        WHERE p.id_pago = $1 GROUP BY p.id_pago, p.monto`,
      [idPago, monto],
    ) as Promise<{ disponible: Money; cabe: boolean }>;
  }

  /** The listed lines that are not lines of the comanda, or ask more than the line holds. */
  badRefundLines(
    tx: Queryable,
    idComanda: number,
    lineas: { id_item: number; cantidad: number }[],
  ): Promise<{ id_item: string; motivo: string }[]> {
    return tx.query(
      `SELECT l.id_item::text,
              CASE WHEN d.id_deta_comanda IS NULL THEN 'is not a line of the comanda'
                   ELSE 'asks for more than the line holds' END AS motivo
         FROM jsonb_to_recordset($2::jsonb) AS l(id_item bigint, cantidad numeric)
         LEFT JOIN deta_comandas d ON d.id_deta_comanda = l.id_item AND d.id_comanda = $1
        WHERE d.id_deta_comanda IS NULL OR l.cantidad > d.cantidad
        ORDER BY l.id_item`,
      [idComanda, JSON.stringify(lineas)],
    );
  }

  async insertRefund(
    tx: Queryable,
    refund: {
      id_pago: number;
      id_comanda: number;
      id_sesion: number;
      monto: number;
      motivo: string;
      id_usuario: number | null;
      lineas: { id_item: number; cantidad: number }[];
    },
  ): Promise<number> {
    const row = await firstRow<{ id_reembolso: string }>(
      tx,
      `INSERT INTO reembolsos (id_pago, id_comanda, id_sesion, monto, motivo, id_usuario)
       VALUES ($1, $2, $3, $4::numeric, $5, $6) RETURNING id_reembolso`,
      [
        refund.id_pago,
        refund.id_comanda,
        refund.id_sesion,
        refund.monto,
        refund.motivo,
        refund.id_usuario,
      ],
    );
    const id = Number(row!.id_reembolso);
    if (refund.lineas.length > 0)
      await tx.query(
        `INSERT INTO reembolso_lineas (id_reembolso, id_item, id_producto, cantidad)
         SELECT $1, l.id_item, d.id_producto, l.cantidad
           FROM jsonb_to_recordset($2::jsonb) AS l(id_item bigint, cantidad numeric)
           JOIN deta_comandas d ON d.id_deta_comanda = l.id_item`,
        [id, JSON.stringify(refund.lineas)],
      );
    return id;
  }

  /** Sets (or, with valor 0, removes) the comanda's discount. */
  async setDiscount(
    tx: Queryable,
    idComanda: number,
    tipo: DescuentoTipo,
    valor: number,
    motivo: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO cuentas_comanda (id_comanda, descuento_tipo, descuento_valor, descuento_motivo)
       SELECT $1, CASE WHEN $3::numeric > 0 THEN $2 END, nullif($3::numeric, 0),
              CASE WHEN $3::numeric > 0 THEN $4 END
       ON CONFLICT (id_comanda) DO UPDATE
          SET descuento_tipo = excluded.descuento_tipo, descuento_valor = excluded.descuento_valor,
              descuento_motivo = excluded.descuento_motivo`,
      [idComanda, tipo, valor, motivo],
    );
  }

  /** Whether a discount of `valor` (a percentage, at most 100) fits: the sum of the lines for an amount. */
  async discountFits(
    tx: Queryable,
    idComanda: number,
    tipo: DescuentoTipo,
    valor: number,
  ): Promise<boolean> {
    const row = await firstRow<{ cabe: boolean }>(
      tx,
      `SELECT CASE WHEN $2 = 'porcentaje' THEN $3::numeric <= 100 ELSE $3::numeric <= total END AS cabe
         FROM comandas WHERE id_comanda = $1`,
      [idComanda, tipo, valor],
    );
    return row?.cabe ?? false;
  }

  /**
   * At the close: the rates in force (the tenant's date today: igv_tasa, src/cobros/sql/) are
   * frozen on the comanda.
   */
  async freezeRates(tx: Queryable, idComanda: number, timeZone: string): Promise<void> {
    await tx.query(
      `INSERT INTO cuentas_comanda (id_comanda, tasa_igv, tasa_recargo, paso_redondeo)
       SELECT $1, igv_tasa((now() AT TIME ZONE $2)::date), a.tasa_recargo, a.paso_redondeo
         FROM cobros_ajustes a
       ON CONFLICT (id_comanda) DO UPDATE
          SET tasa_igv = excluded.tasa_igv, tasa_recargo = excluded.tasa_recargo,
              paso_redondeo = excluded.paso_redondeo`,
      [idComanda, timeZone],
    );
  }

  /** Reopened: today's rates apply again until the next close. */
  async thawRates(tx: Queryable, idComanda: number): Promise<void> {
    await tx.query(
      'UPDATE cuentas_comanda SET tasa_igv = NULL, tasa_recargo = NULL, paso_redondeo = NULL WHERE id_comanda = $1',
      [idComanda],
    );
  }
}
