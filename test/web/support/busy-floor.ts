import type { WebServer } from './server';

/** A waiter whose name is as long as real ones get. */
export const LONG_NAME = {
  nombre: 'María del Carmen',
  apellido: 'Villavicencio Arrieta de la Torre',
};

export interface BusyFloor {
  /** The waiter with the long name. */
  mozo: { id_usuario: number; nombre: string };
  /** The table with the most tickets, and their numbers. */
  crowded: { numero: number; tickets: number[] };
  /** The ticket with the most lines (at the crowded table). */
  longest: number;
}

interface Created {
  id_comanda: number;
  numero_ticket: number;
}

/**
 * A Friday lunch on top of the demo restaurant: of its open comandas (one per table, opened a
 * day or two ago) those of tables 2, 5, 9 and 11 are paid, so those tables are free; four more
 * tickets at table 3, two at table 7, a big party's bill over a thousand soles, take-away
 * orders, long notes, and a waiter with a long name. Written through the API, as the floor
 * would, and the waiter with SQL (staff are kept elsewhere).
 */
export async function crowdTheFloor(server: WebServer): Promise<BusyFloor> {
  const [{ id_usuario }] = await server.dbs.query<{ id_usuario: number }>(
    server.dbs.tenantUrl(server.tenant),
    `WITH u AS (
       INSERT INTO usuarios (documento, nombre, apellido) VALUES ('70000099', $1, $2)
       RETURNING id_usuario)
     INSERT INTO usua_roles (id_usuario, id_rol)
     SELECT u.id_usuario, r.id_rol FROM u, roles r WHERE r.nombre = 'mozo'
     RETURNING id_usuario`,
    [LONG_NAME.nombre, LONG_NAME.apellido],
  );
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'X-Tenant-ID': server.tenant, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const productos = await api<{ id_producto: number; nombre: string }[]>(
    'GET',
    '/productos?activo=true&limit=500',
  );
  const mesas = await api<{ id_mesa: number; numero: number }[]>('GET', '/mesas');
  const producto = (nombre: string) => {
    const found = productos.find((p) => p.nombre === nombre);
    if (!found) throw new Error(`the demo menu has no ${nombre}`);
    return found.id_producto;
  };
  const mesa = (numero: number) => mesas.find((m) => m.numero === numero)!.id_mesa;
  const open = (
    numero: number | null,
    lines: [string, number, string?][],
    waiter?: number,
  ): Promise<Created> =>
    api<Created>('POST', '/comandas', {
      id_mesa: numero === null ? null : mesa(numero),
      ...(waiter ? { id_usuario: waiter } : {}),
      items: lines.map(([nombre, cantidad, nota]) => ({
        id_producto: producto(nombre),
        cantidad,
        ...(nota ? { nota } : {}),
      })),
    });

  const demoOpen = await api<{ id_comanda: number; mesa: number | null }[]>(
    'GET',
    '/comandas?estado=abierta&limit=500',
  );
  for (const paid of demoOpen.filter((c) => c.mesa !== null && [2, 5, 9, 11].includes(c.mesa)))
    await api('PUT', `/comandas/${paid.id_comanda}`, { action: 'cerrar' });

  const longest = await open(
    3,
    [
      [
        'Ceviche de conchas negras',
        2,
        'Bien picante, con extra de cancha y sin culantro por favor',
      ],
      ['Tiradito al ají amarillo', 1],
      ['Chicharrón de calamar', 2, 'Para compartir'],
      ['Arroz con mariscos', 3],
      ['Seco de res con frejoles', 1, 'Término medio'],
      ['Chupe de camarones', 2],
      ['Suspiro a la limeña', 4],
      ['Chicha morada (jarra 1 l)', 3, 'Bien helada'],
    ],
    id_usuario,
  );
  const at3 = [
    longest,
    await open(
      3,
      [['Jalea mixta', 24, 'Cumpleaños: 24 personas en el salón del fondo']],
      id_usuario,
    ),
    await open(3, [['Leche de tigre', 2]]),
    await open(3, [
      ['Lomo saltado', 1],
      ['Pisco sour', 2],
    ]),
  ];
  await open(
    7,
    [
      ['Ceviche mixto', 2],
      ['Arroz con pato', 2],
    ],
    id_usuario,
  );
  await open(7, [['Picarones', 3]]);
  await open(
    null,
    [
      ['Ceviche clásico', 3],
      ['Gaseosa personal 500 ml', 3],
    ],
    id_usuario,
  );
  await open(null, [['Arroz con mariscos', 10]]);
  await open(null, [['Causa limeña de pollo', 1]]);

  const tickets = (
    await api<{ mesa: number | null; numero_ticket: number }[]>(
      'GET',
      '/comandas?estado=abierta&limit=500',
    )
  )
    .filter((c) => c.mesa === 3)
    .map((c) => c.numero_ticket)
    .sort((a, b) => a - b);
  expect(tickets.length).toBeGreaterThanOrEqual(at3.length);
  return {
    mozo: { id_usuario, nombre: `${LONG_NAME.nombre} ${LONG_NAME.apellido}` },
    crowded: { numero: 3, tickets },
    longest: longest.numero_ticket,
  };
}
