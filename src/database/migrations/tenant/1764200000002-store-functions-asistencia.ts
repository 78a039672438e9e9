import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attendance (docs/rpc.md): the tenant settings table `parametros`, the pairing of raw punches
 * into intervals and daily summaries (`asistencia_recalcular`), and the store functions of the
 * attendance RPC routes (import, read, edit and delete a punch).
 *
 * Raw punches (`asistencia_detalle`) are the source of truth; `asistencia_intervalo` and
 * `asistencia_resumen_diario` are derived data, rebuilt for the affected person and work days
 * after every change. Times are local wall-clock times (docs/data-model.md, "Time").
 *
 * Pairing rules (docs/rpc.md, "Attendance pairing"):
 * - work day: a punch before the cut-off hour (`asistencia.hora_corte`, default 05:00) belongs
 *   to the previous day, so a shift 18:00 -> 01:30 is one interval of the day it started;
 * - a punch closer than `asistencia.ventana_duplicados_seg` (default 60) seconds to the
 *   previous kept punch of the same person and work day counts once (the raw row is kept);
 * - `entrada` opens an interval, `salida` closes the open one, a punch without modo closes the
 *   open interval if there is one and opens one otherwise (alternating in/out);
 * - two `entrada` in a row: the first interval stays open (a missing out-punch);
 * - a `salida` with nothing open (a missing in-punch) pairs with nothing;
 * - an interval still open at the end of its work day stays open, and a day with an open
 *   interval or an unpaired `salida` is marked `incompleto`.
 */
