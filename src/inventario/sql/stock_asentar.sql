CREATE OR REPLACE FUNCTION stock_asentar(
  p_id_mat_prima integer, p_tipo text, p_cantidad numeric, p_costo numeric,
  p_origen text, p_id_origen bigint, p_id_documento bigint, p_fec timestamptz,
  p_id_usuario integer, p_motivo text)
RETURNS stock_movimientos
LANGUAGE plpgsql AS $fn$
  -- Posts one movement and keeps the material's balance, under the balance row's lock.
  -- An inflow (cantidad > 0) is valued at p_costo (null: the average) and sets the average to
  -- (q0*c0 + q*c)/(q0 + q), or to c when q0 <= 0; an outflow is valued at the average, which
  -- it leaves as it is. A movement dated at or before the last applied count's cut-off (the
  -- closed period includes its cut-off: the count's sistema and the periods of the reports
  -- count a movement dated there) raises P0001 PERIODO_CERRADO (DETAIL: the cut-off).
  DECLARE
    s        stock_saldos;
    v_corte  timestamptz;
    v_costo  numeric(14,6);
    v_cant   numeric(14,4) := round(p_cantidad, 4);
    v_prom   numeric(14,6);
    m        stock_movimientos;
  BEGIN
    INSERT INTO stock_saldos (id_mat_prima) VALUES (p_id_mat_prima) ON CONFLICT DO NOTHING;
    SELECT * INTO s FROM stock_saldos WHERE id_mat_prima = p_id_mat_prima FOR UPDATE;
    -- read after the lock: a count applied meanwhile is seen
    SELECT cerrado_hasta INTO v_corte FROM inventario_periodo;
    IF v_corte IS NOT NULL AND p_fec <= v_corte THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
        DETAIL = to_char(v_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    END IF;
    IF v_cant = 0 THEN
      RETURN NULL;
    END IF;
    IF v_cant > 0 THEN
      v_costo := coalesce(p_costo, s.costo_promedio);
      v_prom := CASE WHEN s.cantidad <= 0 THEN v_costo
                     ELSE round((s.cantidad * s.costo_promedio + v_cant * v_costo) / (s.cantidad + v_cant), 6) END;
    ELSE
      v_costo := s.costo_promedio;
      v_prom := s.costo_promedio;
    END IF;
    INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                   saldo_cantidad, saldo_costo, origen, id_origen, id_documento,
                                   fec, id_usuario, motivo)
    VALUES (p_id_mat_prima, p_tipo, v_cant, v_costo, round(v_cant * v_costo, 4),
            s.cantidad + v_cant, v_prom, p_origen, p_id_origen, p_id_documento,
            p_fec, p_id_usuario, p_motivo)
    RETURNING * INTO m;
    UPDATE stock_saldos
       SET cantidad = cantidad + m.cantidad, valor = valor + m.valor, costo_promedio = v_prom,
           movimientos = movimientos + 1, updated_at = now()
     WHERE id_mat_prima = p_id_mat_prima;
    RETURN m;
  END;
$fn$;
