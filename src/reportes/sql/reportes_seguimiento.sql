-- Told, when a DataSource of the tenant opens, whether the feature reportes is on for it
-- (features.ts, `inDatabase.onOpen`). Off, the triggers of reportes_marcar skip (their WHEN
-- reads comandas.reportes), so the model records that it missed changes; on again, every sale
-- is marked to be computed again by the next reportes_refrescar (docs/reportes.md).
CREATE OR REPLACE FUNCTION reportes_seguimiento(p_activo boolean) RETURNS void
LANGUAGE plpgsql AS $fn$
  BEGIN
    IF NOT p_activo THEN
      UPDATE reportes_estado SET al_dia = false WHERE al_dia;
    ELSIF NOT (SELECT al_dia FROM reportes_estado) THEN
      -- changes went unmarked while the feature was off: every sale is computed again
      INSERT INTO reportes_cambios (id_comanda)
        SELECT id_comanda FROM comandas WHERE estado = 'cerrada'
        UNION
        SELECT id_comanda FROM reporte_ventas;
      UPDATE reportes_estado SET al_dia = true;
    END IF;
  END;
$fn$;
COMMENT ON FUNCTION reportes_seguimiento(boolean) IS
  'Told whether the feature reportes is on when a DataSource opens: records or repairs the changes it did not mark';
