-- The bill of one comanda, every figure in numeric (docs/cobros.md). While it is open the rates
-- of today apply (the IGV rate in force on the tenant's date, the service charge, the cash
-- rounding); once closed, those frozen in cuentas_comanda. The rounding is granted when the
-- latest applied payment is cash and leaves less than one rounding step unpaid. The discount,
-- the rate on a day and the base without IGV are comanda_descuento, igv_tasa and monto_neto,
-- as a sale's (ventas): a closed comanda's bill and its sale agree.
CREATE OR REPLACE FUNCTION cuenta_comanda(p_id bigint, p_zona text)
RETURNS TABLE (
  subtotal numeric, descuento numeric, recargo_consumo numeric, total numeric,
  tasa_igv numeric, base_imponible numeric, igv numeric, tasa_recargo numeric,
  redondeo numeric, propinas numeric, pagado numeric, reembolsado numeric,
  saldo numeric, saldo_efectivo numeric, estado_pago text)
LANGUAGE sql STABLE AS $$
  WITH c AS (
    SELECT c.estado, c.total AS lineas, cc.descuento_tipo, cc.descuento_valor,
           coalesce(cc.tasa_igv, igv_tasa((now() AT TIME ZONE p_zona)::date)) AS tasa_igv,
           coalesce(cc.tasa_recargo, a.tasa_recargo) AS tasa_recargo,
           coalesce(cc.paso_redondeo, a.paso_redondeo) AS paso
      FROM comandas c
      LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
      CROSS JOIN cobros_ajustes a
     WHERE c.id_comanda = p_id),
  d AS (
    SELECT c.*, comanda_descuento(c.lineas, c.descuento_tipo, c.descuento_valor) AS descuento
      FROM c),
  n AS (SELECT d.*, d.lineas - d.descuento AS neto FROM d),
  t AS (SELECT n.*, round(n.neto * n.tasa_recargo, 2) AS recargo FROM n),
  p AS (
    SELECT coalesce(sum(monto) FILTER (WHERE estado = 'aplicado'), 0) AS pagado,
           coalesce(sum(propina) FILTER (WHERE estado = 'aplicado'), 0) AS propinas,
           coalesce((SELECT m.tipo = 'efectivo' FROM pagos ul
                       JOIN metodos_pago m ON m.id_metodo_pago = ul.id_metodo_pago
                      WHERE ul.id_comanda = p_id AND ul.estado = 'aplicado'
                      ORDER BY ul.id_pago DESC LIMIT 1), false) AS ultimo_efectivo
      FROM pagos WHERE id_comanda = p_id),
  r AS (SELECT coalesce(sum(monto), 0) AS reembolsado FROM reembolsos WHERE id_comanda = p_id),
  b AS (
    SELECT t.*, p.*, r.*, t.neto + t.recargo AS total_cuenta,
           t.neto + t.recargo - p.pagado AS bruto
      FROM t, p, r),
  f AS (
    SELECT b.*, CASE WHEN b.paso > 0 AND b.ultimo_efectivo AND b.bruto > 0 AND b.bruto < b.paso
                     THEN -b.bruto ELSE 0 END AS redondeo
      FROM b)
  SELECT f.lineas, f.descuento, f.recargo, f.total_cuenta,
         f.tasa_igv, monto_neto(f.neto, f.tasa_igv), f.neto - monto_neto(f.neto, f.tasa_igv),
         f.tasa_recargo, f.redondeo, f.propinas, f.pagado, f.reembolsado,
         f.bruto + f.redondeo,
         CASE WHEN f.paso > 0 AND f.bruto + f.redondeo > 0
              THEN floor((f.bruto + f.redondeo) / f.paso) * f.paso
              ELSE greatest(f.bruto + f.redondeo, 0) END,
         CASE WHEN f.reembolsado > 0 AND f.reembolsado >= f.pagado THEN 'reembolsada'
              WHEN f.reembolsado > 0 THEN 'reembolso_parcial'
              WHEN f.bruto + f.redondeo <= 0 AND (f.pagado > 0 OR f.estado = 'cerrada') THEN 'pagada'
              ELSE 'pendiente' END
    FROM f
$$;

COMMENT ON FUNCTION cuenta_comanda(bigint, text) IS
  'The bill of a comanda: subtotal, discount, service charge, total, IGV, rounding, tips, paid, refunded, balance (docs/cobros.md)';
