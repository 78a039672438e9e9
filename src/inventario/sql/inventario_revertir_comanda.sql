CREATE OR REPLACE FUNCTION inventario_revertir_comanda(p_id_comanda bigint, p_id_usuario integer)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- A reopened (or deleted) closed comanda gives its ingredients back: each live consumption
  -- of its lines is reverted, and each of its consumo_venta movements gets a reverso_consumo
  -- of the same quantity at the same unit cost, dated now. Answers the movements posted.
  --
  -- The effect is what stock_asentar would post for each movement, in ascending
  -- (id_mat_prima, consumption) order, written set-based: the balance rows locked in ascending
  -- id order and read (created one at a time in that order if one is missing, as in
  -- inventario_consumir_comanda), the closed period checked after the locks
  -- (PERIODO_CERRADO), then the running balance and the moving average (each reversal is an
  -- inflow at the cost it went out at: round((q0*c0 + q*c)/(q0 + q), 6), or c when q0 <= 0)
  -- walked in memory in that order, and the movements and the balances written by one
  -- statement.
  DECLARE
    v_origenes   bigint[];
    v_mats       integer[];
    v_cants      numeric[];
    v_costos     numeric[];
    v_materiales integer[];
    v_con_saldo  bigint;
    v_n          bigint;
    v_mat        integer;
    v_ids        integer[];
    v_q0         numeric[];
    v_c0         numeric[];
    v_saldos     numeric[];
    v_promedios  numeric[];
    v_cant       numeric(14,4);
    v_prom       numeric(14,6);
    v_corte      timestamptz;
    j            integer := 0;
  BEGIN
    WITH revertidos AS (
      UPDATE consumos_venta SET revertido = true, fec_reverso = now()
       WHERE id_comanda = p_id_comanda AND NOT revertido
      RETURNING id_consumo)
    SELECT array_agg(m.id_origen ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(m.id_mat_prima ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(-m.cantidad ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(m.costo_unitario ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(DISTINCT m.id_mat_prima ORDER BY m.id_mat_prima),
           count(DISTINCT s.id_mat_prima)
      INTO v_origenes, v_mats, v_cants, v_costos, v_materiales, v_con_saldo
      FROM revertidos v
      JOIN stock_movimientos m
        ON m.origen = 'consumo' AND m.id_origen = v.id_consumo AND m.tipo = 'consumo_venta'
      LEFT JOIN stock_saldos s ON s.id_mat_prima = m.id_mat_prima;
    IF v_origenes IS NULL THEN
      RETURN 0;
    END IF;
    IF v_con_saldo <> cardinality(v_materiales) THEN
      FOREACH v_mat IN ARRAY v_materiales LOOP
        INSERT INTO stock_saldos (id_mat_prima) VALUES (v_mat) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM stock_saldos WHERE id_mat_prima = v_mat FOR UPDATE;
      END LOOP;
    END IF;
    -- the rows locked in id order (again, harmlessly, after the loop) and read under the lock
    SELECT array_agg(id_mat_prima ORDER BY id_mat_prima), array_agg(cantidad ORDER BY id_mat_prima),
           array_agg(costo_promedio ORDER BY id_mat_prima)
      INTO v_ids, v_q0, v_c0
      FROM (SELECT id_mat_prima, cantidad, costo_promedio FROM stock_saldos
             WHERE id_mat_prima = ANY (v_materiales) ORDER BY id_mat_prima FOR UPDATE) l;
    -- read after the lock: a count applied meanwhile is seen
    SELECT cerrado_hasta INTO v_corte FROM inventario_periodo;
    IF v_corte IS NOT NULL AND now() <= v_corte THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
        DETAIL = to_char(v_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    END IF;
    v_mat := NULL;
    FOR i IN 1 .. cardinality(v_origenes) LOOP
      IF v_mats[i] IS DISTINCT FROM v_mat THEN
        v_mat := v_mats[i];
        j := j + 1;
        v_cant := v_q0[j];
        v_prom := v_c0[j];
      END IF;
      v_prom := CASE WHEN v_cant <= 0 THEN v_costos[i]
                     ELSE round((v_cant * v_prom + v_cants[i] * v_costos[i]) / (v_cant + v_cants[i]), 6) END;
      v_cant := v_cant + v_cants[i];
      v_saldos[i] := v_cant;
      v_promedios[i] := v_prom;
    END LOOP;
    WITH m AS (
      INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                     saldo_cantidad, saldo_costo, origen, id_origen, id_documento,
                                     fec, id_usuario)
      SELECT u.id_mat_prima, 'reverso_consumo', u.cantidad, u.costo, round(u.cantidad * u.costo, 4),
             u.saldo, u.promedio, 'consumo', u.id_origen, p_id_comanda, now(), p_id_usuario
        FROM unnest(v_origenes, v_mats, v_cants, v_costos, v_saldos, v_promedios) WITH ORDINALITY
             AS u(id_origen, id_mat_prima, cantidad, costo, saldo, promedio, orden)
       ORDER BY u.orden
      RETURNING id_movimiento, id_mat_prima, cantidad, valor, saldo_costo)
    UPDATE stock_saldos s
       SET cantidad = s.cantidad + a.cantidad, valor = s.valor + a.valor, costo_promedio = a.promedio,
           movimientos = s.movimientos + a.n, updated_at = now()
      FROM (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n,
                   (array_agg(saldo_costo ORDER BY id_movimiento DESC))[1] AS promedio
              FROM m GROUP BY id_mat_prima) a
     WHERE s.id_mat_prima = a.id_mat_prima;
    RETURN cardinality(v_origenes);
  END;
$fn$;
