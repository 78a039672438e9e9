CREATE OR REPLACE FUNCTION reportes_marcar_tasas() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- the IGV rates changed: the comandas closed without a frozen rate follow them
  BEGIN
    INSERT INTO reportes_cambios (id_comanda)
      SELECT id_comanda FROM reporte_ventas WHERE NOT tasa_congelada;
    RETURN NULL;
  END;
$fn$;

DROP TRIGGER IF EXISTS tg_reportes_tasas ON tasas_igv;
CREATE TRIGGER tg_reportes_tasas AFTER INSERT OR UPDATE OR DELETE ON tasas_igv
  FOR EACH STATEMENT WHEN (current_setting('comandas.reportes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION reportes_marcar_tasas();
