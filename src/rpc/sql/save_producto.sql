CREATE OR REPLACE FUNCTION save_producto(p_data jsonb)
RETURNS jsonb
LANGUAGE plpgsql
AS $fn$
  -- Creates or updates a product and REPLACES its recipe, atomically.
  --
  -- Business rules:
  -- - id_producto null inserts a product; otherwise that product is updated (unknown: P0002).
  -- - nombre is required (missing or blank: 22023); it is stored trimmed and is unique
  --   (a second "Ceviche" gives 23505 uq_productos_nombre).
  -- - precio defaults to 0 and activo to true when null (the route's defaults); precio < 0
  --   gives 23514. An unknown id_categoria gives 23503.
  -- - receta is the WHOLE recipe: the old lines are deleted and these inserted, so saving
  --   twice never duplicates lines. Not an array (or null) means "no recipe". Each line is
  --   {id_mat_prima, cantidad}: a line that is not an object or has no id_mat_prima, or the
  --   same id_mat_prima twice, gives 22023; cantidad must be > 0 (23514), an unknown material
  --   gives 23503.
  -- - updated_at is set on every update.
  DECLARE
    v_id       integer;
    v_nombre   text;
    v_receta   jsonb;
    v_indice   bigint;
    v_repetido integer;
  BEGIN
    IF jsonb_typeof(p_data) IS DISTINCT FROM 'object' THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'save_producto espera un objeto JSON';
    END IF;

    v_id := (p_data ->> 'id_producto')::integer;
    v_nombre := nullif(btrim(p_data ->> 'nombre'), '');
    IF v_nombre IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'nombre es obligatorio';
    END IF;

    v_receta := CASE WHEN jsonb_typeof(p_data -> 'receta') = 'array'
                     THEN p_data -> 'receta' ELSE '[]'::jsonb END;

    SELECT min(e.ord) - 1 INTO v_indice
      FROM jsonb_array_elements(v_receta) WITH ORDINALITY AS e(linea, ord)
     WHERE jsonb_typeof(e.linea) IS DISTINCT FROM 'object'
        OR (e.linea ->> 'id_mat_prima') IS NULL;
    IF v_indice IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('receta[%s]: se espera {id_mat_prima, cantidad}', v_indice);
    END IF;

    SELECT (e.linea ->> 'id_mat_prima')::integer INTO v_repetido
      FROM jsonb_array_elements(v_receta) AS e(linea)
     GROUP BY 1
    HAVING count(*) > 1
     ORDER BY 1
     LIMIT 1;
    IF v_repetido IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('receta: la materia prima %s aparece más de una vez', v_repetido);
    END IF;

    IF v_id IS NULL THEN
      INSERT INTO productos (nombre, img_producto, precio, activo, id_categoria)
      VALUES (v_nombre,
              nullif(btrim(p_data ->> 'img_producto'), ''),
              coalesce((p_data ->> 'precio')::numeric, 0),
              coalesce((p_data ->> 'activo')::boolean, true),
              (p_data ->> 'id_categoria')::integer)
      RETURNING id_producto INTO v_id;
    ELSE
      UPDATE productos
         SET nombre = v_nombre,
             img_producto = nullif(btrim(p_data ->> 'img_producto'), ''),
             precio = coalesce((p_data ->> 'precio')::numeric, 0),
             activo = coalesce((p_data ->> 'activo')::boolean, true),
             id_categoria = (p_data ->> 'id_categoria')::integer,
             updated_at = now()
       WHERE id_producto = v_id;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0002',
          MESSAGE = format('producto %s no existe', v_id);
      END IF;
      DELETE FROM receta_producto WHERE id_producto = v_id;
    END IF;

    INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad)
    SELECT v_id, (e.linea ->> 'id_mat_prima')::integer, (e.linea ->> 'cantidad')::numeric
      FROM jsonb_array_elements(v_receta) AS e(linea);

    RETURN jsonb_build_object('id_producto', v_id);
  END;
$fn$;

COMMENT ON FUNCTION save_producto(jsonb) IS
  'RPC save_producto: upsert a product and replace its recipe atomically; returns {id_producto}';
