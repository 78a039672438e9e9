CREATE OR REPLACE FUNCTION inventario_sincronizar_compra(p_id_compra integer, p_id_usuario integer)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- The ledger follows the purchase's raw-material lines as they are now (none once it is
  -- deleted): a reverso_compra for each compra movement whose line is gone (dated like it),
  -- a compra for each line without one (dated fec_compra, at the line's cost). In ascending
  -- material order. Every movement names p_id_usuario, who saved or deleted the purchase.
  -- Answers how many movements it posted.
  DECLARE
    r  record;
    n  integer := 0;
  BEGIN
    FOR r IN
      SELECT * FROM (
        SELECT m.id_mat_prima, 'reverso_compra' AS tipo, -m.cantidad AS cantidad,
               NULL::numeric AS costo, m.id_origen, m.fec
          FROM stock_movimientos m
         WHERE m.origen = 'compra' AND m.id_documento = p_id_compra AND m.tipo = 'compra'
           AND NOT EXISTS (SELECT 1 FROM deta_comp_materias d WHERE d.id_deta_comp_materia = m.id_origen)
           AND NOT EXISTS (SELECT 1 FROM stock_movimientos rv
                            WHERE rv.origen = 'compra' AND rv.id_origen = m.id_origen
                              AND rv.id_mat_prima = m.id_mat_prima AND rv.tipo = 'reverso_compra')
        UNION ALL
        SELECT d.id_mat_prima, 'compra', d.cantidad, d.costo_unitario::numeric,
               d.id_deta_comp_materia, c.fec_compra
          FROM deta_comp_materias d
          JOIN compras c ON c.id_compra = d.id_compra
         WHERE d.id_compra = p_id_compra
           AND NOT EXISTS (SELECT 1 FROM stock_movimientos m
                            WHERE m.origen = 'compra' AND m.id_origen = d.id_deta_comp_materia
                              AND m.tipo = 'compra')
      ) AS efectos
      ORDER BY id_mat_prima, tipo DESC, id_origen
    LOOP
      PERFORM stock_asentar(r.id_mat_prima, r.tipo, r.cantidad, r.costo, 'compra', r.id_origen,
                            p_id_compra, r.fec, p_id_usuario, NULL);
      n := n + 1;
    END LOOP;
    RETURN n;
  END;
$fn$;

COMMENT ON FUNCTION inventario_sincronizar_compra(integer, integer) IS
  'The stock ledger follows a purchase''s raw-material lines, each movement naming who saved or deleted it';
