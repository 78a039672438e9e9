CREATE OR REPLACE FUNCTION inventario_consumir_comanda(p_id_comanda bigint, p_id_usuario integer,
                                            p_fec timestamptz DEFAULT now())
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- A closed comanda uses its recipes: each line with a recipe and no live consumption gets
  -- one (consumos_venta), and one consumo_venta movement per ingredient of the recipe as it
  -- is now (line quantity x recipe quantity), valued at the average cost, dated now (a close:
  -- its fec_cierre, set in the same transaction; a restore of a closed comanda, or a line
  -- inserted into one: when that happens, like the reversal it follows, never back in a
  -- period a count has closed); the line's theoretical cost is the sum of those values.
  -- p_fec is for a replay of past closes (the demo's build), in time order. Answers the
  -- (line, ingredient) pairs it found (a quantity that rounds to 0 posts no movement).
  --
  -- The effect is what stock_asentar would post for each pair, in ascending (id_mat_prima,
  -- id_consumo) order, written set-based:
  -- 1. the (line, ingredient) pairs are read with the recipes as they are now, and the
  --    materials they name with their balance rows;
  -- 2. the balance rows are locked in ascending id_mat_prima order (as stock_asentar and a
  --    count take them, so no two postings wait on each other in opposite orders); when one
  --    is missing, the rows are created and locked one material at a time in that order, as
  --    stock_asentar does (a missing row created first while locking the others out of order
  --    could deadlock with a count: see inventario_aplicar_conteo);
  -- 3. after the locks, one statement reads the closed period (a count applied meanwhile is
  --    seen; the closed period includes its cut-off: PERIODO_CERRADO, and then nothing is
  --    written) and posts: each pair valued at its material's average (an outflow leaves it
  --    as it is, so every movement of a material is valued at the average read under the
  --    lock) with its running balance (the balance plus the sum of the material's movements
  --    up to it, by a window); the consumptions, in line order, each with its theoretical
  --    cost (-sum of its pairs' values); the movements in (material, consumption) order; and
  --    the balances from their movements' sums.
  -- The comanda's row is locked by the close, so its lines and their live consumptions do not
  -- change between the statements; the pairs read in 1 are the ones posted in 3.
  DECLARE
    v_fec        timestamptz := p_fec;
    v_items      bigint[];
    v_mats       integer[];
    v_cants      numeric[];
    v_materiales integer[];
    v_con_saldo  bigint;
    v_corte      timestamptz;
    v_cerrado    boolean;
    v_mat        integer;
    v_n          bigint;
  BEGIN
    SELECT array_agg(d.id_deta_comanda ORDER BY rp.id_mat_prima, d.id_deta_comanda),
           array_agg(rp.id_mat_prima ORDER BY rp.id_mat_prima, d.id_deta_comanda),
           array_agg(-round(d.cantidad * rp.cantidad, 4) ORDER BY rp.id_mat_prima, d.id_deta_comanda),
           array_agg(DISTINCT rp.id_mat_prima ORDER BY rp.id_mat_prima),
           count(DISTINCT s.id_mat_prima)
      INTO v_items, v_mats, v_cants, v_materiales, v_con_saldo
      FROM deta_comandas d
      JOIN receta_producto rp ON rp.id_producto = d.id_producto
      LEFT JOIN stock_saldos s ON s.id_mat_prima = rp.id_mat_prima
     WHERE d.id_comanda = p_id_comanda
       AND NOT EXISTS (SELECT 1 FROM consumos_venta c WHERE c.id_item = d.id_deta_comanda AND NOT c.revertido);
    IF v_items IS NULL THEN
      RETURN 0;
    END IF;
    IF v_con_saldo = cardinality(v_materiales) THEN
      -- every balance row exists (rows are never deleted while a recipe names the material)
      PERFORM 1 FROM stock_saldos WHERE id_mat_prima = ANY (v_materiales)
        ORDER BY id_mat_prima FOR UPDATE;
      GET DIAGNOSTICS v_n = ROW_COUNT;
    END IF;
    IF v_n IS DISTINCT FROM cardinality(v_materiales)::bigint THEN
      FOREACH v_mat IN ARRAY v_materiales LOOP
        INSERT INTO stock_saldos (id_mat_prima) VALUES (v_mat) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM stock_saldos WHERE id_mat_prima = v_mat FOR UPDATE;
      END LOOP;
    END IF;
    WITH periodo AS (
      SELECT cerrado_hasta, coalesce(v_fec <= cerrado_hasta, false) AS cerrado
        FROM inventario_periodo),
    e AS (
      SELECT u.orden, u.id_item, u.id_mat_prima, u.cantidad, s.costo_promedio AS costo,
             round(u.cantidad * s.costo_promedio, 4) AS valor,
             s.cantidad + sum(u.cantidad) OVER (PARTITION BY u.id_mat_prima ORDER BY u.orden
                                                ROWS UNBOUNDED PRECEDING) AS saldo
        FROM unnest(v_items, v_mats, v_cants) WITH ORDINALITY AS u(id_item, id_mat_prima, cantidad, orden)
        JOIN stock_saldos s ON s.id_mat_prima = u.id_mat_prima
       WHERE NOT (SELECT cerrado FROM periodo)),
    c AS (
      INSERT INTO consumos_venta (id_item, id_comanda, id_producto, cantidad, fec, costo_teorico)
      SELECT d.id_deta_comanda, d.id_comanda, d.id_producto, d.cantidad, v_fec, -k.valor
        FROM (SELECT id_item, sum(valor) AS valor FROM e GROUP BY id_item) k
        JOIN deta_comandas d ON d.id_deta_comanda = k.id_item
       ORDER BY d.id_deta_comanda
      RETURNING id_consumo, id_item),
    m AS (
      INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                     saldo_cantidad, saldo_costo, origen, id_origen, id_documento,
                                     fec, id_usuario)
      SELECT e.id_mat_prima, 'consumo_venta', e.cantidad, e.costo, e.valor,
             e.saldo, e.costo, 'consumo', c.id_consumo, p_id_comanda, v_fec, p_id_usuario
        FROM e
        JOIN c ON c.id_item = e.id_item
       WHERE e.cantidad <> 0
       ORDER BY e.orden
      RETURNING id_mat_prima, cantidad, valor),
    saldos AS (
      UPDATE stock_saldos s
         SET cantidad = s.cantidad + a.cantidad, valor = s.valor + a.valor,
             movimientos = s.movimientos + a.n, updated_at = now()
        FROM (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n
                FROM m GROUP BY id_mat_prima) a
       WHERE s.id_mat_prima = a.id_mat_prima)
    SELECT cerrado_hasta, cerrado INTO v_corte, v_cerrado FROM periodo;
    IF v_cerrado THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
        DETAIL = to_char(v_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    END IF;
    RETURN cardinality(v_items);
  END;
$fn$;
