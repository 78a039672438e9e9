-- The IGV rate in force on a day (docs/cobros.md, "Where each rule lives"): the rate of tasas_igv
-- whose vigente_desde is the latest on or before p_fecha, a day of the tenant's calendar; 0 before
-- the first one. The one place this rule is written: the open bill (today), the rates frozen at a
-- close (that day), a dish's price without IGV (today) and the rates' periods (igv_vigencias, on
-- each period's first day: what a sale closed without frozen rates joins, on the day of its close)
-- all ask it. A SQL function (not inlined: its body is a subquery, planned once per calling
-- statement), parallel safe.
CREATE OR REPLACE FUNCTION igv_tasa(p_fecha date)
RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce((SELECT t.tasa FROM tasas_igv t
                    WHERE t.vigente_desde <= p_fecha
                    ORDER BY t.vigente_desde DESC LIMIT 1), 0)
$$;

COMMENT ON FUNCTION igv_tasa(date) IS
  'The IGV rate in force on a day of the tenant (tasas_igv), 0 before the first rate';
