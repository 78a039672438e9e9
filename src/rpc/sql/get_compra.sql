CREATE OR REPLACE FUNCTION get_compra(p_id_compra integer)
RETURNS jsonb
LANGUAGE sql
STABLE
AS $fn$
  -- A purchase for editing: header with the supplier's name, then its lines, product lines
  -- first, each kind in entry order. A line has tipo 'producto' (with id_producto) or
  -- 'materia' (with id_mat_prima), the item's name, cantidad, costo_unitario and the
  -- generated subtotal. NULL when the purchase does not exist.
  SELECT jsonb_build_object(
           'id_compra', c.id_compra,
           'id_proveedor', c.id_proveedor,
           'razon_social', p.razon_social,
           'fec_compra', c.fec_compra,
           'total', c.total,
           'observacion', c.observacion,
           'detalles', coalesce((
             SELECT jsonb_agg(l.linea ORDER BY l.orden, l.id)
               FROM (SELECT 1 AS orden, d.id_deta_comp_producto AS id,
                            jsonb_build_object(
                              'tipo', 'producto',
                              'id_producto', d.id_producto,
                              'nombre', pr.nombre,
                              'cantidad', d.cantidad,
                              'costo_unitario', d.costo_unitario,
                              'subtotal', d.subtotal) AS linea
                       FROM deta_comp_producto d
                       JOIN productos pr ON pr.id_producto = d.id_producto
                      WHERE d.id_compra = c.id_compra
                     UNION ALL
                     SELECT 2, d.id_deta_comp_materia,
                            jsonb_build_object(
                              'tipo', 'materia',
                              'id_mat_prima', d.id_mat_prima,
                              'nombre', m.nombre,
                              'cantidad', d.cantidad,
                              'costo_unitario', d.costo_unitario,
                              'subtotal', d.subtotal)
                       FROM deta_comp_materias d
                       JOIN mate_primas m ON m.id_mat_prima = d.id_mat_prima
                      WHERE d.id_compra = c.id_compra) AS l
           ), '[]'::jsonb)
         )
    FROM compras c
    JOIN proveedores p ON p.id_proveedor = c.id_proveedor
   WHERE c.id_compra = p_id_compra;
$fn$;

COMMENT ON FUNCTION get_compra(integer) IS
  'RPC get_compra: purchase with supplier name and its product and raw-material lines; NULL when unknown';
