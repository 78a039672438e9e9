import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/** A product as the API answers it. */
interface Producto {
  id_producto: number;
  nombre: string;
  precio: number;
  activo: boolean;
  id_categoria: number | null;
  categoria: string | null;
}

interface Mesa {
  id_mesa: number;
  numero: number;
  zona: string | null;
  capacidad: number;
  activo: boolean;
  abiertas: number;
}

interface Mozo {
  id_usuario: number;
  nombre: string;
  activo: boolean;
}

const names = (body: Producto[]) => body.map((p) => p.nombre);

describe('catalogo: the floor’s products, tables and waiters', () => {
  let t: TestApp;
  let casa: TenantApi;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('casa');
    await t.dbs.createTenant('otra');
    await seedMenu(t.dbs, 'casa');
    // casa: a second category (sorted before Platos), a product without one, names with % and _
    await t.dbs.query(
      t.dbs.tenantUrl('casa'),
      `INSERT INTO categorias (nombre) VALUES ('Bebidas');
       INSERT INTO productos (nombre, precio, id_categoria) VALUES
         ('Pisco sour', 18.50, 2), ('Agua 50% gas', 4, 2), ('Café_pasado', 6, NULL);
       INSERT INTO mesas (numero, zona, capacidad, activo) VALUES (10, 'terraza', 6, false)`,
    );
    // otra: its own menu, with nothing of casa's
    await t.dbs.query(
      t.dbs.tenantUrl('otra'),
      `INSERT INTO categorias (nombre) VALUES ('Postres');
       INSERT INTO productos (nombre, precio, id_categoria) VALUES ('Suspiro limeño', 12, 1);
       INSERT INTO mesas (numero) VALUES (7)`,
    );
    casa = tenantApi(t.http, 'casa');
  });
  afterAll(() => t.close());

  describe('GET /productos', () => {
    it('lists every product by category name then name, null category last, with X-Total-Count', async () => {
      const res = await casa.get('/productos').expect(200);
      expect(res.headers['x-total-count']).toBe('7');
      expect(names(res.body)).toEqual([
        'Agua 50% gas',
        'Pisco sour',
        'Ceviche clásico',
        'Chicha morada',
        'Lomo saltado',
        'Plato retirado',
        'Café_pasado',
      ]);
      expect(res.body[2]).toEqual({
        id_producto: MENU.ceviche.id,
        nombre: 'Ceviche clásico',
        precio: 38,
        activo: true,
        id_categoria: 1,
        categoria: 'Platos',
      });
      expect(res.body[1]).toMatchObject({ precio: 18.5, categoria: 'Bebidas' });
      expect(res.body[6]).toMatchObject({ id_categoria: null, categoria: null });
      expect(res.body.find((p: Producto) => p.nombre === 'Plato retirado').activo).toBe(false);
    });

    it('searches a part of the name ignoring case', async () => {
      const res = await casa.get('/productos?q=CEVI').expect(200);
      expect(names(res.body)).toEqual(['Ceviche clásico']);
      expect(res.headers['x-total-count']).toBe('1');
      expect(names((await casa.get('/productos?q=sALTa').expect(200)).body)).toEqual([
        'Lomo saltado',
      ]);
      // accents are not folded: the tenant databases have no unaccent
      expect(names((await casa.get('/productos?q=clasico').expect(200)).body)).toEqual([]);
      expect(names((await casa.get('/productos?q=clásico').expect(200)).body)).toEqual([
        'Ceviche clásico',
      ]);
      expect((await casa.get('/productos?q=nada').expect(200)).headers['x-total-count']).toBe('0');
      // an empty q is no filter
      expect((await casa.get('/productos?q=').expect(200)).body).toHaveLength(7);
    });

    it('takes % and _ in q literally', async () => {
      expect(names((await casa.get('/productos?q=%25').expect(200)).body)).toEqual([
        'Agua 50% gas',
      ]);
      expect(names((await casa.get('/productos?q=0%25%20g').expect(200)).body)).toEqual([
        'Agua 50% gas',
      ]);
      expect(names((await casa.get('/productos?q=_').expect(200)).body)).toEqual(['Café_pasado']);
      expect(
        names((await casa.get(`/productos?q=${encodeURIComponent('É_P')}`).expect(200)).body),
      ).toEqual(['Café_pasado']);
      // as a wildcard, o_s would match "Lomo saltado"
      expect((await casa.get('/productos?q=o_s').expect(200)).body).toEqual([]);
      // a backslash is a plain character too
      expect((await casa.get('/productos?q=%5C').expect(200)).body).toEqual([]);
    });

    it('filters by activo and id_categoria, together with q', async () => {
      const activos = await casa.get('/productos?activo=true').expect(200);
      expect(activos.headers['x-total-count']).toBe('6');
      expect(names(activos.body)).not.toContain('Plato retirado');
      expect(names((await casa.get('/productos?activo=false').expect(200)).body)).toEqual([
        'Plato retirado',
      ]);
      expect(names((await casa.get('/productos?id_categoria=2').expect(200)).body)).toEqual([
        'Agua 50% gas',
        'Pisco sour',
      ]);
      expect(
        names((await casa.get('/productos?id_categoria=1&activo=true&q=o').expect(200)).body),
      ).toEqual(['Ceviche clásico', 'Chicha morada', 'Lomo saltado']);
      expect((await casa.get('/productos?id_categoria=99').expect(200)).body).toEqual([]);
    });

    it('pages with limit and offset, X-Total-Count counting the whole match', async () => {
      const first = await casa.get('/productos?limit=3').expect(200);
      expect(names(first.body)).toEqual(['Agua 50% gas', 'Pisco sour', 'Ceviche clásico']);
      expect(first.headers['x-total-count']).toBe('7');
      const second = await casa.get('/productos?limit=3&offset=3').expect(200);
      expect(names(second.body)).toEqual(['Chicha morada', 'Lomo saltado', 'Plato retirado']);
      const past = await casa.get('/productos?limit=3&offset=50').expect(200);
      expect(past.body).toEqual([]);
      expect(past.headers['x-total-count']).toBe('7');
      await casa.get('/productos?limit=500').expect(200);
    });

    it.each([
      ['limit=0', 'limit must not be less than 1'],
      ['limit=501', 'limit must not be greater than 500'],
      ['limit=abc', 'limit must be an integer number'],
      ['offset=-1', 'offset must not be less than 0'],
      ['activo=si', 'activo must be true or false'],
      ['id_categoria=0', 'id_categoria must not be less than 1'],
      ['q=a&q=b', 'q must be given once (it was given 2 times)'],
      [`q=${'x'.repeat(101)}`, 'q must be shorter than or equal to 100 characters'],
      ['orden=nombre', 'property orden should not exist'],
    ])('refuses %s: 400 VALIDATION_FAILED', async (query, message) => {
      const res = await casa.get(`/productos?${query}`).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(res.body.detail).toContain(message);
    });
  });

  describe('GET /mesas', () => {
    it('lists the tables by number with their open, not deleted comandas', async () => {
      const open = async (id_mesa: number) =>
        (await casa.post('/comandas', { id_mesa }).expect(201)).body.id_comanda as number;
      await open(1);
      await open(1);
      const closed = await casa
        .post('/comandas', {
          id_mesa: 2,
          items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }],
        })
        .expect(201);
      await casa.put(`/comandas/${closed.body.id_comanda}`, { action: 'cerrar' }).expect(200);
      const deleted = await open(3);
      await casa.delete(`/comandas/${deleted}`).expect(200);
      await open(3);

      const res = await casa.get('/mesas').expect(200);
      expect(res.headers['x-total-count']).toBeUndefined();
      expect(res.body as Mesa[]).toEqual([
        { id_mesa: 1, numero: 1, zona: null, capacidad: 4, activo: true, abiertas: 2 },
        { id_mesa: 2, numero: 2, zona: null, capacidad: 4, activo: true, abiertas: 0 },
        { id_mesa: 3, numero: 3, zona: null, capacidad: 4, activo: true, abiertas: 1 },
        { id_mesa: 4, numero: 10, zona: 'terraza', capacidad: 6, activo: false, abiertas: 0 },
      ]);
    });

    it('filters by activo', async () => {
      const activas = (await casa.get('/mesas?activo=true').expect(200)).body as Mesa[];
      expect(activas.map((m) => m.numero)).toEqual([1, 2, 3]);
      const retiradas = (await casa.get('/mesas?activo=false').expect(200)).body as Mesa[];
      expect(retiradas.map((m) => m.numero)).toEqual([10]);
    });

    it.each([
      ['activo=1', 'activo must be true or false'],
      ['numero=3', 'property numero should not exist'],
    ])('refuses %s: 400 VALIDATION_FAILED', async (query, message) => {
      const res = await casa.get(`/mesas?${query}`).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: [message] });
    });
  });

  describe('GET /mozos', () => {
    // casa: Rosa and Luis (seedMenu, no role); a waiter, a former waiter and a cook by role;
    // Luis is the waiter of a comanda, Rosa of none
    beforeAll(async () => {
      await t.dbs.query(
        t.dbs.tenantUrl('casa'),
        `INSERT INTO roles (nombre) VALUES ('mozo'), (' Mozo '), ('cocina');
         INSERT INTO usuarios (documento, nombre, apellido, activo) VALUES
           ('40000010', 'María del Carmen', 'Villavicencio Arrieta', true),
           ('40000011', 'Ernesto', 'Antiguo', false),
           ('40000012', 'Wilmer', 'Condori', true);
         INSERT INTO usua_roles (id_usuario, id_rol) VALUES (3, 1), (4, 2), (5, 3);`,
      );
      await casa.post('/comandas', { id_usuario: MENU.luis }).expect(201);
    });

    it('lists the waiters by name: the mozo role, or the waiter of a comanda; never a document', async () => {
      const res = await casa.get('/mozos').expect(200);
      expect(res.body as Mozo[]).toEqual([
        { id_usuario: 4, nombre: 'Ernesto Antiguo', activo: false },
        { id_usuario: MENU.luis, nombre: 'Luis Rojas', activo: true },
        { id_usuario: 3, nombre: 'María del Carmen Villavicencio Arrieta', activo: true },
      ]);
      expect(res.headers['x-total-count']).toBeUndefined();
    });

    it('filters by activo', async () => {
      const current = (await casa.get('/mozos?activo=true').expect(200)).body as Mozo[];
      expect(current.map((m) => m.nombre)).toEqual([
        'Luis Rojas',
        'María del Carmen Villavicencio Arrieta',
      ]);
      const former = (await casa.get('/mozos?activo=false').expect(200)).body as Mozo[];
      expect(former.map((m) => m.nombre)).toEqual(['Ernesto Antiguo']);
    });

    it.each([
      ['activo=si', 'activo must be true or false'],
      ['rol=mozo', 'property rol should not exist'],
    ])('refuses %s: 400 VALIDATION_FAILED', async (query, message) => {
      const res = await casa.get(`/mozos?${query}`).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: [message] });
    });
  });

  it('tenant B sees only its own products, tables and waiters', async () => {
    const otra = tenantApi(t.http, 'otra');
    const productos = await otra.get('/productos').expect(200);
    expect(productos.body).toEqual([
      {
        id_producto: 1,
        nombre: 'Suspiro limeño',
        precio: 12,
        activo: true,
        id_categoria: 1,
        categoria: 'Postres',
      },
    ]);
    expect(productos.headers['x-total-count']).toBe('1');
    expect((await otra.get('/productos?q=ceviche').expect(200)).body).toEqual([]);
    expect((await otra.get('/mesas').expect(200)).body).toEqual([
      { id_mesa: 1, numero: 7, zona: null, capacidad: 4, activo: true, abiertas: 0 },
    ]);
    expect((await otra.get('/mozos').expect(200)).body).toEqual([]);
  });

  it('answers a wrong method with 405 and needs the tenant header', async () => {
    expect((await casa.post('/productos', {})).status).toBe(405);
    const res = await tenantApi(t.http, 'nadie').get('/mesas').expect(404);
    expect(res.body.code).toBe('TENANT_NOT_FOUND');
  });
});
