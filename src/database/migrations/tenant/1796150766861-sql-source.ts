import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SqlSourceEntry } from '../../sql-source';

/**
 * The SQL source tree (docs/sql.md): every function, trigger and view of a tenant database as its
 * file of src/<module>/sql/ has it. The definitions of the earlier migrations, laid out for
 * reading: a database migrated to here holds exactly the files' text, which the drift test
 * (test/integration/sql-source.int-spec.ts) checks.
 *
 * Written by `npm run sql:migration` (docs/sql.md) with the text the files had then; never
 * edited afterwards: a later change of a file is another migration. It
 * - applies src/cobros/sql/cuenta_comanda.sql
 * - applies src/cobros/sql/figuras_sesion_caja.sql
 * - applies src/cocina/sql/cocina_dividir_linea.sql
 * - applies src/cocina/sql/cocina_emitir.sql
 * - applies src/comandas/sql/comanda_eventos_notify.sql
 * - applies src/device-drivers/sql/asistencia_bloquear.sql
 * - applies src/device-drivers/sql/asistencia_fecha_trabajo.sql
 * - applies src/device-drivers/sql/asistencia_leer_hora.sql
 * - applies src/device-drivers/sql/parametro.sql
 * - applies src/device-drivers/sql/asistencia_hora_corte.sql
 * - applies src/device-drivers/sql/asistencia_ventana_duplicados.sql
 * - applies src/device-drivers/sql/asistencia_recalcular.sql
 * - applies src/device-drivers/sql/asistencia_delete_raw.sql
 * - applies src/device-drivers/sql/asistencia_get.sql
 * - applies src/device-drivers/sql/asistencia_leer_fecha.sql
 * - applies src/device-drivers/sql/asistencia_update_raw.sql
 * - applies src/device-drivers/sql/import_asistencia.sql
 * - applies src/inventario/sql/stock_asentar.sql
 * - applies src/inventario/sql/inventario_aplicar_conteo.sql
 * - applies src/inventario/sql/inventario_consumir_comanda.sql
 * - applies src/inventario/sql/inventario_revertir_comanda.sql
 * - applies src/inventario/sql/inventario_sincronizar_compra.sql
 * - applies src/inventario/sql/stock_movimientos_inmutables.sql
 * - applies src/reportes/sql/report_asistencia.sql
 * - applies src/reportes/sql/reportes_marcar_categoria.sql
 * - applies src/reportes/sql/reportes_marcar_tasas.sql
 * - applies src/reportes/sql/reportes_marcar.sql
 * - applies src/reportes/sql/reportes_refrescar.sql
 * - applies src/rpc/sql/delete_compra.sql
 * - applies src/rpc/sql/find_usuarios_por_documentos.sql
 * - applies src/rpc/sql/get_compra.sql
 * - applies src/rpc/sql/get_materia.sql
 * - applies src/rpc/sql/get_producto.sql
 * - applies src/rpc/sql/report_gastos.sql
 * - applies src/rpc/sql/report_tickets.sql
 * - applies src/rpc/sql/save_compra.sql
 * - applies src/rpc/sql/save_materia.sql
 * - applies src/rpc/sql/save_producto.sql
 * - applies src/rpc/sql/vw_compras.sql
 * - applies src/sign-in/sql/usuarios_fin_de_sesiones.sql
 * - applies src/webhooks/sql/webhooks_suscritos.sql
 * - applies src/webhooks/sql/webhooks_encolar.sql
 * - applies src/webhooks/sql/webhooks_caja_eventos.sql
 * - applies src/webhooks/sql/webhooks_comanda_eventos.sql
 * - applies src/webhooks/sql/webhooks_conteos.sql
 * - applies src/webhooks/sql/webhooks_mermas.sql
 */
