CREATE OR REPLACE FUNCTION asistencia_recalcular(p_id_usuario integer, p_desde date, p_hasta date)
RETURNS integer
LANGUAGE plpgsql
AS $fn$
  -- Rebuilds the intervals and daily summaries of one person for the work days
  -- p_desde..p_hasta from the raw punches; returns how many work days were rebuilt (days that
  -- have punches now or had a summary before).
  --
  -- Pairing, per work day, punches in time order (docs/rpc.md, "Pairing rules"):
  -- - work day = asistencia_fecha_trabajo (cut-off asistencia.hora_corte, default 05:00);
  -- - a punch closer than the duplicate window (asistencia.ventana_duplicados_seg, default
  --   60 s) to the previous KEPT punch of the day is ignored (its raw row stays);
  -- - entrada: opens an interval; if one is already open, that one stays open (it lacks its
  --   out-punch) and the new entrada opens the next one;
  -- - salida: closes the open interval; with nothing open (a missing in-punch) it pairs with
  --   nothing and only marks the day incompleto;
  -- - no modo: closes the open interval if there is one, else opens one (alternating);
  -- - an interval still open when its work day ends stays open (salida NULL).
  -- Summary per work day with punches: minutos = sum of the closed intervals, intervalos =
  -- intervals (open ones included), marcas = punches used by the intervals, incompleto = an
  -- interval is open or a salida was unpaired.
  --
  -- Pairing never crosses work days, so rebuilding a range depends only on its own punches.
  -- The same statements rebuild every person of an import batch at once (import_asistencia).
  DECLARE
    v_corte            time(0) := asistencia_hora_corte();
    v_ventana          interval := asistencia_ventana_duplicados();
    v_rango_usuarios   integer[];   -- REEMPAREJAR's ranges: person, first and last work day
    v_rango_desde      date[];
    v_rango_hasta      date[];
    v_previos_usuarios integer[];   -- REEMPAREJAR: person-days that had a summary before
    v_previos_dias     date[];
    v_dias             integer := 0;
  BEGIN
    IF p_id_usuario IS NULL OR p_desde IS NULL OR p_hasta IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'asistencia_recalcular: id_usuario, desde y hasta son obligatorios';
    END IF;
    PERFORM asistencia_bloquear(p_id_usuario);

    v_rango_usuarios := ARRAY[p_id_usuario];
    v_rango_desde := ARRAY[p_desde];
    v_rango_hasta := ARRAY[p_hasta];

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

    RETURN v_dias;
  END;
$fn$;

COMMENT ON FUNCTION asistencia_recalcular(integer, date, date) IS
  'Rebuild one person''s attendance intervals and daily summaries for a range of work days; returns the days rebuilt';
