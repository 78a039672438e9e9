CREATE OR REPLACE FUNCTION report_gastos(p_year integer, p_time_zone text)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- Yearly expenses: purchases (compras.total) per month of fec_compra in p_time_zone and per
  -- supplier; {year, meses: [{mes, total}] (all 12 months), proveedores: [{id_proveedor,
  -- razon_social, total}] (suppliers with purchases that year, highest total first), total}.
  -- p_year and p_time_zone are required (22023); an unknown zone raises 22023 too.
  DECLARE
    v_desde timestamptz;
    v_hasta timestamptz;
  BEGIN
    IF p_year IS NULL OR p_time_zone IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'report_gastos: year y time_zone son obligatorios';
    END IF;
    v_desde := make_timestamptz(p_year, 1, 1, 0, 0, 0, p_time_zone);
    v_hasta := make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, p_time_zone);

    RETURN (
      WITH del_anio AS (
        SELECT c.id_proveedor,
               extract(month FROM c.fec_compra AT TIME ZONE p_time_zone)::integer AS mes,
               c.total
          FROM compras c
         WHERE c.fec_compra >= v_desde
           AND c.fec_compra < v_hasta
      )
      SELECT jsonb_build_object(
               'year', p_year,
               'meses', (
                 SELECT jsonb_agg(jsonb_build_object(
                          'mes', m.mes,
                          'total', coalesce((SELECT sum(d.total) FROM del_anio d
                                              WHERE d.mes = m.mes), 0.00)
                        ) ORDER BY m.mes)
                   FROM generate_series(1, 12) AS m(mes)),
               'proveedores', coalesce((
                 SELECT jsonb_agg(jsonb_build_object(
                          'id_proveedor', s.id_proveedor,
                          'razon_social', p.razon_social,
                          'total', s.total
                        ) ORDER BY s.total DESC, p.razon_social, s.id_proveedor)
                   FROM (SELECT d.id_proveedor, sum(d.total) AS total
                           FROM del_anio d
                          GROUP BY d.id_proveedor) AS s
                   JOIN proveedores p ON p.id_proveedor = s.id_proveedor
               ), '[]'::jsonb),
               'total', coalesce((SELECT sum(d.total) FROM del_anio d), 0.00)
             )
    );
  END;
$fn$;

COMMENT ON FUNCTION report_gastos(integer, text) IS
  'RPC report_gastos: purchases per month of fec_compra in a time zone and per supplier';