const SQL_SOURCE: readonly SqlSourceEntry[] = [
  {
    path: 'src/cobros/sql/cuenta_comanda.sql',
    text: `-- The bill of one comanda, every figure in numeric (docs/cobros.md). While it is open the rates
-- of today apply (the IGV rate in force on the tenant's date, the service charge, the cash
-- rounding); once closed, those frozen in cuentas_comanda. The rounding is granted when the
-- latest applied payment is cash and leaves less than one rounding step unpaid.
CREATE OR REPLACE FUNCTION cuenta_comanda(p_id bigint, p_zona text)
RETURNS TABLE (
  subtotal numeric, descuento numeric, recargo_consumo numeric, total numeric,
  tasa_igv numeric, base_imponible numeric, igv numeric, tasa_recargo numeric,
  redondeo numeric, propinas numeric, pagado numeric, reembolsado numeric,
  saldo numeric, saldo_efectivo numeric, estado_pago text)
LANGUAGE sql STABLE AS $$
  WITH c AS (
    SELECT c.estado, c.total AS lineas, cc.descuento_tipo, cc.descuento_valor,
           coalesce(cc.tasa_igv, (SELECT t.tasa FROM tasas_igv t
                                   WHERE t.vigente_desde <= (now() AT TIME ZONE p_zona)::date
                                   ORDER BY t.vigente_desde DESC LIMIT 1), 0) AS tasa_igv,
           coalesce(cc.tasa_recargo, a.tasa_recargo) AS tasa_recargo,
           coalesce(cc.paso_redondeo, a.paso_redondeo) AS paso
      FROM comandas c
      LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
      CROSS JOIN cobros_ajustes a
     WHERE c.id_comanda = p_id),
  d AS (
    SELECT c.*, CASE c.descuento_tipo
                  WHEN 'porcentaje' THEN round(c.lineas * c.descuento_valor / 100, 2)
                  WHEN 'monto' THEN least(c.descuento_valor, c.lineas)
                  ELSE 0 END AS descuento
      FROM c),
  n AS (SELECT d.*, d.lineas - d.descuento AS neto FROM d),
  t AS (SELECT n.*, round(n.neto * n.tasa_recargo, 2) AS recargo FROM n),
  p AS (
    SELECT coalesce(sum(monto) FILTER (WHERE estado = 'aplicado'), 0) AS pagado,
           coalesce(sum(propina) FILTER (WHERE estado = 'aplicado'), 0) AS propinas,
           coalesce((SELECT m.tipo = 'efectivo' FROM pagos ul
                       JOIN metodos_pago m ON m.id_metodo_pago = ul.id_metodo_pago
                      WHERE ul.id_comanda = p_id AND ul.estado = 'aplicado'
                      ORDER BY ul.id_pago DESC LIMIT 1), false) AS ultimo_efectivo
      FROM pagos WHERE id_comanda = p_id),
  r AS (SELECT coalesce(sum(monto), 0) AS reembolsado FROM reembolsos WHERE id_comanda = p_id),
  b AS (
    SELECT t.*, p.*, r.*, t.neto + t.recargo AS total_cuenta,
           t.neto + t.recargo - p.pagado AS bruto
      FROM t, p, r),
  f AS (
    SELECT b.*, CASE WHEN b.paso > 0 AND b.ultimo_efectivo AND b.bruto > 0 AND b.bruto < b.paso
                     THEN -b.bruto ELSE 0 END AS redondeo
      FROM b)
  SELECT f.lineas, f.descuento, f.recargo, f.total_cuenta,
         f.tasa_igv, round(f.neto / (1 + f.tasa_igv), 2), f.neto - round(f.neto / (1 + f.tasa_igv), 2),
         f.tasa_recargo, f.redondeo, f.propinas, f.pagado, f.reembolsado,
         f.bruto + f.redondeo,
         CASE WHEN f.paso > 0 AND f.bruto + f.redondeo > 0
              THEN floor((f.bruto + f.redondeo) / f.paso) * f.paso
              ELSE greatest(f.bruto + f.redondeo, 0) END,
         CASE WHEN f.reembolsado > 0 AND f.reembolsado >= f.pagado THEN 'reembolsada'
              WHEN f.reembolsado > 0 THEN 'reembolso_parcial'
              WHEN f.bruto + f.redondeo <= 0 AND (f.pagado > 0 OR f.estado = 'cerrada') THEN 'pagada'
              ELSE 'pendiente' END
    FROM f
$$;

COMMENT ON FUNCTION cuenta_comanda(bigint, text) IS
  'The bill of a comanda: subtotal, discount, service charge, total, IGV, rounding, tips, paid, refunded, balance (docs/cobros.md)';
`,
  },
  {
    path: 'src/cobros/sql/figuras_sesion_caja.sql',
    text: `-- The X / Z figures of a till session per payment method (docs/cobros.md): what came in
-- (payments and tips), what went out (refunds), and for the method counted in the till the
-- opening float and the movements. One row per active method, and per method the session used.
CREATE OR REPLACE FUNCTION figuras_sesion_caja(p_sesion bigint)
RETURNS TABLE (
  id_metodo_pago integer, nombre varchar, tipo text, cuenta_en_caja boolean,
  pagos bigint, ventas numeric, propinas numeric, reembolsos numeric,
  apertura numeric, ingresos numeric, retiros numeric, esperado numeric)
LANGUAGE sql STABLE AS $$
  WITH s AS (SELECT * FROM sesiones_caja WHERE id_sesion = p_sesion),
  caja_metodo AS (
    SELECT min(id_metodo_pago) AS id FROM metodos_pago WHERE cuenta_en_caja AND activo),
  pg AS (
    SELECT id_metodo_pago, count(*) AS pagos, sum(monto) AS ventas, sum(propina) AS propinas
      FROM pagos WHERE id_sesion = p_sesion AND estado = 'aplicado'
     GROUP BY id_metodo_pago),
  rb AS (
    SELECT p.id_metodo_pago, sum(r.monto) AS reembolsos
      FROM reembolsos r JOIN pagos p ON p.id_pago = r.id_pago
     WHERE r.id_sesion = p_sesion
     GROUP BY p.id_metodo_pago),
  mv AS (
    SELECT coalesce(sum(monto) FILTER (WHERE tipo = 'ingreso'), 0) AS ingresos,
           coalesce(sum(monto) FILTER (WHERE tipo = 'retiro'), 0) AS retiros
      FROM movimientos_caja WHERE id_sesion = p_sesion),
  filas AS (
    SELECT m.id_metodo_pago, m.nombre, m.tipo, m.cuenta_en_caja,
           coalesce(pg.pagos, 0) AS pagos, coalesce(pg.ventas, 0) AS ventas,
           coalesce(pg.propinas, 0) AS propinas, coalesce(rb.reembolsos, 0) AS reembolsos,
           CASE WHEN m.id_metodo_pago = cm.id THEN s.monto_apertura ELSE 0 END AS apertura,
           CASE WHEN m.id_metodo_pago = cm.id THEN mv.ingresos ELSE 0 END AS ingresos,
           CASE WHEN m.id_metodo_pago = cm.id THEN mv.retiros ELSE 0 END AS retiros
      FROM metodos_pago m
      CROSS JOIN s CROSS JOIN mv CROSS JOIN caja_metodo cm
      LEFT JOIN pg ON pg.id_metodo_pago = m.id_metodo_pago
      LEFT JOIN rb ON rb.id_metodo_pago = m.id_metodo_pago
     WHERE m.activo OR pg.id_metodo_pago IS NOT NULL OR rb.id_metodo_pago IS NOT NULL)
  SELECT filas.*, apertura + ventas + propinas + ingresos - retiros - reembolsos AS esperado
    FROM filas
   ORDER BY id_metodo_pago
$$;
`,
  },
  {
    path: 'src/cocina/sql/cocina_dividir_linea.sql',
    text: `-- A split moved p_cantidad of line p_origen onto the new line p_nueva. The new line takes
-- min(p_cantidad, sent of p_origen) of what was sent, from the origin's ticket lines, latest
-- tickets first (those rows decrease, rows of p_nueva are added to the same tickets): each
-- line's sent quantity stays conserved and no ticket is created. Answers the tickets touched.
CREATE OR REPLACE FUNCTION cocina_dividir_linea(p_origen bigint, p_nueva bigint, p_cantidad numeric)
RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  v_resto numeric;
  v_toma numeric;
  v_ids bigint[] := '{}';
  r record;
BEGIN
  SELECT least(p_cantidad, coalesce(sum(cantidad), 0)) INTO v_resto
    FROM envio_lineas WHERE id_item = p_origen;
  FOR r IN SELECT id_envio, id_producto, cantidad FROM envio_lineas
            WHERE id_item = p_origen AND cantidad > 0
            ORDER BY id_envio DESC
  LOOP
    EXIT WHEN v_resto <= 0;
    v_toma := least(r.cantidad, v_resto);
    IF v_toma = r.cantidad THEN
      -- a ticket line is never 0: the whole row moves to the new line
      DELETE FROM envio_lineas WHERE id_envio = r.id_envio AND id_item = p_origen;
    ELSE
      UPDATE envio_lineas SET cantidad = cantidad - v_toma
       WHERE id_envio = r.id_envio AND id_item = p_origen;
    END IF;
    INSERT INTO envio_lineas (id_envio, id_item, id_producto, cantidad)
    VALUES (r.id_envio, p_nueva, r.id_producto, v_toma);
    v_resto := v_resto - v_toma;
    v_ids := v_ids || r.id_envio;
  END LOOP;
  RETURN v_ids;
END
$$;
`,
  },
  {
    path: 'src/cocina/sql/cocina_emitir.sql',
    text: `-- Writes the kitchen tickets of comanda p_comanda and answers their ids (none: nothing to
-- send). p_modo:
--   'enviar': every line of a fired course goes to its quantity now;
--   'anular_linea': line p_item goes down to p_objetivo when more than that was sent;
--   'anular_comanda': every line of the comanda goes down to 0 (the comanda is deleted).
CREATE OR REPLACE FUNCTION cocina_emitir(
  p_comanda bigint, p_usuario integer, p_modo text,
  p_item bigint DEFAULT NULL, p_objetivo numeric DEFAULT NULL
) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  v_defecto integer;
  v_ids bigint[];
BEGIN
  -- routing fallback: the first active preparation station
  SELECT id_estacion INTO v_defecto FROM estaciones_cocina
   WHERE activo AND tipo = 'preparacion' ORDER BY id_estacion LIMIT 1;

  WITH deltas AS (
    -- the difference between the quantity a line should have in the kitchen and what was sent
    SELECT d.id_deta_comanda AS id_item, d.id_producto, d.curso, p.id_categoria,
           CASE p_modo WHEN 'enviar' THEN d.cantidad
                       WHEN 'anular_linea' THEN p_objetivo
                       ELSE 0 END - coalesce(s.enviado, 0) AS delta,
           s.enviado IS NOT NULL AS ya_enviado
      FROM deta_comandas d
      JOIN productos p ON p.id_producto = d.id_producto
      LEFT JOIN LATERAL (SELECT sum(l.cantidad) AS enviado
                           FROM envio_lineas l WHERE l.id_item = d.id_deta_comanda) s ON true
     WHERE d.id_comanda = p_comanda
       AND CASE p_modo
             -- only the courses fired are sent
             WHEN 'enviar' THEN EXISTS (SELECT 1 FROM cursos_disparados c
                                         WHERE c.id_comanda = d.id_comanda AND c.curso = d.curso)
             WHEN 'anular_linea' THEN d.id_deta_comanda = p_item
             ELSE true END
  ),
  positivos AS (
    -- more to prepare: to the category's active station, else the fallback; a line never
    -- sent before is nuevo, else adicional
    SELECT dl.id_item, dl.id_producto, dl.curso,
           coalesce(e.id_estacion, v_defecto) AS id_estacion,
           CASE WHEN dl.ya_enviado THEN 'adicional' ELSE 'nuevo' END AS tipo,
           dl.delta AS cantidad
      FROM deltas dl
      LEFT JOIN estacion_categorias ec ON ec.id_categoria = dl.id_categoria
      LEFT JOIN estaciones_cocina e ON e.id_estacion = ec.id_estacion AND e.activo
     WHERE p_modo = 'enviar' AND dl.delta > 0
  ),
  por_estacion AS (
    -- what each station still has of a line to cancel (net sent there), newest ticket first
    SELECT l.id_item, t.id_estacion, sum(l.cantidad) AS neto, max(t.id_envio) AS ultimo
      FROM envio_lineas l
      JOIN envios_cocina t ON t.id_envio = l.id_envio
     WHERE l.id_item IN (SELECT id_item FROM deltas WHERE delta < 0)
     GROUP BY l.id_item, t.id_estacion
    HAVING sum(l.cantidad) > 0
  ),
  acumulado AS (
    SELECT pe.*, -dl.delta AS falta, dl.id_producto, dl.curso,
           sum(pe.neto) OVER (PARTITION BY pe.id_item ORDER BY pe.ultimo DESC) AS hasta
      FROM por_estacion pe JOIN deltas dl ON dl.id_item = pe.id_item
  ),
  negativos AS (
    -- a cancellation goes to the station(s) the line was sent to, the latest first, each
    -- taking at most what it had of the line
    SELECT id_item, id_producto, curso, id_estacion, 'anulacion' AS tipo,
           -least(neto, falta - (hasta - neto)) AS cantidad
      FROM acumulado
     WHERE falta > hasta - neto
  ),
  movimientos AS (
    SELECT * FROM positivos UNION ALL SELECT * FROM negativos
  ),
  grupos AS (
    -- one ticket per station, course and kind
    SELECT DISTINCT id_estacion, curso, tipo FROM movimientos
  ),
  envios AS (
    INSERT INTO envios_cocina (id_comanda, id_estacion, curso, tipo, id_usuario)
    SELECT p_comanda, id_estacion, curso, tipo, p_usuario
      FROM grupos ORDER BY id_estacion, curso, tipo
    RETURNING id_envio, id_estacion, curso, tipo
  ),
  lineas AS (
    INSERT INTO envio_lineas (id_envio, id_item, id_producto, cantidad)
    SELECT t.id_envio, m.id_item, m.id_producto, m.cantidad
      FROM movimientos m
      JOIN envios t ON t.id_estacion = m.id_estacion AND t.curso = m.curso AND t.tipo = m.tipo
    RETURNING id_envio
  )
  SELECT coalesce(array_agg(DISTINCT id_envio ORDER BY id_envio), '{}') INTO v_ids FROM lineas;

  -- a line sent (again) is enviado: an adicional takes a listo line back to enviado
  UPDATE deta_comandas d
     SET estado_cocina = 'enviado', fec_enviado = clock_timestamp(),
         fec_preparacion = NULL, fec_listo = NULL
   WHERE d.id_deta_comanda IN (SELECT l.id_item FROM envio_lineas l
                                WHERE l.id_envio = ANY (v_ids) AND l.cantidad > 0);
  RETURN v_ids;
END
$$;
`,
  },
  {
    path: 'src/comandas/sql/comanda_eventos_notify.sql',
    text: `-- Live updates (docs/comandas.md): every audit entry of a comanda notifies the channel
-- comanda_eventos with its id, delivered when its transaction commits, in commit order, to every
-- session listening on the tenant database. The payload is the id alone (a NOTIFY payload is
-- limited to 8,000 bytes): the listener reads the entry and the comanda.
CREATE OR REPLACE FUNCTION comanda_eventos_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('comanda_eventos', NEW.id_evento::text);
  RETURN NULL;
END
$$;

COMMENT ON FUNCTION comanda_eventos_notify() IS 'Notifies comanda_eventos with the new entry id (delivered on commit)';

DROP TRIGGER IF EXISTS tr_comanda_eventos_notify ON comanda_eventos;
CREATE TRIGGER tr_comanda_eventos_notify
  AFTER INSERT ON comanda_eventos
  FOR EACH ROW EXECUTE FUNCTION comanda_eventos_notify();
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_bloquear.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_bloquear(p_id_usuario integer)
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_fecha_trabajo.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_fecha_trabajo(p_fecha date, p_hora time, p_corte time)
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_leer_hora.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_leer_hora(p_texto text)
RETURNS time(0)
LANGUAGE sql
IMMUTABLE
AS $fn$
  -- A wall-clock time HH:MM:SS or HH:MM (seconds 00), 00:00 to 23:59:59; NULL otherwise
  -- (24:00, 8h30, 08:00:00.5 ...). Never raises.
  SELECT CASE WHEN p_texto ~ '^([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$' THEN p_texto::time(0) END;
$fn$;

COMMENT ON FUNCTION asistencia_leer_hora(text) IS
  'HH:MM[:SS] text to time, NULL when it is not a valid time of day (never raises)';
`,
  },
  {
    path: 'src/device-drivers/sql/parametro.sql',
    text: `CREATE OR REPLACE FUNCTION parametro(p_clave text, p_defecto text)
RETURNS text
LANGUAGE sql
STABLE
AS $fn$
  -- The value of a tenant setting, or p_defecto when the row is absent.
  SELECT coalesce((SELECT valor FROM parametros WHERE clave = p_clave), p_defecto);
$fn$;

COMMENT ON FUNCTION parametro(text, text) IS 'Tenant setting from parametros, or the given default';
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_hora_corte.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_hora_corte()
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_ventana_duplicados.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_ventana_duplicados()
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_recalcular.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_recalcular(p_id_usuario integer, p_desde date, p_hasta date)
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_delete_raw.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_delete_raw(p_id_raw bigint)
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_get.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_get(p_doc text, p_desde date, p_hasta date)
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_leer_fecha.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_leer_fecha(p_texto text)
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
`,
  },
  {
    path: 'src/device-drivers/sql/asistencia_update_raw.sql',
    text: `CREATE OR REPLACE FUNCTION asistencia_update_raw(
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
`,
  },
  {
    path: 'src/device-drivers/sql/import_asistencia.sql',
    text: `CREATE OR REPLACE FUNCTION import_asistencia(p_registros jsonb, p_origen text)
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
`,
  },
  {
    path: 'src/inventario/sql/stock_asentar.sql',
    text: `CREATE OR REPLACE FUNCTION stock_asentar(
  p_id_mat_prima integer, p_tipo text, p_cantidad numeric, p_costo numeric,
  p_origen text, p_id_origen bigint, p_id_documento bigint, p_fec timestamptz,
  p_id_usuario integer, p_motivo text)
RETURNS stock_movimientos
LANGUAGE plpgsql AS $fn$
  -- Posts one movement and keeps the material's balance, under the balance row's lock.
  -- An inflow (cantidad > 0) is valued at p_costo (null: the average) and sets the average to
  -- (q0*c0 + q*c)/(q0 + q), or to c when q0 <= 0; an outflow is valued at the average, which
  -- it leaves as it is. A movement dated at or before the last applied count's cut-off (the
  -- closed period includes its cut-off: the count's sistema and the periods of the reports
  -- count a movement dated there) raises P0001 PERIODO_CERRADO (DETAIL: the cut-off).
  DECLARE
    s        stock_saldos;
    v_corte  timestamptz;
    v_costo  numeric(14,6);
    v_cant   numeric(14,4) := round(p_cantidad, 4);
    v_prom   numeric(14,6);
    m        stock_movimientos;
  BEGIN
    INSERT INTO stock_saldos (id_mat_prima) VALUES (p_id_mat_prima) ON CONFLICT DO NOTHING;
    SELECT * INTO s FROM stock_saldos WHERE id_mat_prima = p_id_mat_prima FOR UPDATE;
    -- read after the lock: a count applied meanwhile is seen
    SELECT cerrado_hasta INTO v_corte FROM inventario_periodo;
    IF v_corte IS NOT NULL AND p_fec <= v_corte THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
        DETAIL = to_char(v_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    END IF;
    IF v_cant = 0 THEN
      RETURN NULL;
    END IF;
    IF v_cant > 0 THEN
      v_costo := coalesce(p_costo, s.costo_promedio);
      v_prom := CASE WHEN s.cantidad <= 0 THEN v_costo
                     ELSE round((s.cantidad * s.costo_promedio + v_cant * v_costo) / (s.cantidad + v_cant), 6) END;
    ELSE
      v_costo := s.costo_promedio;
      v_prom := s.costo_promedio;
    END IF;
    INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                   saldo_cantidad, saldo_costo, origen, id_origen, id_documento,
                                   fec, id_usuario, motivo)
    VALUES (p_id_mat_prima, p_tipo, v_cant, v_costo, round(v_cant * v_costo, 4),
            s.cantidad + v_cant, v_prom, p_origen, p_id_origen, p_id_documento,
            p_fec, p_id_usuario, p_motivo)
    RETURNING * INTO m;
    UPDATE stock_saldos
       SET cantidad = cantidad + m.cantidad, valor = valor + m.valor, costo_promedio = v_prom,
           movimientos = movimientos + 1, updated_at = now()
     WHERE id_mat_prima = p_id_mat_prima;
    RETURN m;
  END;
$fn$;
`,
  },
  {
    path: 'src/inventario/sql/inventario_aplicar_conteo.sql',
    text: `CREATE OR REPLACE FUNCTION inventario_aplicar_conteo(p_id_conteo bigint, p_id_usuario integer)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- Applies a draft count (the caller holds its row lock and checked it is a draft): every
  -- balance row is locked first (a posting waits, then sees the new cut-off), each line's
  -- system quantity at the cut-off is frozen, an ajuste_conteo of contado - sistema is posted
  -- at the cut-off for each line that differs, and the period closes at the cut-off. A cut-off
  -- at or before the last applied one raises P0001 PERIODO_CERRADO. Answers the movements posted.
  --
  -- The balance rows are created and locked one material at a time, in ascending id order, as
  -- stock_asentar does for a posting: a missing row created first for every material, then the
  -- rows locked, would hold a new row (the table's order is not the ids' once a material is
  -- edited) while waiting on one a posting holds, and the posting, going on to that new row,
  -- would wait on the count: a deadlock.
  DECLARE
    v_corte  timestamptz;
    r        record;
    n        integer := 0;
  BEGIN
    SELECT fec_corte INTO v_corte FROM conteos WHERE id_conteo = p_id_conteo;
    FOR r IN SELECT id_mat_prima FROM mate_primas ORDER BY id_mat_prima LOOP
      INSERT INTO stock_saldos (id_mat_prima) VALUES (r.id_mat_prima) ON CONFLICT DO NOTHING;
      PERFORM 1 FROM stock_saldos WHERE id_mat_prima = r.id_mat_prima FOR UPDATE;
    END LOOP;
    PERFORM 1 FROM inventario_periodo FOR UPDATE;
    UPDATE conteo_lineas l
       SET sistema = coalesce((SELECT sum(m.cantidad) FROM stock_movimientos m
                                WHERE m.id_mat_prima = l.id_mat_prima AND m.fec <= v_corte), 0)
     WHERE l.id_conteo = p_id_conteo;
    FOR r IN
      SELECT id_mat_prima, contado - sistema AS diferencia
        FROM conteo_lineas
       WHERE id_conteo = p_id_conteo AND contado <> sistema
       ORDER BY id_mat_prima
    LOOP
      PERFORM stock_asentar(r.id_mat_prima, 'ajuste_conteo', r.diferencia, NULL, 'conteo',
                            p_id_conteo, p_id_conteo, v_corte, p_id_usuario, NULL);
      n := n + 1;
    END LOOP;
    IF n = 0 THEN
      -- nothing posted: the period check of stock_asentar did not run
      PERFORM 1 FROM inventario_periodo WHERE cerrado_hasta >= v_corte;
      IF FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
          DETAIL = (SELECT to_char(cerrado_hasta AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
                      FROM inventario_periodo);
      END IF;
    END IF;
    UPDATE inventario_periodo SET cerrado_hasta = greatest(cerrado_hasta, v_corte);
    UPDATE conteos SET estado = 'aplicado', fec_aplicacion = now(), id_usuario_aplica = p_id_usuario,
                       updated_at = now()
     WHERE id_conteo = p_id_conteo;
    RETURN n;
  END;
$fn$;
`,
  },
  {
    path: 'src/inventario/sql/inventario_consumir_comanda.sql',
    text: `CREATE OR REPLACE FUNCTION inventario_consumir_comanda(p_id_comanda bigint, p_id_usuario integer,
                                            p_fec timestamptz DEFAULT now())
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- A closed comanda uses its recipes: each line with a recipe and no live consumption gets
  -- one (consumos_venta), and one consumo_venta movement per ingredient of the recipe as it
  -- is now (line quantity x recipe quantity), valued at the average cost, dated now (a close:
  -- its fec_cierre, set in the same transaction; a restore of a closed comanda, or a line
  -- inserted into one: when that happens, like the reversal it follows, never back in a
  -- period a count has closed); the line's theoretical cost is the sum of those values.
  -- p_fec is for a replay of past closes (the demo's build), in time order. Answers the
  -- (line, ingredient) pairs it found (a quantity that rounds to 0 posts no movement).
  --
  -- The effect is what stock_asentar would post for each pair, in ascending (id_mat_prima,
  -- id_consumo) order, written set-based:
  -- 1. the (line, ingredient) pairs are read with the recipes as they are now, and the
  --    materials they name with their balance rows;
  -- 2. the balance rows are locked in ascending id_mat_prima order (as stock_asentar and a
  --    count take them, so no two postings wait on each other in opposite orders); when one
  --    is missing, the rows are created and locked one material at a time in that order, as
  --    stock_asentar does (a missing row created first while locking the others out of order
  --    could deadlock with a count: see inventario_aplicar_conteo);
  -- 3. after the locks, one statement reads the closed period (a count applied meanwhile is
  --    seen; the closed period includes its cut-off: PERIODO_CERRADO, and then nothing is
  --    written) and posts: each pair valued at its material's average (an outflow leaves it
  --    as it is, so every movement of a material is valued at the average read under the
  --    lock) with its running balance (the balance plus the sum of the material's movements
  --    up to it, by a window); the consumptions, in line order, each with its theoretical
  --    cost (-sum of its pairs' values); the movements in (material, consumption) order; and
  --    the balances from their movements' sums.
  -- The comanda's row is locked by the close, so its lines and their live consumptions do not
  -- change between the statements; the pairs read in 1 are the ones posted in 3.
  DECLARE
    v_fec        timestamptz := p_fec;
    v_items      bigint[];
    v_mats       integer[];
    v_cants      numeric[];
    v_materiales integer[];
    v_con_saldo  bigint;
    v_corte      timestamptz;
    v_cerrado    boolean;
    v_mat        integer;
    v_n          bigint;
  BEGIN
    SELECT array_agg(d.id_deta_comanda ORDER BY rp.id_mat_prima, d.id_deta_comanda),
           array_agg(rp.id_mat_prima ORDER BY rp.id_mat_prima, d.id_deta_comanda),
           array_agg(-round(d.cantidad * rp.cantidad, 4) ORDER BY rp.id_mat_prima, d.id_deta_comanda),
           array_agg(DISTINCT rp.id_mat_prima ORDER BY rp.id_mat_prima),
           count(DISTINCT s.id_mat_prima)
      INTO v_items, v_mats, v_cants, v_materiales, v_con_saldo
      FROM deta_comandas d
      JOIN receta_producto rp ON rp.id_producto = d.id_producto
      LEFT JOIN stock_saldos s ON s.id_mat_prima = rp.id_mat_prima
     WHERE d.id_comanda = p_id_comanda
       AND NOT EXISTS (SELECT 1 FROM consumos_venta c WHERE c.id_item = d.id_deta_comanda AND NOT c.revertido);
    IF v_items IS NULL THEN
      RETURN 0;
    END IF;
    IF v_con_saldo = cardinality(v_materiales) THEN
      -- every balance row exists (rows are never deleted while a recipe names the material)
      PERFORM 1 FROM stock_saldos WHERE id_mat_prima = ANY (v_materiales)
        ORDER BY id_mat_prima FOR UPDATE;
      GET DIAGNOSTICS v_n = ROW_COUNT;
    END IF;
    IF v_n IS DISTINCT FROM cardinality(v_materiales)::bigint THEN
      FOREACH v_mat IN ARRAY v_materiales LOOP
        INSERT INTO stock_saldos (id_mat_prima) VALUES (v_mat) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM stock_saldos WHERE id_mat_prima = v_mat FOR UPDATE;
      END LOOP;
    END IF;
    WITH periodo AS (
      SELECT cerrado_hasta, coalesce(v_fec <= cerrado_hasta, false) AS cerrado
        FROM inventario_periodo),
    e AS (
      SELECT u.orden, u.id_item, u.id_mat_prima, u.cantidad, s.costo_promedio AS costo,
             round(u.cantidad * s.costo_promedio, 4) AS valor,
             s.cantidad + sum(u.cantidad) OVER (PARTITION BY u.id_mat_prima ORDER BY u.orden
                                                ROWS UNBOUNDED PRECEDING) AS saldo
        FROM unnest(v_items, v_mats, v_cants) WITH ORDINALITY AS u(id_item, id_mat_prima, cantidad, orden)
        JOIN stock_saldos s ON s.id_mat_prima = u.id_mat_prima
       WHERE NOT (SELECT cerrado FROM periodo)),
    c AS (
      INSERT INTO consumos_venta (id_item, id_comanda, id_producto, cantidad, fec, costo_teorico)
      SELECT d.id_deta_comanda, d.id_comanda, d.id_producto, d.cantidad, v_fec, -k.valor
        FROM (SELECT id_item, sum(valor) AS valor FROM e GROUP BY id_item) k
        JOIN deta_comandas d ON d.id_deta_comanda = k.id_item
       ORDER BY d.id_deta_comanda
      RETURNING id_consumo, id_item),
    m AS (
      INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                     saldo_cantidad, saldo_costo, origen, id_origen, id_documento,
                                     fec, id_usuario)
      SELECT e.id_mat_prima, 'consumo_venta', e.cantidad, e.costo, e.valor,
             e.saldo, e.costo, 'consumo', c.id_consumo, p_id_comanda, v_fec, p_id_usuario
        FROM e
        JOIN c ON c.id_item = e.id_item
       WHERE e.cantidad <> 0
       ORDER BY e.orden
      RETURNING id_mat_prima, cantidad, valor),
    saldos AS (
      UPDATE stock_saldos s
         SET cantidad = s.cantidad + a.cantidad, valor = s.valor + a.valor,
             movimientos = s.movimientos + a.n, updated_at = now()
        FROM (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n
                FROM m GROUP BY id_mat_prima) a
       WHERE s.id_mat_prima = a.id_mat_prima)
    SELECT cerrado_hasta, cerrado INTO v_corte, v_cerrado FROM periodo;
    IF v_cerrado THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
        DETAIL = to_char(v_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    END IF;
    RETURN cardinality(v_items);
  END;
$fn$;
`,
  },
  {
    path: 'src/inventario/sql/inventario_revertir_comanda.sql',
    text: `CREATE OR REPLACE FUNCTION inventario_revertir_comanda(p_id_comanda bigint, p_id_usuario integer)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- A reopened (or deleted) closed comanda gives its ingredients back: each live consumption
  -- of its lines is reverted, and each of its consumo_venta movements gets a reverso_consumo
  -- of the same quantity at the same unit cost, dated now. Answers the movements posted.
  --
  -- The effect is what stock_asentar would post for each movement, in ascending
  -- (id_mat_prima, consumption) order, written set-based: the balance rows locked in ascending
  -- id order and read (created one at a time in that order if one is missing, as in
  -- inventario_consumir_comanda), the closed period checked after the locks
  -- (PERIODO_CERRADO), then the running balance and the moving average (each reversal is an
  -- inflow at the cost it went out at: round((q0*c0 + q*c)/(q0 + q), 6), or c when q0 <= 0)
  -- walked in memory in that order, and the movements and the balances written by one
  -- statement.
  DECLARE
    v_origenes   bigint[];
    v_mats       integer[];
    v_cants      numeric[];
    v_costos     numeric[];
    v_materiales integer[];
    v_con_saldo  bigint;
    v_n          bigint;
    v_mat        integer;
    v_ids        integer[];
    v_q0         numeric[];
    v_c0         numeric[];
    v_saldos     numeric[];
    v_promedios  numeric[];
    v_cant       numeric(14,4);
    v_prom       numeric(14,6);
    v_corte      timestamptz;
    j            integer := 0;
  BEGIN
    WITH revertidos AS (
      UPDATE consumos_venta SET revertido = true, fec_reverso = now()
       WHERE id_comanda = p_id_comanda AND NOT revertido
      RETURNING id_consumo)
    SELECT array_agg(m.id_origen ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(m.id_mat_prima ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(-m.cantidad ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(m.costo_unitario ORDER BY m.id_mat_prima, m.id_origen),
           array_agg(DISTINCT m.id_mat_prima ORDER BY m.id_mat_prima),
           count(DISTINCT s.id_mat_prima)
      INTO v_origenes, v_mats, v_cants, v_costos, v_materiales, v_con_saldo
      FROM revertidos v
      JOIN stock_movimientos m
        ON m.origen = 'consumo' AND m.id_origen = v.id_consumo AND m.tipo = 'consumo_venta'
      LEFT JOIN stock_saldos s ON s.id_mat_prima = m.id_mat_prima;
    IF v_origenes IS NULL THEN
      RETURN 0;
    END IF;
    IF v_con_saldo <> cardinality(v_materiales) THEN
      FOREACH v_mat IN ARRAY v_materiales LOOP
        INSERT INTO stock_saldos (id_mat_prima) VALUES (v_mat) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM stock_saldos WHERE id_mat_prima = v_mat FOR UPDATE;
      END LOOP;
    END IF;
    -- the rows locked in id order (again, harmlessly, after the loop) and read under the lock
    SELECT array_agg(id_mat_prima ORDER BY id_mat_prima), array_agg(cantidad ORDER BY id_mat_prima),
           array_agg(costo_promedio ORDER BY id_mat_prima)
      INTO v_ids, v_q0, v_c0
      FROM (SELECT id_mat_prima, cantidad, costo_promedio FROM stock_saldos
             WHERE id_mat_prima = ANY (v_materiales) ORDER BY id_mat_prima FOR UPDATE) l;
    -- read after the lock: a count applied meanwhile is seen
    SELECT cerrado_hasta INTO v_corte FROM inventario_periodo;
    IF v_corte IS NOT NULL AND now() <= v_corte THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'PERIODO_CERRADO',
        DETAIL = to_char(v_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    END IF;
    v_mat := NULL;
    FOR i IN 1 .. cardinality(v_origenes) LOOP
      IF v_mats[i] IS DISTINCT FROM v_mat THEN
        v_mat := v_mats[i];
        j := j + 1;
        v_cant := v_q0[j];
        v_prom := v_c0[j];
      END IF;
      v_prom := CASE WHEN v_cant <= 0 THEN v_costos[i]
                     ELSE round((v_cant * v_prom + v_cants[i] * v_costos[i]) / (v_cant + v_cants[i]), 6) END;
      v_cant := v_cant + v_cants[i];
      v_saldos[i] := v_cant;
      v_promedios[i] := v_prom;
    END LOOP;
    WITH m AS (
      INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                     saldo_cantidad, saldo_costo, origen, id_origen, id_documento,
                                     fec, id_usuario)
      SELECT u.id_mat_prima, 'reverso_consumo', u.cantidad, u.costo, round(u.cantidad * u.costo, 4),
             u.saldo, u.promedio, 'consumo', u.id_origen, p_id_comanda, now(), p_id_usuario
        FROM unnest(v_origenes, v_mats, v_cants, v_costos, v_saldos, v_promedios) WITH ORDINALITY
             AS u(id_origen, id_mat_prima, cantidad, costo, saldo, promedio, orden)
       ORDER BY u.orden
      RETURNING id_movimiento, id_mat_prima, cantidad, valor, saldo_costo)
    UPDATE stock_saldos s
       SET cantidad = s.cantidad + a.cantidad, valor = s.valor + a.valor, costo_promedio = a.promedio,
           movimientos = s.movimientos + a.n, updated_at = now()
      FROM (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n,
                   (array_agg(saldo_costo ORDER BY id_movimiento DESC))[1] AS promedio
              FROM m GROUP BY id_mat_prima) a
     WHERE s.id_mat_prima = a.id_mat_prima;
    RETURN cardinality(v_origenes);
  END;
$fn$;
`,
  },
  {
    path: 'src/inventario/sql/inventario_sincronizar_compra.sql',
    text: `CREATE OR REPLACE FUNCTION inventario_sincronizar_compra(p_id_compra integer, p_id_usuario integer)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- The ledger follows the purchase's raw-material lines as they are now (none once it is
  -- deleted): a reverso_compra for each compra movement whose line is gone (dated like it),
  -- a compra for each line without one (dated fec_compra, at the line's cost). In ascending
  -- material order. Every movement names p_id_usuario, who saved or deleted the purchase.
  -- Answers how many movements it posted.
  DECLARE
    r  record;
    n  integer := 0;
  BEGIN
    FOR r IN
      SELECT * FROM (
        SELECT m.id_mat_prima, 'reverso_compra' AS tipo, -m.cantidad AS cantidad,
               NULL::numeric AS costo, m.id_origen, m.fec
          FROM stock_movimientos m
         WHERE m.origen = 'compra' AND m.id_documento = p_id_compra AND m.tipo = 'compra'
           AND NOT EXISTS (SELECT 1 FROM deta_comp_materias d WHERE d.id_deta_comp_materia = m.id_origen)
           AND NOT EXISTS (SELECT 1 FROM stock_movimientos rv
                            WHERE rv.origen = 'compra' AND rv.id_origen = m.id_origen
                              AND rv.id_mat_prima = m.id_mat_prima AND rv.tipo = 'reverso_compra')
        UNION ALL
        SELECT d.id_mat_prima, 'compra', d.cantidad, d.costo_unitario::numeric,
               d.id_deta_comp_materia, c.fec_compra
          FROM deta_comp_materias d
          JOIN compras c ON c.id_compra = d.id_compra
         WHERE d.id_compra = p_id_compra
           AND NOT EXISTS (SELECT 1 FROM stock_movimientos m
                            WHERE m.origen = 'compra' AND m.id_origen = d.id_deta_comp_materia
                              AND m.tipo = 'compra')
      ) AS efectos
      ORDER BY id_mat_prima, tipo DESC, id_origen
    LOOP
      PERFORM stock_asentar(r.id_mat_prima, r.tipo, r.cantidad, r.costo, 'compra', r.id_origen,
                            p_id_compra, r.fec, p_id_usuario, NULL);
      n := n + 1;
    END LOOP;
    RETURN n;
  END;
$fn$;

COMMENT ON FUNCTION inventario_sincronizar_compra(integer, integer) IS
  'The stock ledger follows a purchase''s raw-material lines, each movement naming who saved or deleted it';
`,
  },
  {
    path: 'src/inventario/sql/stock_movimientos_inmutables.sql',
    text: `-- The stock ledger is append-only (docs/inventario.md): a movement is never updated, deleted or
-- truncated; a correction is a reversal or an adjustment, posted as a movement of its own.
CREATE OR REPLACE FUNCTION stock_movimientos_inmutables() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  BEGIN
    RAISE EXCEPTION USING ERRCODE = '42501',
      MESSAGE = 'stock_movimientos es de solo anexado: un movimiento no se modifica ni se borra',
      HINT = 'Registre un movimiento de reverso o de ajuste';
  END;
$fn$;

DROP TRIGGER IF EXISTS tg_stock_movimientos_inmutables ON stock_movimientos;
CREATE TRIGGER tg_stock_movimientos_inmutables
  BEFORE UPDATE OR DELETE ON stock_movimientos
  FOR EACH ROW EXECUTE FUNCTION stock_movimientos_inmutables();

DROP TRIGGER IF EXISTS tg_stock_movimientos_sin_truncate ON stock_movimientos;
CREATE TRIGGER tg_stock_movimientos_sin_truncate
  BEFORE TRUNCATE ON stock_movimientos
  FOR EACH STATEMENT EXECUTE FUNCTION stock_movimientos_inmutables();
`,
  },
  {
    path: 'src/reportes/sql/report_asistencia.sql',
    text: `CREATE OR REPLACE FUNCTION report_asistencia(p_desde date, p_hasta date)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- Attendance per person over the work days p_desde..p_hasta (inclusive), from the daily
  -- summaries: {desde, hasta, personas: [{id_usuario, documento, nombre, apellido,
  -- dias_trabajados (work days with punches), minutos (closed intervals), dias_incompletos
  -- (days with an open interval or an unpaired out-punch)}]}, people with at least one day,
  -- ordered by apellido, nombre. desde/hasta are required (22023).
  BEGIN
    IF p_desde IS NULL OR p_hasta IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'desde y hasta son obligatorios (AAAA-MM-DD)';
    END IF;

    RETURN jsonb_build_object(
      'desde', p_desde,
      'hasta', p_hasta,
      'personas', coalesce((
        SELECT jsonb_agg(jsonb_build_object(
                 'id_usuario', u.id_usuario,
                 'documento', u.documento,
                 'nombre', u.nombre,
                 'apellido', u.apellido,
                 'dias_trabajados', r.dias,
                 'minutos', r.minutos,
                 'dias_incompletos', r.incompletos
               ) ORDER BY u.apellido NULLS LAST, u.nombre, u.id_usuario)
          FROM (SELECT id_usuario,
                       count(*)::integer AS dias,
                       sum(minutos)::integer AS minutos,
                       (count(*) FILTER (WHERE incompleto))::integer AS incompletos
                  FROM asistencia_resumen_diario
                 WHERE fecha_trabajo BETWEEN p_desde AND p_hasta
                 GROUP BY id_usuario) AS r
          JOIN usuarios u ON u.id_usuario = r.id_usuario
      ), '[]'::jsonb)
    );
  END;
$fn$;

COMMENT ON FUNCTION report_asistencia(date, date) IS
  'RPC report_asistencia: worked days, minutes and incomplete days per person over a range of work days';
`,
  },
  {
    path: 'src/reportes/sql/reportes_marcar_categoria.sql',
    text: `CREATE OR REPLACE FUNCTION reportes_marcar_categoria() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- a product changed category: the comandas that sold it count in another one now
  BEGIN
    INSERT INTO reportes_cambios (id_comanda)
      SELECT id_comanda FROM reporte_ventas_productos WHERE id_producto = NEW.id_producto;
    RETURN NULL;
  END;
$fn$;

DROP TRIGGER IF EXISTS tg_reportes_productos ON productos;
CREATE TRIGGER tg_reportes_productos AFTER UPDATE OF id_categoria ON productos
  FOR EACH ROW WHEN (OLD.id_categoria IS DISTINCT FROM NEW.id_categoria)
  EXECUTE FUNCTION reportes_marcar_categoria();
`,
  },
  {
    path: 'src/reportes/sql/reportes_marcar_tasas.sql',
    text: `CREATE OR REPLACE FUNCTION reportes_marcar_tasas() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- the IGV rates changed: the comandas closed without a frozen rate follow them
  BEGIN
    INSERT INTO reportes_cambios (id_comanda)
      SELECT id_comanda FROM reporte_ventas WHERE NOT tasa_congelada;
    RETURN NULL;
  END;
$fn$;

DROP TRIGGER IF EXISTS tg_reportes_tasas ON tasas_igv;
CREATE TRIGGER tg_reportes_tasas AFTER INSERT OR UPDATE OR DELETE ON tasas_igv
  FOR EACH STATEMENT EXECUTE FUNCTION reportes_marcar_tasas();
`,
  },
  {
    path: 'src/reportes/sql/reportes_marcar.sql',
    text: `CREATE OR REPLACE FUNCTION reportes_marcar() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- a row of a comanda changed: its report rows are computed again
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO reportes_cambios (id_comanda) VALUES (OLD.id_comanda);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.id_comanda IS DISTINCT FROM OLD.id_comanda) THEN
      INSERT INTO reportes_cambios (id_comanda) VALUES (NEW.id_comanda);
    END IF;
    RETURN NULL;
  END;
$fn$;

-- a comanda that is or was closed; the open ones' changes (most of them) fire nothing
DROP TRIGGER IF EXISTS tg_reportes_comandas_insert ON comandas;
CREATE TRIGGER tg_reportes_comandas_insert AFTER INSERT ON comandas
  FOR EACH ROW WHEN (NEW.estado = 'cerrada') EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_comandas_update ON comandas;
CREATE TRIGGER tg_reportes_comandas_update AFTER UPDATE ON comandas
  FOR EACH ROW WHEN (OLD.estado = 'cerrada' OR NEW.estado = 'cerrada')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_comandas_delete ON comandas;
CREATE TRIGGER tg_reportes_comandas_delete AFTER DELETE ON comandas
  FOR EACH ROW WHEN (OLD.estado = 'cerrada') EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_cuentas ON cuentas_comanda;
CREATE TRIGGER tg_reportes_cuentas AFTER INSERT OR UPDATE OR DELETE ON cuentas_comanda
  FOR EACH ROW EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_pagos ON pagos;
CREATE TRIGGER tg_reportes_pagos AFTER INSERT OR UPDATE OR DELETE ON pagos
  FOR EACH ROW EXECUTE FUNCTION reportes_marcar();
`,
  },
  {
    path: 'src/reportes/sql/reportes_refrescar.sql',
    text: `CREATE OR REPLACE FUNCTION reportes_refrescar(p_zona text)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- Computes again the report rows of the comandas in reportes_cambios (and, when the tenant's
  -- time zone is not the one they were computed in, of those whose rate may depend on it).
  -- Refreshes run one at a time (a transaction-scoped advisory lock); the changes' writers
  -- take no lock here. The log's rows are taken by one DELETE: those of transactions still
  -- running are not visible to it and stay for the next refresh; the rows are computed by the
  -- following statements, each with a newer snapshot, so every change whose id was taken is
  -- seen. Answers the number of comandas computed again.
  DECLARE
    v_ids  bigint[];
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('reportes_refrescar'));
    -- a first refresh computes years of comandas: its sorts and joins in memory, not compiled
    PERFORM set_config('work_mem', '64MB', true), set_config('jit', 'off', true);
    -- Another zone moves a close's local day by one day at most (offsets are within ±14 h of
    -- UTC), and the day matters only for a comanda without a frozen rate, whose rate is the
    -- one in force on that day: only those closed within a day of a rate's start may change.
    IF (SELECT zona FROM reportes_estado) IS DISTINCT FROM p_zona THEN
      INSERT INTO reportes_cambios (id_comanda)
        SELECT v.id_comanda FROM reporte_ventas v
         WHERE NOT v.tasa_congelada
           AND EXISTS (SELECT 1 FROM tasas_igv t
                        WHERE t.vigente_desde BETWEEN (v.fec_cierre AT TIME ZONE 'UTC')::date - 1
                                                  AND (v.fec_cierre AT TIME ZONE 'UTC')::date + 1);
      UPDATE reportes_estado SET zona = p_zona;
    END IF;
    WITH tomados AS (DELETE FROM reportes_cambios RETURNING id_comanda)
    SELECT array_agg(DISTINCT id_comanda) INTO v_ids FROM tomados;
    IF v_ids IS NULL THEN
      RETURN 0;
    END IF;
    DELETE FROM reporte_ventas_metodos WHERE id_comanda IN (SELECT unnest(v_ids));
    DELETE FROM reporte_ventas_productos WHERE id_comanda IN (SELECT unnest(v_ids));
    DELETE FROM reporte_ventas WHERE id_comanda IN (SELECT unnest(v_ids));

    -- the comanda: cuenta_comanda's discount, the rate frozen at its close (else the one in
    -- force on its local day), the net sale, the theoretical cost of its live consumptions
    INSERT INTO reporte_ventas (id_comanda, fec_cierre, id_mesa, id_usuario, total, descuento,
                                neta, costo, tasa_congelada)
    SELECT x.id_comanda, x.fec_cierre, x.id_mesa, x.id_usuario, x.total, x.descuento,
           round((x.total - x.descuento) / (1 + x.tasa), 2),
           coalesce((SELECT sum(cv.costo_teorico) FROM consumos_venta cv
                      WHERE cv.id_comanda = x.id_comanda AND NOT cv.revertido), 0),
           x.congelada
      FROM (SELECT c.id_comanda, c.fec_cierre, c.id_mesa, c.id_usuario, c.total,
                   CASE cc.descuento_tipo
                     WHEN 'porcentaje' THEN round(c.total * cc.descuento_valor / 100, 2)
                     WHEN 'monto' THEN least(cc.descuento_valor, c.total)
                     ELSE 0 END AS descuento,
                   coalesce(cc.tasa_igv,
                            (SELECT t.tasa FROM tasas_igv t
                              WHERE t.vigente_desde <= (c.fec_cierre AT TIME ZONE p_zona)::date
                              ORDER BY t.vigente_desde DESC LIMIT 1),
                            0) AS tasa,
                   cc.tasa_igv IS NOT NULL AS congelada
              FROM comandas c
              LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
             WHERE c.id_comanda IN (SELECT unnest(v_ids))
               AND c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre IS NOT NULL) AS x;

    -- its products: each line's share of the discount and net sale (subtotal / total), its
    -- live consumption's cost; the first product of each category in the comanda flagged
    INSERT INTO reporte_ventas_productos (id_comanda, id_producto, fec_cierre, id_categoria,
                                          primero_categoria, unidades, venta_bruta, descuento,
                                          neta, costo)
    SELECT x.id_comanda, x.id_producto, x.fec_cierre, p.id_categoria,
           row_number() OVER (PARTITION BY x.id_comanda, p.id_categoria ORDER BY x.id_producto) = 1,
           x.unidades, x.venta_bruta, x.descuento, x.neta, x.costo
      FROM (SELECT v.id_comanda, d.id_producto, v.fec_cierre, sum(d.cantidad) AS unidades,
                   sum(d.subtotal) AS venta_bruta,
                   sum(CASE WHEN v.descuento > 0 THEN v.descuento * d.subtotal / v.total ELSE 0 END) AS descuento,
                   sum(CASE WHEN v.total > 0 THEN v.neta * d.subtotal / v.total ELSE 0 END) AS neta,
                   sum(coalesce(cv.costo_teorico, 0)) AS costo
              FROM reporte_ventas v
              JOIN deta_comandas d ON d.id_comanda = v.id_comanda
              LEFT JOIN consumos_venta cv ON cv.id_item = d.id_deta_comanda AND NOT cv.revertido
             WHERE v.id_comanda IN (SELECT unnest(v_ids))
             GROUP BY v.id_comanda, d.id_producto, v.fec_cierre) AS x
      LEFT JOIN productos p ON p.id_producto = x.id_producto;

    -- its payment methods: each applied payment's share is monto / what its applied payments
    -- paid in all
    INSERT INTO reporte_ventas_metodos (id_comanda, id_metodo_pago, fec_cierre, monto, propina,
                                        descuento, neta, costo)
    SELECT p.id_comanda, p.id_metodo_pago, v.fec_cierre, sum(p.monto), sum(p.propina),
           coalesce(sum(v.descuento * p.monto / nullif(p.pagado, 0)), 0),
           coalesce(sum(v.neta * p.monto / nullif(p.pagado, 0)), 0),
           coalesce(sum(v.costo * p.monto / nullif(p.pagado, 0)), 0)
      FROM (SELECT pg.id_comanda, pg.id_metodo_pago, pg.monto, pg.propina,
                   sum(pg.monto) OVER (PARTITION BY pg.id_comanda) AS pagado
              FROM pagos pg
             WHERE pg.id_comanda IN (SELECT unnest(v_ids)) AND pg.estado = 'aplicado') AS p
      JOIN reporte_ventas v ON v.id_comanda = p.id_comanda
     GROUP BY p.id_comanda, p.id_metodo_pago, v.fec_cierre;
    RETURN cardinality(v_ids);
  END;
$fn$;
`,
  },
  {
    path: 'src/rpc/sql/delete_compra.sql',
    text: `CREATE OR REPLACE FUNCTION delete_compra(p_id_compra integer)
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
`,
  },
  {
    path: 'src/rpc/sql/find_usuarios_por_documentos.sql',
    text: `CREATE OR REPLACE FUNCTION find_usuarios_por_documentos(p_docs text[])
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
`,
  },
  {
    path: 'src/rpc/sql/get_compra.sql',
    text: `CREATE OR REPLACE FUNCTION get_compra(p_id_compra integer)
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
`,
  },
  {
    path: 'src/rpc/sql/get_materia.sql',
    text: `CREATE OR REPLACE FUNCTION get_materia(p_id_mat_prima integer)
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
`,
  },
  {
    path: 'src/rpc/sql/get_producto.sql',
    text: `CREATE OR REPLACE FUNCTION get_producto(p_id_producto integer)
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
`,
  },
  {
    path: 'src/rpc/sql/report_gastos.sql',
    text: `CREATE OR REPLACE FUNCTION report_gastos(p_year integer, p_time_zone text)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- Yearly expenses: purchases (compras.total) per month of fec_compra in p_time_zone and per
  -- supplier; {year, meses: [{mes, total}] (all 12 months), proveedores: [{id_proveedor,
  -- razon_social, total}] (suppliers with purchases that year, highest total first), total}.
  -- p_year and p_time_zone are required (22023); an unknown zone raises 22023 too.
  DECLARE
    v_desde timestamptz;
    v_hasta timestamptz;
  BEGIN
    IF p_year IS NULL OR p_time_zone IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'report_gastos: year y time_zone son obligatorios';
    END IF;
    v_desde := make_timestamptz(p_year, 1, 1, 0, 0, 0, p_time_zone);
    v_hasta := make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, p_time_zone);

    RETURN (
      WITH del_anio AS (
        SELECT c.id_proveedor,
               extract(month FROM c.fec_compra AT TIME ZONE p_time_zone)::integer AS mes,
               c.total
          FROM compras c
         WHERE c.fec_compra >= v_desde
           AND c.fec_compra < v_hasta
      )
      SELECT jsonb_build_object(
               'year', p_year,
               'meses', (
                 SELECT jsonb_agg(jsonb_build_object(
                          'mes', m.mes,
                          'total', coalesce((SELECT sum(d.total) FROM del_anio d
                                              WHERE d.mes = m.mes), 0.00)
                        ) ORDER BY m.mes)
                   FROM generate_series(1, 12) AS m(mes)),
               'proveedores', coalesce((
                 SELECT jsonb_agg(jsonb_build_object(
                          'id_proveedor', s.id_proveedor,
                          'razon_social', p.razon_social,
                          'total', s.total
                        ) ORDER BY s.total DESC, p.razon_social, s.id_proveedor)
                   FROM (SELECT d.id_proveedor, sum(d.total) AS total
                           FROM del_anio d
                          GROUP BY d.id_proveedor) AS s
                   JOIN proveedores p ON p.id_proveedor = s.id_proveedor
               ), '[]'::jsonb),
               'total', coalesce((SELECT sum(d.total) FROM del_anio d), 0.00)
             )
    );
  END;
$fn$;

COMMENT ON FUNCTION report_gastos(integer, text) IS
  'RPC report_gastos: purchases per month of fec_compra in a time zone and per supplier';
`,
  },
  {
    path: 'src/rpc/sql/report_tickets.sql',
    text: `CREATE OR REPLACE FUNCTION report_tickets(p_year integer, p_time_zone text)
RETURNS jsonb
LANGUAGE plpgsql
STABLE
AS $fn$
  -- Yearly sales: closed, not deleted comandas (estado 'cerrada', eliminada false) counted
  -- and summed (their total) per month of fec_cierre in p_time_zone; {year, meses: [{mes
  -- 1..12, tickets, total}] (all 12 months), total_tickets, total}. Open tickets have no
  -- sale yet and deleted ones are voids: neither counts. A ticket reopened and closed again
  -- counts once, in the month of its last close.
  -- p_year and p_time_zone are required (22023); an unknown zone raises 22023 too.
  DECLARE
    v_desde timestamptz;
    v_hasta timestamptz;
  BEGIN
    IF p_year IS NULL OR p_time_zone IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = 'report_tickets: year y time_zone son obligatorios';
    END IF;
    v_desde := make_timestamptz(p_year, 1, 1, 0, 0, 0, p_time_zone);
    v_hasta := make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, p_time_zone);

    RETURN (
      WITH por_mes AS (
        SELECT extract(month FROM c.fec_cierre AT TIME ZONE p_time_zone)::integer AS mes,
               count(*)::integer AS tickets,
               sum(c.total) AS total
          FROM comandas c
         WHERE c.estado = 'cerrada'
           AND NOT c.eliminada
           AND c.fec_cierre >= v_desde
           AND c.fec_cierre < v_hasta
         GROUP BY 1
      )
      SELECT jsonb_build_object(
               'year', p_year,
               'meses', (
                 SELECT jsonb_agg(jsonb_build_object(
                          'mes', m.mes,
                          'tickets', coalesce(t.tickets, 0),
                          'total', coalesce(t.total, 0.00)
                        ) ORDER BY m.mes)
                   FROM generate_series(1, 12) AS m(mes)
                   LEFT JOIN por_mes t ON t.mes = m.mes),
               'total_tickets', coalesce((SELECT sum(t.tickets) FROM por_mes t), 0),
               'total', coalesce((SELECT sum(t.total) FROM por_mes t), 0.00)
             )
    );
  END;
$fn$;

COMMENT ON FUNCTION report_tickets(integer, text) IS
  'RPC report_tickets: closed, not deleted comandas per month of fec_cierre in a time zone';
`,
  },
  {
    path: 'src/rpc/sql/save_compra.sql',
    text: `CREATE OR REPLACE FUNCTION save_compra(p_data jsonb)
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
`,
  },
  {
    path: 'src/rpc/sql/save_materia.sql',
    text: `CREATE OR REPLACE FUNCTION save_materia(p_data jsonb)
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
`,
  },
  {
    path: 'src/rpc/sql/save_producto.sql',
    text: `CREATE OR REPLACE FUNCTION save_producto(p_data jsonb)
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
`,
  },
  {
    path: 'src/rpc/sql/vw_compras.sql',
    text: `-- The purchase list of the generic table routes (docs/generic-tables.md).
CREATE OR REPLACE VIEW vw_compras AS
  SELECT c.id_compra,
         c.fec_compra,
         c.id_proveedor,
         p.razon_social,
         c.total,
         (SELECT count(*) FROM deta_comp_producto d WHERE d.id_compra = c.id_compra)::integer
           AS n_productos,
         (SELECT count(*) FROM deta_comp_materias d WHERE d.id_compra = c.id_compra)::integer
           AS n_materias,
         c.observacion
    FROM compras c
    JOIN proveedores p ON p.id_proveedor = c.id_proveedor;

COMMENT ON VIEW vw_compras IS 'Purchase list: one row per compra with supplier name and line counts';
`,
  },
  {
    path: 'src/sign-in/sql/usuarios_fin_de_sesiones.sql',
    text: `-- A deactivated user's sessions end for good (docs/sign-in.md, "Revocation"): setting
-- usuarios.activo to false revokes every open session and records the moment in
-- usuarios.tokens_desde, before which no token of theirs is taken again. Whatever path
-- deactivates the user (SQL, the command line, a route).
CREATE OR REPLACE FUNCTION usuarios_fin_de_sesiones() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- a deactivation ends every session: reactivating the user revives none of them
  NEW.tokens_desde := clock_timestamp();
  UPDATE sesiones_usuario
     SET revocada = NEW.tokens_desde
   WHERE id_usuario = NEW.id_usuario AND revocada IS NULL AND expira > now();
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS tg_usuarios_fin_de_sesiones ON usuarios;
CREATE TRIGGER tg_usuarios_fin_de_sesiones
  BEFORE UPDATE OF activo ON usuarios
  FOR EACH ROW WHEN (OLD.activo AND NOT NEW.activo)
  EXECUTE FUNCTION usuarios_fin_de_sesiones();
`,
  },
  {
    path: 'src/webhooks/sql/webhooks_suscritos.sql',
    text: `-- Who is subscribed to an event type (docs/webhooks.md): the endpoint's eventos names it or its
-- module's wildcard. A SQL function the planner inlines into the statements that use it.
CREATE OR REPLACE FUNCTION webhooks_suscritos(p_tipo text) RETURNS TABLE (id_webhook integer)
LANGUAGE sql STABLE AS $$
  SELECT w.id_webhook FROM webhooks w
   WHERE w.activo
     AND (p_tipo = ANY (w.eventos) OR split_part(p_tipo, '.', 1) || '.*' = ANY (w.eventos))
$$;

COMMENT ON FUNCTION webhooks_suscritos(text) IS
  'The active endpoints subscribed to an event type, by name or by its module''s wildcard';
`,
  },
  {
    path: 'src/webhooks/sql/webhooks_encolar.sql',
    text: `-- One outbox message (docs/webhooks.md) per active endpoint subscribed to p_tipo, with the thin
-- body {type, timestamp, data}; p_clave makes it once per change (a retry writes nothing new).
CREATE OR REPLACE FUNCTION webhooks_encolar(p_tipo text, p_fec timestamptz, p_data jsonb, p_clave text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_mensajes (id_webhook, tipo, clave, cuerpo)
  SELECT s.id_webhook, p_tipo, p_clave,
         json_build_object(
           'type', p_tipo,
           'timestamp', to_char(p_fec AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
           'data', p_data)::text
    FROM webhooks_suscritos(p_tipo) s;
END
$$;

COMMENT ON FUNCTION webhooks_encolar(text, timestamptz, jsonb, text) IS
  'Writes the outbox messages of one event for its subscribed active endpoints';
`,
  },
  {
    path: 'src/webhooks/sql/webhooks_caja_eventos.sql',
    text: `-- A till session's audit entry becomes an outbox message (docs/webhooks.md, "Events").
CREATE OR REPLACE FUNCTION webhooks_caja_eventos() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_data jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  SELECT coalesce((SELECT jsonb_object_agg(key, value) FROM jsonb_each(NEW.detalle)
                    WHERE key LIKE 'id\\_%' AND jsonb_typeof(value) IN ('number', 'string')),
                  '{}'::jsonb)
         || jsonb_build_object('id_sesion', s.id_sesion, 'id_caja', s.id_caja,
                               'id_evento', NEW.id_evento, 'estado', s.estado,
                               'numero_z', s.numero_z)
    INTO v_data
    FROM sesiones_caja s WHERE s.id_sesion = NEW.id_sesion;
  PERFORM webhooks_encolar('sesion_caja.' || NEW.accion, NEW.fec_evento, v_data,
                           'sesion_caja:' || NEW.id_sesion);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_caja_eventos_webhooks ON caja_eventos;
CREATE TRIGGER tr_caja_eventos_webhooks
  AFTER INSERT ON caja_eventos
  FOR EACH ROW EXECUTE FUNCTION webhooks_caja_eventos();
`,
  },
  {
    path: 'src/webhooks/sql/webhooks_comanda_eventos.sql',
    text: `-- A comanda's audit entry becomes an outbox message (docs/webhooks.md, "Events"): pago.* for
-- the money's actions, cocina.* for the kitchen's, comanda.* for the others.
CREATE OR REPLACE FUNCTION webhooks_comanda_eventos() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_tipo text := CASE
    WHEN NEW.accion IN ('pagar', 'anular_pago', 'reembolsar', 'descontar') THEN 'pago.'
    WHEN NEW.accion IN ('enviar', 'disparar', 'preparar', 'listo', 'recuperar', 'entregar') THEN 'cocina.'
    ELSE 'comanda.' END || NEW.accion;
BEGIN
  -- every change of every tenant's comandas runs this: without an active endpoint (the feature
  -- unused) it costs this one lookup, not the INSERT's start-up
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  -- webhooks_encolar's statement with the body built inside it: the comanda is read only for a
  -- subscribed endpoint
  INSERT INTO webhook_mensajes (id_webhook, tipo, clave, cuerpo)
  SELECT s.id_webhook, v_tipo, 'comanda:' || NEW.id_comanda,
         json_build_object(
           'type', v_tipo,
           'timestamp', to_char(NEW.fec_evento AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
           'data',
           coalesce((SELECT jsonb_object_agg(key, value) FROM jsonb_each(NEW.despues)
                      WHERE key LIKE 'id\\_%' AND jsonb_typeof(value) IN ('number', 'string')),
                    '{}'::jsonb)
                   || jsonb_build_object('id_comanda', c.id_comanda, 'id_evento', NEW.id_evento,
                                         'numero_ticket', c.numero_ticket, 'id_mesa', c.id_mesa,
                                         'version', c.version, 'estado', c.estado,
                                         'eliminada', c.eliminada, 'total', c.total))::text
    FROM webhooks_suscritos(v_tipo) s JOIN comandas c ON c.id_comanda = NEW.id_comanda;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_comanda_eventos_webhooks ON comanda_eventos;
CREATE TRIGGER tr_comanda_eventos_webhooks
  AFTER INSERT ON comanda_eventos
  FOR EACH ROW EXECUTE FUNCTION webhooks_comanda_eventos();
`,
  },
  {
    path: 'src/webhooks/sql/webhooks_conteos.sql',
    text: `-- A stock count's creation and application become outbox messages (docs/webhooks.md, "Events").
CREATE OR REPLACE FUNCTION webhooks_conteos() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_accion text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    v_accion := 'conteo_crear';
  ELSIF NEW.estado IS DISTINCT FROM OLD.estado THEN
    v_accion := CASE NEW.estado WHEN 'aplicado' THEN 'conteo_aplicar' ELSE 'conteo_descartar' END;
  ELSE
    RETURN NULL;
  END IF;
  PERFORM webhooks_encolar('inventario.' || v_accion, clock_timestamp(),
    jsonb_build_object('id_conteo', NEW.id_conteo, 'estado', NEW.estado,
                       'fec_corte', NEW.fec_corte),
    'conteo:' || NEW.id_conteo);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_conteos_webhooks ON conteos;
CREATE TRIGGER tr_conteos_webhooks
  AFTER INSERT OR UPDATE OF estado ON conteos
  FOR EACH ROW EXECUTE FUNCTION webhooks_conteos();
`,
  },
  {
    path: 'src/webhooks/sql/webhooks_mermas.sql',
    text: `-- A waste entry becomes an outbox message (docs/webhooks.md, "Events").
CREATE OR REPLACE FUNCTION webhooks_mermas() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  PERFORM webhooks_encolar('inventario.merma', clock_timestamp(),
    jsonb_build_object('id_merma', NEW.id_merma, 'id_mat_prima', NEW.id_mat_prima,
                       'cantidad', NEW.cantidad),
    'mat_prima:' || NEW.id_mat_prima);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_mermas_webhooks ON mermas;
CREATE TRIGGER tr_mermas_webhooks
  AFTER INSERT ON mermas
  FOR EACH ROW EXECUTE FUNCTION webhooks_mermas();
`,
  },
];

/**
 * What `down` runs: nothing. Each file was an object the earlier migrations created, and
 * its definition here does what theirs did: it stays.
 */
const DOWN: readonly string[] = [];

export class SqlSource1796150766861 implements MigrationInterface {
  name = 'SqlSource1796150766861';

  /** The files' text as applied here: what the next `npm run sql:migration` compares with. */
  static readonly sqlSource = SQL_SOURCE;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const entry of SQL_SOURCE) {
      await queryRunner.query(entry.text);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) {
      await queryRunner.query(statement);
    }
  }
}
