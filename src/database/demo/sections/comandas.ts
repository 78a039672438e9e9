import { bulkLoad } from '../bulk-load';
import {
  ADMIN,
  CAJERO_DIA,
  CAJERO_NOCHE,
  CATEGORIAS,
  CLIENTES,
  MESAS,
  MOTIVOS_ELIMINACION,
  MOZOS_ALMUERZO,
  MOZOS_CENA,
  NOTAS,
  OBSERVACIONES,
  PRODUCTOS,
  STAFF,
} from '../restaurant';
import { rowsOf, type DemoDataSummary, type DemoSeed } from '../seed-helpers';

/**
 * A year of order tickets as a cevichería in Lima sells: 60 to 150 a day, busier on Fridays
 * and weekends and in the summer (December to March), most of them at lunch (peak about
 * 13:30) and the rest at dinner (peak about 20:45); about one in seven to take away; tables of
 * one to six people who order a dish each, sometimes a starter to share or a dessert, and a
 * drink for the table. What is ordered follows the season: more ceviche in the summer, more
 * soup and chupe in the winter (June to September). Each ticket is taken by a waiter on shift
 * that day at that hour (the rest days and shifts of the staff, which the attendance follows)
 * and closed by the cashier on shift (the admin when no cashier is). About 1.2 % are voided
 * while open and 0.8 % after closing; the last dinner tickets of yesterday at most tables are
 * still open.
 *
 * Everything is set-based SQL in the tenant's database: the "random" choices are a hash of
 * the ticket's (day, number) and of what is chosen (`pg_temp.demo_u`), so the same `today`
 * gives the same rows, and a year is a handful of statements instead of a hundred thousand
 * round trips. Keys follow the time of opening, like a real till's. The rows are loaded with
 * the tables' indexes and foreign keys set aside and rebuilt after ([bulkLoad](../bulk-load.ts)).
 */
