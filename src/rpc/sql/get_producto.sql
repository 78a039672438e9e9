CREATE OR REPLACE FUNCTION get_producto(p_id_producto integer)
RETURNS jsonb
LANGUAGE sql
STABLE
AS $fn$
  -- A product with its category name and its recipe (raw materials ordered by name, [] when
  -- the product has no recipe). NULL when the product does not exist.
  SELECT jsonb_build_object(
           'id_producto', p.id_producto,
           'nombre', p.nombre,
           'img_producto', p.img_producto,
           'precio', p.precio,
           'activo', p.activo,
           'id_categoria', p.id_categoria,
           'categoria', c.nombre,
           'receta', coalesce((
             SELECT jsonb_agg(jsonb_build_object(
                      'id_mat_prima', m.id_mat_prima,
                      'nombre', m.nombre,
                      'unidad', m.unidad,
                      'cantidad', r.cantidad
                    ) ORDER BY m.nombre, m.id_mat_prima)
               FROM receta_producto r
               JOIN mate_primas m ON m.id_mat_prima = r.id_mat_prima
              WHERE r.id_producto = p.id_producto
           ), '[]'::jsonb)
         )
    FROM productos p
    LEFT JOIN categorias c ON c.id_categoria = p.id_categoria
   WHERE p.id_producto = p_id_producto;
$fn$;

COMMENT ON FUNCTION get_producto(integer) IS
  'RPC get_producto: product with category name and recipe ordered by material name; NULL when unknown';
