import { rowsOf, type DemoSeed } from '../seed-helpers';

/**
 * The demo's kitchen: three stations and the open comandas' first course sent, so the kitchen
 * display has tickets the moment the demo is provisioned.
 *
 * - Stations: Cocina (the preparation station every tenant starts with) takes the food, Bar
 *   (preparacion) the Bebidas, Expo (expo) sees every station's tickets.
 * - Each category's default course: starters, ceviches and drinks 1, mains, rice and soups 2,
 *   desserts 3; every demo line takes its category's course (set when the lines are written,
 *   so the stations and courses come before the comandas: `seedKitchenStations`).
 * - Every open comanda that is not voided has course 1 fired a few minutes after its last line
 *   and sent with the module's own store function `cocina_emitir`, so the tickets are written
 *   as the kitchen would have written them (conservation holds: Σ of a fired line's ticket
 *   quantities = its quantity). Its later courses stay held.
 *
 * Set-based SQL; the choices come from names and ids, not from the generator, and the times
 * from the comandas' own (nothing at provisioning time), so the same `today` gives the same rows.
 * Runs after the comandas.
 */
export async function seedKitchenStations(seed: DemoSeed): Promise<void> {
  await seed.query(
    `INSERT INTO estaciones_cocina (nombre, tipo) VALUES ('Bar', 'preparacion'), ('Expo', 'expo');
     UPDATE categorias SET curso_defecto = CASE
              WHEN nombre IN ('Entradas', 'Ceviches y tiraditos', 'Bebidas') THEN 1
              WHEN nombre IN ('Platos criollos', 'Arroces y chaufas', 'Sopas y chupes') THEN 2
              WHEN nombre = 'Postres' THEN 3 END;
     INSERT INTO estacion_categorias (id_categoria, id_estacion)
     SELECT c.id_categoria, e.id_estacion
       FROM categorias c
       JOIN estaciones_cocina e
         ON e.nombre = CASE WHEN c.nombre = 'Bebidas' THEN 'Bar' ELSE 'Cocina' END`,
  );
}

/** Course 1 of every open comanda fired and sent (runs after the comandas). */
export async function seedCocina(seed: DemoSeed): Promise<{ envios_cocina: number }> {
  const { query } = seed;
  // course 1 of the open comandas, fired and sent by their waiter 4 minutes after the last line
  const [{ envios }] = rowsOf<{ envios: number }>(
    await query(
      `WITH abiertas AS (
         SELECT c.id_comanda, c.id_usuario,
                (SELECT max(d.fec_registro) FROM deta_comandas d
                  WHERE d.id_comanda = c.id_comanda) + interval '4 minutes' AS fec
           FROM comandas c
          WHERE c.estado = 'abierta' AND NOT c.eliminada
            AND EXISTS (SELECT 1 FROM deta_comandas d WHERE d.id_comanda = c.id_comanda)),
       disparos AS (
         INSERT INTO cursos_disparados (id_comanda, curso, fec_disparo, id_usuario)
         SELECT id_comanda, 1, fec, id_usuario FROM abiertas
         RETURNING id_comanda)
       SELECT count(*)::int AS envios FROM disparos`,
    ),
  );
  if (envios === 0) return { envios_cocina: 0 };
  // the store function writes the tickets (one statement), then they take the fire's time
  await query(
    `CREATE TEMP TABLE demo_envio ON COMMIT DROP AS
     SELECT c.id_comanda, k.fec_disparo, cocina_emitir(c.id_comanda, c.id_usuario, 'enviar') AS ids
       FROM comandas c
       JOIN cursos_disparados k ON k.id_comanda = c.id_comanda AND k.curso = 1
      ORDER BY c.id_comanda`,
  );
  await query(
    `UPDATE envios_cocina t SET fec_envio = e.fec_disparo
       FROM demo_envio e WHERE t.id_envio = ANY (e.ids);
     UPDATE deta_comandas d SET fec_enviado = e.fec_disparo
       FROM demo_envio e
      WHERE d.id_comanda = e.id_comanda AND d.estado_cocina = 'enviado'`,
  );
  const [{ tickets }] = rowsOf<{ tickets: number }>(
    await query(`SELECT count(*)::int AS tickets FROM envios_cocina`),
  );
  return { envios_cocina: tickets };
}
