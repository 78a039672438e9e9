import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Store functions of the catalog RPC routes (docs/rpc.md): products with their recipe, raw
 * materials with their suppliers, and the staff lookup by document number.
 *
 * Common rules (docs/rpc.md):
 * - every function returns jsonb: money and quantities as JSON numbers, NULL when a get_*
 *   finds nothing (the HTTP layer answers `{}`);
 * - a save_* is an upsert: `id_*` null inserts, otherwise updates that row (unknown id: P0002),
 *   and the child list (recipe, suppliers) is REPLACED, never appended, in the same transaction;
 * - bad input raises 22023 (invalid_parameter_value) naming the field; constraint violations
 *   (23502, 23503, 23505, 23514) surface as they are, naming their constraint.
 */
export class StoreFunctionsCatalog1764200000000 implements MigrationInterface {
  name = 'StoreFunctionsCatalog1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of UP) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) {
      await queryRunner.query(statement);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Products and recipes
// ---------------------------------------------------------------------------------------------

const GET_PRODUCTO = `
  CREATE OR REPLACE FUNCTION get_producto(p_id_producto integer)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  AS $fn$
    -- A product with its category name and its recipe (raw materials ordered by name, [] when
    -- the product has no recipe). NULL when the product does not exist.
    SELECT jsonb_build_object(
             'id_producto', p.id_producto,
             'nombre', p.nombre,
             'img_producto', p.img_producto,
             'precio', p.precio,
             'activo', p.activo,
             'id_categoria', p.id_categoria,
             'categoria', c.nombre,
             'receta', coalesce((
               SELECT jsonb_agg(jsonb_build_object(
                        'id_mat_prima', m.id_mat_prima,
                        'nombre', m.nombre,
                        'unidad', m.unidad,
                        'cantidad', r.cantidad
                      ) ORDER BY m.nombre, m.id_mat_prima)
                 FROM receta_producto r
                 JOIN mate_primas m ON m.id_mat_prima = r.id_mat_prima
                WHERE r.id_producto = p.id_producto
             ), '[]'::jsonb)
           )
      FROM productos p
      LEFT JOIN categorias c ON c.id_categoria = p.id_categoria
     WHERE p.id_producto = p_id_producto;
  $fn$;
  COMMENT ON FUNCTION get_producto(integer) IS
    'RPC get_producto: product with category name and recipe ordered by material name; NULL when unknown';
`;

const SAVE_PRODUCTO = `
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
`;

// ---------------------------------------------------------------------------------------------
// Raw materials and their suppliers
// ---------------------------------------------------------------------------------------------

const GET_MATERIA = `
  CREATE OR REPLACE FUNCTION get_materia(p_id_mat_prima integer)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  AS $fn$
    -- A raw material with the suppliers that sell it and their agreed price per unidad (null
    -- when not agreed), ordered by supplier name; [] when none. NULL when it does not exist.
    SELECT jsonb_build_object(
             'id_mat_prima', m.id_mat_prima,
             'nombre', m.nombre,
             'unidad', m.unidad,
             'activo', m.activo,
             'proveedores', coalesce((
               SELECT jsonb_agg(jsonb_build_object(
                        'id_proveedor', p.id_proveedor,
                        'razon_social', p.razon_social,
                        'precio', pm.precio
                      ) ORDER BY p.razon_social, p.id_proveedor)
                 FROM prov_mate_prima pm
                 JOIN proveedores p ON p.id_proveedor = pm.id_proveedor
                WHERE pm.id_mat_prima = m.id_mat_prima
             ), '[]'::jsonb)
           )
      FROM mate_primas m
     WHERE m.id_mat_prima = p_id_mat_prima;
  $fn$;
  COMMENT ON FUNCTION get_materia(integer) IS
    'RPC get_materia: raw material with its suppliers and agreed prices; NULL when unknown';
`;

const SAVE_MATERIA = `
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
`;

// ---------------------------------------------------------------------------------------------
// Staff lookup
// ---------------------------------------------------------------------------------------------

const FIND_USUARIOS_POR_DOCUMENTOS = `
  CREATE OR REPLACE FUNCTION find_usuarios_por_documentos(p_docs text[])
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  AS $fn$
    -- Staff members by document number (DNI, also the attendance-clock PIN), as an object
    -- keyed by documento: {"40000001": {id_usuario, documento, nombre, apellido, activo,
    -- roles: [role names, sorted]}}. Inactive staff are included (activo tells). Documents are
    -- compared trimmed; unknown ones are simply absent; an empty or null array gives {}.
    SELECT coalesce(jsonb_object_agg(u.documento, jsonb_build_object(
             'id_usuario', u.id_usuario,
             'documento', u.documento,
             'nombre', u.nombre,
             'apellido', u.apellido,
             'activo', u.activo,
             'roles', coalesce((
               SELECT jsonb_agg(r.nombre ORDER BY r.nombre)
                 FROM usua_roles ur
                 JOIN roles r ON r.id_rol = ur.id_rol
                WHERE ur.id_usuario = u.id_usuario
             ), '[]'::jsonb)
           )), '{}'::jsonb)
      FROM usuarios u
     WHERE u.documento IN (SELECT btrim(d) FROM unnest(p_docs) AS d);
  $fn$;
  COMMENT ON FUNCTION find_usuarios_por_documentos(text[]) IS
    'RPC find_usuarios_por_documentos: staff keyed by documento with their role names; unknown documents absent';
`;

const UP: readonly string[] = [
  GET_PRODUCTO,
  SAVE_PRODUCTO,
  GET_MATERIA,
  SAVE_MATERIA,
  FIND_USUARIOS_POR_DOCUMENTOS,
];

/** Exact reverse of UP. */
const DOWN: readonly string[] = [
  'DROP FUNCTION find_usuarios_por_documentos(text[])',
  'DROP FUNCTION save_materia(jsonb)',
  'DROP FUNCTION get_materia(integer)',
  'DROP FUNCTION save_producto(jsonb)',
  'DROP FUNCTION get_producto(integer)',
];
