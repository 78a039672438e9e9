import request from 'supertest';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { SseClient } from '../support/sse-client';
import { startTestApp, type TestApp } from '../support/test-app';

type Role = 'admin' | 'cajero' | 'mozo' | 'cocina' | 'sinRol';
type Api = ReturnType<typeof authedApi>;
const ROLES: Role[] = ['admin', 'cajero', 'mozo', 'cocina', 'sinRol'];

/**
 * One route of the matrix: what it needs, who may, the state it acts on (made fresh for each
 * role by the admin) and the answer of an allowed call.
 */
interface RouteCase {
  route: string;
  permission: string | null;
  allowed: Role[];
  status: number;
  /** Builds the state the call acts on (an id, or nothing); runs as admin. */
  prepare?: (admin: Api) => Promise<PreparedComanda>;
  call: (api: Api, state: PreparedComanda) => request.Test;
}

interface PreparedComanda {
  id: number;
  itemId: number;
  /** A second open comanda (to merge into the first). */
  other?: number;
}

const ALL: Role[] = ['admin', 'cajero', 'mozo', 'cocina', 'sinRol'];
const READERS: Role[] = ['admin', 'cajero', 'mozo', 'cocina'];
const WAITERS: Role[] = ['admin', 'mozo'];
const CASHIERS: Role[] = ['admin', 'cajero'];
/** Split, merge and transfer: the floor's waiters and the cashier at the till, not the kitchen. */
const FLOOR: Role[] = ['admin', 'cajero', 'mozo'];
const ADMIN: Role[] = ['admin'];

