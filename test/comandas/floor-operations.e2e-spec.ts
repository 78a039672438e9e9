import { Client } from 'pg';
import request from 'supertest';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Floor operations (docs/comandas.md): idempotent writes, split, merge, transfer and line voids
 * with a reason, over HTTP on a real PostgreSQL.
 */

interface Linea {
  id_item: number;
  id_producto: number;
  cantidad: number;
  precio_unitario: number;
  subtotal: number;
  nota: string | null;
  id_usuario: number | null;
}

interface Detail {
  id_comanda: number;
  numero_ticket: number;
  id_mesa: number | null;
  id_cliente: number | null;
  estado: string;
  total: number;
  version: number;
  eliminada: boolean;
  lineas: Linea[];
}

interface Evento {
  accion: string;
  motivo: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
}

describe('floor operations', () => {
  let t: TestApp;
  let api: TenantApi;
  const db = () => t.dbs.tenantUrl('piso');
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await t.dbs.query<{ n: string }>(db(), sql, params))[0].n);

  /** POST/PUT/PATCH/DELETE with headers (Idempotency-Key, If-Match). */
  const send = (
    method: 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body: object | undefined,
    headers: Record<string, string> = {},
    slug = 'piso',
  ) => {
    let req = request(t.http)[method](`/api/v1${path}`).set('X-Tenant-ID', slug);
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return body === undefined ? req : req.send(body);
  };

  /** An open comanda at table 1: ceviche x3 (nota), chicha x2, lomo x1. */
  const open = async (): Promise<Detail> =>
    (
      await api
        .post('/comandas', {
          id_mesa: 1,
          id_usuario: MENU.rosa,
          items: [
            { id_producto: MENU.ceviche.id, cantidad: 3, nota: 'sin ají' },
            { id_producto: MENU.chicha.id, cantidad: 2 },
            { id_producto: MENU.lomo.id, cantidad: 1 },
          ],
        })
        .expect(201)
    ).body as Detail;

  const events = async (id: number) =>
    (await api.get(`/comandas/${id}/eventos`).expect(200)).body as Evento[];
  const sumOf = (lineas: Linea[]) =>
    Math.round(lineas.reduce((sum, l) => sum + l.subtotal, 0) * 100) / 100;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('piso');
    await t.dbs.createTenant('otro');
    await seedMenu(t.dbs, 'piso');
    await seedMenu(t.dbs, 'otro');
    api = tenantApi(t.http, 'piso');
  });
  afterAll(() => t?.close());

  describe('Idempotency-Key', () => {
    const body = {
      id_mesa: 2,
      items: [{ id_producto: MENU.ceviche.id, cantidad: 2 }],
    };

    it('the same POST twice with one key creates one comanda and answers the same twice', async () => {
      const before = await count('SELECT count(*) AS n FROM comandas');
      const first = await send('post', '/comandas', body, { 'Idempotency-Key': 'crear-1' });
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const again = await send('post', '/comandas', body, { 'Idempotency-Key': 'crear-1' });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers['content-type']).toMatch(/^application\/json/);
      expect(await count('SELECT count(*) AS n FROM comandas')).toBe(before + 1);
      // the key and its answer are stored with the comanda
      const stored = await t.dbs.query<{ estado_http: number; id_usuario: number }>(
        db(),
        "SELECT estado_http, id_usuario FROM idempotencia WHERE clave = 'crear-1'",
      );
      expect(stored).toEqual([{ estado_http: 201, id_usuario: 0 }]);
    });

    it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and nothing happens', async () => {
      const before = await count('SELECT count(*) AS n FROM comandas');
      const res = await send(
        'post',
        '/comandas',
        { ...body, id_mesa: 3 },
        { 'Idempotency-Key': 'crear-1' },
      );
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
        detail: { method: 'POST', route: '/api/v1/comandas' },
      });
      expect(await count('SELECT count(*) AS n FROM comandas')).toBe(before);
    });

    it('key order and spacing of the body do not make another request', async () => {
      const key = { 'Idempotency-Key': 'orden' };
      const a = await send('post', '/comandas', { id_mesa: 2, observacion: 'x' }, key);
      const b = await send('post', '/comandas', { observacion: 'x', id_mesa: 2 }, key);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(b.body.id_comanda).toBe(a.body.id_comanda);
    });

    it('a 4xx is stored and replayed; the effect of the refused request is rolled back', async () => {
      const c = await open();
      const key = { 'Idempotency-Key': 'stale-1', 'If-Match': '"99"' };
      const first = await send(
        'post',
        `/comandas/${c.id_comanda}/items`,
        {
          id_producto: MENU.chicha.id,
          cantidad: 1,
        },
        key,
      );
      expect(first.status).toBe(412);
      expect(first.body.code).toBe('STALE_VERSION');
      const again = await send(
        'post',
        `/comandas/${c.id_comanda}/items`,
        {
          id_producto: MENU.chicha.id,
          cantidad: 1,
        },
        key,
      );
      expect(again.status).toBe(412);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(
        await count('SELECT count(*) AS n FROM deta_comandas WHERE id_comanda = $1', [
          c.id_comanda,
        ]),
      ).toBe(3);
    });

    it('a refusal from the database (unknown table) is stored, its partial effect is not', async () => {
      const before = await count('SELECT count(*) AS n FROM comandas');
      const key = { 'Idempotency-Key': 'mesa-99' };
      const first = await send('post', '/comandas', { id_mesa: 99 }, key);
      expect(first.status).toBe(400);
      const again = await send('post', '/comandas', { id_mesa: 99 }, key);
      expect(again.status).toBe(400);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await count('SELECT count(*) AS n FROM comandas')).toBe(before);
    });

    it('every write route takes it: a retried line add, close, void and restore act once', async () => {
      const c = await open();
      const id = c.id_comanda;
      const twice = async (
        method: 'post' | 'put' | 'patch' | 'delete',
        path: string,
        b: object | undefined,
        key: string,
      ) => {
        const a = await send(method, path, b, { 'Idempotency-Key': key });
        const r = await send(method, path, b, { 'Idempotency-Key': key });
        expect(r.status).toBe(a.status);
        expect(r.text).toBe(a.text);
        expect(r.headers['idempotent-replayed']).toBe('true');
        return a;
      };
      const added = await twice(
        'post',
        `/comandas/${id}/items`,
        { id_producto: MENU.lomo.id, cantidad: 1 },
        'add',
      );
      expect(added.status).toBe(201);
      expect((added.body as Detail).lineas).toHaveLength(4);
      const item = (added.body as Detail).lineas[3].id_item;
      expect(
        (await twice('patch', `/comandas/${id}/items/${item}`, { cantidad: 2 }, 'qty')).status,
      ).toBe(200);
      expect(
        (await twice('delete', `/comandas/${id}/items/${item}`, { motivo: 'error' }, 'void'))
          .status,
      ).toBe(200);
      expect((await twice('put', `/comandas/${id}`, { action: 'cerrar' }, 'close')).status).toBe(
        200,
      );
      expect((await twice('delete', `/comandas/${id}`, { motivo: 'prueba' }, 'del')).status).toBe(
        200,
      );
      expect(
        (await twice('put', `/comandas/${id}`, { action: 'restaurar' }, 'restore')).status,
      ).toBe(200);
      const after = (await api.get(`/comandas/${id}`).expect(200)).body as Detail;
      // created v1; add, change, void, close, delete, restore: six changes, each once
      expect(after.version).toBe(7);
      expect((await events(id)).map((e) => e.accion)).toEqual([
        'crear',
        'agregar_item',
        'modificar_item',
        'quitar_item',
        'cerrar',
        'eliminar',
        'restaurar',
      ]);
    });

    it('two requests with one key at the same moment: one effect, the other 409 IN_USE or the replay', async () => {
      const before = await count('SELECT count(*) AS n FROM comandas');
      const key = { 'Idempotency-Key': 'carrera' };
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => send('post', '/comandas', body, key)),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      for (const a of answers) {
        if (a.status === 409) {
          expect(a.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
          expect(a.headers['retry-after']).toBe('1');
        } else {
          expect(a.status).toBe(201);
        }
      }
      const created = new Set(
        answers.filter((a) => a.status === 201).map((a) => a.body.id_comanda),
      );
      expect(created.size).toBe(1);
      expect(await count('SELECT count(*) AS n FROM comandas')).toBe(before + 1);
    });

    it('a malformed key is 400 IDEMPOTENCY_KEY_INVALID, before anything happens', async () => {
      const before = await count('SELECT count(*) AS n FROM comandas');
      for (const bad of ['', 'con espacio', 'ñ', 'k'.repeat(256)]) {
        const res = await send('post', '/comandas', body, { 'Idempotency-Key': bad });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
      }
      expect(await count('SELECT count(*) AS n FROM comandas')).toBe(before);
    });

    it('keys are per tenant: the same key in another tenant is another request', async () => {
      const key = { 'Idempotency-Key': 'crear-1' };
      const res = await send('post', '/comandas', body, key, 'otro');
      expect(res.status).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });

    it('an expired key is forgotten: the same request acts again, and expired keys are purged', async () => {
      const key = { 'Idempotency-Key': 'caduca' };
      const first = await send('post', '/comandas', { id_mesa: 3 }, key);
      expect(first.status).toBe(201);
      await t.dbs.query(
        db(),
        `UPDATE idempotencia SET fec_registro = now() - interval '2 days',
                                 fec_expira = now() - interval '1 day'
          WHERE clave = 'caduca'`,
      );
      const again = await send('post', '/comandas', { id_mesa: 3 }, key);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.id_comanda).not.toBe(first.body.id_comanda);
    });

    it('the first keyed write of a tenant purges the expired keys on its own connection', async () => {
      // a new tenant's pool has one connection, held by the write until it answers: a purge
      // asking the pool for another would wait for it, time out and leave the keys behind
      await t.dbs.createTenant('purga');
      await seedMenu(t.dbs, 'purga');
      await t.dbs.query(
        t.dbs.tenantUrl('purga'),
        `INSERT INTO idempotencia (clave, id_usuario, huella, metodo, ruta, estado_http,
                                   fec_registro, fec_expira)
         VALUES ('vieja', 0, 'x', 'POST', '/api/v1/comandas', 201,
                 now() - interval '2 days', now() - interval '1 day')`,
      );
      const res = await send('post', '/comandas', body, { 'Idempotency-Key': 'nueva' }, 'purga');
      expect(res.status).toBe(201);
      const claves = await t.dbs.query<{ clave: string }>(
        t.dbs.tenantUrl('purga'),
        'SELECT clave FROM idempotencia ORDER BY clave',
      );
      expect(claves.map((k) => k.clave)).toEqual(['nueva']);
    });

    it('a request refused before its handler runs (validation) stores nothing under its key', async () => {
      const key = { 'Idempotency-Key': 'corregida' };
      const invalid = await send('post', '/comandas', { id_mesa: 'dos' }, key);
      expect(invalid.status).toBe(400);
      expect(invalid.body.code).toBe('VALIDATION_FAILED');
      expect(await count("SELECT count(*) AS n FROM idempotencia WHERE clave = 'corregida'")).toBe(
        0,
      );
      // no change began: the corrected request is the key's first, not a reuse (422)
      const corrected = await send('post', '/comandas', body, key);
      expect(corrected.status).toBe(201);
      expect(corrected.headers['idempotent-replayed']).toBeUndefined();
      const again = await send('post', '/comandas', body, key);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id_comanda).toBe(corrected.body.id_comanda);
    });

    it('without the header nothing changes: two POSTs make two comandas', async () => {
      const before = await count('SELECT count(*) AS n FROM comandas');
      await api.post('/comandas', body).expect(201);
      await api.post('/comandas', body).expect(201);
      expect(await count('SELECT count(*) AS n FROM comandas')).toBe(before + 2);
    });
  });

  describe('split', () => {
    it('moves whole lines and parts of lines to a new open comanda; totals, versions, audit', async () => {
      const c = await open();
      const [ceviche, chicha, lomo] = c.lineas;
      const res = await send(
        'post',
        `/comandas/${c.id_comanda}/split`,
        {
          lineas: [
            { id_item: ceviche.id_item, cantidad: 1 },
            { id_item: lomo.id_item, cantidad: 1 },
          ],
          id_mesa: 2,
        },
        { 'If-Match': '"1"' },
      );
      expect(res.status).toBe(201);
      const { origen, nueva } = res.body as { origen: Detail; nueva: Detail };
      expect(res.headers.location).toBe(`/api/v1/comandas/${nueva.id_comanda}`);
      expect(origen).toMatchObject({ id_comanda: c.id_comanda, version: 2, estado: 'abierta' });
      expect(origen.lineas.map((l) => [l.id_item, l.cantidad])).toEqual([
        [ceviche.id_item, 2],
        [chicha.id_item, 2],
      ]);
      expect(nueva).toMatchObject({ version: 1, estado: 'abierta', id_mesa: 2, id_cliente: null });
      // in entry order: the lomo line moved whole (its id, older), then the part of the ceviche
      expect(
        nueva.lineas.map((l) => [l.id_producto, l.cantidad, l.nota, l.precio_unitario]),
      ).toEqual([
        [MENU.lomo.id, 1, null, MENU.lomo.precio],
        [MENU.ceviche.id, 1, 'sin ají', MENU.ceviche.precio],
      ]);
      expect(nueva.lineas[0].id_item).toBe(lomo.id_item);
      expect(nueva.lineas[1].id_item).toBeGreaterThan(lomo.id_item);
      // a part keeps the price, the note and the author of its line
      expect(nueva.lineas[1].id_usuario).toBe(ceviche.id_usuario);
      expect(origen.total).toBe(sumOf(origen.lineas));
      expect(nueva.total).toBe(sumOf(nueva.lineas));
      expect(origen.total + nueva.total).toBe(c.total);

      const [a] = (await events(c.id_comanda)).slice(-1);
      expect(a).toMatchObject({ accion: 'dividir', despues: { nueva: nueva.id_comanda } });
      const b = await events(nueva.id_comanda);
      expect(b).toHaveLength(1);
      expect(b[0]).toMatchObject({
        accion: 'dividir',
        antes: null,
        despues: { origen: c.id_comanda },
      });
    });

    it('refuses what cannot be split: 400 INVALID_SPLIT naming each line, 409 when not abierta, 412 stale', async () => {
      const c = await open();
      const [ceviche] = c.lineas;
      const bad = await api.post(`/comandas/${c.id_comanda}/split`, {
        lineas: [
          { id_item: ceviche.id_item, cantidad: 4 },
          { id_item: 999999, cantidad: 1 },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        code: 'INVALID_SPLIT',
        detail: {
          lineas: [
            { id_item: ceviche.id_item, reason: 'asks for 4 of a line of 3' },
            { id_item: 999999, reason: `is not a line of comanda ${c.id_comanda}` },
          ],
        },
      });
      const empty = await api.post(`/comandas/${c.id_comanda}/split`, { lineas: [] });
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('VALIDATION_FAILED');
      const stale = await send(
        'post',
        `/comandas/${c.id_comanda}/split`,
        { lineas: [{ id_item: ceviche.id_item, cantidad: 1 }] },
        { 'If-Match': '"7"' },
      );
      expect(stale.status).toBe(412);
      await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200);
      const closed = await api.post(`/comandas/${c.id_comanda}/split`, {
        lineas: [{ id_item: ceviche.id_item, cantidad: 1 }],
      });
      expect(closed.status).toBe(409);
      expect(closed.body).toMatchObject({
        code: 'INVALID_TRANSITION',
        detail: { estado: 'cerrada' },
      });
      const lines = await count('SELECT count(*) AS n FROM deta_comandas WHERE id_comanda = $1', [
        c.id_comanda,
      ]);
      expect(lines).toBe(3);
    });
  });

  describe('merge', () => {
    it('moves every line into the target; the others end eliminada "unida a <ticket>"', async () => {
      const target = await open();
      const b = await open();
      const c = await open();
      const res = await send(
        'post',
        `/comandas/${target.id_comanda}/merge`,
        { comandas: [c.id_comanda, b.id_comanda] },
        { 'If-Match': '"1"' },
      );
      expect(res.status).toBe(200);
      const merged = res.body as Detail;
      expect(merged.version).toBe(2);
      expect(merged.lineas).toHaveLength(9);
      expect(merged.total).toBe(sumOf(merged.lineas));
      expect(merged.total).toBe(target.total + b.total + c.total);
      for (const other of [b, c]) {
        const gone = (await api.get(`/comandas/${other.id_comanda}`).expect(200)).body as Detail;
        expect(gone).toMatchObject({ eliminada: true, lineas: [], total: 0, version: 2 });
        const [last] = (await events(other.id_comanda)).slice(-1);
        expect(last).toMatchObject({
          accion: 'unir',
          motivo: `unida a ${target.numero_ticket}`,
          despues: { unida_a: target.id_comanda },
        });
      }
      const [last] = (await events(target.id_comanda)).slice(-1);
      expect(last).toMatchObject({
        accion: 'unir',
        despues: { comandas: [b.id_comanda, c.id_comanda].sort((x, y) => x - y) },
      });
    });

    it('refuses: unknown, repeated or itself (400 INVALID_MERGE), a closed one (409 naming it)', async () => {
      const target = await open();
      const other = await open();
      const bad = await api.post(`/comandas/${target.id_comanda}/merge`, {
        comandas: [other.id_comanda, other.id_comanda, target.id_comanda, 99999999],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('INVALID_MERGE');
      expect(bad.body.detail.comandas).toEqual(
        expect.arrayContaining([
          { id_comanda: other.id_comanda, reason: 'is listed more than once' },
          { id_comanda: target.id_comanda, reason: 'is the target itself' },
          { id_comanda: 99999999, reason: 'does not exist' },
        ]),
      );
      await api.put(`/comandas/${other.id_comanda}`, { action: 'cerrar' }).expect(200);
      const closed = await api.post(`/comandas/${target.id_comanda}/merge`, {
        comandas: [other.id_comanda],
      });
      expect(closed.status).toBe(409);
      expect(closed.body).toMatchObject({
        code: 'INVALID_TRANSITION',
        detail: { estado: 'cerrada', action: 'unir', id_comanda: other.id_comanda },
      });
      await api.get(`/comandas/99999999/merge`).expect(405);
      const unknown = await api.post('/comandas/99999999/merge', { comandas: [other.id_comanda] });
      expect(unknown.status).toBe(404);
      expect(
        (await api.get(`/comandas/${target.id_comanda}`).expect(200)).body.lineas,
      ).toHaveLength(3);
    });

    it('a merge of three racing a split of one of them leaves consistent totals and lines', async () => {
      for (let round = 0; round < 5; round++) {
        const target = await open();
        const b = await open();
        const c = await open();
        const before = await count(
          'SELECT coalesce(sum(cantidad), 0) * 1000 AS n FROM deta_comandas WHERE id_comanda = ANY($1)',
          [[target.id_comanda, b.id_comanda, c.id_comanda]],
        );
        const [merge, split] = await Promise.all([
          api.post(`/comandas/${target.id_comanda}/merge`, {
            comandas: [b.id_comanda, c.id_comanda],
          }),
          api.post(`/comandas/${b.id_comanda}/split`, {
            lineas: [{ id_item: b.lineas[0].id_item, cantidad: 1 }],
          }),
        ]);
        expect(merge.status).not.toBeGreaterThanOrEqual(500);
        expect(split.status).not.toBeGreaterThanOrEqual(500);
        const nueva = split.status === 201 ? (split.body.nueva as Detail).id_comanda : undefined;
        const ids = [target.id_comanda, b.id_comanda, c.id_comanda, ...(nueva ? [nueva] : [])];
        // no quantity lost or duplicated
        expect(
          await count(
            'SELECT coalesce(sum(cantidad), 0) * 1000 AS n FROM deta_comandas WHERE id_comanda = ANY($1)',
            [ids],
          ),
        ).toBe(before);
        // every total is the sum of its lines
        const wrong = await count(
          `SELECT count(*) AS n FROM comandas c
            WHERE c.id_comanda = ANY($1)
              AND c.total <> (SELECT coalesce(sum(subtotal), 0) FROM deta_comandas d
                               WHERE d.id_comanda = c.id_comanda)`,
          [ids],
        );
        expect(wrong).toBe(0);
        // the split came first (merge took the rest of b) or after (409: b was merged)
        if (split.status === 409) expect(merge.status).toBe(200);
        else expect(split.status).toBe(201);
      }
    });
  });

  describe('audit trail order', () => {
    it('lists a change that waited for the lock after the change it waited for', async () => {
      const target = await open();
      const other = await open();
      // another session holds the target's row: the merge begins, then waits for it
      const holder = new Client({ connectionString: db() });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM comandas WHERE id_comanda = $1 FOR UPDATE', [
          target.id_comanda,
        ]);
        // (then: supertest sends the request when it is awaited or then-ed)
        const merged = api
          .post(`/comandas/${target.id_comanda}/merge`, { comandas: [other.id_comanda] })
          .then((res) => res);
        // wait until the merge's transaction is blocked on the lock
        let blocked = false;
        for (let i = 0; i < 250 && !blocked; i++) {
          // another connection: pg_stat_activity is a snapshot per transaction
          const [{ n }] = await t.dbs.query<{ n: number }>(
            db(),
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE '%FROM comandas%FOR UPDATE%'`,
          );
          blocked = n > 0;
          if (!blocked) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(blocked).toBe(true);
        // meanwhile a line is added to the other comanda, which the merge has not locked yet
        await api
          .post(`/comandas/${other.id_comanda}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
          .expect(201);
        await holder.query('COMMIT');
        expect((await merged).status).toBe(200);
      } finally {
        await holder.end();
      }
      expect((await events(other.id_comanda)).map((e) => e.accion)).toEqual([
        'crear',
        'agregar_item',
        'unir',
      ]);
    });
  });

  describe('transfer and line voids', () => {
    it('a change of id_mesa alone is audited as transferir with the old and new table', async () => {
      const c = await open();
      await api.put(`/comandas/${c.id_comanda}`, { id_mesa: 3 }).expect(200);
      await api.put(`/comandas/${c.id_comanda}`, { id_mesa: 2, observacion: 'x' }).expect(200);
      const [transfer, edit] = (await events(c.id_comanda)).slice(-2);
      expect(transfer).toMatchObject({
        accion: 'transferir',
        antes: { id_mesa: 1 },
        despues: { id_mesa: 3 },
      });
      expect(edit.accion).toBe('editar');
    });

    it('a voided line keeps its snapshot and the reason, from the body or the query', async () => {
      const c = await open();
      const [ceviche, chicha] = c.lineas;
      await api
        .delete(`/comandas/${c.id_comanda}/items/${ceviche.id_item}`, { motivo: 'se quemó' })
        .expect(200);
      await api
        .delete(`/comandas/${c.id_comanda}/items/${chicha.id_item}?motivo=sin%20stock`)
        .expect(200);
      const [a, b] = (await events(c.id_comanda)).slice(-2);
      expect(a).toMatchObject({
        accion: 'quitar_item',
        motivo: 'se quemó',
        antes: {
          id_item: ceviche.id_item,
          id_producto: MENU.ceviche.id,
          cantidad: 3,
          precio_unitario: MENU.ceviche.precio,
          nota: 'sin ají',
        },
        despues: null,
      });
      expect(b).toMatchObject({ accion: 'quitar_item', motivo: 'sin stock' });
    });
  });
});
