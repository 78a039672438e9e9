CREATE OR REPLACE FUNCTION asistencia_fecha_trabajo(p_fecha date, p_hora time, p_corte time)
RETURNS date
LANGUAGE sql
IMMUTABLE
AS $fn$
  -- Work day of a punch: before the cut-off hour it belongs to the previous day, so the
  -- 01:30 out-punch of an 18:00 shift counts for the day the shift started.
  SELECT CASE WHEN p_hora < p_corte THEN p_fecha - 1 ELSE p_fecha END;
$fn$;

COMMENT ON FUNCTION asistencia_fecha_trabajo(date, time, time) IS
  'Work day of a punch: the previous day when the punch is before the cut-off hour';
