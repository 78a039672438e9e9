CREATE OR REPLACE FUNCTION save_compra(p_data jsonb)
RETURNS jsonb
LANGUAGE plpgsql
AS $fn$
  -- Creates or updates a purchase with its lines, atomically; returns {id_compra, total}.
  --
  -- Business rules:
  -- - id_compra null inserts; otherwise that purchase is updated (unknown: P0002), its row
  --   locked so two concurrent saves of one purchase apply one after the other.
  -- - id_proveedor is required (22023); an unknown supplier gives 23503.
  -- - fec_compra (timestamptz; an ISO text without offset is read in the session time zone):
  --   on insert null means now(); on update null keeps the current date.
  -- - observacion is saved as sent (a blank text is stored as NULL, null clears it): the body
  --   is the whole purchase document, as read by get_compra.
  -- - detalles is the WHOLE list of lines (replaced on update; not an array or null = no
  --   lines, total 0). A line is {id_producto, cantidad, costo_unitario} or
  --   {id_mat_prima, cantidad, costo_unitario}: exactly one of the two ids, else 22023 naming
  --   the line's 0-based index. cantidad > 0 and costo_unitario >= 0 (23514), both required
  --   (23502); unknown ids give 23503. The same product may appear on two lines (bought at two
  --   prices).
  -- - total = sum of the generated line subtotals round(cantidad * costo_unitario, 2);
  --   updated_at is set on every update.
  DECLARE
    v_id        integer;
    v_proveedor integer;
    v_fecha     timestamptz;
    v_detalles  jsonb;
    v_indice    bigint;
    v_total     numeric(12,2);
  BEGIN
    IF jsonb_typeof(p_data) IS DISTINCT FROM 'object' THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'save_compra espera un objeto JSON';
    END IF;

    v_id := (p_data ->> 'id_compra')::integer;
    v_proveedor := (p_data ->> 'id_proveedor')::integer;
    v_fecha := (p_data ->> 'fec_compra')::timestamptz;
    IF v_proveedor IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'id_proveedor es obligatorio';
    END IF;

    v_detalles := CASE WHEN jsonb_typeof(p_data -> 'detalles') = 'array'
                       THEN p_data -> 'detalles' ELSE '[]'::jsonb END;

    SELECT min(e.ord) - 1 INTO v_indice
      FROM jsonb_array_elements(v_detalles) WITH ORDINALITY AS e(linea, ord)
     WHERE jsonb_typeof(e.linea) IS DISTINCT FROM 'object'
        OR ((e.linea ->> 'id_producto') IS NULL) = ((e.linea ->> 'id_mat_prima') IS NULL);
    IF v_indice IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('detalles[%s]: indique id_producto o id_mat_prima (exactamente uno)',
                         v_indice);
    END IF;

    IF v_id IS NULL THEN
      INSERT INTO compras (id_proveedor, fec_compra, observacion)
      VALUES (v_proveedor, coalesce(v_fecha, now()), nullif(btrim(p_data ->> 'observacion'), ''))
      RETURNING id_compra INTO v_id;
    ELSE
      UPDATE compras
         SET id_proveedor = v_proveedor,
             fec_compra = coalesce(v_fecha, fec_compra),
             observacion = nullif(btrim(p_data ->> 'observacion'), ''),
             updated_at = now()
       WHERE id_compra = v_id;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0002',
          MESSAGE = format('compra %s no existe', v_id);
      END IF;
      DELETE FROM deta_comp_producto WHERE id_compra = v_id;
      DELETE FROM deta_comp_materias WHERE id_compra = v_id;
    END IF;

    INSERT INTO deta_comp_producto (id_compra, id_producto, cantidad, costo_unitario)
    SELECT v_id, (e.linea ->> 'id_producto')::integer, (e.linea ->> 'cantidad')::numeric,
           (e.linea ->> 'costo_unitario')::numeric
      FROM jsonb_array_elements(v_detalles) WITH ORDINALITY AS e(linea, ord)
     WHERE (e.linea ->> 'id_producto') IS NOT NULL
     ORDER BY e.ord;

    INSERT INTO deta_comp_materias (id_compra, id_mat_prima, cantidad, costo_unitario)
    SELECT v_id, (e.linea ->> 'id_mat_prima')::integer, (e.linea ->> 'cantidad')::numeric,
           (e.linea ->> 'costo_unitario')::numeric
      FROM jsonb_array_elements(v_detalles) WITH ORDINALITY AS e(linea, ord)
     WHERE (e.linea ->> 'id_mat_prima') IS NOT NULL
     ORDER BY e.ord;

    SELECT coalesce(sum(l.subtotal), 0) INTO v_total
      FROM (SELECT subtotal FROM deta_comp_producto WHERE id_compra = v_id
            UNION ALL
            SELECT subtotal FROM deta_comp_materias WHERE id_compra = v_id) AS l;
    UPDATE compras SET total = v_total WHERE id_compra = v_id;

    RETURN jsonb_build_object('id_compra', v_id, 'total', v_total);
  END;
$fn$;

COMMENT ON FUNCTION save_compra(jsonb) IS
  'RPC save_compra: upsert a purchase, replace its lines, total = sum of generated subtotals; returns {id_compra, total}';
