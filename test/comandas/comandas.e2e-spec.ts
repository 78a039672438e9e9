import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

interface Detail {
  id_comanda: number;
  estado: string;
  total: number;
  version: number;
  eliminada: boolean;
  items: number;
  lineas: {
    id_item: number;
    id_producto: number;
    cantidad: number;
    precio_unitario: number;
    subtotal: number;
  }[];
  [key: string]: unknown;
}

describe('comandas', () => {
  let t: TestApp;
  let api: TenantApi;
  const db = () => t.dbs.tenantUrl('acme');
  const row = async (id: number) =>
    (
      await t.dbs.query<{
        estado: string;
        eliminada: boolean;
        total: string;
        version: number;
        fec_cierre: Date | null;
      }>(
        db(),
        'SELECT estado, eliminada, total, version, fec_cierre FROM comandas WHERE id_comanda = $1',
        [id],
      )
    )[0];

  /** An open comanda with a ceviche x2 and a chicha. */
  const openComanda = async (extra: object = {}): Promise<Detail> => {
    const res = await api
      .post('/comandas', {
        id_mesa: 1,
        id_usuario: MENU.rosa,
        items: [
          { id_producto: MENU.ceviche.id, cantidad: 2, nota: 'sin ají' },
          { id_producto: MENU.chicha.id, cantidad: 1 },
        ],
        ...extra,
      })
      .expect(201);
    return res.body as Detail;
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('acme'); // America/Lima
    await seedMenu(t.dbs, 'acme');
    api = tenantApi(t.http, 'acme');
  });

  afterAll(() => t.close());

  describe('POST /comandas', () => {
    it('opens a comanda with its lines at the products’ prices', async () => {
      const res = await api
        .post('/comandas', {
          id_mesa: 2,
          id_usuario: MENU.rosa,
          id_cliente: MENU.cliente,
          observacion: 'cumpleaños',
          items: [
            { id_producto: MENU.lomo.id, cantidad: 2, nota: 'término medio' },
            { id_producto: MENU.chicha.id, cantidad: 1.5 },
          ],
        })
        .expect(201);
      const id = res.body.id_comanda as number;
      expect(res.headers.location).toBe(`/api/v1/comandas/${id}`);
      expect(res.headers.etag).toBe('"1"');
      expect(res.body).toMatchObject({
        id_mesa: 2,
        mesa: 2,
        id_usuario: MENU.rosa,
        mozo: 'Rosa Quispe',
        id_cliente: MENU.cliente,
        cliente: 'Ana Torres',
        estado: 'abierta',
        fec_cierre: null,
        total: 97,
        n_items: 2,
        items: 2,
        eliminada: false,
        version: 1,
        observacion: 'cumpleaños',
        fec_eliminacion: null,
        lineas: [
          {
            id_producto: MENU.lomo.id,
            producto: 'Lomo saltado',
            cantidad: 2,
            precio_unitario: 42.5,
            subtotal: 85,
            nota: 'término medio',
            id_usuario: MENU.rosa,
            usuario: 'Rosa Quispe',
          },
          {
            id_producto: MENU.chicha.id,
            producto: 'Chicha morada',
            cantidad: 1.5,
            precio_unitario: 8,
            subtotal: 12,
            nota: null,
          },
        ],
      });
      expect(res.body.fec_apertura).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
      expect(res.body.numero_ticket).toBeGreaterThan(0);
      const lines = await t.dbs.query(
        db(),
        'SELECT precio_unitario, subtotal FROM deta_comandas WHERE id_comanda = $1 ORDER BY 1',
        [id],
      );
      expect(lines).toEqual([
        { precio_unitario: '8.00', subtotal: '12.00' },
        { precio_unitario: '42.50', subtotal: '85.00' },
      ]);
    });

    it('keeps the price of the order when the product price changes later', async () => {
      const comanda = await openComanda();
      await t.dbs.query(db(), 'UPDATE productos SET precio = 99 WHERE id_producto = $1', [
        MENU.ceviche.id,
      ]);
      try {
        const res = await api.get(`/comandas/${comanda.id_comanda}`).expect(200);
        expect(res.body.lineas[0]).toMatchObject({ precio_unitario: 38, subtotal: 76 });
      } finally {
        await t.dbs.query(db(), 'UPDATE productos SET precio = 38 WHERE id_producto = $1', [
          MENU.ceviche.id,
        ]);
      }
    });

    it('opens an empty take-away comanda with an empty body', async () => {
      const res = await api.post('/comandas', {}).expect(201);
      expect(res.body).toMatchObject({
        id_mesa: null,
        mesa: null,
        estado: 'abierta',
        total: 0,
        n_items: 0,
        lineas: [],
      });
    });

    it.each([
      [{ items: [{ id_producto: 999, cantidad: 1 }] }, 400, 'PRODUCT_NOT_FOUND'],
      [{ items: [{ id_producto: MENU.retirado.id, cantidad: 1 }] }, 400, 'PRODUCT_INACTIVE'],
      [{ items: [{ id_producto: MENU.ceviche.id, cantidad: 0 }] }, 400, 'VALIDATION_FAILED'],
      [{ items: [{ id_producto: MENU.ceviche.id, cantidad: -2 }] }, 400, 'VALIDATION_FAILED'],
      [{ items: [{ id_producto: MENU.ceviche.id, cantidad: 1.0001 }] }, 400, 'VALIDATION_FAILED'],
      [{ items: [{ id_producto: MENU.ceviche.id }] }, 400, 'VALIDATION_FAILED'],
      [{ items: [{ id_producto: 'uno', cantidad: 1 }] }, 400, 'VALIDATION_FAILED'],
      [{ id_mesa: 999 }, 400, '23503'],
      [{ id_usuario: 999 }, 400, '23503'],
      [{ id_mesa: 'tres' }, 400, 'VALIDATION_FAILED'],
      [{ total: 5 }, 400, 'VALIDATION_FAILED'],
      [{ estado: 'cerrada' }, 400, 'VALIDATION_FAILED'],
    ])('refuses %j with %i %s and writes nothing', async (body, status, code) => {
      const [{ n: before }] = await t.dbs.query<{ n: number }>(
        db(),
        'SELECT count(*)::int AS n FROM comandas',
      );
      const res = await api.post('/comandas', body).expect(status);
      expect(res.body.code).toBe(code);
      expect(typeof res.body.error).toBe('string');
      const [{ n: after }] = await t.dbs.query<{ n: number }>(
        db(),
        'SELECT count(*)::int AS n FROM comandas',
      );
      expect(after).toBe(before);
    });
  });

  describe('GET /comandas/:id', () => {
    it('returns the comanda with its lines and the version as ETag', async () => {
      const comanda = await openComanda();
      const res = await api.get(`/comandas/${comanda.id_comanda}`).expect(200);
      expect(res.headers.etag).toBe('"1"');
      expect(res.body).toEqual(comanda);
    });

    it('answers 400 INVALID_ID for a non-numeric id and 404 COMANDA_NOT_FOUND for an unknown one', async () => {
      for (const bad of ['abc', '1.5', '-3', '0', '1e3', '99999999999999999999']) {
        const res = await api.get(`/comandas/${bad}`).expect(400);
        expect(res.body.code).toBe('INVALID_ID');
      }
      const missing = await api.get('/comandas/987654').expect(404);
      expect(missing.body).toMatchObject({
        code: 'COMANDA_NOT_FOUND',
        error: 'Comanda 987654 does not exist',
      });
    });
  });

  describe('PUT /comandas/:id transitions', () => {
    it('cerrar closes an open comanda and computes the total from its lines', async () => {
      const { id_comanda: id } = await openComanda();
      // someone changed a line behind the API's back: the close recomputes from the lines
      await t.dbs.query(
        db(),
        'UPDATE deta_comandas SET cantidad = 3 WHERE id_comanda = $1 AND id_producto = $2',
        [id, MENU.ceviche.id],
      );
      const res = await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      expect(res.headers.etag).toBe('"2"');
      expect(res.body).toMatchObject({ estado: 'cerrada', total: 3 * 38 + 8, version: 2 });
      expect(res.body.fec_cierre).toMatch(/-05:00$/);
      expect(await row(id)).toMatchObject({ estado: 'cerrada', total: '122.00', version: 2 });
    });

    it('abrir reopens a closed comanda and clears its closing time', async () => {
      const { id_comanda: id } = await openComanda();
      await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      const res = await api.put(`/comandas/${id}`, { action: 'abrir' }).expect(200);
      expect(res.body).toMatchObject({ estado: 'abierta', fec_cierre: null, version: 3 });
      expect((await row(id)).fec_cierre).toBeNull();
    });

    it('refuses to close a comanda without lines: 409 COMANDA_EMPTY', async () => {
      const empty = await api.post('/comandas', {}).expect(201);
      const res = await api
        .put(`/comandas/${empty.body.id_comanda}`, { action: 'cerrar' })
        .expect(409);
      expect(res.body.code).toBe('COMANDA_EMPTY');
      expect(await row(empty.body.id_comanda)).toMatchObject({ estado: 'abierta', version: 1 });
    });

    it.each([
      ['abierta', 'abrir'],
      ['abierta', 'restaurar'],
      ['cerrada', 'cerrar'],
      ['cerrada', 'restaurar'],
      ['eliminada', 'abrir'],
      ['eliminada', 'cerrar'],
    ])(
      'a comanda that is %s refuses %s: 409 INVALID_TRANSITION naming the state',
      async (state, action) => {
        const { id_comanda: id } = await openComanda();
        if (state === 'cerrada') await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
        if (state === 'eliminada') await api.delete(`/comandas/${id}`).expect(200);
        const before = await row(id);
        const res = await api.put(`/comandas/${id}`, { action }).expect(409);
        expect(res.body).toMatchObject({
          code: 'INVALID_TRANSITION',
          error: `Cannot ${action} a comanda that is ${state}`,
          detail: { estado: state, action },
        });
        expect(await row(id)).toEqual(before);
      },
    );

    it('changes the editable fields of an open comanda', async () => {
      const { id_comanda: id } = await openComanda();
      const res = await api
        .put(`/comandas/${id}`, {
          id_mesa: 3,
          id_usuario: MENU.luis,
          observacion: 'cambio de mesa',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        id_mesa: 3,
        mesa: 3,
        mozo: 'Luis Rojas',
        observacion: 'cambio de mesa',
        version: 2,
      });
      const cleared = await api
        .put(`/comandas/${id}`, { observacion: null, id_mesa: null })
        .expect(200);
      expect(cleared.body).toMatchObject({
        observacion: null,
        id_mesa: null,
        id_usuario: MENU.luis,
        version: 3,
      });
    });

    it('refuses field changes once closed or deleted', async () => {
      const { id_comanda: id } = await openComanda();
      await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      const closed = await api.put(`/comandas/${id}`, { observacion: 'x' }).expect(409);
      expect(closed.body.detail).toEqual({ estado: 'cerrada', action: 'editar' });
      // the table alone is a transfer, refused the same way
      const moved = await api.put(`/comandas/${id}`, { id_mesa: 2 }).expect(409);
      expect(moved.body.detail).toEqual({ estado: 'cerrada', action: 'transferir' });
      await api.delete(`/comandas/${id}`).expect(200);
      const deleted = await api.put(`/comandas/${id}`, { observacion: 'x' }).expect(409);
      expect(deleted.body.detail).toEqual({ estado: 'eliminada', action: 'editar' });
    });

    it.each([
      [{ action: 'cerrar', id_mesa: 2 }, 'ACTION_WITH_FIELDS'],
      [{}, 'EMPTY_CHANGE'],
      [{ action: 'pagar' }, 'VALIDATION_FAILED'],
      [{ color: 'rojo' }, 'VALIDATION_FAILED'],
      [{ total: 0 }, 'VALIDATION_FAILED'],
      [{ version: 7 }, 'VALIDATION_FAILED'],
      [{ id_mesa: 1.5 }, 'VALIDATION_FAILED'],
      [{ observacion: 'x'.repeat(501) }, 'VALIDATION_FAILED'],
    ])('refuses %j with 400 %s and changes nothing', async (body, code) => {
      const { id_comanda: id } = await openComanda();
      const res = await api.put(`/comandas/${id}`, body).expect(400);
      expect(res.body.code).toBe(code);
      expect(await row(id)).toMatchObject({ estado: 'abierta', version: 1 });
    });

    it('answers 404 for an unknown comanda and 400 for a bad id', async () => {
      expect((await api.put('/comandas/987654', { action: 'cerrar' }).expect(404)).body.code).toBe(
        'COMANDA_NOT_FOUND',
      );
      expect((await api.put('/comandas/x', { action: 'cerrar' }).expect(400)).body.code).toBe(
        'INVALID_ID',
      );
    });
  });

  describe('If-Match and ETag', () => {
    it('applies a change whose If-Match is current and refuses a stale one with 412', async () => {
      const { id_comanda: id } = await openComanda();
      await api.put(`/comandas/${id}`, { observacion: 'v2' }).set('If-Match', '"1"').expect(200);
      const stale = await api
        .put(`/comandas/${id}`, { action: 'cerrar' })
        .set('If-Match', '"1"')
        .expect(412);
      expect(stale.body).toMatchObject({
        code: 'STALE_VERSION',
        detail: { currentVersion: 2, expectedVersion: 1 },
      });
      expect(await row(id)).toMatchObject({ estado: 'abierta', version: 2 });
      await api.put(`/comandas/${id}`, { action: 'cerrar' }).set('If-Match', 'W/"2"').expect(200);
      await api.put(`/comandas/${id}`, { action: 'abrir' }).set('If-Match', '*').expect(200);
    });

    it('guards deletes and line changes too', async () => {
      const { id_comanda: id } = await openComanda();
      await api.delete(`/comandas/${id}`).set('If-Match', '"7"').expect(412);
      await api
        .post(`/comandas/${id}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
        .set('If-Match', '"7"')
        .expect(412);
      expect(await row(id)).toMatchObject({ eliminada: false, version: 1 });
    });

    it('refuses a malformed If-Match with 400', async () => {
      const { id_comanda: id } = await openComanda();
      const res = await api
        .put(`/comandas/${id}`, { action: 'cerrar' })
        .set('If-Match', 'yesterday')
        .expect(400);
      expect(res.body.code).toBe('INVALID_IF_MATCH');
    });
  });

  describe('DELETE /comandas/:id (logical delete) and restaurar', () => {
    it('keeps the row, marks it eliminada, returns it, and restaurar brings it back as it was', async () => {
      const { id_comanda: id } = await openComanda();
      await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      const res = await api.delete(`/comandas/${id}`, { motivo: 'cliente se retiró' }).expect(200);
      expect(res.body).toMatchObject({
        id_comanda: id,
        eliminada: true,
        estado: 'cerrada',
        version: 3,
      });
      expect(res.body.fec_eliminacion).toMatch(/-05:00$/);
      expect(await row(id)).toMatchObject({ eliminada: true, estado: 'cerrada' });
      expect((await api.get(`/comandas/${id}`).expect(200)).body.eliminada).toBe(true);

      const again = await api.delete(`/comandas/${id}`).expect(409);
      expect(again.body).toMatchObject({
        code: 'INVALID_TRANSITION',
        detail: { estado: 'eliminada', action: 'eliminar' },
      });

      const restored = await api
        .put(`/comandas/${id}`, { action: 'restaurar', motivo: 'error del cajero' })
        .expect(200);
      expect(restored.body).toMatchObject({
        eliminada: false,
        fec_eliminacion: null,
        estado: 'cerrada',
        version: 4,
      });
    });

    it('takes the motivo from the query as well', async () => {
      const { id_comanda: id } = await openComanda();
      await api
        .delete(`/comandas/${id}?motivo=${encodeURIComponent('pedido duplicado')}`)
        .expect(200);
      const events = await api.get(`/comandas/${id}/eventos`).expect(200);
      expect(events.body.at(-1)).toMatchObject({ accion: 'eliminar', motivo: 'pedido duplicado' });
    });

    it('refuses unknown body fields and answers 404 for an unknown comanda', async () => {
      const { id_comanda: id } = await openComanda();
      expect((await api.delete(`/comandas/${id}`, { razon: 'x' }).expect(400)).body.code).toBe(
        'VALIDATION_FAILED',
      );
      expect((await api.delete('/comandas/987654').expect(404)).body.code).toBe(
        'COMANDA_NOT_FOUND',
      );
    });
  });

  describe('line items', () => {
    it('adds, changes and removes lines while abierta, keeping the total up to date', async () => {
      const { id_comanda: id } = await openComanda();
      const added = await api
        .post(`/comandas/${id}/items`, {
          id_producto: MENU.lomo.id,
          cantidad: 1,
          id_usuario: MENU.luis,
        })
        .expect(201);
      expect(added.body).toMatchObject({ n_items: 3, total: 76 + 8 + 42.5, version: 2 });
      const lomo = added.body.lineas.find(
        (l: { id_producto: number }) => l.id_producto === MENU.lomo.id,
      );
      expect(lomo).toMatchObject({ precio_unitario: 42.5, usuario: 'Luis Rojas' });

      const changed = await api
        .patch(`/comandas/${id}/items/${lomo.id_item}`, { cantidad: 2, nota: 'para llevar' })
        .expect(200);
      expect(changed.body).toMatchObject({ total: 76 + 8 + 85, version: 3 });
      expect(
        changed.body.lineas.find((l: { id_item: number }) => l.id_item === lomo.id_item),
      ).toMatchObject({ cantidad: 2, subtotal: 85, nota: 'para llevar' });

      const removed = await api.delete(`/comandas/${id}/items/${lomo.id_item}`).expect(200);
      expect(removed.body).toMatchObject({ n_items: 2, total: 84, version: 4 });
      expect(
        await t.dbs.query(db(), 'SELECT 1 FROM deta_comandas WHERE id_deta_comanda = $1', [
          lomo.id_item,
        ]),
      ).toEqual([]);
    });

    it('refuses line changes once the comanda is closed or deleted: 409', async () => {
      const comanda = await openComanda();
      const id = comanda.id_comanda;
      const item = comanda.lineas[0].id_item;
      await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      expect(
        (
          await api
            .post(`/comandas/${id}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
            .expect(409)
        ).body.code,
      ).toBe('INVALID_TRANSITION');
      expect(
        (await api.patch(`/comandas/${id}/items/${item}`, { cantidad: 5 }).expect(409)).body.code,
      ).toBe('INVALID_TRANSITION');
      expect((await api.delete(`/comandas/${id}/items/${item}`).expect(409)).body.code).toBe(
        'INVALID_TRANSITION',
      );
      expect(await row(id)).toMatchObject({ total: '84.00', version: 2 });
    });

    it.each([
      [{ id_producto: 999, cantidad: 1 }, 'PRODUCT_NOT_FOUND'],
      [{ id_producto: MENU.retirado.id, cantidad: 1 }, 'PRODUCT_INACTIVE'],
      [{ id_producto: MENU.chicha.id, cantidad: 0 }, 'VALIDATION_FAILED'],
      [{ id_producto: MENU.chicha.id, cantidad: 1, precio_unitario: 0 }, 'VALIDATION_FAILED'],
    ])('refuses the line %j with 400 %s', async (body, code) => {
      const { id_comanda: id } = await openComanda();
      expect((await api.post(`/comandas/${id}/items`, body).expect(400)).body.code).toBe(code);
      expect(await row(id)).toMatchObject({ version: 1, total: '84.00' });
    });

    it('answers 404 ITEM_NOT_FOUND for a line of another comanda, and 400 for an empty change', async () => {
      const a = await openComanda();
      const b = await openComanda();
      const res = await api
        .patch(`/comandas/${a.id_comanda}/items/${b.lineas[0].id_item}`, { cantidad: 2 })
        .expect(404);
      expect(res.body.code).toBe('ITEM_NOT_FOUND');
      await api.delete(`/comandas/${a.id_comanda}/items/${b.lineas[0].id_item}`).expect(404);
      expect(
        (await api.patch(`/comandas/${a.id_comanda}/items/${a.lineas[0].id_item}`, {}).expect(400))
          .body.code,
      ).toBe('EMPTY_CHANGE');
    });
  });

  describe('GET /comandas/:id/eventos', () => {
    it('records every transition and line change with before and after', async () => {
      const comanda = await openComanda();
      const id = comanda.id_comanda;
      await api
        .post(`/comandas/${id}/items`, { id_producto: MENU.lomo.id, cantidad: 1 })
        .expect(201);
      await api
        .patch(`/comandas/${id}/items/${comanda.lineas[1].id_item}`, { cantidad: 2 })
        .expect(200);
      await api.delete(`/comandas/${id}/items/${comanda.lineas[1].id_item}`).expect(200);
      await api.put(`/comandas/${id}`, { observacion: 'ventana' }).expect(200);
      await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      await api.put(`/comandas/${id}`, { action: 'abrir' }).expect(200);
      await api.delete(`/comandas/${id}`, { motivo: 'prueba' }).expect(200);
      await api.put(`/comandas/${id}`, { action: 'restaurar' }).expect(200);

      const res = await api.get(`/comandas/${id}/eventos`).expect(200);
      expect(res.body.map((e: { accion: string }) => e.accion)).toEqual([
        'crear',
        'agregar_item',
        'modificar_item',
        'quitar_item',
        'editar',
        'cerrar',
        'abrir',
        'eliminar',
        'restaurar',
      ]);
      const [crear, agregar, modificar, quitar, editar, cerrar, , eliminar] = res.body;
      expect(crear).toMatchObject({
        antes: null,
        despues: { estado: 'abierta', total: 84, version: 1, id_mesa: 1 },
      });
      expect(crear.despues.items).toHaveLength(2);
      expect(agregar).toMatchObject({
        antes: null,
        despues: { id_producto: MENU.lomo.id, cantidad: 1, precio_unitario: 42.5 },
      });
      expect(modificar).toMatchObject({
        antes: { cantidad: 1 },
        despues: { cantidad: 2, subtotal: 16 },
      });
      expect(quitar).toMatchObject({ antes: { id_producto: MENU.chicha.id }, despues: null });
      expect(editar).toMatchObject({
        antes: { observacion: null },
        despues: { observacion: 'ventana' },
      });
      expect(cerrar).toMatchObject({
        antes: { estado: 'abierta' },
        despues: { estado: 'cerrada', total: 76 + 42.5 },
      });
      expect(eliminar).toMatchObject({
        motivo: 'prueba',
        antes: { eliminada: false },
        despues: { eliminada: true },
      });
      expect(res.body[0].fec_evento).toMatch(/-05:00$/);
    });

    it('answers 404 for an unknown comanda', async () => {
      expect((await api.get('/comandas/987654/eventos').expect(404)).body.code).toBe(
        'COMANDA_NOT_FOUND',
      );
    });
  });
});
