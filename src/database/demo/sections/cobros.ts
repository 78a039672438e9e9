import { bulkLoad } from '../bulk-load';
import { rowsOf, type DemoDataSummary, type DemoSeed } from '../seed-helpers';

/**
 * How the demo's closed comandas were paid, and the till's days: one session of "Caja 1" per
 * day with closed comandas (a float of S/ 200, opened before lunch by the day's cashier, closed
 * after the last comanda of the day with its Z by the night's: the rota of the comandas
 * section), a frequent customer's 10 % off on about 3 bills in a hundred, one payment per
 * closed comanda that was not voided, taken by the cashier who closed it (about half in cash,
 * rounded down to S/ 0.10 as the till does, the rest by card and wallets; a tip on some), the
 * close's count per method (a small cash difference on some days).
 * All of it set-based SQL; the choices come from the comanda's id, not from the generator, so
 * the sections before keep their values.
 */
export async function seedCobros(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'sesiones_caja' | 'pagos'>> {
  const { query, timeZone } = seed;
  let pagos = 0;
  await bulkLoad(query, ['pagos', 'cuentas_comanda'], [], async () => {
    // a frequent customer's 10 % on about 3 in a hundred bills, the rates frozen at the close
    await query(
      `INSERT INTO cuentas_comanda (id_comanda, descuento_tipo, descuento_valor, descuento_motivo,
                                    tasa_igv, tasa_recargo, paso_redondeo)
       SELECT c.id_comanda,
              CASE WHEN (c.id_comanda * 2654435761) % 1000 < 30 THEN 'porcentaje' END,
              CASE WHEN (c.id_comanda * 2654435761) % 1000 < 30 THEN 10 END,
              CASE WHEN (c.id_comanda * 2654435761) % 1000 < 30 THEN 'Cliente frecuente' END,
              0.18, 0, 0.10
         FROM comandas c
        WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.total > 0
        ORDER BY c.id_comanda`,
    );
    pagos = await seedPagos(query, timeZone);
  });
  await query(
    `INSERT INTO sesion_caja_cierres (id_sesion, id_metodo_pago, esperado, contado)

     SELECT s.id_sesion, f.id_metodo_pago, f.esperado,
            f.esperado - CASE WHEN f.cuenta_en_caja AND s.id_sesion % 9 = 0 THEN 1.50 ELSE 0 END
       FROM sesiones_caja s CROSS JOIN LATERAL figuras_sesion_caja(s.id_sesion) f;
     UPDATE cajas SET ultimo_z = (SELECT coalesce(max(numero_z), 0) FROM sesiones_caja WHERE id_caja = 1)
      WHERE id_caja = 1;
     INSERT INTO caja_eventos (id_sesion, accion, id_usuario, detalle, fec_evento)
     SELECT id_sesion, 'abrir', id_usuario_apertura,
            jsonb_build_object('id_caja', id_caja, 'monto_apertura', monto_apertura), fec_apertura
       FROM sesiones_caja
     UNION ALL
     SELECT id_sesion, 'cerrar', id_usuario_cierre, jsonb_build_object('numero_z', numero_z), fec_cierre
       FROM sesiones_caja
     ORDER BY 5`,
  );
  const [{ n }] = rowsOf<{ n: number }>(
    await query('SELECT count(*)::int AS n FROM sesiones_caja'),
  );
  return { sesiones_caja: n, pagos };
}

/** The till's sessions and one payment per paid comanda (its bill net of the discount). */
async function seedPagos(query: DemoSeed['query'], timeZone: string): Promise<number> {
  const pagos = rowsOf<{ n: number }>(
    await query(
      `WITH pagadas AS (
       SELECT c.id_comanda,
              c.total - comanda_descuento(c.total, cc.descuento_tipo, cc.descuento_valor) AS total,
              c.fec_cierre, (c.fec_cierre AT TIME ZONE $1)::date AS dia, t.cajero
         FROM comandas c
         JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
         JOIN demo_comanda t ON t.id_comanda = c.id_comanda),
     dias AS (
       SELECT p.dia, max(p.fec_cierre) AS ultimo, s.cajero_almuerzo, s.cajero_cena
         FROM pagadas p
         JOIN demo_servicio s ON s.d = (SELECT hoy FROM demo_param) - p.dia
        GROUP BY p.dia, s.cajero_almuerzo, s.cajero_cena),
     sesiones AS (
       -- opened before lunch by the day's cashier, closed after the last close by the night's
       INSERT INTO sesiones_caja (id_caja, estado, monto_apertura, id_usuario_apertura,
                                  fec_apertura, numero_z, id_usuario_cierre, fec_cierre)
       SELECT 1, 'cerrada', 200, cajero_almuerzo, (dia + time '11:30') AT TIME ZONE $1,
              row_number() OVER (ORDER BY dia), cajero_cena, ultimo + interval '20 minutes'
         FROM dias ORDER BY dia
       RETURNING id_sesion, (fec_apertura AT TIME ZONE $1)::date AS dia),
     elegidos AS (
       SELECT p.*, s.id_sesion, (p.id_comanda * 2654435761) % 100 AS h
         FROM pagadas p
         JOIN sesiones s ON s.dia = p.dia),
     montos AS (
       SELECT e.*,
              CASE WHEN h < 52 THEN 1 WHEN h < 82 THEN 2 WHEN h < 94 THEN 3 ELSE 4 END AS metodo,
              CASE WHEN h % 10 < 3 THEN round(e.total * 0.05, 1) ELSE 0 END AS propina
         FROM elegidos e),
     aplicados AS (
       SELECT m.*, CASE WHEN metodo = 1 THEN floor(m.total * 10) / 10 ELSE m.total END AS monto
         FROM montos m),
       pagados AS (
       INSERT INTO pagos (id_comanda, id_sesion, id_metodo_pago, monto, propina, recibido, vuelto,
                          id_usuario, fec_pago)
       SELECT id_comanda, id_sesion, metodo, monto, propina,
              CASE WHEN metodo = 1 THEN ceil((monto + propina) / 10) * 10 END,
              CASE WHEN metodo = 1 THEN ceil((monto + propina) / 10) * 10 - monto - propina ELSE 0 END,
              cajero, fec_cierre - interval '1 minute'
         FROM aplicados
        ORDER BY fec_cierre, id_comanda
       RETURNING 1)
       SELECT count(*)::int AS n FROM pagados`,
      [timeZone],
    ),
  );
  return pagos[0].n;
}
