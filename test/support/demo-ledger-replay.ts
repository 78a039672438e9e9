import { Client } from 'pg';

/**
 * The demo's stock ledger posted the slow way, as the inventario module itself posts it: the
 * computed ledger of a demo tenant is emptied (its opening balances and the counts' lines kept
 * aside), then every effect since the stock went live is posted through the module's own store
 * functions one at a time, in the order it happened: the opening balances (`stock_asentar`),
 * then by time the purchases (`inventario_sincronizar_compra`), the closes
 * (`inventario_consumir_comanda`), the waste (`stock_asentar`) and the counts
 * (`inventario_aplicar_conteo`, with what was counted). What this writes is what the module
 * would have written had it been on since then; the demo's computed ledger must equal it row
 * for row.
 *
 * For tests only: it sets the ledger's append-only triggers aside to empty it.
 */
export async function replayDemoLedger(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(REPLAY);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.end();
  }
}

const REPLAY = `
DO $replay$
DECLARE
  v_alta   timestamptz;
  v_admin  integer;
  r        record;
BEGIN
  CREATE TEMP TABLE replay_inicial ON COMMIT DROP AS
  SELECT * FROM stock_movimientos WHERE tipo = 'inicial' ORDER BY id_mat_prima;
  CREATE TEMP TABLE replay_contado ON COMMIT DROP AS SELECT id_conteo, id_mat_prima, contado FROM conteo_lineas;
  SELECT min(fec), min(id_usuario) INTO v_alta, v_admin FROM replay_inicial;

  ALTER TABLE stock_movimientos DISABLE TRIGGER tg_stock_movimientos_inmutables;
  ALTER TABLE stock_movimientos DISABLE TRIGGER tg_stock_movimientos_sin_truncate;
  TRUNCATE stock_movimientos, consumos_venta, stock_saldos, conteo_lineas;
  ALTER TABLE stock_movimientos ENABLE TRIGGER tg_stock_movimientos_inmutables;
  ALTER TABLE stock_movimientos ENABLE TRIGGER tg_stock_movimientos_sin_truncate;
  ALTER TABLE stock_movimientos ALTER COLUMN id_movimiento RESTART WITH 1;
  ALTER TABLE consumos_venta ALTER COLUMN id_consumo RESTART WITH 1;
  UPDATE conteos SET estado = 'borrador', fec_aplicacion = NULL, id_usuario_aplica = NULL;
  UPDATE inventario_periodo SET cerrado_hasta = NULL;

  PERFORM stock_asentar(i.id_mat_prima, 'inicial', i.cantidad, i.costo_unitario, 'inicial',
                        i.id_origen, NULL, i.fec, i.id_usuario, i.motivo)
     FROM replay_inicial i
    ORDER BY i.id_mat_prima;

  FOR r IN
    SELECT 1 AS orden, c.fec_compra AS fec, c.id_compra::bigint AS id FROM compras c
     WHERE c.fec_compra > v_alta
    UNION ALL
    SELECT 2, c.fec_cierre, c.id_comanda FROM comandas c
     WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre > v_alta
    UNION ALL
    SELECT 3, w.fec, w.id_merma FROM mermas w
    UNION ALL
    SELECT 4, k.fec_corte, k.id_conteo FROM conteos k
    ORDER BY fec, orden, id
  LOOP
    IF r.orden = 1 THEN
      PERFORM inventario_sincronizar_compra(r.id::integer, NULL);
    ELSIF r.orden = 2 THEN
      PERFORM inventario_consumir_comanda(r.id, (SELECT id_usuario FROM comandas WHERE id_comanda = r.id),
                                          r.fec);
    ELSIF r.orden = 3 THEN
      PERFORM stock_asentar(w.id_mat_prima, 'merma', -w.cantidad, NULL, 'merma', w.id_merma, NULL,
                            w.fec, w.id_usuario, w.motivo)
         FROM mermas w WHERE w.id_merma = r.id;
    ELSE
      INSERT INTO conteo_lineas (id_conteo, id_mat_prima, contado)
      SELECT id_conteo, id_mat_prima, contado FROM replay_contado WHERE id_conteo = r.id;
      PERFORM inventario_aplicar_conteo(r.id, v_admin);
      UPDATE conteos SET fec_aplicacion = r.fec + interval '10 hours', updated_at = r.fec + interval '10 hours'
       WHERE id_conteo = r.id;
    END IF;
  END LOOP;
END
$replay$`;
