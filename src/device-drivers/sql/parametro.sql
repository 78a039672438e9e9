CREATE OR REPLACE FUNCTION parametro(p_clave text, p_defecto text)
RETURNS text
LANGUAGE sql
STABLE
AS $fn$
  -- The value of a tenant setting, or p_defecto when the row is absent.
  SELECT coalesce((SELECT valor FROM parametros WHERE clave = p_clave), p_defecto);
$fn$;

COMMENT ON FUNCTION parametro(text, text) IS 'Tenant setting from parametros, or the given default';
