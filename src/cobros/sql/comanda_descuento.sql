-- A comanda's discount in soles (docs/cobros.md, "Where each rule lives"), on its lines' total
-- p_total: a percentage is rounded to the céntimo, an amount never takes more than the total; no
-- discount is 0. The one place this rule is written: the bill (cuenta_comanda) and a sale (ventas)
-- ask it.
CREATE OR REPLACE FUNCTION comanda_descuento(p_total numeric, p_tipo text, p_valor numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_tipo
           WHEN 'porcentaje' THEN round(p_total * p_valor / 100, 2)
           WHEN 'monto' THEN least(p_valor, p_total)
           ELSE 0 END
$$;

COMMENT ON FUNCTION comanda_descuento(numeric, text, numeric) IS
  'A comanda''s discount on its lines'' total: a percentage rounded to the céntimo, an amount at most the total';
