CREATE OR REPLACE FUNCTION find_usuarios_por_documentos(p_docs text[])
RETURNS jsonb
LANGUAGE sql
STABLE
AS $fn$
  -- Staff members by document number (DNI, also the attendance-clock PIN), as an object
  -- keyed by documento: {"40000001": {id_usuario, documento, nombre, apellido, activo,
  -- roles: [role names, sorted]}}. Inactive staff are included (activo tells). Documents are
  -- compared trimmed; unknown ones are simply absent; an empty or null array gives {}.
  SELECT coalesce(jsonb_object_agg(u.documento, jsonb_build_object(
           'id_usuario', u.id_usuario,
           'documento', u.documento,
           'nombre', u.nombre,
           'apellido', u.apellido,
           'activo', u.activo,
           'roles', coalesce((
             SELECT jsonb_agg(r.nombre ORDER BY r.nombre)
               FROM usua_roles ur
               JOIN roles r ON r.id_rol = ur.id_rol
              WHERE ur.id_usuario = u.id_usuario
           ), '[]'::jsonb)
         )), '{}'::jsonb)
    FROM usuarios u
   WHERE u.documento IN (SELECT btrim(d) FROM unnest(p_docs) AS d);
$fn$;

COMMENT ON FUNCTION find_usuarios_por_documentos(text[]) IS
  'RPC find_usuarios_por_documentos: staff keyed by documento with their role names; unknown documents absent';
