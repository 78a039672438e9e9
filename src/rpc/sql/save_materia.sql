CREATE OR REPLACE FUNCTION save_materia(p_data jsonb)
RETURNS jsonb
LANGUAGE plpgsql
AS $fn$
  -- Creates or updates a raw material and REPLACES its supplier list, atomically.
  --
  -- Business rules:
  -- - id_mat_prima null inserts; otherwise that material is updated (unknown: P0002).
  -- - nombre and unidad are required (missing or blank: 22023); nombre is stored trimmed and
  --   is unique (23505); unidad must be kg, g, l, ml or unidad (23514 ck_mate_primas_unidad).
  -- - activo defaults to true when null.
  -- - proveedores is the WHOLE supplier list of this material: [{id_proveedor, precio}],
  --   precio optional (null = not agreed, < 0 gives 23514). Not an array (or null) means
  --   "no supplier". A line without id_proveedor or the same supplier twice gives 22023; an
  --   unknown supplier gives 23503.
  DECLARE
    v_id       integer;
    v_nombre   text;
    v_unidad   text;
    v_lista    jsonb;
    v_indice   bigint;
    v_repetido integer;
  BEGIN
    IF jsonb_typeof(p_data) IS DISTINCT FROM 'object' THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'save_materia espera un objeto JSON';
    END IF;

    v_id := (p_data ->> 'id_mat_prima')::integer;
    v_nombre := nullif(btrim(p_data ->> 'nombre'), '');
    v_unidad := nullif(btrim(p_data ->> 'unidad'), '');
    IF v_nombre IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'nombre es obligatorio';
    END IF;
    IF v_unidad IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'unidad es obligatoria',
        HINT = 'kg, g, l, ml o unidad';
    END IF;

    v_lista := CASE WHEN jsonb_typeof(p_data -> 'proveedores') = 'array'
                    THEN p_data -> 'proveedores' ELSE '[]'::jsonb END;

    SELECT min(e.ord) - 1 INTO v_indice
      FROM jsonb_array_elements(v_lista) WITH ORDINALITY AS e(linea, ord)
     WHERE jsonb_typeof(e.linea) IS DISTINCT FROM 'object'
        OR (e.linea ->> 'id_proveedor') IS NULL;
    IF v_indice IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('proveedores[%s]: se espera {id_proveedor, precio}', v_indice);
    END IF;

    SELECT (e.linea ->> 'id_proveedor')::integer INTO v_repetido
      FROM jsonb_array_elements(v_lista) AS e(linea)
     GROUP BY 1
    HAVING count(*) > 1
     ORDER BY 1
     LIMIT 1;
    IF v_repetido IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('proveedores: el proveedor %s aparece más de una vez', v_repetido);
    END IF;

    IF v_id IS NULL THEN
      INSERT INTO mate_primas (nombre, unidad, activo)
      VALUES (v_nombre, v_unidad, coalesce((p_data ->> 'activo')::boolean, true))
      RETURNING id_mat_prima INTO v_id;
    ELSE
      UPDATE mate_primas
         SET nombre = v_nombre,
             unidad = v_unidad,
             activo = coalesce((p_data ->> 'activo')::boolean, true)
       WHERE id_mat_prima = v_id;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0002',
          MESSAGE = format('materia prima %s no existe', v_id);
      END IF;
      DELETE FROM prov_mate_prima WHERE id_mat_prima = v_id;
    END IF;

    INSERT INTO prov_mate_prima (id_proveedor, id_mat_prima, precio)
    SELECT (e.linea ->> 'id_proveedor')::integer, v_id, (e.linea ->> 'precio')::numeric
      FROM jsonb_array_elements(v_lista) AS e(linea);

    RETURN jsonb_build_object('id_mat_prima', v_id);
  END;
$fn$;

COMMENT ON FUNCTION save_materia(jsonb) IS
  'RPC save_materia: upsert a raw material and replace its supplier list atomically; returns {id_mat_prima}';
