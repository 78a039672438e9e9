CREATE OR REPLACE FUNCTION asistencia_ventana_duplicados()
RETURNS interval
LANGUAGE plpgsql
STABLE
AS $fn$
  -- The tenant's duplicate window (setting asistencia.ventana_duplicados_seg, default 60 s).
  DECLARE
    v_valor text := btrim(parametro('asistencia.ventana_duplicados_seg', '60'));
  BEGIN
    IF v_valor !~ '^[0-9]{1,5}$' THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('parámetro asistencia.ventana_duplicados_seg inválido: %L '
                         '(se espera un número de segundos)', v_valor);
    END IF;
    RETURN make_interval(secs => v_valor::integer);
  END;
$fn$;

COMMENT ON FUNCTION asistencia_ventana_duplicados() IS
  'Setting asistencia.ventana_duplicados_seg as an interval (default 60 seconds)';
