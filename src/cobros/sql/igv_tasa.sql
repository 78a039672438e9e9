-- The IGV rate in force on a day (docs/cobros.md, "Where each rule lives"): the rate of tasas_igv
-- whose vigente_desde is the latest on or before p_fecha, a day of the tenant's calendar; 0 before
-- the first one. The one place this rule is written: the open bill (today), the rates frozen at a
-- close (that day) and a sale closed without frozen rates (the day of its close) all ask it. A SQL
-- function the planner inlines into the statements that call it.
CREATE OR REPLACE FUNCTION igv_tasa(p_fecha date)
RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT t.tasa FROM tasas_igv t
                    WHERE t.vigente_desde <= p_fecha
                    ORDER BY t.vigente_desde DESC LIMIT 1), 0)
$$;

COMMENT ON FUNCTION igv_tasa(date) IS
  'The IGV rate in force on a day of the tenant (tasas_igv), 0 before the first rate';
