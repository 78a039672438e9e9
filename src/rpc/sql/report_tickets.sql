CREATE OR REPLACE FUNCTION report_tickets(p_year integer, p_time_zone text)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- Yearly sales: closed, not deleted comandas (estado 'cerrada', eliminada false) counted
  -- and summed (their total) per month of fec_cierre in p_time_zone; {year, meses: [{mes
  -- 1..12, tickets, total}] (all 12 months), total_tickets, total}. Open tickets have no
  -- sale yet and deleted ones are voids: neither counts. A ticket reopened and closed again
  -- counts once, in the month of its last close.
  -- p_year and p_time_zone are required (22023); an unknown zone raises 22023 too.
  DECLARE
    v_desde timestamptz;
    v_hasta timestamptz;
  BEGIN
    IF p_year IS NULL OR p_time_zone IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'report_tickets: year y time_zone son obligatorios';
    END IF;
    v_desde := make_timestamptz(p_year, 1, 1, 0, 0, 0, p_time_zone);
    v_hasta := make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, p_time_zone);

    RETURN (
      WITH por_mes AS (
        SELECT extract(month FROM c.fec_cierre AT TIME ZONE p_time_zone)::integer AS mes,
               count(*)::integer AS tickets,
               sum(c.total) AS total
          FROM comandas c
         WHERE c.estado = 'cerrada'
           AND NOT c.eliminada
           AND c.fec_cierre >= v_desde
           AND c.fec_cierre < v_hasta
         GROUP BY 1
      )
      SELECT jsonb_build_object(
               'year', p_year,
               'meses', (
                 SELECT jsonb_agg(jsonb_build_object(
                          'mes', m.mes,
                          'tickets', coalesce(t.tickets, 0),
                          'total', coalesce(t.total, 0.00)
                        ) ORDER BY m.mes)
                   FROM generate_series(1, 12) AS m(mes)
                   LEFT JOIN por_mes t ON t.mes = m.mes),
               'total_tickets', coalesce((SELECT sum(t.tickets) FROM por_mes t), 0),
               'total', coalesce((SELECT sum(t.total) FROM por_mes t), 0.00)
             )
    );
  END;
$fn$;

COMMENT ON FUNCTION report_tickets(integer, text) IS
  'RPC report_tickets: closed, not deleted comandas per month of fec_cierre in a time zone';
