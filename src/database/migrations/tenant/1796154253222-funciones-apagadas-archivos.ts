import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SqlSourceEntry } from '../../sql-source';

/**
 * The triggers of the reports and the webhooks skip while the feature is off (a WHEN on the
 * session setting comandas.<feature>), and reportes_seguimiento repairs the reports
 *
 * Written by `npm run sql:migration` (docs/sql.md) with the text the files had then; never
 * edited afterwards: a later change of a file is another migration. It
 * - applies src/reportes/sql/reportes_marcar_categoria.sql
 * - applies src/reportes/sql/reportes_marcar_tasas.sql
 * - applies src/reportes/sql/reportes_marcar.sql
 * - applies src/reportes/sql/reportes_seguimiento.sql
 * - applies src/webhooks/sql/webhooks_caja_eventos.sql
 * - applies src/webhooks/sql/webhooks_comanda_eventos.sql
 * - applies src/webhooks/sql/webhooks_conteos.sql
 * - applies src/webhooks/sql/webhooks_mermas.sql
 */
const SQL_SOURCE: readonly SqlSourceEntry[] = [
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
  FOR EACH ROW WHEN (OLD.id_categoria IS DISTINCT FROM NEW.id_categoria AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
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
  FOR EACH STATEMENT WHEN (current_setting('comandas.reportes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION reportes_marcar_tasas();
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

-- a comanda that is or was closed; the open ones' changes (most of them) fire nothing, nor does
-- any change of a tenant with the feature off (its connections carry comandas.reportes = off,
-- docs/sql.md; reportes_seguimiento repairs what was not marked meanwhile)
DROP TRIGGER IF EXISTS tg_reportes_comandas_insert ON comandas;
CREATE TRIGGER tg_reportes_comandas_insert AFTER INSERT ON comandas
  FOR EACH ROW WHEN (NEW.estado = 'cerrada' AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_comandas_update ON comandas;
CREATE TRIGGER tg_reportes_comandas_update AFTER UPDATE ON comandas
  FOR EACH ROW WHEN ((OLD.estado = 'cerrada' OR NEW.estado = 'cerrada') AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_comandas_delete ON comandas;
CREATE TRIGGER tg_reportes_comandas_delete AFTER DELETE ON comandas
  FOR EACH ROW WHEN (OLD.estado = 'cerrada' AND current_setting('comandas.reportes', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_cuentas ON cuentas_comanda;
CREATE TRIGGER tg_reportes_cuentas AFTER INSERT OR UPDATE OR DELETE ON cuentas_comanda
  FOR EACH ROW WHEN (current_setting('comandas.reportes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION reportes_marcar();

DROP TRIGGER IF EXISTS tg_reportes_pagos ON pagos;
CREATE TRIGGER tg_reportes_pagos AFTER INSERT OR UPDATE OR DELETE ON pagos
  FOR EACH ROW WHEN (current_setting('comandas.reportes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION reportes_marcar();
`,
  },
  {
    path: 'src/reportes/sql/reportes_seguimiento.sql',
    text: `-- Told, when a DataSource of the tenant opens, whether the feature reportes is on for it
-- (features.ts, \`inDatabase.onOpen\`). Off, the triggers of reportes_marcar skip (their WHEN
-- reads comandas.reportes), so the model records that it missed changes; on again, every sale
-- is marked to be computed again by the next reportes_refrescar (docs/reportes.md).
CREATE OR REPLACE FUNCTION reportes_seguimiento(p_activo boolean) RETURNS void
LANGUAGE plpgsql AS $fn$
  BEGIN
    IF NOT p_activo THEN
      UPDATE reportes_estado SET al_dia = false WHERE al_dia;
    ELSIF NOT (SELECT al_dia FROM reportes_estado) THEN
      -- changes went unmarked while the feature was off: every sale is computed again
      INSERT INTO reportes_cambios (id_comanda)
        SELECT id_comanda FROM comandas WHERE estado = 'cerrada'
        UNION
        SELECT id_comanda FROM reporte_ventas;
      UPDATE reportes_estado SET al_dia = true;
    END IF;
  END;
$fn$;
COMMENT ON FUNCTION reportes_seguimiento(boolean) IS
  'Told whether the feature reportes is on when a DataSource opens: records or repairs the changes it did not mark';
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
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_caja_eventos();
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
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_comanda_eventos();
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
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_conteos();
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
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_mermas();
`,
  },
];

/** What `down` runs: the previous text of the files it changed, then what it added dropped. */
const DOWN: readonly string[] = [
  `CREATE OR REPLACE FUNCTION reportes_marcar_categoria() RETURNS trigger
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
  `CREATE OR REPLACE FUNCTION reportes_marcar_tasas() RETURNS trigger
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
  `CREATE OR REPLACE FUNCTION reportes_marcar() RETURNS trigger
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
  `-- A till session's audit entry becomes an outbox message (docs/webhooks.md, "Events").
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
  `-- A comanda's audit entry becomes an outbox message (docs/webhooks.md, "Events"): pago.* for
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
  `-- A stock count's creation and application become outbox messages (docs/webhooks.md, "Events").
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
  `-- A waste entry becomes an outbox message (docs/webhooks.md, "Events").
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
  `DROP FUNCTION IF EXISTS reportes_seguimiento`,
];

export class FuncionesApagadasArchivos1796154253222 implements MigrationInterface {
  name = 'FuncionesApagadasArchivos1796154253222';

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