export async function seedComandas(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'comandas' | 'deta_comandas' | 'comanda_eventos'>> {
  const { query, today, timeZone, scale } = seed;
  await query(HASH_FUNCTION);
  await query(
    `CREATE TEMP TABLE demo_param ON COMMIT DROP AS
     SELECT $1::date AS hoy, $2::text AS zona, $3::jsonb AS staff, $4::jsonb AS pools,
            $5::text[] AS notas, $6::text[] AS observaciones, $7::text[] AS motivos,
            $8::numeric AS escala`,
    [
      today,
      timeZone,
      JSON.stringify(staffSchedule()),
      JSON.stringify(productPools()),
      NOTAS,
      OBSERVACIONES,
      MOTIVOS_ELIMINACION,
      scale,
    ],
  );
  await query(PLAN);
  await bulkLoad(
    query,
    ['comandas', 'deta_comandas', 'comanda_eventos'],
    [['comanda_eventos', 'tr_comanda_eventos_notify']],
    async () => {
      await query(LOAD);
    },
  );
  const [counts] = rowsOf<Record<'comandas' | 'lineas' | 'eventos', number>>(
    await query(
      `SELECT (SELECT count(*)::int FROM comandas) AS comandas,
              (SELECT count(*)::int FROM deta_comandas) AS lineas,
              (SELECT count(*)::int FROM comanda_eventos) AS eventos`,
    ),
  );
  return {
    comandas: counts.comandas,
    deta_comandas: counts.lineas,
    comanda_eventos: counts.eventos,
  };
}

/**
 * A number in [0, 1) that depends only on (key, salt): the demo's dice; `demo_i` an integer
 * in [1, n] from it (an index into an array). hashint8extended is
 * PostgreSQL's seeded 64-bit hash (the one hash partitioning relies on, stable across versions
 * and platforms). A temporary function: it goes with the session.
 */
const HASH_FUNCTION = `
  CREATE OR REPLACE FUNCTION pg_temp.demo_u(k bigint, salt integer) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (hashint8extended(k, salt) & 4294967295)::double precision / 4294967296.0 $$;
  CREATE OR REPLACE FUNCTION pg_temp.demo_i(k bigint, salt integer, n integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT 1 + floor(pg_temp.demo_u(k, salt) * n)::integer $$`;

/** Who works when: rest day (ISO, 1 = Monday) and shifts (minutes after the work day's midnight). */
export function staffSchedule() {
  return STAFF.map((s, i) => ({
    id_usuario: i + 1,
    descanso: s.descanso === 0 ? 7 : s.descanso,
    inicio: s.turno.map(([inicio]) => inicio),
    fin: s.turno.map(([, fin]) => fin),
    mozo_almuerzo: MOZOS_ALMUERZO.includes(i + 1),
    mozo_cena: MOZOS_CENA.includes(i + 1),
    caja: i + 1 === CAJERO_DIA ? 'almuerzo' : i + 1 === CAJERO_NOCHE ? 'cena' : null,
  }));
}

/**
 * What a diner picks from, per season (1 summer: December to March, 2 autumn: April and May,
 * 3 winter: June to September, 4 spring: October and November) and course: 1,000 slots per
 * pool, each product holding slots in proportion to its popularity times its category's
 * seasonal factor, so a pick is one array subscript.
 */
function productPools() {
  const FACTOR: Record<string, readonly [number, number, number, number]> = {
    'Ceviches y tiraditos': [1.35, 1.0, 0.8, 1.1],
    'Sopas y chupes': [0.45, 1.0, 2.2, 0.9],
    Postres: [1, 1, 1, 1],
  };
  const pool = (tipo: string, categorias: readonly string[]) =>
    [1, 2, 3, 4].map((temporada) => {
      const weights = PRODUCTOS.map((p) =>
        categorias.includes(p.categoria) ? p.peso * (FACTOR[p.categoria]?.[temporada - 1] ?? 1) : 0,
      );
      const sum = weights.reduce((a, b) => a + b, 0);
      const slots: number[] = [];
      let acc = 0;
      weights.forEach((w, i) => {
        acc += w;
        while (slots.length < Math.round((acc / sum) * 1000)) slots.push(i + 1);
      });
      return { temporada, tipo, slots };
    });
  const names = CATEGORIAS.map((c) => c.nombre);
  const platos = names.filter((n) => !['Entradas', 'Postres', 'Bebidas'].includes(n));
  return [
    ...pool('plato', platos),
    ...pool('entrada', ['Entradas']),
    ...pool('postre', ['Postres']),
    ...pool('bebida', ['Bebidas']),
  ];
}

/** The days, the tickets, their lines (temporary tables, dropped at the commit). */
const PLAN = `
  CREATE TEMP TABLE demo_staff ON COMMIT DROP AS
  SELECT * FROM jsonb_to_recordset((SELECT staff FROM demo_param)) AS s(
    id_usuario integer, descanso integer, inicio integer[], fin integer[],
    mozo_almuerzo boolean, mozo_cena boolean, caja text);

  CREATE TEMP TABLE demo_pool ON COMMIT DROP AS
  SELECT * FROM jsonb_to_recordset((SELECT pools FROM demo_param)) AS p(
    temporada integer, tipo text, slots integer[]);

  -- 365 days before today; tickets per day by weekday and month, give or take 8 %
  CREATE TEMP TABLE demo_dia ON COMMIT DROP AS
  SELECT g.d, f.fecha, extract(isodow FROM f.fecha)::integer AS dow,
         CASE WHEN extract(month FROM f.fecha) IN (12, 1, 2, 3) THEN 1
              WHEN extract(month FROM f.fecha) IN (4, 5) THEN 2
              WHEN extract(month FROM f.fecha) IN (6, 7, 8, 9) THEN 3 ELSE 4 END AS temporada,
         greatest(1, round((SELECT escala FROM demo_param) * greatest(60, least(150, round(
           (ARRAY[58, 58, 60, 64, 80, 106, 118])[extract(isodow FROM f.fecha)::integer]
           * (ARRAY[1.12, 1.15, 1.08, 1.0, 0.95, 0.92, 0.97, 0.92, 0.95, 1.0, 1.02, 1.1])[extract(month FROM f.fecha)::integer]
           * (0.92 + 0.16 * pg_temp.demo_u(g.d, 11)))))))::integer AS n
    FROM generate_series(1, 365) AS g(d)
   CROSS JOIN LATERAL (SELECT (SELECT hoy FROM demo_param) - g.d AS fecha) f;

  -- who is at work each day: not their rest day, and not one of their few days off (3 %), unless
  -- nobody else would cover their place at the floor or the till
  CREATE TEMP TABLE demo_turno ON COMMIT DROP AS
  SELECT dd.d, s.id_usuario, s.mozo_almuerzo, s.mozo_cena, s.caja
    FROM demo_dia dd
   CROSS JOIN demo_staff s
   WHERE dd.dow <> s.descanso
     AND (pg_temp.demo_u(dd.d * 100 + s.id_usuario, 12) >= 0.03 OR s.caja IS NOT NULL
          OR (s.mozo_almuerzo AND s.mozo_cena));

  -- who serves and who closes at lunch and at dinner, day by day
  CREATE TEMP TABLE demo_servicio ON COMMIT DROP AS
  SELECT dd.d,
         coalesce(array_agg(t.id_usuario ORDER BY t.id_usuario) FILTER (WHERE t.mozo_almuerzo), f.mozos)
           AS mozos_almuerzo,
         coalesce(array_agg(t.id_usuario ORDER BY t.id_usuario) FILTER (WHERE t.mozo_cena), f.mozos)
           AS mozos_cena,
         coalesce(min(t.id_usuario) FILTER (WHERE t.caja = 'almuerzo'), ${ADMIN}) AS cajero_almuerzo,
         coalesce(min(t.id_usuario) FILTER (WHERE t.caja = 'cena'), ${ADMIN}) AS cajero_cena
    FROM demo_dia dd
    LEFT JOIN demo_turno t ON t.d = dd.d
   CROSS JOIN (SELECT array_agg(s.id_usuario ORDER BY s.id_usuario) AS mozos FROM demo_staff s
                WHERE s.mozo_almuerzo AND s.mozo_cena) f
   GROUP BY dd.d, f.mozos;

  CREATE TEMP TABLE demo_ticket ON COMMIT DROP AS
  WITH base AS MATERIALIZED (
    SELECT dd.d, k.k, dd.d * 1000 + k.k AS clave, dd.temporada, dd.fecha, sv.mozos_almuerzo,
           sv.mozos_cena, sv.cajero_almuerzo, sv.cajero_cena,
           pg_temp.demo_u(dd.d * 1000 + k.k, 1) < CASE WHEN dd.dow >= 6 THEN 0.3 ELSE 0.38 END AS cena,
           pg_temp.demo_u(dd.d * 1000 + k.k, 2) < 0.14 AS llevar
      FROM demo_dia dd
      JOIN demo_servicio sv ON sv.d = dd.d
     CROSS JOIN LATERAL generate_series(1, dd.n) AS k(k)),
  t AS MATERIALIZED (
    SELECT b.*,
           (CASE WHEN b.cena THEN 19 * 60 + ((pg_temp.demo_u(b.clave, 3) + pg_temp.demo_u(b.clave, 4)) / 2 * 195)::integer
                 ELSE 11 * 60 + 45 + ((pg_temp.demo_u(b.clave, 3) + pg_temp.demo_u(b.clave, 4)) / 2 * 225)::integer END) * 60
             + (pg_temp.demo_u(b.clave, 5) * 60)::integer AS seg_apertura,
           CASE WHEN b.llevar THEN 1 + floor(pg_temp.demo_u(b.clave, 6) * 2.4)::integer
                ELSE (ARRAY[1,1,2,2,2,2,2,2,2,3,3,3,4,4,4,4,5,5,6,6])[pg_temp.demo_i(b.clave, 6, 20)] END
             AS personas,
           CASE WHEN b.llevar THEN NULL ELSE pg_temp.demo_i(b.clave, 7, ${MESAS}) END AS id_mesa,
           CASE WHEN pg_temp.demo_u(b.clave, 8) < 0.22
                THEN pg_temp.demo_i(b.clave, 9, ${CLIENTES.length}) END AS id_cliente,
           pg_temp.demo_u(b.clave, 10) AS suerte
      FROM base b)
  SELECT t.*,
         CASE WHEN t.cena THEN t.mozos_cena[pg_temp.demo_i(t.clave, 13, cardinality(t.mozos_cena))]
              ELSE t.mozos_almuerzo[pg_temp.demo_i(t.clave, 13, cardinality(t.mozos_almuerzo))] END
           AS id_usuario,
         CASE WHEN t.cena THEN t.cajero_cena ELSE t.cajero_almuerzo END AS cajero,
         -- closed by 23:30: nothing of yesterday's lies in today, whatever the hour of provisioning
         least(23 * 3600 + 1800 + (pg_temp.demo_u(t.clave, 15) * 60)::integer,
               t.seg_apertura
                 + (CASE WHEN t.llevar THEN 10 + pg_temp.demo_u(t.clave, 14) * 15
                         ELSE 35 + t.personas * 4 + pg_temp.demo_u(t.clave, 14) * 50 END)::integer * 60
                 + (pg_temp.demo_u(t.clave, 15) * 60)::integer) AS seg_cierre,
         CASE WHEN t.suerte < 0.012 THEN 'anulada_abierta' WHEN t.suerte < 0.02 THEN 'anulada_cerrada'
              ELSE 'cerrada' END AS tipo
    FROM t;

  -- the last dinner ticket of yesterday at most tables, and the last two to take away, are open
  UPDATE demo_ticket t SET tipo = 'abierta'
    FROM (SELECT DISTINCT ON (coalesce(id_mesa, 0), llevar) clave, id_mesa
            FROM demo_ticket
           WHERE d = 1 AND cena AND tipo = 'cerrada'
           ORDER BY coalesce(id_mesa, 0), llevar, seg_apertura DESC) u
   WHERE t.clave = u.clave
     AND (u.id_mesa IS NULL OR pg_temp.demo_u(u.clave, 16) < 0.85);
  UPDATE demo_ticket t SET tipo = 'abierta'
    FROM (SELECT clave FROM demo_ticket
           WHERE d = 1 AND llevar AND tipo = 'cerrada'
           ORDER BY seg_apertura DESC LIMIT 1) u
   WHERE t.clave = u.clave;

  -- what each table orders: a dish per person, a starter to share, a dessert, a drink for the table
  CREATE TEMP TABLE demo_pick ON COMMIT DROP AS
  SELECT t.clave, p.orden, pl.slots[pg_temp.demo_i(t.clave * 16 + p.orden, 40, 1000)] AS id_producto,
         p.cantidad
    FROM demo_ticket t
   CROSS JOIN LATERAL (
     -- the dishes: one each, but at a table of three or more two people share a large one (two
     -- pairs at a table of five or six)
     SELECT 2 + j AS orden, 'plato' AS tipo, 1 AS cantidad
       FROM generate_series(1, CASE WHEN t.personas >= 5 THEN t.personas - 2
                                    WHEN t.personas >= 3 THEN t.personas - 1 ELSE t.personas END) AS j
     UNION ALL
     SELECT 1, 'entrada', 1 WHERE NOT t.llevar AND t.personas >= 2 AND pg_temp.demo_u(t.clave, 41) < 0.25
     UNION ALL
     SELECT 9, 'postre', 1 WHERE NOT t.llevar AND pg_temp.demo_u(t.clave, 42) < 0.12
     UNION ALL
     SELECT 10, 'bebida', CASE WHEN t.personas <= 2 THEN t.personas ELSE (t.personas + 1) / 2 END
      WHERE pg_temp.demo_u(t.clave, 43) < CASE WHEN t.llevar THEN 0.3 ELSE 0.7 END) p
    JOIN demo_pool pl ON pl.temporada = t.temporada AND pl.tipo = p.tipo;

  CREATE TEMP TABLE demo_linea ON COMMIT DROP AS
  SELECT k.clave, k.id_producto, k.cantidad, pr.precio, round(k.cantidad * pr.precio, 2) AS subtotal,
         k.orden,
         CASE WHEN pg_temp.demo_u(k.clave * 64 + k.id_producto, 44) < 0.1
              THEN p.notas[pg_temp.demo_i(k.clave * 64 + k.id_producto, 45, cardinality(p.notas))] END AS nota
    FROM (SELECT clave, id_producto, sum(cantidad) AS cantidad, min(orden) AS orden
            FROM demo_pick GROUP BY clave, id_producto) k
    JOIN productos pr ON pr.id_producto = k.id_producto
   CROSS JOIN demo_param p;

  -- keys in the order the tickets were opened
  CREATE TEMP TABLE demo_comanda ON COMMIT DROP AS
  SELECT row_number() OVER (ORDER BY t.d DESC, t.seg_apertura, t.clave) AS id_comanda, t.*,
         coalesce(s.total, 0) AS total,
         ((t.fecha + make_interval(secs => t.seg_apertura)) AT TIME ZONE (SELECT zona FROM demo_param)) AS fec_apertura,
         ((t.fecha + make_interval(secs => t.seg_cierre)) AT TIME ZONE (SELECT zona FROM demo_param)) AS fec_cierre
    FROM demo_ticket t
    LEFT JOIN (SELECT clave, sum(subtotal) AS total FROM demo_linea GROUP BY clave) s
           ON s.clave = t.clave;
  ANALYZE demo_comanda;
  ANALYZE demo_linea;
`;

/** The tickets, their lines and their audit entries (crear, cerrar, eliminar). */
const LOAD = `
  INSERT INTO comandas (id_comanda, numero_ticket, id_mesa, id_usuario, id_cliente, estado,
                        fec_apertura, fec_cierre, total, observacion, eliminada, fec_eliminacion,
                        version)
  SELECT c.id_comanda, c.id_comanda, c.id_mesa, c.id_usuario, c.id_cliente,
         CASE WHEN c.tipo IN ('abierta', 'anulada_abierta') THEN 'abierta' ELSE 'cerrada' END,
         c.fec_apertura,
         CASE WHEN c.tipo IN ('cerrada', 'anulada_cerrada') THEN c.fec_cierre END,
         c.total,
         CASE WHEN c.llevar THEN 'Para llevar'
              WHEN pg_temp.demo_u(c.clave, 46) < 0.08
              THEN p.observaciones[pg_temp.demo_i(c.clave, 47, cardinality(p.observaciones))] END,
         c.tipo LIKE 'anulada%',
         CASE c.tipo WHEN 'anulada_abierta' THEN c.fec_apertura + make_interval(mins => 8 + (c.suerte * 2000)::integer % 32)
                     WHEN 'anulada_cerrada' THEN c.fec_cierre + make_interval(mins => 5 + (c.suerte * 2000)::integer % 20) END,
         CASE c.tipo WHEN 'cerrada' THEN 2 WHEN 'abierta' THEN 1 ELSE 2 + (c.tipo = 'anulada_cerrada')::integer END
    FROM demo_comanda c
   CROSS JOIN demo_param p
   ORDER BY c.id_comanda;

  INSERT INTO deta_comandas (id_deta_comanda, id_comanda, id_producto, cantidad, precio_unitario,
                             nota, id_usuario, fec_registro, curso)
  SELECT row_number() OVER (ORDER BY c.id_comanda, l.orden, l.id_producto), c.id_comanda,
         l.id_producto, l.cantidad, l.precio, l.nota, c.id_usuario,
         c.fec_apertura + make_interval(secs => 60 + 40 * l.orden),
         coalesce(cat.curso_defecto, 1)
    FROM demo_linea l
    JOIN demo_comanda c ON c.clave = l.clave
    JOIN productos p ON p.id_producto = l.id_producto
    JOIN categorias cat ON cat.id_categoria = p.id_categoria
   ORDER BY 1;

  -- audit entries in time order across tickets, as a live system writes them
  INSERT INTO comanda_eventos (id_evento, id_comanda, accion, id_usuario, motivo, antes, despues,
                               fec_evento)
  SELECT row_number() OVER (ORDER BY e.fec, e.id_comanda, e.paso), e.id_comanda, e.accion,
         e.id_usuario, e.motivo, e.antes, e.despues, e.fec
    FROM (
      SELECT c.id_comanda, 1 AS paso, 'crear' AS accion, c.id_usuario, NULL AS motivo, NULL::jsonb AS antes,
             jsonb_build_object('estado', 'abierta', 'id_mesa', c.id_mesa, 'id_usuario', c.id_usuario,
                                'id_cliente', c.id_cliente) AS despues,
             c.fec_apertura AS fec
        FROM comandas c
      UNION ALL
      SELECT c.id_comanda, 2, 'cerrar', t.cajero, NULL, jsonb_build_object('estado', 'abierta'),
             jsonb_build_object('estado', 'cerrada', 'total', c.total), c.fec_cierre
        FROM comandas c JOIN demo_comanda t ON t.id_comanda = c.id_comanda
       WHERE c.fec_cierre IS NOT NULL
      UNION ALL
      SELECT c.id_comanda, 3, 'eliminar', ${ADMIN},
             p.motivos[pg_temp.demo_i(c.id_comanda, 48, cardinality(p.motivos))],
             jsonb_build_object('eliminada', false), jsonb_build_object('eliminada', true),
             c.fec_eliminacion
        FROM comandas c CROSS JOIN demo_param p
       WHERE c.eliminada) e;
`;
