import type { MigrationInterface, QueryRunner } from 'typeorm';
import { IDS_OF } from './1765400000000-webhooks';

/**
 * The outbox's triggers no longer notify `webhook_mensajes`: no instance listens to it any more
 * (docs/webhooks.md, "How a message travels"). The instance that committed wakes its dispatcher
 * itself, the others hear of it through Redis, and a poll of the control database's
 * `outbox_due` is the backstop; a LISTEN connection per tenant and instance did not fit the
 * connection budget at a thousand tenants. A NOTIFY nobody hears would still queue at every
 * commit and serialize the commits that send one.
 *
 * Only the two functions that notified are replaced, with the same statements otherwise.
 */
export class WebhooksSinNotify1765500000200 implements MigrationInterface {
  name = 'WebhooksSinNotify1765500000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(encolar(false));
    await queryRunner.query(comandaEventos(false));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(encolar(true));
    await queryRunner.query(comandaEventos(true));
  }
}

/** The notification of 1765400000000, when a statement wrote messages (down only). */
const notifies = (notify: boolean) =>
  notify
    ? `IF FOUND THEN
      PERFORM pg_notify('webhook_mensajes', '');
    END IF;`
    : '';

const encolar = (notify: boolean) => `
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
    ${notifies(notify)}
  END
  $$`;

const comandaEventos = (notify: boolean) => `
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
             'data', ${IDS_OF('NEW.despues')}
                     || jsonb_build_object('id_comanda', c.id_comanda, 'id_evento', NEW.id_evento,
                                           'numero_ticket', c.numero_ticket, 'id_mesa', c.id_mesa,
                                           'version', c.version, 'estado', c.estado,
                                           'eliminada', c.eliminada, 'total', c.total))::text
      FROM webhooks_suscritos(v_tipo) s JOIN comandas c ON c.id_comanda = NEW.id_comanda;
    ${notifies(notify)}
    RETURN NULL;
  END
  $$`;
