CREATE OR REPLACE FUNCTION asistencia_get(p_doc text, p_desde date, p_hasta date)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- One person's attendance for the work days p_desde..p_hasta (inclusive), everything in
  -- time order: usuario, the raw punches (marcas, with their work day; near-duplicates
  -- included, they are raw data), the paired intervals and the daily summaries. The range is
  -- of WORK days: the 01:30 out-punch of the last day's night shift is included.
  -- An unknown document gives usuario null and empty lists. desde/hasta are required (22023).
  DECLARE
    v_corte   time(0) := asistencia_hora_corte();
    v_usuario usuarios%ROWTYPE;
  BEGIN
    IF p_desde IS NULL OR p_hasta IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'desde y hasta son obligatorios (AAAA-MM-DD)';
    END IF;

    SELECT * INTO v_usuario FROM usuarios WHERE documento = btrim(p_doc);
    IF NOT FOUND THEN
      RETURN jsonb_build_object('usuario', NULL, 'marcas', '[]'::jsonb,
                                'intervalos', '[]'::jsonb, 'resumen', '[]'::jsonb);
    END IF;

    RETURN jsonb_build_object(
      'usuario', jsonb_build_object(
        'id_usuario', v_usuario.id_usuario,
        'documento', v_usuario.documento,
        'nombre', v_usuario.nombre,
        'apellido', v_usuario.apellido),
      'marcas', coalesce((
        SELECT jsonb_agg(jsonb_build_object(
                 'id_raw', d.id_raw,
                 'fecha', d.fecha,
                 'hora', d.hora,
                 'modo', d.modo,
                 'origen', d.origen,
                 'datos', d.datos,
                 'fecha_trabajo', asistencia_fecha_trabajo(d.fecha, d.hora, v_corte)
               ) ORDER BY d.fecha, d.hora)
          FROM asistencia_detalle d
         WHERE d.id_usuario = v_usuario.id_usuario
           AND d.fecha BETWEEN p_desde AND p_hasta + 1
           AND asistencia_fecha_trabajo(d.fecha, d.hora, v_corte) BETWEEN p_desde AND p_hasta
      ), '[]'::jsonb),
      'intervalos', coalesce((
        SELECT jsonb_agg(jsonb_build_object(
                 'id_intervalo', i.id_intervalo,
                 'fecha_trabajo', i.fecha_trabajo,
                 'entrada', i.entrada,
                 'salida', i.salida,
                 'minutos', i.minutos
               ) ORDER BY i.entrada, i.id_intervalo)
          FROM asistencia_intervalo i
         WHERE i.id_usuario = v_usuario.id_usuario
           AND i.fecha_trabajo BETWEEN p_desde AND p_hasta
      ), '[]'::jsonb),
      'resumen', coalesce((
        SELECT jsonb_agg(jsonb_build_object(
                 'fecha_trabajo', r.fecha_trabajo,
                 'minutos', r.minutos,
                 'intervalos', r.intervalos,
                 'marcas', r.marcas,
                 'incompleto', r.incompleto
               ) ORDER BY r.fecha_trabajo)
          FROM asistencia_resumen_diario r
         WHERE r.id_usuario = v_usuario.id_usuario
           AND r.fecha_trabajo BETWEEN p_desde AND p_hasta
      ), '[]'::jsonb)
    );
  END;
$fn$;

COMMENT ON FUNCTION asistencia_get(text, date, date) IS
  'RPC asistencia_get: one person''s raw punches, intervals and daily summaries for a range of work days';
