CREATE OR REPLACE FUNCTION import_asistencia(p_registros jsonb, p_origen text)
RETURNS jsonb
LANGUAGE plpgsql
AS $fn$
  -- Imports raw punches from a clock (file export, push or pull); returns {recibidos,
  -- insertados, duplicados, desconocidos, invalidos, dias_recalculados}.
  --
  -- Business rules:
  -- - a record is {doc, fecha: "YYYY-MM-DD", hora: "HH:MM:SS" or "HH:MM", modo?: "entrada" |
  --   "salida"}; its other fields (device id, verify mode ...) are kept in datos. modo is
  --   case-insensitive; null, "" or absent means "no mode" (alternate in/out).
  -- - p_registros that is not an array counts as []. Nothing stops the import: a malformed
  --   record (not an object, missing or blank doc, bad fecha, bad hora, bad modo) is reported
  --   in invalidos as {indice (0-based), motivo (every problem, "; "-separated)}; a
  --   well-formed record whose doc (usuarios.documento, compared trimmed) is unknown is
  --   reported in desconocidos (each document once, in order of first appearance). Neither
  --   is ever silently dropped.
  -- - idempotent: a punch already stored (same person, fecha, hora), in the database or
  --   earlier in the same import, is not inserted again and counts as duplicado, so the same
  --   file twice inserts nothing the second time (within one import, the first record of a
  --   punch is the one stored). p_origen is stored in every inserted row.
  -- - recibidos = insertados + duplicados + (records of unknown people) + invalidos.
  -- - afterwards, for each person with inserted punches, the work days from the first to the
  --   last inserted one are re-paired (the rules of asistencia_recalcular, every person of
  --   the batch at once); dias_recalculados counts them.
  DECLARE
    v_registros    jsonb := CASE WHEN jsonb_typeof(p_registros) = 'array'
                                 THEN p_registros ELSE '[]'::jsonb END;
    -- well-formed records of known people, column by column (indices: their place in
    -- p_registros)
    v_indices      integer[];
    v_usuarios     integer[];
    v_fechas       date[];
    v_horas        time[];
    v_modos        text[];
    v_datos        jsonb[];
    v_desconocidos text[];     -- documents of the well-formed records of unknown people
    v_invalidos    jsonb;
    v_insertados   integer;
    v_corte            time(0) := asistencia_hora_corte();
    v_ventana          interval := asistencia_ventana_duplicados();
    v_rango_usuarios   integer[];   -- REEMPAREJAR's ranges: person, first and last work day
    v_rango_desde      date[];
    v_rango_hasta      date[];
    v_previos_usuarios integer[];   -- REEMPAREJAR: person-days that had a summary before
    v_previos_dias     date[];
    v_dias             integer := 0;
  BEGIN
    -- Every record checked (every problem listed) and matched to its person, in one pass.
    WITH registros AS MATERIALIZED (
      SELECT (e.ord - 1)::integer AS indice,
             e.registro,
             jsonb_typeof(e.registro) = 'object' AS objeto,
             CASE WHEN jsonb_typeof(e.registro -> 'doc') IN ('string', 'number')
                  THEN nullif(btrim(e.registro ->> 'doc'), '') END AS doc,
             e.registro ->> 'fecha' AS fecha_texto,
             e.registro ->> 'hora' AS hora_texto,
             lower(nullif(btrim(e.registro ->> 'modo'), '')) AS modo
        FROM jsonb_array_elements(v_registros) WITH ORDINALITY AS e(registro, ord)
    ),
    -- each distinct date and time text read once: a clock's batch holds few distinct dates
    fechas AS (
      SELECT t.texto, asistencia_leer_fecha(t.texto) AS fecha
        FROM (SELECT DISTINCT fecha_texto FROM registros) AS t(texto)
    ),
    horas AS (
      SELECT t.texto, asistencia_leer_hora(t.texto) AS hora
        FROM (SELECT DISTINCT hora_texto FROM registros) AS t(texto)
    ),
    revisados AS MATERIALIZED (
      SELECT r.indice,
             r.registro,
             r.doc,
             f.fecha,
             h.hora,
             r.modo,
             CASE WHEN NOT r.objeto THEN 'el registro no es un objeto JSON'
                  ELSE nullif(concat_ws('; ',
                    CASE WHEN r.doc IS NULL THEN 'falta doc' END,
                    CASE WHEN f.fecha IS NOT NULL THEN NULL
                         WHEN r.fecha_texto IS NULL THEN 'falta fecha'
                         ELSE format('fecha inválida %s (se espera AAAA-MM-DD)',
                                     r.registro -> 'fecha') END,
                    CASE WHEN h.hora IS NOT NULL THEN NULL
                         WHEN r.hora_texto IS NULL THEN 'falta hora'
                         ELSE format('hora inválida %s (se espera HH:MM:SS o HH:MM)',
                                     r.registro -> 'hora') END,
                    CASE WHEN r.modo NOT IN ('entrada', 'salida')
                         THEN format('modo inválido %s (se espera entrada o salida)',
                                     r.registro -> 'modo') END
                  ), '') END AS motivo,
             u.id_usuario
        FROM registros r
        LEFT JOIN fechas f ON f.texto = r.fecha_texto
        LEFT JOIN horas h ON h.texto = r.hora_texto
        LEFT JOIN usuarios u ON u.documento = r.doc
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object('indice', v.indice, 'motivo', v.motivo)
                              ORDER BY v.indice) FILTER (WHERE v.motivo IS NOT NULL),
                    '[]'::jsonb),
           coalesce(array_agg(v.doc ORDER BY v.indice)
                      FILTER (WHERE v.motivo IS NULL AND v.id_usuario IS NULL), '{}'),
           coalesce(array_agg(v.indice) FILTER (WHERE v.conocido), '{}'),
           coalesce(array_agg(v.id_usuario) FILTER (WHERE v.conocido), '{}'),
           coalesce(array_agg(v.fecha) FILTER (WHERE v.conocido), '{}'),
           coalesce(array_agg(v.hora) FILTER (WHERE v.conocido), '{}'),
           coalesce(array_agg(v.modo) FILTER (WHERE v.conocido), '{}'),
           coalesce(array_agg(v.registro - '{doc,fecha,hora,modo}'::text[])
                      FILTER (WHERE v.conocido), '{}')
      INTO v_invalidos, v_desconocidos,
           v_indices, v_usuarios, v_fechas, v_horas, v_modos, v_datos
      FROM (SELECT r.*, r.motivo IS NULL AND r.id_usuario IS NOT NULL AS conocido
              FROM revisados r) AS v;

    -- One writer per person at a time, locked in id order (no deadlock between imports).
    PERFORM asistencia_bloquear(u.id_usuario)
       FROM (SELECT DISTINCT t.id_usuario FROM unnest(v_usuarios) AS t(id_usuario)
              ORDER BY t.id_usuario) AS u;

    -- The new punches (of a punch repeated in the batch, its first record), and per person
    -- the range of work days they fall on.
    WITH nuevas AS (
      INSERT INTO asistencia_detalle (id_usuario, fecha, hora, modo, origen, datos)
      SELECT r.id_usuario, r.fecha, r.hora, r.modo, p_origen, r.datos
        FROM unnest(v_indices, v_usuarios, v_fechas, v_horas, v_modos, v_datos)
             AS r(indice, id_usuario, fecha, hora, modo, datos)
       ORDER BY r.id_usuario, r.fecha, r.hora, r.indice
      ON CONFLICT ON CONSTRAINT uq_asistencia_detalle_marca DO NOTHING
      RETURNING id_usuario, asistencia_fecha_trabajo(fecha, hora, v_corte) AS dia
    ),
    rangos AS (
      SELECT n.id_usuario, min(n.dia) AS desde, max(n.dia) AS hasta
        FROM nuevas n
       GROUP BY n.id_usuario
    )
    SELECT (SELECT count(*)::integer FROM nuevas),
           coalesce(array_agg(r.id_usuario ORDER BY r.id_usuario), '{}'),
           coalesce(array_agg(r.desde ORDER BY r.id_usuario), '{}'),
           coalesce(array_agg(r.hasta ORDER BY r.id_usuario), '{}')
      INTO v_insertados, v_rango_usuarios, v_rango_desde, v_rango_hasta
      FROM rangos r;

    IF v_insertados > 0 THEN

    -- 1. Forget the ranges' derived rows: their summaries (remembering which days had one),
    --    their intervals, and a neighbour day's interval that still holds a punch now
    --    belonging to a range (only after asistencia.hora_corte changed). A DELETE in WITH
    --    runs to completion whether it is read or not.
    WITH rangos AS (
      SELECT * FROM unnest(v_rango_usuarios, v_rango_desde, v_rango_hasta)
                    AS r(id_usuario, desde, hasta)
    ),
    resumenes AS (
      DELETE FROM asistencia_resumen_diario s
       USING rangos r
       WHERE s.id_usuario = r.id_usuario AND s.fecha_trabajo BETWEEN r.desde AND r.hasta
      RETURNING s.id_usuario, s.fecha_trabajo
    ),
    intervalos AS (
      DELETE FROM asistencia_intervalo i
       USING rangos r
       WHERE i.id_usuario = r.id_usuario
         AND i.fecha_trabajo BETWEEN r.desde - 1 AND r.hasta + 1
         AND (i.fecha_trabajo BETWEEN r.desde AND r.hasta
              OR EXISTS (
                SELECT 1
                  FROM asistencia_detalle d
                 WHERE d.id_raw IN (i.id_raw_entrada, i.id_raw_salida)
                   AND asistencia_fecha_trabajo(d.fecha, d.hora, v_corte)
                       BETWEEN r.desde AND r.hasta))
    )
    SELECT coalesce(array_agg(id_usuario), '{}'), coalesce(array_agg(fecha_trabajo), '{}')
      INTO v_previos_usuarios, v_previos_dias
      FROM resumenes;

    -- 2. Pair the ranges' punches and summarise their work days.
    WITH RECURSIVE rangos AS (
      SELECT * FROM unnest(v_rango_usuarios, v_rango_desde, v_rango_hasta)
                    AS r(id_usuario, desde, hasta)
    ),
    -- the punches of each person-work day, in time order
    dias AS MATERIALIZED (
      SELECT d.id_usuario,
             asistencia_fecha_trabajo(d.fecha, d.hora, v_corte) AS dia,
             array_agg(d.fecha + d.hora ORDER BY d.fecha, d.hora) AS momentos,
             array_agg(d.modo ORDER BY d.fecha, d.hora) AS modos,
             array_agg(d.id_raw ORDER BY d.fecha, d.hora) AS ids
        FROM rangos r
        JOIN asistencia_detalle d
          ON d.id_usuario = r.id_usuario AND d.fecha BETWEEN r.desde AND r.hasta + 1
       WHERE asistencia_fecha_trabajo(d.fecha, d.hora, v_corte) BETWEEN r.desde AND r.hasta
       GROUP BY d.id_usuario, asistencia_fecha_trabajo(d.fecha, d.hora, v_corte)
    ),
    -- step n of every day at once, on punch n of the day: what it does (accion), the last
    -- kept punch (ultima) and whether an interval is open after it (abierta)
    pasos (id_usuario, dia, n, accion, ultima, abierta, momentos, modos, ids) AS (
      SELECT d.id_usuario, d.dia, 1,
             CASE WHEN d.modos[1] = 'salida' THEN 'huerfana' ELSE 'abre' END,
             d.momentos[1],
             d.modos[1] IS DISTINCT FROM 'salida',
             d.momentos, d.modos, d.ids
        FROM dias d
      UNION ALL
      SELECT p.id_usuario, p.dia, p.n + 1, a.accion,
             CASE WHEN a.accion = 'duplicada' THEN p.ultima ELSE p.momentos[p.n + 1] END,
             CASE a.accion WHEN 'abre' THEN true WHEN 'cierra' THEN false ELSE p.abierta END,
             p.momentos, p.modos, p.ids
        FROM pasos p
       CROSS JOIN LATERAL (
         SELECT CASE
                  -- near-duplicate of the previous kept punch (a double press on the clock)
                  WHEN p.momentos[p.n + 1] - p.ultima < v_ventana THEN 'duplicada'
                  -- entrada, or an unmarked punch with nothing open
                  WHEN p.modos[p.n + 1] = 'entrada'
                       OR (p.modos[p.n + 1] IS NULL AND NOT p.abierta) THEN 'abre'
                  -- salida, or an unmarked punch, closing the open interval
                  WHEN p.abierta THEN 'cierra'
                  -- salida with nothing open: a missing in-punch
                  ELSE 'huerfana'
                END AS accion
       ) AS a
       WHERE p.n < cardinality(p.momentos)
    ),
    -- the kept punches, each with the next kept punch of its day
    conservadas AS (
      SELECT c.*,
             lead(c.accion) OVER dia AS accion_siguiente,
             lead(c.momento) OVER dia AS momento_siguiente,
             lead(c.id_raw) OVER dia AS id_raw_siguiente
        FROM (SELECT p.id_usuario, p.dia, p.n, p.accion,
                     p.momentos[p.n] AS momento, p.ids[p.n] AS id_raw
                FROM pasos p
               WHERE p.accion <> 'duplicada') AS c
      WINDOW dia AS (PARTITION BY c.id_usuario, c.dia ORDER BY c.n)
    ),
    -- an interval per punch that opens one, closed by the next kept punch when that one
    -- closes (else that one is an entrada and this interval stays open)
    intervalos AS (
      INSERT INTO asistencia_intervalo
             (id_usuario, fecha_trabajo, entrada, salida, id_raw_entrada, id_raw_salida)
      SELECT c.id_usuario, c.dia, c.momento,
             CASE WHEN c.accion_siguiente = 'cierra' THEN c.momento_siguiente END,
             c.id_raw,
             CASE WHEN c.accion_siguiente = 'cierra' THEN c.id_raw_siguiente END
        FROM conservadas c
       WHERE c.accion = 'abre'
       ORDER BY c.id_usuario, c.momento
      RETURNING id_intervalo, id_usuario, fecha_trabajo, salida, minutos,
                id_raw_entrada, id_raw_salida
    ),
    -- every work day with punches, and whether one of its salidas paired with nothing
    jornadas AS (
      SELECT id_usuario, dia, bool_or(accion = 'huerfana') AS huerfana
        FROM pasos
       GROUP BY id_usuario, dia
    ),
    resumenes AS (
      INSERT INTO asistencia_resumen_diario
             (id_usuario, fecha_trabajo, minutos, intervalos, marcas, incompleto, updated_at)
      SELECT j.id_usuario,
             j.dia,
             coalesce(sum(i.minutos), 0),
             count(i.id_intervalo),
             count(i.id_raw_entrada) + count(i.id_raw_salida),
             coalesce(bool_or(i.salida IS NULL), false) OR j.huerfana,
             now()
        FROM jornadas j
        LEFT JOIN intervalos i ON i.id_usuario = j.id_usuario AND i.fecha_trabajo = j.dia
       GROUP BY j.id_usuario, j.dia, j.huerfana
      RETURNING id_usuario, fecha_trabajo
    )
    SELECT count(*)::integer INTO v_dias
      FROM (SELECT id_usuario, fecha_trabajo FROM resumenes
            UNION
            SELECT * FROM unnest(v_previos_usuarios, v_previos_dias)) AS t;

    END IF;

    RETURN jsonb_build_object(
      'recibidos', jsonb_array_length(v_registros),
      'insertados', v_insertados,
      'duplicados', cardinality(v_usuarios) - v_insertados,
      'desconocidos', (
        SELECT coalesce(jsonb_agg(d.doc ORDER BY d.primero), '[]'::jsonb)
          FROM (SELECT t.doc, min(t.n) AS primero
                  FROM unnest(v_desconocidos) WITH ORDINALITY AS t(doc, n)
                 GROUP BY t.doc) AS d),
      'invalidos', v_invalidos,
      'dias_recalculados', v_dias
    );
  END;
$fn$;

COMMENT ON FUNCTION import_asistencia(jsonb, text) IS
  'RPC import_asistencia: idempotent import of raw punches, reporting unknown documents and malformed records, then re-pairing';
