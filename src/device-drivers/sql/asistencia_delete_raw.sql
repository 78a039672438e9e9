CREATE OR REPLACE FUNCTION asistencia_delete_raw(p_id_raw bigint)
RETURNS jsonb
LANGUAGE plpgsql
AS $fn$
  -- Deletes one raw punch (a stray or test punch) and re-pairs its work day; returns
  -- {ok: true, id_raw, dias_recalculados}. Unknown id_raw: P0002.
  DECLARE
    v_id_usuario integer;
    v_marca      asistencia_detalle%ROWTYPE;
    v_dia        date;
  BEGIN
    IF p_id_raw IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'id_raw es obligatorio';
    END IF;

    SELECT id_usuario INTO v_id_usuario FROM asistencia_detalle WHERE id_raw = p_id_raw;
    IF FOUND THEN
      PERFORM asistencia_bloquear(v_id_usuario);
      DELETE FROM asistencia_detalle WHERE id_raw = p_id_raw RETURNING * INTO v_marca;
    END IF;
    IF v_marca.id_raw IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'P0002', MESSAGE = format('marca %s no existe', p_id_raw);
    END IF;

    v_dia := asistencia_fecha_trabajo(v_marca.fecha, v_marca.hora, asistencia_hora_corte());
    RETURN jsonb_build_object(
      'ok', true,
      'id_raw', p_id_raw,
      'dias_recalculados', asistencia_recalcular(v_marca.id_usuario, v_dia, v_dia));
  END;
$fn$;

COMMENT ON FUNCTION asistencia_delete_raw(bigint) IS
  'RPC asistencia_delete_raw: delete one raw punch and re-pair its work day';
