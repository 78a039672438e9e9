import { MENU, seedMenu } from '../../support/fixtures';
import { TestDatabases } from '../../support/test-databases';
import { LUIS, ROSA, json, tenantSql } from '../support/tenant-sql';

/**
 * Integration specs of the store functions shipped by the tenant migrations
 * (src/database/migrations/tenant/17642000000*-store-functions-*.ts): each function is called
 * with SQL on a real, migrated tenant database (no HTTP), and both its JSON result and the
 * tables afterwards are asserted. docs/rpc.md describes the rules tested here.
 *
 * This file: the catalog (products and recipes, raw materials and their suppliers, users by
 * documento).
 */

describe('store functions (tenant migrations, called with SQL)', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });
  afterAll(() => dbs.drop());

  const tenant = tenantSql(() => dbs);

  describe('products and recipes (get_producto, save_producto)', () => {
    const db = tenant('productos');
    const PESCADO = 1;
    const LIMON = 2;
    const CEBOLLA = 3;

    beforeAll(async () => {
      await dbs.createTenant('productos');
      await seedMenu(dbs, 'productos');
      await db.rows(
        `INSERT INTO mate_primas (nombre, unidad) VALUES
           ('Pescado', 'kg'), ('Limón', 'unidad'), ('Cebolla roja', 'kg')`,
      );
    });

    const producto = (extra: object) => ({
      id_producto: null,
      nombre: 'Tiradito',
      img_producto: null,
      precio: 0,
      activo: true,
      id_categoria: null,
      receta: [],
      ...extra,
    });
    const save = (body: object) =>
      db.call<{ id_producto: number }>('save_producto($1::jsonb)', json(body));
    const receta = (id: number) =>
      db.rows<{ id_mat_prima: number; cantidad: string }>(
        'SELECT id_mat_prima, cantidad FROM receta_producto WHERE id_producto = $1 ORDER BY 1',
        [id],
      );

    it('inserts a product with its recipe, then updates it in place', async () => {
      const { id_producto } = await save(
        producto({
          nombre: '  Tiradito de pescado ',
          precio: 36.5,
          id_categoria: 1,
          receta: [
            { id_mat_prima: PESCADO, cantidad: 0.2 },
            { id_mat_prima: LIMON, cantidad: 4 },
          ],
        }),
      );
      expect(id_producto).toBeGreaterThan(MENU.retirado.id);
      expect(await db.call('get_producto($1)', id_producto)).toEqual({
        id_producto,
        nombre: 'Tiradito de pescado',
        img_producto: null,
        precio: 36.5,
        activo: true,
        id_categoria: 1,
        categoria: 'Platos',
        receta: [
          { id_mat_prima: LIMON, nombre: 'Limón', unidad: 'unidad', cantidad: 4 },
          { id_mat_prima: PESCADO, nombre: 'Pescado', unidad: 'kg', cantidad: 0.2 },
        ],
      });

      const [antes] = await db.rows<{ updated_at: Date }>(
        'SELECT updated_at FROM productos WHERE id_producto = $1',
        [id_producto],
      );
      expect(
        await save(
          producto({
            id_producto,
            nombre: 'Tiradito clásico',
            img_producto: 'tiradito.jpg',
            precio: 38,
            activo: false,
          }),
        ),
      ).toEqual({ id_producto });
      const rows = await db.rows(
        `SELECT nombre, img_producto, precio, activo, id_categoria, updated_at > $2 AS tocado
           FROM productos WHERE id_producto = $1`,
        [id_producto, antes.updated_at],
      );
      expect(rows).toEqual([
        {
          nombre: 'Tiradito clásico',
          img_producto: 'tiradito.jpg',
          precio: '38.00',
          activo: false,
          id_categoria: null,
          tocado: true,
        },
      ]);
      expect(await db.rows('SELECT count(*)::int AS n FROM productos')).toEqual([{ n: 5 }]);
    });

    it('replaces the recipe on every save, never appends to it', async () => {
      const { id_producto } = await save(
        producto({
          nombre: 'Leche de tigre',
          receta: [
            { id_mat_prima: PESCADO, cantidad: 0.1 },
            { id_mat_prima: LIMON, cantidad: 6 },
          ],
        }),
      );
      const cambio = producto({
        id_producto,
        nombre: 'Leche de tigre',
        receta: [
          { id_mat_prima: LIMON, cantidad: 8 },
          { id_mat_prima: CEBOLLA, cantidad: 0.05 },
        ],
      });
      await save(cambio);
      await save(cambio); // the same save twice still gives one recipe
      expect(await receta(id_producto)).toEqual([
        { id_mat_prima: LIMON, cantidad: '8.000' },
        { id_mat_prima: CEBOLLA, cantidad: '0.050' },
      ]);
      expect(
        (
          await db.call<{ receta: { nombre: string }[] }>('get_producto($1)', id_producto)
        ).receta.map((r) => r.nombre),
      ).toEqual(['Cebolla roja', 'Limón']);

      // a receta that is not an array (or null) means "no recipe"
      await save(producto({ id_producto, nombre: 'Leche de tigre', receta: 'ninguna' }));
      expect(await receta(id_producto)).toEqual([]);
      expect(await db.call('get_producto($1)', id_producto)).toMatchObject({ receta: [] });
    });

    it('refuses bad input with a SQLSTATE and leaves the product as it was', async () => {
      const { id_producto } = await save(
        producto({ nombre: 'Causa limeña', receta: [{ id_mat_prima: LIMON, cantidad: 1 }] }),
      );
      const intento = (extra: object) => save(producto({ id_producto, nombre: 'Causa', ...extra }));

      await expect(intento({ nombre: '   ' })).rejects.toMatchObject({
        code: '22023',
        message: 'nombre es obligatorio',
      });
      await expect(intento({ nombre: undefined })).rejects.toMatchObject({ code: '22023' });
      await expect(
        intento({
          receta: [
            { id_mat_prima: PESCADO, cantidad: 1 },
            { id_mat_prima: PESCADO, cantidad: 2 },
          ],
        }),
      ).rejects.toMatchObject({
        code: '22023',
        message: 'receta: la materia prima 1 aparece más de una vez',
      });
      await expect(intento({ receta: [{ cantidad: 1 }] })).rejects.toMatchObject({
        code: '22023',
        message: 'receta[0]: se espera {id_mat_prima, cantidad}',
      });
      await expect(
        intento({ receta: [{ id_mat_prima: PESCADO, cantidad: 0 }] }),
      ).rejects.toMatchObject({ code: '23514', constraint: 'ck_receta_producto_cantidad' });
      await expect(intento({ receta: [{ id_mat_prima: 999, cantidad: 1 }] })).rejects.toMatchObject(
        { code: '23503', constraint: 'fk_receta_producto_id_mat_prima' },
      );
      await expect(intento({ precio: -1 })).rejects.toMatchObject({
        code: '23514',
        constraint: 'ck_productos_precio',
      });
      await expect(
        save(producto({ nombre: 'Ceviche clásico' })), // the seeded product's name
      ).rejects.toMatchObject({ code: '23505', constraint: 'uq_productos_nombre' });

      // every failure rolled back entirely: name and recipe unchanged
      expect(await db.call('get_producto($1)', id_producto)).toMatchObject({
        nombre: 'Causa limeña',
        receta: [{ id_mat_prima: LIMON, cantidad: 1 }],
      });
    });

    it('answers NULL for an unknown product and P0002 when saving one', async () => {
      expect(await db.call('get_producto($1)', 9999)).toBeNull();
      await expect(save(producto({ id_producto: 9999 }))).rejects.toMatchObject({
        code: 'P0002',
        message: 'producto 9999 no existe',
      });
      expect(await db.rows('SELECT 1 FROM productos WHERE id_producto = 9999')).toEqual([]);
    });
  });

  describe('raw materials and suppliers (get_materia, save_materia)', () => {
    const db = tenant('materias');

    beforeAll(async () => {
      await dbs.createTenant('materias');
      await db.rows(
        `INSERT INTO proveedores (razon_social) VALUES
           ('Terminal Pesquero Villa María SAC'), ('Mercado Mayorista Santa Anita EIRL'),
           ('Distribuidora Norte SRL')`,
      );
    });

    const save = (body: object) =>
      db.call<{ id_mat_prima: number }>('save_materia($1::jsonb)', json(body));
    const materia = (extra: object) => ({
      id_mat_prima: null,
      nombre: 'Pulpo',
      unidad: 'kg',
      activo: true,
      proveedores: [],
      ...extra,
    });

    it('saves a raw material with its suppliers and replaces them on update', async () => {
      const { id_mat_prima } = await save(
        materia({
          proveedores: [
            { id_proveedor: 1, precio: 32.5 },
            { id_proveedor: 2 }, // no agreed price
          ],
        }),
      );
      expect(await db.call('get_materia($1)', id_mat_prima)).toEqual({
        id_mat_prima,
        nombre: 'Pulpo',
        unidad: 'kg',
        activo: true,
        proveedores: [
          { id_proveedor: 2, razon_social: 'Mercado Mayorista Santa Anita EIRL', precio: null },
          { id_proveedor: 1, razon_social: 'Terminal Pesquero Villa María SAC', precio: 32.5 },
        ],
      });

      expect(
        await save(
          materia({
            id_mat_prima,
            nombre: 'Pulpo cocido',
            activo: false,
            proveedores: [
              { id_proveedor: 3, precio: 40 },
              { id_proveedor: 1, precio: 33 },
            ],
          }),
        ),
      ).toEqual({ id_mat_prima });
      expect(
        await db.rows(
          `SELECT id_proveedor, precio FROM prov_mate_prima WHERE id_mat_prima = $1 ORDER BY 1`,
          [id_mat_prima],
        ),
      ).toEqual([
        { id_proveedor: 1, precio: '33.00' },
        { id_proveedor: 3, precio: '40.00' },
      ]);
      expect(
        await db.rows('SELECT nombre, unidad, activo FROM mate_primas WHERE id_mat_prima = $1', [
          id_mat_prima,
        ]),
      ).toEqual([{ nombre: 'Pulpo cocido', unidad: 'kg', activo: false }]);
    });

    it('refuses bad input and unknown ids', async () => {
      expect(await db.call('get_materia($1)', 777)).toBeNull();
      await expect(save(materia({ id_mat_prima: 777 }))).rejects.toMatchObject({
        code: 'P0002',
        message: 'materia prima 777 no existe',
      });
      await expect(save(materia({ nombre: 'Sal', unidad: null }))).rejects.toMatchObject({
        code: '22023',
        message: 'unidad es obligatoria',
      });
      await expect(save(materia({ nombre: 'Sal', unidad: 'saco' }))).rejects.toMatchObject({
        code: '23514',
        constraint: 'ck_mate_primas_unidad',
      });
      await expect(
        save(
          materia({
            nombre: 'Sal',
            proveedores: [{ id_proveedor: 1 }, { id_proveedor: 1, precio: 2 }],
          }),
        ),
      ).rejects.toMatchObject({ code: '22023' });
      await expect(
        save(materia({ nombre: 'Sal', proveedores: [{ id_proveedor: 99 }] })),
      ).rejects.toMatchObject({ code: '23503', constraint: 'fk_prov_mate_prima_id_proveedor' });
      expect(await db.rows(`SELECT 1 FROM mate_primas WHERE nombre = 'Sal'`)).toEqual([]);
    });
  });

  describe('find_usuarios_por_documentos', () => {
    const db = tenant('usuarios');

    beforeAll(async () => {
      await dbs.createTenant('usuarios');
      await seedMenu(dbs, 'usuarios');
      await db.rows(
        `INSERT INTO roles (nombre) VALUES ('mozo'), ('cajero'), ('admin');
         INSERT INTO usua_roles (id_usuario, id_rol) VALUES (1, 1), (1, 2);
         UPDATE usuarios SET activo = false WHERE documento = '${LUIS}';`,
      );
    });

    const find = (docs: string[]) => db.call('find_usuarios_por_documentos($1::text[])', docs);

    it('returns the known documents keyed by documento, with sorted role names', async () => {
      expect(await find([ROSA, '99999999', LUIS])).toEqual({
        [ROSA]: {
          id_usuario: MENU.rosa,
          documento: ROSA,
          nombre: 'Rosa',
          apellido: 'Quispe',
          activo: true,
          roles: ['cajero', 'mozo'],
        },
        [LUIS]: {
          id_usuario: MENU.luis,
          documento: LUIS,
          nombre: 'Luis',
          apellido: 'Rojas',
          activo: false,
          roles: [],
        },
      });
    });

    it('leaves unknown documents out and answers {} for none or an empty list', async () => {
      expect(await find(['99999999', ''])).toEqual({});
      expect(await find([])).toEqual({});
      expect(await db.call('find_usuarios_por_documentos(NULL)')).toEqual({});
      expect(Object.keys((await find([` ${ROSA} `])) as object)).toEqual([ROSA]);
    });
  });
});
