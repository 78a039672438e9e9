-- The X / Z figures of a till session per payment method (docs/cobros.md): what came in
-- (payments and tips), what went out (refunds), and for the method counted in the till the
-- opening float and the movements. One row per active method, and per method the session used.
CREATE OR REPLACE FUNCTION figuras_sesion_caja(p_sesion bigint)
RETURNS TABLE (
  id_metodo_pago integer, nombre varchar, tipo text, cuenta_en_caja boolean,
  pagos bigint, ventas numeric, propinas numeric, reembolsos numeric,
  apertura numeric, ingresos numeric, retiros numeric, esperado numeric)
LANGUAGE sql STABLE AS $$
  WITH s AS (SELECT * FROM sesiones_caja WHERE id_sesion = p_sesion),
  caja_metodo AS (
    SELECT min(id_metodo_pago) AS id FROM metodos_pago WHERE cuenta_en_caja AND activo),
  pg AS (
    SELECT id_metodo_pago, count(*) AS pagos, sum(monto) AS ventas, sum(propina) AS propinas
      FROM pagos WHERE id_sesion = p_sesion AND estado = 'aplicado'
     GROUP BY id_metodo_pago),
  rb AS (
    SELECT p.id_metodo_pago, sum(r.monto) AS reembolsos
      FROM reembolsos r JOIN pagos p ON p.id_pago = r.id_pago
     WHERE r.id_sesion = p_sesion
     GROUP BY p.id_metodo_pago),
  mv AS (
    SELECT coalesce(sum(monto) FILTER (WHERE tipo = 'ingreso'), 0) AS ingresos,
           coalesce(sum(monto) FILTER (WHERE tipo = 'retiro'), 0) AS retiros
      FROM movimientos_caja WHERE id_sesion = p_sesion),
  filas AS (
    SELECT m.id_metodo_pago, m.nombre, m.tipo, m.cuenta_en_caja,
           coalesce(pg.pagos, 0) AS pagos, coalesce(pg.ventas, 0) AS ventas,
           coalesce(pg.propinas, 0) AS propinas, coalesce(rb.reembolsos, 0) AS reembolsos,
           CASE WHEN m.id_metodo_pago = cm.id THEN s.monto_apertura ELSE 0 END AS apertura,
           CASE WHEN m.id_metodo_pago = cm.id THEN mv.ingresos ELSE 0 END AS ingresos,
           CASE WHEN m.id_metodo_pago = cm.id THEN mv.retiros ELSE 0 END AS retiros
      FROM metodos_pago m
      CROSS JOIN s CROSS JOIN mv CROSS JOIN caja_metodo cm
      LEFT JOIN pg ON pg.id_metodo_pago = m.id_metodo_pago
      LEFT JOIN rb ON rb.id_metodo_pago = m.id_metodo_pago
     WHERE m.activo OR pg.id_metodo_pago IS NOT NULL OR rb.id_metodo_pago IS NOT NULL)
  SELECT filas.*, apertura + ventas + propinas + ingresos - retiros - reembolsos AS esperado
    FROM filas
   ORDER BY id_metodo_pago
$$;
