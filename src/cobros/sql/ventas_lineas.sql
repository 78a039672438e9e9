-- A sale's lines (docs/cobros.md, "A line's IGV"): one row per line of a sale of ventas, the one
-- place a line's share of its comanda's discount, net and IGV is computed. Per line: its
-- product, quantity and unit price (frozen when it was ordered), its gross (venta_bruta, the
-- line's subtotal), its sale's IGV rate, and its shares of the sale in two forms:
--
-- - exact (descuento, neta): the sale's discount and net times subtotal / the sale's total,
--   unrounded; what the reports add up (over products, categories) before rounding a row;
-- - in céntimos (descuento_linea, importe = venta_bruta - descuento_linea, base_imponible,
--   igv = importe - base_imponible): the sale's discount split over its lines by their
--   subtotals, then its net over what each line charges (importe), as running shares in line
--   order rounded to the céntimo, each line taking its running share less the previous line's:
--   per sale Σ descuento_linea = descuento, Σ base_imponible = neta and Σ igv = igv exactly (as
--   an electronic invoice's lines must add up to its totals), each line within a céntimo of its
--   exact share and none below zero.
--
-- Inlined like ventas: a condition on id_comanda reads only those comandas' lines.
CREATE OR REPLACE FUNCTION ventas_lineas(p_zona text)
RETURNS TABLE (
  id_comanda bigint, id_item bigint, id_producto integer, fec_cierre timestamptz,
  cantidad numeric, precio_unitario numeric, venta_bruta numeric, tasa_igv numeric,
  descuento numeric, neta numeric,
  descuento_linea numeric, importe numeric, base_imponible numeric, igv numeric)
LANGUAGE sql STABLE AS $$
  WITH l AS (
    SELECT v.id_comanda, d.id_deta_comanda AS id_item, d.id_producto, v.fec_cierre,
           d.cantidad, d.precio_unitario, d.subtotal, v.tasa_igv,
           CASE WHEN v.descuento > 0 THEN v.descuento * d.subtotal / v.total ELSE 0 END AS descuento,
           CASE WHEN v.total > 0 THEN v.neta * d.subtotal / v.total ELSE 0 END AS neta,
           v.descuento AS descuento_venta, v.neta AS neta_venta,
           sum(d.subtotal) OVER (PARTITION BY v.id_comanda) AS bruto_venta,
           sum(d.subtotal) OVER (PARTITION BY v.id_comanda ORDER BY d.id_deta_comanda) AS bruto_hasta
      FROM ventas(p_zona) v
      JOIN deta_comandas d ON d.id_comanda = v.id_comanda),
  -- the running shares up to each line, rounded: of the discount by the subtotals, then of the
  -- net by what the lines charge after their discount
  h AS (
    SELECT l.*, CASE WHEN l.bruto_venta > 0
                     THEN round(l.descuento_venta * l.bruto_hasta / l.bruto_venta, 2)
                     ELSE 0 END AS descuento_hasta
      FROM l),
  k AS (
    SELECT h.*, CASE WHEN h.bruto_venta - h.descuento_venta > 0
                     THEN round(h.neta_venta * (h.bruto_hasta - h.descuento_hasta)
                                / (h.bruto_venta - h.descuento_venta), 2)
                     ELSE 0 END AS base_hasta
      FROM h),
  -- a line's céntimos: its running share less the previous line's
  c AS (
    SELECT k.*,
           k.descuento_hasta - coalesce(lag(k.descuento_hasta) OVER w, 0) AS descuento_linea,
           k.base_hasta - coalesce(lag(k.base_hasta) OVER w, 0) AS base_imponible
      FROM k
    WINDOW w AS (PARTITION BY k.id_comanda ORDER BY k.id_item))
  SELECT c.id_comanda, c.id_item, c.id_producto, c.fec_cierre, c.cantidad, c.precio_unitario,
         c.subtotal, c.tasa_igv, c.descuento, c.neta, c.descuento_linea,
         c.subtotal - c.descuento_linea, c.base_imponible,
         c.subtotal - c.descuento_linea - c.base_imponible
    FROM c
$$;

COMMENT ON FUNCTION ventas_lineas(text) IS
  'A sale''s lines: gross, IGV rate, exact shares of the discount and net, and céntimo discount, base and IGV adding up to the sale (docs/cobros.md)';