export class StoreFunctionsAsistencia1764200000002 implements MigrationInterface {
  name = 'StoreFunctionsAsistencia1764200000002';

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
// Tenant settings
// ---------------------------------------------------------------------------------------------

/** A time of day HH:MM or HH:MM:SS (00:00 to 23:59:59), as accepted from a clock or a setting. */
const HORA_RE = '^([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$';

const PARAMETROS = `
  CREATE TABLE parametros (
    clave       text NOT NULL,
    valor       text NOT NULL,
    descripcion text NULL,
    CONSTRAINT pk_parametros PRIMARY KEY (clave),
    CONSTRAINT ck_parametros_clave CHECK (btrim(clave) <> ''),
    CONSTRAINT ck_parametros_hora_corte CHECK (
      clave <> 'asistencia.hora_corte' OR valor ~ '${HORA_RE}'),
    CONSTRAINT ck_parametros_ventana_duplicados CHECK (
      clave <> 'asistencia.ventana_duplicados_seg' OR valor ~ '^[0-9]{1,5}$')
  );
  COMMENT ON TABLE parametros IS 'Tenant settings read by the store functions (key -> text value)';
  INSERT INTO parametros (clave, valor, descripcion) VALUES
    ('asistencia.hora_corte', '05:00',
     'Day cut-off (HH:MM): a punch before this hour belongs to the previous work day'),
    ('asistencia.ventana_duplicados_seg', '60',
     'Seconds: a punch closer than this to the previous kept punch of the same person counts once');
`;

const PARAMETRO = `
  CREATE OR REPLACE FUNCTION parametro(p_clave text, p_defecto text)
  RETURNS text
  LANGUAGE sql
  STABLE
  AS $fn$
    -- The value of a tenant setting, or p_defecto when the row is absent.
    SELECT coalesce((SELECT valor FROM parametros WHERE clave = p_clave), p_defecto);
  $fn$;
  COMMENT ON FUNCTION parametro(text, text) IS 'Tenant setting from parametros, or the given default';
`;

// ---------------------------------------------------------------------------------------------
// Small helpers: parsing clock values, settings, the work day, the per-person lock
// ---------------------------------------------------------------------------------------------

const ASISTENCIA_LEER_FECHA = `
  CREATE OR REPLACE FUNCTION asistencia_leer_fecha(p_texto text)
  RETURNS date
  LANGUAGE plpgsql
  IMMUTABLE
  AS $fn$
    -- A calendar date written YYYY-MM-DD, or NULL when the text is not one (2026-02-30,
    -- 26-1-5, 05/01/2026 ...). Checked without raising, so one bad record of an import is
    -- reported instead of aborting the whole file.
    DECLARE
      v_anio integer;
      v_mes  integer;
      v_dia  integer;
    BEGIN
      IF p_texto IS NULL OR p_texto !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
        RETURN NULL;
      END IF;
      v_anio := substr(p_texto, 1, 4)::integer;
      v_mes := substr(p_texto, 6, 2)::integer;
      v_dia := substr(p_texto, 9, 2)::integer;
      IF v_anio < 1 OR v_mes NOT BETWEEN 1 AND 12 OR v_dia < 1
         OR v_dia > extract(day FROM make_date(v_anio, v_mes, 1) + interval '1 month - 1 day')
      THEN
        RETURN NULL;
      END IF;
      RETURN make_date(v_anio, v_mes, v_dia);
    END;
  $fn$;
  COMMENT ON FUNCTION asistencia_leer_fecha(text) IS
    'YYYY-MM-DD text to date, NULL when it is not a calendar date (never raises)';
`;

const ASISTENCIA_LEER_HORA = `
  CREATE OR REPLACE FUNCTION asistencia_leer_hora(p_texto text)
  RETURNS time(0)
  LANGUAGE sql
  IMMUTABLE
  AS $fn$
    -- A wall-clock time HH:MM:SS or HH:MM (seconds 00), 00:00 to 23:59:59; NULL otherwise
    -- (24:00, 8h30, 08:00:00.5 ...). Never raises.
    SELECT CASE WHEN p_texto ~ '${HORA_RE}' THEN p_texto::time(0) END;
  $fn$;
  COMMENT ON FUNCTION asistencia_leer_hora(text) IS
    'HH:MM[:SS] text to time, NULL when it is not a valid time of day (never raises)';
`;

const ASISTENCIA_HORA_CORTE = `
  CREATE OR REPLACE FUNCTION asistencia_hora_corte()
  RETURNS time(0)
  LANGUAGE plpgsql
  STABLE
  AS $fn$
    -- The tenant's day cut-off (setting asistencia.hora_corte, default 05:00).
    DECLARE
      v_valor text := parametro('asistencia.hora_corte', '05:00');
      v_hora  time(0) := asistencia_leer_hora(btrim(v_valor));
    BEGIN
      IF v_hora IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
          MESSAGE = format('parámetro asistencia.hora_corte inválido: %L (se espera HH:MM)',
                           v_valor);
      END IF;
      RETURN v_hora;
    END;
  $fn$;
  COMMENT ON FUNCTION asistencia_hora_corte() IS 'Setting asistencia.hora_corte as a time (default 05:00)';
`;

const ASISTENCIA_VENTANA_DUPLICADOS = `
  CREATE OR REPLACE FUNCTION asistencia_ventana_duplicados()
  RETURNS interval
  LANGUAGE plpgsql
  STABLE
  AS $fn$
    -- The tenant's duplicate window (setting asistencia.ventana_duplicados_seg, default 60 s).
    DECLARE
      v_valor text := btrim(parametro('asistencia.ventana_duplicados_seg', '60'));
    BEGIN
      IF v_valor !~ '^[0-9]{1,5}$' THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
          MESSAGE = format('parámetro asistencia.ventana_duplicados_seg inválido: %L '
                           '(se espera un número de segundos)', v_valor);
      END IF;
      RETURN make_interval(secs => v_valor::integer);
    END;
  $fn$;
  COMMENT ON FUNCTION asistencia_ventana_duplicados() IS
    'Setting asistencia.ventana_duplicados_seg as an interval (default 60 seconds)';
`;

const ASISTENCIA_FECHA_TRABAJO = `
  CREATE OR REPLACE FUNCTION asistencia_fecha_trabajo(p_fecha date, p_hora time, p_corte time)
  RETURNS date
  LANGUAGE sql
  IMMUTABLE
  AS $fn$
    -- Work day of a punch: before the cut-off hour it belongs to the previous day, so the
    -- 01:30 out-punch of an 18:00 shift counts for the day the shift started.
    SELECT CASE WHEN p_hora < p_corte THEN p_fecha - 1 ELSE p_fecha END;
  $fn$;
  COMMENT ON FUNCTION asistencia_fecha_trabajo(date, time, time) IS
    'Work day of a punch: the previous day when the punch is before the cut-off hour';
`;

const ASISTENCIA_BLOQUEAR = `
  CREATE OR REPLACE FUNCTION asistencia_bloquear(p_id_usuario integer)
  RETURNS void
  LANGUAGE sql
  AS $fn$
    -- Serialises the changes to one person's attendance until the end of the transaction:
    -- two imports (or an import and an edit) of the same person rebuild the derived rows one
    -- after the other instead of colliding on them. Callers lock people in id order.
    SELECT pg_advisory_xact_lock(hashtext('comandas:asistencia'), p_id_usuario);
  $fn$;
  COMMENT ON FUNCTION asistencia_bloquear(integer) IS
    'Transaction-level advisory lock on one person''s attendance';
`;

// ---------------------------------------------------------------------------------------------
// Pairing
// ---------------------------------------------------------------------------------------------

const ASISTENCIA_RECALCULAR = `
  CREATE OR REPLACE FUNCTION asistencia_recalcular(p_id_usuario integer, p_desde date, p_hasta date)
  RETURNS integer
  LANGUAGE plpgsql
  AS $fn$
    -- Rebuilds the intervals and daily summaries of one person for the work days
    -- p_desde..p_hasta from the raw punches; returns how many work days were rebuilt (days that
    -- have punches now or had a summary before).
    --
    -- Pairing, per work day, punches in time order:
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
    DECLARE
      v_corte     time(0) := asistencia_hora_corte();
      v_ventana   interval := asistencia_ventana_duplicados();
      v_previos   date[];            -- work days that had a summary before
      v_dias      date[] := '{}';    -- work days with punches
      v_huerfanas date[] := '{}';    -- work days with an unpaired salida
      v_dia       date;              -- work day being paired
      v_ultima    timestamp(0);      -- last kept punch of v_dia
      v_entrada   timestamp(0);      -- open interval: in-time
      v_id_entrada bigint;           -- open interval: in-punch
      m           record;
    BEGIN
      IF p_id_usuario IS NULL OR p_desde IS NULL OR p_hasta IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
          MESSAGE = 'asistencia_recalcular: id_usuario, desde y hasta son obligatorios';
      END IF;
      PERFORM asistencia_bloquear(p_id_usuario);

      WITH borrados AS (
        DELETE FROM asistencia_resumen_diario
         WHERE id_usuario = p_id_usuario AND fecha_trabajo BETWEEN p_desde AND p_hasta
        RETURNING fecha_trabajo
      )
      SELECT coalesce(array_agg(fecha_trabajo), '{}') INTO v_previos FROM borrados;

      -- The range's intervals, and a neighbour day's interval that still holds a punch now
      -- belonging to the range (only after asistencia.hora_corte changed).
      DELETE FROM asistencia_intervalo i
       WHERE i.id_usuario = p_id_usuario
         AND (i.fecha_trabajo BETWEEN p_desde AND p_hasta
              OR (i.fecha_trabajo IN (p_desde - 1, p_hasta + 1)
                  AND EXISTS (
                    SELECT 1
                      FROM asistencia_detalle d
                     WHERE d.id_raw IN (i.id_raw_entrada, i.id_raw_salida)
                       AND asistencia_fecha_trabajo(d.fecha, d.hora, v_corte)
                           BETWEEN p_desde AND p_hasta)));

      FOR m IN
        SELECT d.id_raw,
               d.modo,
               d.fecha + d.hora AS momento,
               asistencia_fecha_trabajo(d.fecha, d.hora, v_corte) AS fecha_trabajo
          FROM asistencia_detalle d
         WHERE d.id_usuario = p_id_usuario
           AND d.fecha BETWEEN p_desde AND p_hasta + 1
           AND asistencia_fecha_trabajo(d.fecha, d.hora, v_corte) BETWEEN p_desde AND p_hasta
         ORDER BY d.fecha, d.hora
      LOOP
        IF v_dia IS DISTINCT FROM m.fecha_trabajo THEN
          -- A new work day: what is still open in the previous one stays open.
          IF v_entrada IS NOT NULL THEN
            INSERT INTO asistencia_intervalo (id_usuario, fecha_trabajo, entrada, id_raw_entrada)
            VALUES (p_id_usuario, v_dia, v_entrada, v_id_entrada);
          END IF;
          v_dia := m.fecha_trabajo;
          v_dias := v_dias || v_dia;
          v_ultima := NULL;
          v_entrada := NULL;
          v_id_entrada := NULL;
        END IF;

        -- Near-duplicate of the previous kept punch (a double press on the clock).
        IF v_ultima IS NOT NULL AND m.momento - v_ultima < v_ventana THEN
          CONTINUE;
        END IF;
        v_ultima := m.momento;

        IF m.modo = 'entrada' OR (m.modo IS NULL AND v_entrada IS NULL) THEN
          IF v_entrada IS NOT NULL THEN
            -- entrada after entrada: the first interval lacks its out-punch.
            INSERT INTO asistencia_intervalo (id_usuario, fecha_trabajo, entrada, id_raw_entrada)
            VALUES (p_id_usuario, v_dia, v_entrada, v_id_entrada);
          END IF;
          v_entrada := m.momento;
          v_id_entrada := m.id_raw;
        ELSIF v_entrada IS NOT NULL THEN
          -- salida (or an unmarked punch) closing the open interval.
          INSERT INTO asistencia_intervalo
                 (id_usuario, fecha_trabajo, entrada, salida, id_raw_entrada, id_raw_salida)
          VALUES (p_id_usuario, v_dia, v_entrada, m.momento, v_id_entrada, m.id_raw);
          v_entrada := NULL;
          v_id_entrada := NULL;
        ELSE
          -- salida with nothing open: a missing in-punch.
          v_huerfanas := v_huerfanas || v_dia;
        END IF;
      END LOOP;

      IF v_entrada IS NOT NULL THEN
        INSERT INTO asistencia_intervalo (id_usuario, fecha_trabajo, entrada, id_raw_entrada)
        VALUES (p_id_usuario, v_dia, v_entrada, v_id_entrada);
      END IF;

      INSERT INTO asistencia_resumen_diario
             (id_usuario, fecha_trabajo, minutos, intervalos, marcas, incompleto, updated_at)
      SELECT p_id_usuario,
             t.dia,
             coalesce(sum(i.minutos), 0),
             count(i.id_intervalo),
             count(i.id_raw_entrada) + count(i.id_raw_salida),
             coalesce(bool_or(i.salida IS NULL), false) OR t.dia = ANY (v_huerfanas),
             now()
        FROM unnest(v_dias) AS t(dia)
        LEFT JOIN asistencia_intervalo i
          ON i.id_usuario = p_id_usuario AND i.fecha_trabajo = t.dia
       GROUP BY t.dia;

      RETURN (SELECT count(DISTINCT t.dia)::integer FROM unnest(v_previos || v_dias) AS t(dia));
    END;
  $fn$;
  COMMENT ON FUNCTION asistencia_recalcular(integer, date, date) IS
    'Rebuild one person''s attendance intervals and daily summaries for a range of work days; returns the days rebuilt';
`;

// ---------------------------------------------------------------------------------------------
// RPC: import, read, edit, delete
// ---------------------------------------------------------------------------------------------

const IMPORT_ASISTENCIA = `
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
    --   file twice inserts nothing the second time. p_origen is stored in every inserted row.
    -- - recibidos = insertados + duplicados + (records of unknown people) + invalidos.
    -- - afterwards, for each person with inserted punches, the work days from the first to the
    --   last inserted one are re-paired (asistencia_recalcular); dias_recalculados counts them.
    DECLARE
      v_registros    jsonb := CASE WHEN jsonb_typeof(p_registros) = 'array'
                                   THEN p_registros ELSE '[]'::jsonb END;
      v_corte        time(0) := asistencia_hora_corte();
      v_registro     jsonb;
      v_indice       integer;
      v_motivos      text[];
      v_doc          text;
      v_fecha        date;
      v_hora         time(0);
      v_modo         text;
      v_id_usuario   integer;
      -- well-formed records of known people, column by column
      v_usuarios     integer[] := '{}';
      v_fechas       date[] := '{}';
      v_horas        time[] := '{}';      -- no typmod: time(0)[] would copy on every append
      v_modos        text[] := '{}';
      v_datos        jsonb[] := '{}';
      v_desconocidos text[] := '{}';
      v_invalidos    jsonb[] := '{}';
      v_insertados   integer;
      v_ins_usuarios integer[];
      v_ins_dias     date[];
      v_dias         integer := 0;
      v_rango        record;
    BEGIN
      FOR v_registro, v_indice IN
        SELECT e.registro, (e.ord - 1)::integer
          FROM jsonb_array_elements(v_registros) WITH ORDINALITY AS e(registro, ord)
      LOOP
        IF jsonb_typeof(v_registro) <> 'object' THEN
          v_invalidos := v_invalidos || jsonb_build_object(
            'indice', v_indice, 'motivo', 'el registro no es un objeto JSON');
          CONTINUE;
        END IF;

        v_motivos := '{}';
        v_doc := CASE WHEN jsonb_typeof(v_registro -> 'doc') IN ('string', 'number')
                      THEN nullif(btrim(v_registro ->> 'doc'), '') END;
        IF v_doc IS NULL THEN
          v_motivos := v_motivos || 'falta doc'::text;
        END IF;

        v_fecha := asistencia_leer_fecha(v_registro ->> 'fecha');
        IF v_fecha IS NULL THEN
          v_motivos := v_motivos || CASE
            WHEN (v_registro ->> 'fecha') IS NULL THEN 'falta fecha'
            ELSE format('fecha inválida %s (se espera AAAA-MM-DD)', v_registro -> 'fecha') END;
        END IF;

        v_hora := asistencia_leer_hora(v_registro ->> 'hora');
        IF v_hora IS NULL THEN
          v_motivos := v_motivos || CASE
            WHEN (v_registro ->> 'hora') IS NULL THEN 'falta hora'
            ELSE format('hora inválida %s (se espera HH:MM:SS o HH:MM)', v_registro -> 'hora') END;
        END IF;

        v_modo := lower(nullif(btrim(v_registro ->> 'modo'), ''));
        IF v_modo IS NOT NULL AND v_modo NOT IN ('entrada', 'salida') THEN
          v_motivos := v_motivos ||
            format('modo inválido %s (se espera entrada o salida)', v_registro -> 'modo');
        END IF;

        IF cardinality(v_motivos) > 0 THEN
          v_invalidos := v_invalidos || jsonb_build_object(
            'indice', v_indice, 'motivo', array_to_string(v_motivos, '; '));
          CONTINUE;
        END IF;

        SELECT u.id_usuario INTO v_id_usuario FROM usuarios u WHERE u.documento = v_doc;
        IF NOT FOUND THEN
          v_desconocidos := v_desconocidos || v_doc;
          CONTINUE;
        END IF;

        v_usuarios := v_usuarios || v_id_usuario;
        v_fechas := v_fechas || v_fecha;
        v_horas := v_horas || v_hora;
        v_modos := v_modos || v_modo;
        v_datos := v_datos || (v_registro - '{doc,fecha,hora,modo}'::text[]);
      END LOOP;

      -- One writer per person at a time, locked in id order (no deadlock between imports).
      FOR v_id_usuario IN SELECT DISTINCT u FROM unnest(v_usuarios) AS u ORDER BY u LOOP
        PERFORM asistencia_bloquear(v_id_usuario);
      END LOOP;

      WITH nuevas AS (
        INSERT INTO asistencia_detalle (id_usuario, fecha, hora, modo, origen, datos)
        SELECT r.id_usuario, r.fecha, r.hora, r.modo, p_origen, r.datos
          FROM unnest(v_usuarios, v_fechas, v_horas, v_modos, v_datos)
               AS r(id_usuario, fecha, hora, modo, datos)
         ORDER BY r.id_usuario, r.fecha, r.hora
        ON CONFLICT ON CONSTRAINT uq_asistencia_detalle_marca DO NOTHING
        RETURNING id_usuario, asistencia_fecha_trabajo(fecha, hora, v_corte) AS dia
      )
      SELECT count(*)::integer,
             coalesce(array_agg(id_usuario), '{}'),
             coalesce(array_agg(dia), '{}')
        INTO v_insertados, v_ins_usuarios, v_ins_dias
        FROM nuevas;

      FOR v_rango IN
        SELECT t.id_usuario, min(t.dia) AS desde, max(t.dia) AS hasta
          FROM unnest(v_ins_usuarios, v_ins_dias) AS t(id_usuario, dia)
         GROUP BY t.id_usuario
         ORDER BY t.id_usuario
      LOOP
        v_dias := v_dias + asistencia_recalcular(v_rango.id_usuario, v_rango.desde, v_rango.hasta);
      END LOOP;

      RETURN jsonb_build_object(
        'recibidos', jsonb_array_length(v_registros),
        'insertados', v_insertados,
        'duplicados', cardinality(v_usuarios) - v_insertados,
        'desconocidos', (
          SELECT coalesce(jsonb_agg(d.doc ORDER BY d.primero), '[]'::jsonb)
            FROM (SELECT t.doc, min(t.n) AS primero
                    FROM unnest(v_desconocidos) WITH ORDINALITY AS t(doc, n)
                   GROUP BY t.doc) AS d),
        'invalidos', to_jsonb(v_invalidos),
        'dias_recalculados', v_dias
      );
    END;
  $fn$;
  COMMENT ON FUNCTION import_asistencia(jsonb, text) IS
    'RPC import_asistencia: idempotent import of raw punches, reporting unknown documents and malformed records, then re-pairing';
`;

const ASISTENCIA_GET = `
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
`;

const ASISTENCIA_UPDATE_RAW = `
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
`;

const ASISTENCIA_DELETE_RAW = `
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
`;

const UP: readonly string[] = [
  PARAMETROS,
  PARAMETRO,
  ASISTENCIA_LEER_FECHA,
  ASISTENCIA_LEER_HORA,
  ASISTENCIA_HORA_CORTE,
  ASISTENCIA_VENTANA_DUPLICADOS,
  ASISTENCIA_FECHA_TRABAJO,
  ASISTENCIA_BLOQUEAR,
  ASISTENCIA_RECALCULAR,
  IMPORT_ASISTENCIA,
  ASISTENCIA_GET,
  ASISTENCIA_UPDATE_RAW,
  ASISTENCIA_DELETE_RAW,
];

/** Exact reverse of UP. */
const DOWN: readonly string[] = [
  'DROP FUNCTION asistencia_delete_raw(bigint)',
  'DROP FUNCTION asistencia_update_raw(bigint, date, text, text)',
  'DROP FUNCTION asistencia_get(text, date, date)',
  'DROP FUNCTION import_asistencia(jsonb, text)',
  'DROP FUNCTION asistencia_recalcular(integer, date, date)',
  'DROP FUNCTION asistencia_bloquear(integer)',
  'DROP FUNCTION asistencia_fecha_trabajo(date, time, time)',
  'DROP FUNCTION asistencia_ventana_duplicados()',
  'DROP FUNCTION asistencia_hora_corte()',
  'DROP FUNCTION asistencia_leer_hora(text)',
  'DROP FUNCTION asistencia_leer_fecha(text)',
  'DROP FUNCTION parametro(text, text)',
  'DROP TABLE parametros',
];
