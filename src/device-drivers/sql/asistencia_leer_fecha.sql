CREATE OR REPLACE FUNCTION asistencia_leer_fecha(p_texto text)
RETURNS date
LANGUAGE plpgsql
IMMUTABLE
AS $fn$
  -- A calendar date written YYYY-MM-DD, or NULL when the text is not one (2026-02-30,
  -- 26-1-5, 05/01/2026 ...). Checked without raising, so one bad record of an import is
  -- reported instead of aborting the whole file.
  DECLARE
    v_anio integer;
    v_mes  integer;
    v_dia  integer;
  BEGIN
    IF p_texto IS NULL OR p_texto !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
      RETURN NULL;
    END IF;
    v_anio := substr(p_texto, 1, 4)::integer;
    v_mes := substr(p_texto, 6, 2)::integer;
    v_dia := substr(p_texto, 9, 2)::integer;
    IF v_anio < 1 OR v_mes NOT BETWEEN 1 AND 12 OR v_dia < 1
       OR v_dia > extract(day FROM make_date(v_anio, v_mes, 1) + interval '1 month - 1 day')
    THEN
      RETURN NULL;
    END IF;
    RETURN make_date(v_anio, v_mes, v_dia);
  END;
$fn$;

COMMENT ON FUNCTION asistencia_leer_fecha(text) IS
  'YYYY-MM-DD text to date, NULL when it is not a calendar date (never raises)';
