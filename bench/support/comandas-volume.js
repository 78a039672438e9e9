// A tenant database with a realistic volume of comandas, shared by the benchmarks:
// the demo data at one ticket a day (menu, staff, tables, a year of activity: about 365
// comandas), then comandas over three years up to `count` in all (3% open, 2% deleted) with 1
// to 6 lines each, totals computed, statistics fresh.
const { seedDemoData } = require('../../dist/database/demo/demo-data');

/** Seeds a migrated, empty tenant database through a connected pg Client. */
async function seedComandaVolume(client, count, timeZone = 'America/Lima') {
  await client.query('BEGIN');
  await seedDemoData((sql, params) => client.query(sql, params).then((r) => r.rows), {
    today: new Date().toISOString().slice(0, 10),
    timeZone,
    scale: 0.01,
  });
  const {
    rows: [{ demo }],
  } = await client.query('SELECT count(*)::int AS demo FROM comandas');
  await client.query(
    `INSERT INTO comandas (id_mesa, id_usuario, estado, fec_apertura, fec_cierre, eliminada, fec_eliminacion)
     SELECT 1 + n % 12, 1 + n % 8,
            CASE WHEN n % 33 = 0 THEN 'abierta' ELSE 'cerrada' END,
            now() - (n * interval '15 minutes'),
            CASE WHEN n % 33 = 0 THEN NULL ELSE now() - (n * interval '15 minutes') + interval '40 minutes' END,
            n % 50 = 0, CASE WHEN n % 50 = 0 THEN now() END
       FROM generate_series(1, $1) n`,
    [count - demo],
  );
  await client.query(
    `INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario, id_usuario)
     SELECT c.id_comanda, 1 + (c.id_comanda + k) % 30, 1 + k % 3, 10 + k, c.id_usuario
       FROM comandas c, generate_series(1, 1 + (c.id_comanda % 6)::int) k
      WHERE c.id_comanda > $1`,
    [demo],
  );
  await client.query(
    `UPDATE comandas c SET total = s.sum FROM (SELECT id_comanda, sum(subtotal) AS sum FROM deta_comandas GROUP BY 1) s
      WHERE s.id_comanda = c.id_comanda AND c.id_comanda > $1`,
    [demo],
  );
  await client.query('COMMIT');
  await client.query('VACUUM ANALYZE');
  const { rows } = await client.query(
    'SELECT (SELECT count(*) FROM comandas)::int AS comandas, (SELECT count(*) FROM deta_comandas)::int AS lineas',
  );
  return { ...rows[0], demo };
}

module.exports = { seedComandaVolume };
