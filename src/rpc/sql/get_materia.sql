CREATE OR REPLACE FUNCTION get_materia(p_id_mat_prima integer)
RETURNS jsonb
LANGUAGE sql
STABLE
AS $fn$
  -- A raw material with the suppliers that sell it and their agreed price per unidad (null
  -- when not agreed), ordered by supplier name; [] when none. NULL when it does not exist.
  SELECT jsonb_build_object(
           'id_mat_prima', m.id_mat_prima,
           'nombre', m.nombre,
           'unidad', m.unidad,
           'activo', m.activo,
           'proveedores', coalesce((
             SELECT jsonb_agg(jsonb_build_object(
                      'id_proveedor', p.id_proveedor,
                      'razon_social', p.razon_social,
                      'precio', pm.precio
                    ) ORDER BY p.razon_social, p.id_proveedor)
               FROM prov_mate_prima pm
               JOIN proveedores p ON p.id_proveedor = pm.id_proveedor
              WHERE pm.id_mat_prima = m.id_mat_prima
           ), '[]'::jsonb)
         )
    FROM mate_primas m
   WHERE m.id_mat_prima = p_id_mat_prima;
$fn$;

COMMENT ON FUNCTION get_materia(integer) IS
  'RPC get_materia: raw material with its suppliers and agreed prices; NULL when unknown';
