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
