-- The sales (docs/cobros.md, "Where each rule lives"): one row per closed, not voided comanda,
-- with what it sold and at which rate. Its lines' total (total), its discount (comanda_descuento),
-- the IGV rate frozen at its close, else the one in force on the day of its close in the tenant's
-- zone p_zona (the period of igv_vigencias that holds that day, the periods igv_tasa reads: joined
-- rather than asked per sale, so a year of sales reads tasas_igv once; tasa_congelada says which),
-- and what it sold without IGV (neta: monto_neto of total - descuento) and its IGV (igv: the
-- rest). The service charge is outside the IGV base and outside the sales. Its lines are
-- ventas_lineas. The reports and the stock's food cost read the sales here instead of deriving
-- them; a closed comanda's bill (cuenta_comanda) has the same figures. A SQL function the planner
-- inlines into the statements that call it, so a condition on id_comanda or fec_cierre reads only
-- those comandas; parallel safe, so a statement that reads it can still be planned in parallel.
CREATE OR REPLACE FUNCTION ventas(p_zona text)
RETURNS TABLE (
  id_comanda bigint, fec_cierre timestamptz, id_mesa integer, id_usuario integer,
  total numeric, descuento numeric, tasa_igv numeric, tasa_congelada boolean,
  neta numeric, igv numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT x.id_comanda, x.fec_cierre, x.id_mesa, x.id_usuario, x.total, x.descuento, x.tasa,
         x.congelada, monto_neto(x.total - x.descuento, x.tasa),
         x.total - x.descuento - monto_neto(x.total - x.descuento, x.tasa)
    FROM (SELECT c.id_comanda, c.fec_cierre, c.id_mesa, c.id_usuario, c.total,
                 comanda_descuento(c.total, cc.descuento_tipo, cc.descuento_valor) AS descuento,
                 coalesce(cc.tasa_igv, v.tasa) AS tasa, cc.tasa_igv IS NOT NULL AS congelada
            FROM comandas c
            LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
            -- the close's local day, computed once per comanda: as a LEFT JOIN LATERAL the
            -- planner evaluates it at the comanda's scan instead of in each comparison below
            LEFT JOIN LATERAL (SELECT (c.fec_cierre AT TIME ZONE p_zona)::date AS dia) AS k ON true
            LEFT JOIN igv_vigencias() v ON v.desde <= k.dia AND (v.hasta > k.dia OR v.hasta IS NULL)
           WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre IS NOT NULL) AS x
$$;

COMMENT ON FUNCTION ventas(text) IS
  'The sales: each closed, not voided comanda''s total, discount, IGV rate, net and IGV (docs/cobros.md)';
