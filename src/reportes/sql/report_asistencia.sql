CREATE OR REPLACE FUNCTION report_asistencia(p_desde date, p_hasta date)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- Attendance per person over the work days p_desde..p_hasta (inclusive), from the daily
  -- summaries: {desde, hasta, personas: [{id_usuario, documento, nombre, apellido,
  -- dias_trabajados (work days with punches), minutos (closed intervals), dias_incompletos
  -- (days with an open interval or an unpaired out-punch)}]}, people with at least one day,
  -- ordered by apellido, nombre. desde/hasta are required (22023).
  BEGIN
    IF p_desde IS NULL OR p_hasta IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'desde y hasta son obligatorios (AAAA-MM-DD)';
    END IF;

    RETURN jsonb_build_object(
      'desde', p_desde,
      'hasta', p_hasta,
      'personas', coalesce((
        SELECT jsonb_agg(jsonb_build_object(
                 'id_usuario', u.id_usuario,
                 'documento', u.documento,
                 'nombre', u.nombre,
                 'apellido', u.apellido,
                 'dias_trabajados', r.dias,
                 'minutos', r.minutos,
                 'dias_incompletos', r.incompletos
               ) ORDER BY u.apellido NULLS LAST, u.nombre, u.id_usuario)
          FROM (SELECT id_usuario,
                       count(*)::integer AS dias,
                       sum(minutos)::integer AS minutos,
                       (count(*) FILTER (WHERE incompleto))::integer AS incompletos
                  FROM asistencia_resumen_diario
                 WHERE fecha_trabajo BETWEEN p_desde AND p_hasta
                 GROUP BY id_usuario) AS r
          JOIN usuarios u ON u.id_usuario = r.id_usuario
      ), '[]'::jsonb)
    );
  END;
$fn$;

COMMENT ON FUNCTION report_asistencia(date, date) IS
  'RPC report_asistencia: worked days, minutes and incomplete days per person over a range of work days';
