import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Store functions of the purchase RPC routes (docs/rpc.md): save, read for editing and delete a
 * purchase (`compras`) with its two kinds of lines (`deta_comp_producto` for resold products,
 * `deta_comp_materias` for raw materials).
 *
 * The line subtotals are generated columns and the header total is their sum, computed here
 * by the database: a client never sends a subtotal or a total (docs/rpc.md).
 */
export class StoreFunctionsCompras1764200000001 implements MigrationInterface {
  name = 'StoreFunctionsCompras1764200000001';

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

const SAVE_COMPRA = `
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
`;

const GET_COMPRA = `
  CREATE OR REPLACE FUNCTION get_compra(p_id_compra integer)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  AS $fn$
    -- A purchase for editing: header with the supplier's name, then its lines, product lines
    -- first, each kind in entry order. A line has tipo 'producto' (with id_producto) or
    -- 'materia' (with id_mat_prima), the item's name, cantidad, costo_unitario and the
    -- generated subtotal. NULL when the purchase does not exist.
    SELECT jsonb_build_object(
             'id_compra', c.id_compra,
             'id_proveedor', c.id_proveedor,
             'razon_social', p.razon_social,
             'fec_compra', c.fec_compra,
             'total', c.total,
             'observacion', c.observacion,
             'detalles', coalesce((
               SELECT jsonb_agg(l.linea ORDER BY l.orden, l.id)
                 FROM (SELECT 1 AS orden, d.id_deta_comp_producto AS id,
                              jsonb_build_object(
                                'tipo', 'producto',
                                'id_producto', d.id_producto,
                                'nombre', pr.nombre,
                                'cantidad', d.cantidad,
                                'costo_unitario', d.costo_unitario,
                                'subtotal', d.subtotal) AS linea
                         FROM deta_comp_producto d
                         JOIN productos pr ON pr.id_producto = d.id_producto
                        WHERE d.id_compra = c.id_compra
                       UNION ALL
                       SELECT 2, d.id_deta_comp_materia,
                              jsonb_build_object(
                                'tipo', 'materia',
                                'id_mat_prima', d.id_mat_prima,
                                'nombre', m.nombre,
                                'cantidad', d.cantidad,
                                'costo_unitario', d.costo_unitario,
                                'subtotal', d.subtotal)
                         FROM deta_comp_materias d
                         JOIN mate_primas m ON m.id_mat_prima = d.id_mat_prima
                        WHERE d.id_compra = c.id_compra) AS l
             ), '[]'::jsonb)
           )
      FROM compras c
      JOIN proveedores p ON p.id_proveedor = c.id_proveedor
     WHERE c.id_compra = p_id_compra;
  $fn$;
  COMMENT ON FUNCTION get_compra(integer) IS
    'RPC get_compra: purchase with supplier name and its product and raw-material lines; NULL when unknown';
`;

const DELETE_COMPRA = `
  CREATE OR REPLACE FUNCTION delete_compra(p_id_compra integer)
  RETURNS jsonb
  LANGUAGE plpgsql
  AS $fn$
    -- Deletes a purchase for good, with its lines (ON DELETE CASCADE): purchases are not
    -- logically deleted (only comandas are). Unknown id: P0002.
    BEGIN
      IF p_id_compra IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'id_compra es obligatorio';
      END IF;
      DELETE FROM compras WHERE id_compra = p_id_compra;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0002',
          MESSAGE = format('compra %s no existe', p_id_compra);
      END IF;
      RETURN jsonb_build_object('ok', true);
    END;
  $fn$;
  COMMENT ON FUNCTION delete_compra(integer) IS
    'RPC delete_compra: delete a purchase and its lines; returns {ok: true}';
`;

const UP: readonly string[] = [SAVE_COMPRA, GET_COMPRA, DELETE_COMPRA];

/** Exact reverse of UP. */
const DOWN: readonly string[] = [
  'DROP FUNCTION delete_compra(integer)',
  'DROP FUNCTION get_compra(integer)',
  'DROP FUNCTION save_compra(jsonb)',
];
