CREATE OR REPLACE FUNCTION asistencia_leer_hora(p_texto text)
RETURNS time(0)
LANGUAGE sql
IMMUTABLE
AS $fn$
  -- A wall-clock time HH:MM:SS or HH:MM (seconds 00), 00:00 to 23:59:59; NULL otherwise
  -- (24:00, 8h30, 08:00:00.5 ...). Never raises.
  SELECT CASE WHEN p_texto ~ '^([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$' THEN p_texto::time(0) END;
$fn$;

COMMENT ON FUNCTION asistencia_leer_hora(text) IS
  'HH:MM[:SS] text to time, NULL when it is not a valid time of day (never raises)';