async function comanda(admin: Api, then: ('cerrar' | 'eliminar')[] = []): Promise<PreparedComanda> {
  const res = await admin
    .post('/comandas', { id_mesa: 1, items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
    .expect(201);
  const id = res.body.id_comanda as number;
  for (const step of then) {
    if (step === 'cerrar') await admin.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
    else await admin.delete(`/comandas/${id}`).expect(200);
  }
  return { id, itemId: res.body.lineas[0].id_item as number };
}

const ATTLOG = '40000001\t2026-03-02 08:00:12\t1\t0\t1\t0\n';

const CASES: RouteCase[] = [
  {
    route: 'GET /tenant',
    permission: null,
    allowed: ALL,
    status: 200,
    call: (api) => api.get('/tenant'),
  },
  {
    route: 'GET /me',
    permission: null,
    allowed: ALL,
    status: 200,
    call: (api) => api.get('/me'),
  },
  {
    route: 'GET /comandas',
    permission: 'comandas:read',
    allowed: READERS,
    status: 200,
    call: (api) => api.get('/comandas'),
  },
  {
    route: 'GET /comandas/:id',
    permission: 'comandas:read',
    allowed: READERS,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.get(`/comandas/${s.id}`),
  },
  {
    route: 'GET /comandas/:id/eventos',
    permission: 'comandas:read',
    allowed: READERS,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.get(`/comandas/${s.id}/eventos`),
  },
  {
    route: 'GET /productos',
    permission: 'comandas:read',
    allowed: READERS,
    status: 200,
    call: (api) => api.get('/productos?activo=true'),
  },
  {
    route: 'GET /mesas',
    permission: 'comandas:read',
    allowed: READERS,
    status: 200,
    call: (api) => api.get('/mesas'),
  },
  {
    route: 'GET /mozos',
    permission: 'comandas:read',
    allowed: READERS,
    status: 200,
    call: (api) => api.get('/mozos'),
  },
  {
    route: 'POST /comandas',
    permission: 'comandas:write',
    allowed: WAITERS,
    status: 201,
    call: (api) => api.post('/comandas', { id_mesa: 2 }),
  },
  {
    route: 'PUT /comandas/:id (fields)',
    permission: 'comandas:write',
    allowed: WAITERS,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.put(`/comandas/${s.id}`, { observacion: 'sin ají' }),
  },
  {
    route: 'POST /comandas/:id/items',
    permission: 'comandas:write',
    allowed: WAITERS,
    status: 201,
    prepare: (admin) => comanda(admin),
    call: (api, s) =>
      api.post(`/comandas/${s.id}/items`, { id_producto: MENU.chicha.id, cantidad: 2 }),
  },
  {
    route: 'PATCH /comandas/:id/items/:itemId',
    permission: 'comandas:write',
    allowed: WAITERS,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.patch(`/comandas/${s.id}/items/${s.itemId}`, { cantidad: 3 }),
  },
  {
    route: 'DELETE /comandas/:id/items/:itemId',
    permission: 'comandas:write',
    allowed: WAITERS,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.delete(`/comandas/${s.id}/items/${s.itemId}`),
  },
  {
    route: 'PUT /comandas/:id {id_mesa} (transfer)',
    permission: 'comandas:transfer',
    allowed: FLOOR,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.put(`/comandas/${s.id}`, { id_mesa: 3 }),
  },
  {
    route: 'POST /comandas/:id/split',
    permission: 'comandas:split',
    allowed: FLOOR,
    status: 201,
    prepare: (admin) => comanda(admin),
    call: (api, s) =>
      api.post(`/comandas/${s.id}/split`, { lineas: [{ id_item: s.itemId, cantidad: 1 }] }),
  },
  {
    route: 'POST /comandas/:id/merge',
    permission: 'comandas:merge',
    allowed: FLOOR,
    status: 200,
    prepare: async (admin) => ({ ...(await comanda(admin)), other: (await comanda(admin)).id }),
    call: (api, s) => api.post(`/comandas/${s.id}/merge`, { comandas: [s.other] }),
  },
  {
    route: 'PUT /comandas/:id {action: cerrar}',
    permission: 'comandas:close',
    allowed: CASHIERS,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.put(`/comandas/${s.id}`, { action: 'cerrar' }),
  },
  {
    route: 'PUT /comandas/:id {action: abrir}',
    permission: 'comandas:close',
    allowed: CASHIERS,
    status: 200,
    prepare: (admin) => comanda(admin, ['cerrar']),
    call: (api, s) => api.put(`/comandas/${s.id}`, { action: 'abrir' }),
  },
  {
    route: 'DELETE /comandas/:id',
    permission: 'comandas:delete',
    allowed: ADMIN,
    status: 200,
    prepare: (admin) => comanda(admin),
    call: (api, s) => api.delete(`/comandas/${s.id}`),
  },
  {
    route: 'PUT /comandas/:id {action: restaurar}',
    permission: 'comandas:delete',
    allowed: ADMIN,
    status: 200,
    prepare: (admin) => comanda(admin, ['eliminar']),
    call: (api, s) => api.put(`/comandas/${s.id}`, { action: 'restaurar' }),
  },
  {
    route: 'GET /tables (generic)',
    permission: 'tables:access',
    allowed: ADMIN,
    status: 200,
    call: (api) => api.get('/tables'),
  },
  {
    route: 'GET /table/:table (generic)',
    permission: 'tables:access',
    allowed: ADMIN,
    status: 200,
    call: (api) => api.get('/table/productos'),
  },
  {
    route: 'GET /rpc/get_producto/:id',
    permission: 'rpc:call',
    allowed: ADMIN,
    status: 200,
    call: (api) => api.get(`/rpc/get_producto/${MENU.ceviche.id}`),
  },
  {
    route: 'POST /rpc/report_tickets',
    permission: 'rpc:call',
    allowed: ADMIN,
    status: 200,
    call: (api) => api.post('/rpc/report_tickets', {}),
  },
  {
    route: 'POST /asistencia/import',
    permission: 'asistencia:import',
    allowed: ADMIN,
    status: 200,
    call: (api) =>
      api
        .post('/asistencia/import')
        .field('driver', 'zkteco-attlog')
        .attach('file', Buffer.from(ATTLOG), 'attlog.dat'),
  },
];

/** What a denied call must leave untouched: the comandas, their lines, events and punches. */
async function footprint(t: TestApp): Promise<unknown> {
  const [row] = await t.dbs.query(
    t.dbs.tenantUrl('alfa'),
    `SELECT (SELECT count(*) FROM comandas)::int AS comandas,
            (SELECT coalesce(sum(version), 0) FROM comandas)::int AS versions,
            (SELECT count(*) FROM deta_comandas)::int AS lineas,
            (SELECT count(*) FROM comanda_eventos)::int AS eventos,
            (SELECT count(*) FROM asistencia_detalle)::int AS marcas`,
  );
  return row;
}

type Reader = 'admin' | 'cajero' | 'mozo' | 'cocina';
type ComandaState = 'abierta' | 'cerrada' | 'eliminada';

/**
 * The `acciones` of a comanda per role and state (docs/comandas.md, "Acciones"): what the state
 * allows and the role's permissions give, in the fixed order of the actions.
 */
const ACCIONES: Record<Reader, Record<ComandaState, string[]>> = {
  admin: {
    abierta: [
      'cerrar',
      'editar',
      'eliminar',
      'agregar_item',
      'modificar_item',
      'quitar_item',
      'dividir',
      'unir',
      'transferir',
    ],
    cerrada: ['abrir', 'eliminar'],
    eliminada: ['restaurar'],
  },
  cajero: {
    abierta: ['cerrar', 'dividir', 'unir', 'transferir'],
    cerrada: ['abrir'],
    eliminada: [],
  },
  mozo: {
    abierta: [
      'editar',
      'agregar_item',
      'modificar_item',
      'quitar_item',
      'dividir',
      'unir',
      'transferir',
    ],
    cerrada: [],
    eliminada: [],
  },
  cocina: { abierta: [], cerrada: [], eliminada: [] },
};

/** The `acciones` of a reservation per role: only a pendiente one allows any. */
const RESERVA_ACCIONES: Record<Reader, string[]> = {
  admin: ['editar', 'sentar', 'cancelar', 'no_show'],
  cajero: ['editar', 'cancelar', 'no_show'],
  mozo: ['editar', 'sentar', 'cancelar'],
  cocina: [],
};

describe('roles: the permission matrix on every tenant route (AUTH_MODE=jwt)', () => {
  let t: TestApp;
  const as = (role: Role) => authedApi(t.http, 'alfa', tokenFor('alfa', STAFF[role].id));

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    // the live stream is read over a real socket
    await t.app.listen(0, '127.0.0.1');
    await t.dbs.createTenant('alfa', { features: { genericTables: true, rpc: true } });
    await seedMenu(t.dbs, 'alfa');
    await seedStaff(t.dbs, 'alfa');
  });

  afterAll(() => t.close());

  describe.each(CASES)('$route', (c) => {
    it.each(ROLES)('as %s', async (role) => {
      const state = c.prepare ? await c.prepare(as('admin')) : { id: 0, itemId: 0 };
      const before = await footprint(t);
      const res = await c.call(as(role), state);
      if (c.allowed.includes(role)) {
        expect({ status: res.status, body: res.body }).toMatchObject({ status: c.status });
        return;
      }
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'FORBIDDEN',
        detail: { permission: c.permission, roles: role === 'sinRol' ? [] : [role] },
      });
      expect(await footprint(t)).toEqual(before);
    });
  });

  describe('acciones: what each role may do to a comanda now, per state', () => {
    const READERS_ONLY: Reader[] = ['admin', 'cajero', 'mozo', 'cocina'];

    /** An abierta, a cerrada and an eliminada comanda, made by the admin. */
    async function comandas(): Promise<Record<ComandaState, number>> {
      const admin = as('admin');
      return {
        abierta: (await comanda(admin)).id,
        cerrada: (await comanda(admin, ['cerrar'])).id,
        eliminada: (await comanda(admin, ['eliminar'])).id,
      };
    }

    it.each(READERS_ONLY)('as %s, on the detail and the list', async (role) => {
      const ids = await comandas();
      const api = as(role);
      const open = (await api.get('/comandas?limit=500').expect(200)).body as {
        id_comanda: number;
        acciones: string[];
      }[];
      const voided = (await api.get('/comandas?eliminada=true&limit=500').expect(200)).body as {
        id_comanda: number;
        acciones: string[];
      }[];
      const listed = (id: number) =>
        [...open, ...voided].find((c) => c.id_comanda === id)?.acciones;
      for (const state of ['abierta', 'cerrada', 'eliminada'] as const) {
        const detail = await api.get(`/comandas/${ids[state]}`).expect(200);
        expect({ state, detail: detail.body.acciones, list: listed(ids[state]) }).toEqual({
          state,
          detail: ACCIONES[role][state],
          list: ACCIONES[role][state],
        });
      }
    });

    it('the answers of a change carry the caller’s acciones, split and merge included', async () => {
      const waiter = as('mozo');
      const cashier = as('cajero');
      const target = await comanda(as('admin'));
      const added = await waiter
        .post(`/comandas/${target.id}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
        .expect(201);
      expect(added.body.acciones).toEqual(ACCIONES.mozo.abierta);
      const split = await cashier
        .post(`/comandas/${target.id}/split`, {
          lineas: [{ id_item: target.itemId, cantidad: 1 }],
        })
        .expect(201);
      expect([split.body.origen.acciones, split.body.nueva.acciones]).toEqual([
        ACCIONES.cajero.abierta,
        ACCIONES.cajero.abierta,
      ]);
      const merged = await waiter
        .post(`/comandas/${target.id}/merge`, { comandas: [split.body.nueva.id_comanda] })
        .expect(200);
      expect(merged.body.acciones).toEqual(ACCIONES.mozo.abierta);
      const closed = await cashier.put(`/comandas/${target.id}`, { action: 'cerrar' }).expect(200);
      expect(closed.body.acciones).toEqual(ACCIONES.cajero.cerrada);
    });

    it('on the live stream, each subscriber sees its own, live and replayed', async () => {
      const admin = as('admin');
      const subscribe = (role: Reader, headers: Record<string, string> = {}) =>
        SseClient.open(t.http, '/api/v1/comandas/stream', {
          'X-Tenant-ID': 'alfa',
          Authorization: `Bearer ${tokenFor('alfa', STAFF[role].id)}`,
          ...headers,
        });
      const [{ n: before }] = await t.dbs.query<{ n: number }>(
        t.dbs.tenantUrl('alfa'),
        'SELECT coalesce(max(id_evento), 0)::int AS n FROM comanda_eventos',
      );
      // two waiters' tablets: the same permissions, the same frames
      const streams = await Promise.all(
        (['admin', 'cajero', 'mozo', 'mozo', 'cocina'] as const).map(
          async (role) => [role, await subscribe(role)] as const,
        ),
      );
      try {
        for (const [, stream] of streams) expect(stream.status).toBe(200);
        const acciones = (stream: SseClient, id: number) =>
          stream
            .comandaEvents<{ id_comanda: number; comanda: { acciones: string[] } }>()
            .filter((e) => e.id_comanda === id)
            .map((e) => e.comanda.acciones);
        // each change is seen by every stream before the next one, so each event's summary is
        // the comanda in the state that change left
        const created = await comanda(admin);
        const steps: [ComandaState, () => Promise<unknown>][] = [
          ['abierta', async () => undefined],
          ['cerrada', () => admin.put(`/comandas/${created.id}`, { action: 'cerrar' }).expect(200)],
          ['eliminada', () => admin.delete(`/comandas/${created.id}`).expect(200)],
        ];
        for (const [n, [, step]] of steps.entries()) {
          await step();
          for (const [, stream] of streams)
            await stream.until(() => acciones(stream, created.id).length >= n + 1);
        }
        for (const [role, stream] of streams)
          expect({ role, acciones: acciones(stream, created.id) }).toEqual({
            role,
            acciones: [ACCIONES[role].abierta, ACCIONES[role].cerrada, ACCIONES[role].eliminada],
          });

        // a resumed stream replays the entries with the comanda as it is now (eliminada)
        for (const role of READERS_ONLY) {
          const resumed = await subscribe(role, { 'Last-Event-ID': String(before) });
          try {
            await resumed.until(() => acciones(resumed, created.id).length >= 3);
            expect({ role, acciones: acciones(resumed, created.id) }).toEqual({
              role,
              acciones: [1, 2, 3].map(() => ACCIONES[role].eliminada),
            });
          } finally {
            resumed.close();
          }
        }
      } finally {
        for (const [, stream] of streams) stream.close();
      }
    });

    it.each(READERS_ONLY)('as %s, on reservations: only a pendiente one has any', async (role) => {
      const admin = as('admin');
      const fecha = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const book = async (hora: string) =>
        (await admin.post('/reservas', { nombre: `Mesa de ${role}`, personas: 2, fecha, hora }))
          .body as { id_reserva: number };
      const pendiente = await book('12:00');
      const cancelada = await book('13:00');
      await admin
        .post(`/reservas/${cancelada.id_reserva}/cancelar`, { motivo: 'llamó' })
        .expect(200);
      const sentada = await book('14:00');
      await admin.post(`/reservas/${sentada.id_reserva}/sentar`, { id_mesa: 2 }).expect(200);
      const noShow = await book('15:00');
      await admin.post(`/reservas/${noShow.id_reserva}/no-show`).expect(200);

      const api = as(role);
      const list = (await api.get(`/reservas?fecha=${fecha}&limit=500`).expect(200)).body as {
        id_reserva: number;
        acciones: string[];
      }[];
      for (const [estado, r, expected] of [
        ['pendiente', pendiente, RESERVA_ACCIONES[role]],
        ['cancelada', cancelada, []],
        ['sentada', sentada, []],
        ['no_show', noShow, []],
      ] as const) {
        const detail = await api.get(`/reservas/${r.id_reserva}`).expect(200);
        expect({
          estado,
          detail: detail.body.acciones,
          list: list.find((x) => x.id_reserva === r.id_reserva)?.acciones,
        }).toEqual({ estado, detail: expected, list: expected });
      }
    });
  });

  it('GET /me tells each user their roles and permissions, as the matrix gives them', async () => {
    const mozo = await as('mozo').get('/me').expect(200);
    expect(mozo.body).toEqual({
      id_usuario: STAFF.mozo.id,
      nombre: 'Rosa',
      roles: ['mozo'],
      permissions: [
        'comandas:read',
        'comandas:write',
        'comandas:split',
        'comandas:merge',
        'comandas:transfer',
        'reservas:read',
        'reservas:write',
        'reservas:seat',
      ],
    });
    const cocina = await as('cocina').get('/me').expect(200);
    expect(cocina.body.permissions).toEqual(['comandas:read', 'reservas:read']);
    const nobody = await as('sinRol').get('/me').expect(200);
    expect(nobody.body).toMatchObject({ roles: [], permissions: [] });
  });

  it('a user holding several roles gets the sum of their permissions', async () => {
    await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      'INSERT INTO usua_roles (id_usuario, id_rol) VALUES (2, 3)',
    );
    try {
      const cashierWaiter = as('cajero');
      const created = await cashierWaiter.post('/comandas', {
        id_mesa: 3,
        items: [{ id_producto: MENU.lomo.id, cantidad: 1 }],
      });
      expect(created.status).toBe(201);
      await cashierWaiter
        .put(`/comandas/${created.body.id_comanda}`, { action: 'cerrar' })
        .expect(200);
      expect(
        (await cashierWaiter.delete(`/comandas/${created.body.id_comanda}`).expect(403)).body
          .detail,
      ).toEqual({
        permission: 'comandas:delete',
        roles: ['cajero', 'mozo'],
      });
    } finally {
      await t.dbs.query(
        t.dbs.tenantUrl('alfa'),
        'DELETE FROM usua_roles WHERE id_usuario = 2 AND id_rol = 3',
      );
    }
  });

  it('a role granted or revoked in usua_roles applies at the next request', async () => {
    const kitchen = as('cocina');
    expect((await kitchen.post('/comandas', { id_mesa: 1 })).status).toBe(403);
    await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      'INSERT INTO usua_roles (id_usuario, id_rol) VALUES (4, 3)',
    );
    await kitchen.post('/comandas', { id_mesa: 1 }).expect(201);
    await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      'DELETE FROM usua_roles WHERE id_usuario = 4 AND id_rol = 3',
    );
    expect((await kitchen.post('/comandas', { id_mesa: 1 })).status).toBe(403);
  });

  it('roles are matched by name whatever their case, and unknown role names give nothing', async () => {
    await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      `UPDATE roles SET nombre = 'Cocina ' WHERE nombre = 'cocina'`,
    );
    await t.dbs.query(t.dbs.tenantUrl('alfa'), `INSERT INTO roles (nombre) VALUES ('gerente')`);
    await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      `INSERT INTO usua_roles (id_usuario, id_rol) SELECT 5, id_rol FROM roles WHERE nombre = 'gerente'`,
    );
    try {
      await as('cocina').get('/comandas').expect(200);
      const res = await as('sinRol').get('/comandas').expect(403);
      expect(res.body.detail).toEqual({ permission: 'comandas:read', roles: ['gerente'] });
    } finally {
      await t.dbs.query(
        t.dbs.tenantUrl('alfa'),
        `UPDATE roles SET nombre = 'cocina' WHERE nombre = 'Cocina '`,
      );
      await t.dbs.query(t.dbs.tenantUrl('alfa'), `DELETE FROM roles WHERE nombre = 'gerente'`);
    }
  });

  it('a switched-off feature stays an unknown route for everyone, the admin included', async () => {
    await t.dbs.createTenant('sinrpc');
    await seedMenu(t.dbs, 'sinrpc');
    await seedStaff(t.dbs, 'sinrpc');
    const admin = authedApi(t.http, 'sinrpc', tokenFor('sinrpc', STAFF.admin.id));
    const waiter = authedApi(t.http, 'sinrpc', tokenFor('sinrpc', STAFF.mozo.id));
    expect((await admin.get('/rpc/get_producto/1').expect(404)).body.code).toBe('NOT_FOUND');
    expect((await waiter.get('/rpc/get_producto/1').expect(404)).body.code).toBe('NOT_FOUND');
  });
});
