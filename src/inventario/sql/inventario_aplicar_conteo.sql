CREATE OR REPLACE FUNCTION inventario_aplicar_conteo(p_id_conteo bigint, p_id_usuario integer)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- Applies a draft count (the caller holds its row lock and checked it is a draft): every
  -- balance row is locked first (a posting waits, then sees the new cut-off), each line's
  -- system quantity at the cut-off is frozen, an ajuste_conteo of contado - sistema is posted
  -- at the cut-off for each line that differs, and the period closes at the cut-off. A cut-off
  -- at or before the last applied one raises P0001 PERIODO_CERRADO. Answers the movements posted.
  --
  -- The balance rows are created and locked one material at a time, in ascending id order, as
  -- stock_asentar does for a posting: a missing row created first for every material, then the
  -- rows locked, would hold a new row (the table's order is not the ids' once a material is
  -- edited) while waiting on one a posting holds, and the posting, going on to that new row,
  -- would wait on the count: a deadlock.
  DECLARE
    v_corte  timestamptz;
    r        record;
    n        integer := 0;
  BEGIN
    SELECT fec_corte INTO v_corte FROM conteos WHERE id_conteo = p_id_conteo;
    FOR r IN SELECT id_mat_prima FROM mate_primas ORDER BY id_mat_prima LOOP
      INSERT INTO stock_saldos (id_mat_prima) VALUES (r.id_mat_prima) ON CONFLICT DO NOTHING;
      PERFORM 1 FROM stock_saldos WHERE id_mat_prima = r.id_mat_prima FOR UPDATE;
    END LOOP;
    PERFORM 1 FROM inventario_periodo FOR UPDATE;
    UPDATE conteo_lineas l
       SET sistema = coalesce((SELECT sum(m.cantidad) FROM stock_movimientos m
                                WHERE m.id_mat_prima = l.id_mat_prima AND m.fec <= v_corte), 0)
     WHERE l.id_conteo = p_id_conteo;
    FOR r IN
      SELECT id_mat_prima, contado - sistema AS diferencia
        FROM conteo_lineas
       WHERE id_conteo = p_id_conteo AND contado <> sistema
       ORDER BY id_mat_prima
    LOOP
      PERFORM stock_asentar(r.id_mat_prima, 'ajuste_conteo', r.diferencia, NULL, 'conteo',
                            p_id_conteo, p_id_conteo, v_corte, p_id_usuario, NULL);
      n := n + 1;
    END LOOP;
    IF n = 0 THEN
      -- nothing posted: the period check of stock_asentar did not run
      PERFORM 1 FROM inventario_periodo WHERE cerrado_hasta >= v_corte;
      IF FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
          DETAIL = (SELECT to_char(cerrado_hasta AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
                      FROM inventario_periodo);
      END IF;
    END IF;
    UPDATE inventario_periodo SET cerrado_hasta = greatest(cerrado_hasta, v_corte);
    UPDATE conteos SET estado = 'aplicado', fec_aplicacion = now(), id_usuario_aplica = p_id_usuario,
                       updated_at = now()
     WHERE id_conteo = p_id_conteo;
    RETURN n;
  END;
$fn$;
