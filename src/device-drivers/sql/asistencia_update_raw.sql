CREATE OR REPLACE FUNCTION asistencia_update_raw(
  p_id_raw bigint, p_fecha date, p_hora text, p_modo text)
RETURNS jsonb
LANGUAGE plpgsql
AS $fn$
  -- Corrects one raw punch (date, time, mode) by hand and re-pairs both its old and its new
  -- work day; returns {ok: true, id_raw, dias_recalculados}.
  --
  -- Business rules:
  -- - unknown id_raw: P0002; fecha required, hora HH:MM:SS or HH:MM, modo entrada | salida or
  --   null / "" for "no mode" (alternate): otherwise 22023.
  -- - moving it onto another punch of the same person (same fecha and hora) gives 23505
  --   uq_asistencia_detalle_marca.
  -- - payroll audit: the first edit keeps the clock's reading in datos.original
  --   ({fecha, hora, modo}); every edit sets datos.editado_en. The other datos stay.
  DECLARE
    v_corte      time(0) := asistencia_hora_corte();
    v_hora       time(0) := asistencia_leer_hora(btrim(p_hora));
    v_modo       text := lower(nullif(btrim(p_modo), ''));
    v_id_usuario integer;
    v_marca      asistencia_detalle%ROWTYPE;
    v_dia_antes  date;
    v_dia_nuevo  date;
    v_dias       integer;
  BEGIN
    IF p_id_raw IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'id_raw es obligatorio';
    END IF;
    IF p_fecha IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'fecha es obligatoria (AAAA-MM-DD)';
    END IF;
    IF v_hora IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('hora inválida %L (se espera HH:MM:SS o HH:MM)', p_hora);
    END IF;
    IF v_modo IS NOT NULL AND v_modo NOT IN ('entrada', 'salida') THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('modo inválido %L (se espera entrada, salida o null)', p_modo);
    END IF;

    SELECT id_usuario INTO v_id_usuario FROM asistencia_detalle WHERE id_raw = p_id_raw;
    IF FOUND THEN
      PERFORM asistencia_bloquear(v_id_usuario);
      SELECT * INTO v_marca FROM asistencia_detalle WHERE id_raw = p_id_raw FOR UPDATE;
    END IF;
    IF v_marca.id_raw IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'P0002', MESSAGE = format('marca %s no existe', p_id_raw);
    END IF;

    UPDATE asistencia_detalle
       SET fecha = p_fecha,
           hora = v_hora,
           modo = v_modo,
           datos = CASE WHEN datos ? 'original' THEN datos
                        ELSE datos || jsonb_build_object('original', jsonb_build_object(
                               'fecha', fecha, 'hora', hora, 'modo', modo)) END
                   || jsonb_build_object('editado_en', now())
     WHERE id_raw = p_id_raw;

    -- The old day first: it releases the punch before the new day pairs it.
    v_dia_antes := asistencia_fecha_trabajo(v_marca.fecha, v_marca.hora, v_corte);
    v_dia_nuevo := asistencia_fecha_trabajo(p_fecha, v_hora, v_corte);
    v_dias := asistencia_recalcular(v_marca.id_usuario, v_dia_antes, v_dia_antes);
    IF v_dia_nuevo <> v_dia_antes THEN
      v_dias := v_dias + asistencia_recalcular(v_marca.id_usuario, v_dia_nuevo, v_dia_nuevo);
    END IF;

    RETURN jsonb_build_object('ok', true, 'id_raw', p_id_raw, 'dias_recalculados', v_dias);
  END;
$fn$;

COMMENT ON FUNCTION asistencia_update_raw(bigint, date, text, text) IS
  'RPC asistencia_update_raw: correct one raw punch and re-pair its old and new work days';
