CREATE OR REPLACE FUNCTION asistencia_hora_corte()
RETURNS time(0)
LANGUAGE plpgsql
STABLE
AS $fn$
  -- The tenant's day cut-off (setting asistencia.hora_corte, default 05:00).
  DECLARE
    v_valor text := parametro('asistencia.hora_corte', '05:00');
    v_hora  time(0) := asistencia_leer_hora(btrim(v_valor));
  BEGIN
    IF v_hora IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('parámetro asistencia.hora_corte inválido: %L (se espera HH:MM)',
                         v_valor);
    END IF;
    RETURN v_hora;
  END;
$fn$;

COMMENT ON FUNCTION asistencia_hora_corte() IS 'Setting asistencia.hora_corte as a time (default 05:00)';
