-- The purchase list of the generic table routes (docs/generic-tables.md).
CREATE OR REPLACE VIEW vw_compras AS
  SELECT c.id_compra,
         c.fec_compra,
         c.id_proveedor,
         p.razon_social,
         c.total,
         (SELECT count(*) FROM deta_comp_producto d WHERE d.id_compra = c.id_compra)::integer
           AS n_productos,
         (SELECT count(*) FROM deta_comp_materias d WHERE d.id_compra = c.id_compra)::integer
           AS n_materias,
         c.observacion
    FROM compras c
    JOIN proveedores p ON p.id_proveedor = c.id_proveedor;

COMMENT ON VIEW vw_compras IS 'Purchase list: one row per compra with supplier name and line counts';
