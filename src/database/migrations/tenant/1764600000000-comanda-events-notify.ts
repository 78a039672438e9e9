import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live updates (docs/comandas.md, "Live updates"): every audit entry of a comanda notifies the
 * channel `comanda_eventos` with its id. PostgreSQL delivers a notification only when the
 * transaction that wrote the entry commits, in commit order, to every session listening on the
 * tenant database, so a change made by any instance and any route reaches every instance's
 * subscribers. The payload is the id alone (a NOTIFY payload is limited to 8,000 bytes): the
 * listener reads the entry and the comanda.
 */
export class ComandaEventsNotify1764600000000 implements MigrationInterface {
  name = 'ComandaEventsNotify1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION comanda_eventos_notify() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('comanda_eventos', NEW.id_evento::text);
        RETURN NULL;
      END
      $$;
      COMMENT ON FUNCTION comanda_eventos_notify() IS 'Notifies comanda_eventos with the new entry id (delivered on commit)';
      CREATE TRIGGER tr_comanda_eventos_notify
        AFTER INSERT ON comanda_eventos
        FOR EACH ROW EXECUTE FUNCTION comanda_eventos_notify()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TRIGGER tr_comanda_eventos_notify ON comanda_eventos;
      DROP FUNCTION comanda_eventos_notify()`);
  }
}
