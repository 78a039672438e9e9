CREATE OR REPLACE FUNCTION reportes_marcar() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- a row of a comanda changed: its report rows are computed again
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO reportes_cambios (id_comanda) VALUES (OLD.id_comanda);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.id_comanda IS DISTINCT FROM OLD.id_comanda) THEN
      INSERT INTO reportes_cambios (id_comanda) VALUES (NEW.id_comanda);
    END IF;
    RETURN NULL;
  END;
$fn$;

-- a comanda that is or was closed; the open ones' changes (most of them) fire nothing, nor does
-- any change of a tenant with the feature off (its connections carry comandas.reportes = off,
-- docs/sql.md; reportes_seguimiento repairs what was not marked meanwhile)
DROP TRIGGER IF EXISTS tg_reportes_comandas_insert ON comandas;
CREATE TRIGGER tg_reportes_comandas_insert AFTER INSERT ON comandas
  FOR EACH ROW WHEN (NEW.estado = 'cerrada' AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_comandas_update ON comandas;
CREATE TRIGGER tg_reportes_comandas_update AFTER UPDATE ON comandas
  FOR EACH ROW WHEN ((OLD.estado = 'cerrada' OR NEW.estado = 'cerrada') AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_comandas_delete ON comandas;
CREATE TRIGGER tg_reportes_comandas_delete AFTER DELETE ON comandas
  FOR EACH ROW WHEN (OLD.estado = 'cerrada' AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_cuentas ON cuentas_comanda;
CREATE TRIGGER tg_reportes_cuentas AFTER INSERT OR UPDATE OR DELETE ON cuentas_comanda
  FOR EACH ROW WHEN (current_setting('comandas.reportes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_pagos ON pagos;
CREATE TRIGGER tg_reportes_pagos AFTER INSERT OR UPDATE OR DELETE ON pagos
  FOR EACH ROW WHEN (current_setting('comandas.reportes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION reportes_marcar();
