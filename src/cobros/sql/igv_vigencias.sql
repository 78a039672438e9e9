-- The IGV rates' periods (docs/cobros.md, "Where each rule lives"): the days over which igv_tasa
-- gives one rate, a row each: from -infinity and from each vigente_desde of tasas_igv (desde)
-- until the next of them (hasta, excluded; null for the last), with the rate igv_tasa gives on
-- its first day (0 before the first rate). Every day of the tenant's calendar is in exactly one
-- period, with the rate igv_tasa gives that day: igv_tasa stays the one place the rule is
-- written, this is its value over a set of days. What a set of sales joins (ventas) instead of
-- asking igv_tasa once per sale: tasas_igv is read once per statement, igv_tasa called once
-- per period. A SQL function the planner inlines into the statements that call it.
CREATE OR REPLACE FUNCTION igv_vigencias()
RETURNS TABLE (desde date, hasta date, tasa numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT d.desde, lead(d.desde) OVER (ORDER BY d.desde), igv_tasa(d.desde)
    FROM (SELECT '-infinity'::date AS desde UNION SELECT t.vigente_desde FROM tasas_igv t) AS d
$$;

COMMENT ON FUNCTION igv_vigencias() IS
  'The IGV rates'' periods: from each vigente_desde of tasas_igv (and -infinity) until the next, with igv_tasa of its first day';
