-- The stock ledger is append-only (docs/inventario.md): a movement is never updated, deleted or
-- truncated; a correction is a reversal or an adjustment, posted as a movement of its own.
CREATE OR REPLACE FUNCTION stock_movimientos_inmutables() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  BEGIN
    RAISE EXCEPTION USING ERRCODE = '42501',
      MESSAGE = 'stock_movimientos es de solo anexado: un movimiento no se modifica ni se borra',
      HINT = 'Registre un movimiento de reverso o de ajuste';
  END;
$fn$;

DROP TRIGGER IF EXISTS tg_stock_movimientos_inmutables ON stock_movimientos;
CREATE TRIGGER tg_stock_movimientos_inmutables
  BEFORE UPDATE OR DELETE ON stock_movimientos
  FOR EACH ROW EXECUTE FUNCTION stock_movimientos_inmutables();

DROP TRIGGER IF EXISTS tg_stock_movimientos_sin_truncate ON stock_movimientos;
CREATE TRIGGER tg_stock_movimientos_sin_truncate
  BEFORE TRUNCATE ON stock_movimientos
  FOR EACH STATEMENT EXECUTE FUNCTION stock_movimientos_inmutables();
