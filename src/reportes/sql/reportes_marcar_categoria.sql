CREATE OR REPLACE FUNCTION reportes_marcar_categoria() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- a product changed category: the comandas that sold it count in another one now
  BEGIN
    INSERT INTO reportes_cambios (id_comanda)
      SELECT id_comanda FROM reporte_ventas_productos WHERE id_producto = NEW.id_producto;
    RETURN NULL;
  END;
$fn$;

DROP TRIGGER IF EXISTS tg_reportes_productos ON productos;
CREATE TRIGGER tg_reportes_productos AFTER UPDATE OF id_categoria ON productos
  FOR EACH ROW WHEN (OLD.id_categoria IS DISTINCT FROM NEW.id_categoria AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar_categoria();
