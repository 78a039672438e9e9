-- A split moved p_cantidad of line p_origen onto the new line p_nueva. The new line takes
-- min(p_cantidad, sent of p_origen) of what was sent, from the origin's ticket lines, latest
-- tickets first (those rows decrease, rows of p_nueva are added to the same tickets): each
-- line's sent quantity stays conserved and no ticket is created. Answers the tickets touched.
CREATE OR REPLACE FUNCTION cocina_dividir_linea(p_origen bigint, p_nueva bigint, p_cantidad numeric)
RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  v_resto numeric;
  v_toma numeric;
  v_ids bigint[] := '{}';
  r record;
BEGIN
  SELECT least(p_cantidad, coalesce(sum(cantidad), 0)) INTO v_resto
    FROM envio_lineas WHERE id_item = p_origen;
  FOR r IN SELECT id_envio, id_producto, cantidad FROM envio_lineas
            WHERE id_item = p_origen AND cantidad > 0
            ORDER BY id_envio DESC
  LOOP
    EXIT WHEN v_resto <= 0;
    v_toma := least(r.cantidad, v_resto);
    IF v_toma = r.cantidad THEN
      -- a ticket line is never 0: the whole row moves to the new line
      DELETE FROM envio_lineas WHERE id_envio = r.id_envio AND id_item = p_origen;
    ELSE
      UPDATE envio_lineas SET cantidad = cantidad - v_toma
       WHERE id_envio = r.id_envio AND id_item = p_origen;
    END IF;
    INSERT INTO envio_lineas (id_envio, id_item, id_producto, cantidad)
    VALUES (r.id_envio, p_nueva, r.id_producto, v_toma);
    v_resto := v_resto - v_toma;
    v_ids := v_ids || r.id_envio;
  END LOOP;
  RETURN v_ids;
END
$$;
