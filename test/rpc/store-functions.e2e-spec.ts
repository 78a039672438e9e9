import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { StoreFunctionsCatalog1764200000000 } from '../../src/database/migrations/tenant/1764200000000-store-functions-catalog';
import { StoreFunctionsCompras1764200000001 } from '../../src/database/migrations/tenant/1764200000001-store-functions-compras';
import { StoreFunctionsAsistencia1764200000002 } from '../../src/database/migrations/tenant/1764200000002-store-functions-asistencia';
import { StoreFunctionsReports1764200000003 } from '../../src/database/migrations/tenant/1764200000003-store-functions-reports';
import { MENU, seedMenu } from '../support/fixtures';
import { TestDatabases } from '../support/test-databases';

/**
 * Integration specs of the store functions shipped by the tenant migrations
 * (src/database/migrations/tenant/17642000000*-store-functions-*.ts): each function is called
 * with SQL on a real, migrated tenant database (no HTTP), and both its JSON result and the
 * tables afterwards are asserted. docs/rpc.md describes the rules tested here.
 */

interface Marca {
  id_raw: number;
  fecha: string;
  hora: string;
  modo: string | null;
  origen: string | null;
  datos: Record<string, unknown>;
  fecha_trabajo: string;
}

interface Intervalo {
  id_intervalo: number;
  fecha_trabajo: string;
  entrada: string;
  salida: string | null;
  minutos: number | null;
}

interface Resumen {
  fecha_trabajo: string;
  minutos: number;
  intervalos: number;
  marcas: number;
  incompleto: boolean;
}

interface AsistenciaGet {
  usuario: { id_usuario: number; documento: string; nombre: string; apellido: string } | null;
  marcas: Marca[];
  intervalos: Intervalo[];
  resumen: Resumen[];
}

interface ImportResult {
  recibidos: number;
  insertados: number;
  duplicados: number;
  desconocidos: string[];
  invalidos: { indice: number; motivo: string }[];
  dias_recalculados: number;
}

interface Registro {
  doc: string;
  fecha: string;
  hora: string;
  modo?: string;
  [extra: string]: unknown;
}

const ROSA = '40000001';
const LUIS = '40000002';

describe('store functions (tenant migrations, called with SQL)', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });
  afterAll(() => dbs.drop());

  /** SQL access to one tenant database. */
  const tenant = (slug: string) => {
    const url = () => dbs.tenantUrl(slug);
    return {
      /** `SELECT <expression> AS result`: the JSON a store function returns. */
      call: async <T = unknown>(expression: string, ...params: unknown[]): Promise<T> =>
        (await dbs.query<{ result: T }>(url(), `SELECT ${expression} AS result`, params))[0].result,
      rows: <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
        dbs.query<T>(url(), sql, params),
      /** import_asistencia(registros, origen). */
      importar: async (registros: unknown, origen: string | null = 'attlog.dat') =>
        (
          await dbs.query<{ result: ImportResult }>(
            url(),
            'SELECT import_asistencia($1::jsonb, $2) AS result',
            [JSON.stringify(registros), origen],
          )
        )[0].result,
      asistencia: async (doc: string, desde: string, hasta: string) =>
        (
          await dbs.query<{ result: AsistenciaGet }>(
            url(),
            'SELECT asistencia_get($1, $2::date, $3::date) AS result',
            [doc, desde, hasta],
          )
        )[0].result,
      /** A person's intervals as plain text, in time order. */
      intervalos: (doc: string) =>
        dbs.query<{
          fecha_trabajo: string;
          entrada: string;
          salida: string | null;
          minutos: number | null;
          id_raw_entrada: string;
          id_raw_salida: string | null;
        }>(
          url(),
          `SELECT i.fecha_trabajo::text, i.entrada::text, i.salida::text, i.minutos,
                  i.id_raw_entrada, i.id_raw_salida
             FROM asistencia_intervalo i JOIN usuarios u USING (id_usuario)
            WHERE u.documento = $1 ORDER BY i.entrada`,
          [doc],
        ),
      /** A person's daily summaries, in day order. */
      resumen: (doc: string) =>
        dbs.query<Resumen>(
          url(),
          `SELECT r.fecha_trabajo::text, r.minutos, r.intervalos, r.marcas, r.incompleto
             FROM asistencia_resumen_diario r JOIN usuarios u USING (id_usuario)
            WHERE u.documento = $1 ORDER BY r.fecha_trabajo`,
          [doc],
        ),
      /** id_raw of a person's punch. */
      idRaw: async (doc: string, fecha: string, hora: string) =>
        Number(
          (
            await dbs.query<{ id_raw: string }>(
              url(),
              `SELECT d.id_raw FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
                WHERE u.documento = $1 AND d.fecha = $2 AND d.hora = $3`,
              [doc, fecha, hora],
            )
          )[0].id_raw,
        ),
    };
  };

  const json = (value: unknown) => JSON.stringify(value);
  const punch = (doc: string, fecha: string, hora: string, modo?: string): Registro =>
    modo ? { doc, fecha, hora, modo } : { doc, fecha, hora };

  // -------------------------------------------------------------------------------------------
  // Catalog
  // -------------------------------------------------------------------------------------------

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

  // -------------------------------------------------------------------------------------------
  // Purchases and yearly reports
  // -------------------------------------------------------------------------------------------

  describe('purchases (save_compra, get_compra, delete_compra) and report_gastos', () => {
    const db = tenant('compras');
    const PESQUERA = 1;
    const BEBIDAS = 2;
    const PESCADO = 1;
    const LIMON = 2;

    beforeAll(async () => {
      await dbs.createTenant('compras');
      await seedMenu(dbs, 'compras');
      await db.rows(
        `INSERT INTO proveedores (razon_social) VALUES ('Pesquera del Callao SAC'), ('Bebidas Lima SA');
         INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg'), ('Limón', 'unidad');`,
      );
    });

    const save = (body: object) =>
      db.call<{ id_compra: number; total: number }>('save_compra($1::jsonb)', json(body));
    const compra = (extra: object) => ({
      id_compra: null,
      id_proveedor: PESQUERA,
      fec_compra: null,
      observacion: null,
      detalles: [],
      ...extra,
    });
    const lineas = async (id: number) => ({
      productos: await db.rows(
        `SELECT id_producto, cantidad, costo_unitario, subtotal FROM deta_comp_producto
          WHERE id_compra = $1 ORDER BY id_deta_comp_producto`,
        [id],
      ),
      materias: await db.rows(
        `SELECT id_mat_prima, cantidad, costo_unitario, subtotal FROM deta_comp_materias
          WHERE id_compra = $1 ORDER BY id_deta_comp_materia`,
        [id],
      ),
    });

    it('inserts a purchase with product and raw-material lines; the database computes the total', async () => {
      const result = await save(
        compra({
          fec_compra: '2026-03-10T09:15:00-05:00',
          observacion: 'Factura F001-233',
          detalles: [
            { id_mat_prima: PESCADO, cantidad: 12.5, costo_unitario: 28 },
            { id_producto: MENU.chicha.id, cantidad: 24, costo_unitario: 2.35 },
            { id_mat_prima: LIMON, cantidad: 3, costo_unitario: 0.333 },
          ],
        }),
      );
      expect(result).toEqual({ id_compra: expect.any(Number), total: 407.39 });
      const { id_compra } = result;

      expect(await lineas(id_compra)).toEqual({
        productos: [
          {
            id_producto: MENU.chicha.id,
            cantidad: '24.000',
            costo_unitario: '2.35',
            subtotal: '56.40',
          },
        ],
        materias: [
          {
            id_mat_prima: PESCADO,
            cantidad: '12.500',
            costo_unitario: '28.00',
            subtotal: '350.00',
          },
          { id_mat_prima: LIMON, cantidad: '3.000', costo_unitario: '0.33', subtotal: '0.99' },
        ],
      });
      expect(
        await db.rows(
          `SELECT id_proveedor, total, observacion, fec_compra = '2026-03-10 14:15:00+00' AS fecha
             FROM compras WHERE id_compra = $1`,
          [id_compra],
        ),
      ).toEqual([
        { id_proveedor: PESQUERA, total: '407.39', observacion: 'Factura F001-233', fecha: true },
      ]);
    });

    it('reads a purchase for editing with typed, named lines', async () => {
      const { id_compra } = await save(
        compra({
          id_proveedor: BEBIDAS,
          fec_compra: '2026-04-01T10:00:00Z',
          detalles: [
            { id_mat_prima: LIMON, cantidad: 100, costo_unitario: 0.3 },
            { id_producto: MENU.chicha.id, cantidad: 12, costo_unitario: 2.5 },
          ],
        }),
      );
      const leida = await db.call<Record<string, unknown>>('get_compra($1)', id_compra);
      expect(leida).toEqual({
        id_compra,
        id_proveedor: BEBIDAS,
        razon_social: 'Bebidas Lima SA',
        fec_compra: expect.any(String),
        total: 60,
        observacion: null,
        detalles: [
          {
            tipo: 'producto',
            id_producto: MENU.chicha.id,
            nombre: 'Chicha morada',
            cantidad: 12,
            costo_unitario: 2.5,
            subtotal: 30,
          },
          {
            tipo: 'materia',
            id_mat_prima: LIMON,
            nombre: 'Limón',
            cantidad: 100,
            costo_unitario: 0.3,
            subtotal: 30,
          },
        ],
      });
      expect(new Date(leida.fec_compra as string).toISOString()).toBe('2026-04-01T10:00:00.000Z');
      expect(await db.call('get_compra($1)', 4242)).toBeNull();
    });

    it('an update replaces the lines, recalculates the total and keeps the date when null', async () => {
      const { id_compra } = await save(
        compra({
          fec_compra: '2026-05-05T08:00:00-05:00',
          observacion: 'borrador',
          detalles: [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }],
        }),
      );
      const [antes] = await db.rows<{ updated_at: Date }>(
        'SELECT updated_at FROM compras WHERE id_compra = $1',
        [id_compra],
      );
      expect(
        await save(
          compra({
            id_compra,
            id_proveedor: BEBIDAS,
            detalles: [
              { id_producto: MENU.chicha.id, cantidad: 6, costo_unitario: 2.5 },
              { id_producto: MENU.chicha.id, cantidad: 6, costo_unitario: 2.25 },
            ],
          }),
        ),
      ).toEqual({ id_compra, total: 28.5 });
      expect(await lineas(id_compra)).toEqual({
        productos: [
          {
            id_producto: MENU.chicha.id,
            cantidad: '6.000',
            costo_unitario: '2.50',
            subtotal: '15.00',
          },
          {
            id_producto: MENU.chicha.id,
            cantidad: '6.000',
            costo_unitario: '2.25',
            subtotal: '13.50',
          },
        ],
        materias: [],
      });
      expect(
        await db.rows(
          `SELECT id_proveedor, total, observacion, fec_compra = '2026-05-05 13:00:00+00' AS fecha,
                  updated_at > $2 AS tocado
             FROM compras WHERE id_compra = $1`,
          [id_compra, antes.updated_at],
        ),
      ).toEqual([
        { id_proveedor: BEBIDAS, total: '28.50', observacion: null, fecha: true, tocado: true },
      ]);
    });

    it('a line needs exactly one of id_producto and id_mat_prima; nothing is written otherwise', async () => {
      const [{ n: antes }] = await db.rows<{ n: number }>('SELECT count(*)::int AS n FROM compras');
      for (const linea of [
        { id_producto: MENU.chicha.id, id_mat_prima: LIMON, cantidad: 1, costo_unitario: 1 },
        { cantidad: 1, costo_unitario: 1 },
      ]) {
        await expect(
          save(
            compra({
              detalles: [{ id_mat_prima: LIMON, cantidad: 1, costo_unitario: 1 }, linea],
            }),
          ),
        ).rejects.toMatchObject({
          code: '22023',
          message: 'detalles[1]: indique id_producto o id_mat_prima (exactamente uno)',
        });
      }
      await expect(save(compra({ id_proveedor: null }))).rejects.toMatchObject({
        code: '22023',
        message: 'id_proveedor es obligatorio',
      });
      await expect(
        save(compra({ detalles: [{ id_mat_prima: LIMON, cantidad: 0, costo_unitario: 1 }] })),
      ).rejects.toMatchObject({ code: '23514', constraint: 'ck_deta_comp_materias_cantidad' });
      await expect(save(compra({ id_proveedor: 99 }))).rejects.toMatchObject({
        code: '23503',
        constraint: 'fk_compras_id_proveedor',
      });
      await expect(save(compra({ id_compra: 4242 }))).rejects.toMatchObject({
        code: 'P0002',
        message: 'compra 4242 no existe',
      });
      expect(await db.rows('SELECT count(*)::int AS n FROM compras')).toEqual([{ n: antes }]);
    });

    it('delete_compra removes the purchase with its lines; an unknown id is P0002', async () => {
      const { id_compra } = await save(
        compra({
          detalles: [
            { id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 30 },
            { id_producto: MENU.chicha.id, cantidad: 1, costo_unitario: 2 },
          ],
        }),
      );
      expect(await db.call('delete_compra($1)', id_compra)).toEqual({ ok: true });
      expect(await db.rows('SELECT 1 FROM compras WHERE id_compra = $1', [id_compra])).toEqual([]);
      expect(await lineas(id_compra)).toEqual({ productos: [], materias: [] });
      await expect(db.call('delete_compra($1)', id_compra)).rejects.toMatchObject({
        code: 'P0002',
        message: `compra ${id_compra} no existe`,
      });
    });

    it('report_gastos: purchases per month in the time zone and per supplier', async () => {
      const db2 = tenant('gastos');
      await dbs.createTenant('gastos');
      await db2.rows(
        `INSERT INTO proveedores (razon_social) VALUES ('Pesquera del Callao SAC'), ('Bebidas Lima SA');
         INSERT INTO compras (id_proveedor, fec_compra, total) VALUES
           (1, '2026-01-31 23:30:00-05', 100.00),  -- 04:30 UTC on Feb 1: January in Lima
           (1, '2026-02-15 12:00:00-05', 50.25),
           (2, '2026-02-20 12:00:00-05', 300.00),
           (2, '2025-12-31 23:00:00-05', 999.00),  -- 2026 in UTC, 2025 in Lima
           (2, '2027-01-01 00:30:00-05', 999.00);`,
      );
      const report = await db2.call<{
        year: number;
        meses: { mes: number; total: number }[];
        proveedores: unknown[];
        total: number;
      }>('report_gastos($1, $2)', 2026, 'America/Lima');
      expect(report.year).toBe(2026);
      expect(report.meses).toHaveLength(12);
      expect(report.meses.slice(0, 3)).toEqual([
        { mes: 1, total: 100 },
        { mes: 2, total: 350.25 },
        { mes: 3, total: 0 },
      ]);
      expect(report.meses.slice(3).every((m) => m.total === 0)).toBe(true);
      expect(report.proveedores).toEqual([
        { id_proveedor: 2, razon_social: 'Bebidas Lima SA', total: 300 },
        { id_proveedor: 1, razon_social: 'Pesquera del Callao SAC', total: 150.25 },
      ]);
      expect(report.total).toBe(450.25);

      // the same instants seen from UTC: the Jan 31 purchase is February's, Dec 31 is 2026's
      const utc = await db2.call<{ meses: { mes: number; total: number }[]; total: number }>(
        'report_gastos($1, $2)',
        2026,
        'UTC',
      );
      expect(utc.meses.slice(0, 2)).toEqual([
        { mes: 1, total: 999 },
        { mes: 2, total: 450.25 },
      ]);
      expect(await db2.call('report_gastos($1, $2)', 2030, 'America/Lima')).toMatchObject({
        proveedores: [],
        total: 0,
      });
      await expect(db2.call('report_gastos($1, $2)', 2026, 'Mars/Olympus')).rejects.toMatchObject({
        code: '22023',
      });
    });
  });

  describe('report_tickets', () => {
    const db = tenant('tickets');

    beforeAll(async () => {
      await dbs.createTenant('tickets');
      await seedMenu(dbs, 'tickets');
      await db.rows(
        `INSERT INTO comandas (estado, fec_apertura, fec_cierre, total, eliminada, fec_eliminacion) VALUES
           -- closed at 23:30 in Lima on Jan 31 (04:30 UTC on Feb 1): January
           ('cerrada', '2026-01-31 22:00-05', '2026-01-31 23:30-05', 80.00, false, NULL),
           ('cerrada', '2026-01-10 13:00-05', '2026-01-10 14:00-05', 42.50, false, NULL),
           ('cerrada', '2026-02-01 13:00-05', '2026-02-01 14:10-05', 16.00, false, NULL),
           -- a void (deleted) and an open ticket never count
           ('cerrada', '2026-01-12 13:00-05', '2026-01-12 13:30-05', 500.00, true, '2026-01-12 14:00-05'),
           ('abierta', '2026-01-20 13:00-05', NULL, 0, false, NULL),
           -- closed at 23:00 in Lima on Dec 31, 2025 (2026 in UTC): 2025's
           ('cerrada', '2025-12-31 21:00-05', '2025-12-31 23:00-05', 70.00, false, NULL);`,
      );
    });

    it('counts closed, not deleted tickets per month of their close in the time zone', async () => {
      const report = await db.call<{
        year: number;
        meses: { mes: number; tickets: number; total: number }[];
        total_tickets: number;
        total: number;
      }>('report_tickets($1, $2)', 2026, 'America/Lima');
      expect(report.year).toBe(2026);
      expect(report.meses.map((m) => m.mes)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(report.meses.slice(0, 3)).toEqual([
        { mes: 1, tickets: 2, total: 122.5 },
        { mes: 2, tickets: 1, total: 16 },
        { mes: 3, tickets: 0, total: 0 },
      ]);
      expect(report.total_tickets).toBe(3);
      expect(report.total).toBe(138.5);

      const utc = await db.call<{ meses: { tickets: number }[]; total_tickets: number }>(
        'report_tickets($1, $2)',
        2026,
        'UTC',
      );
      expect(utc.meses.slice(0, 2).map((m) => m.tickets)).toEqual([2, 2]);
      expect(utc.total_tickets).toBe(4);

      expect(await db.call('report_tickets($1, $2)', 2025, 'America/Lima')).toMatchObject({
        total_tickets: 1,
        total: 70,
      });
      await expect(db.call('report_tickets(NULL, $1)', 'America/Lima')).rejects.toMatchObject({
        code: '22023',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  // Attendance
  // -------------------------------------------------------------------------------------------

  describe('import_asistencia', () => {
    const db = tenant('importar');

    beforeAll(async () => {
      await dbs.createTenant('importar');
      await seedMenu(dbs, 'importar');
    });

    it('stores every record with its origen and device fields, and is idempotent', async () => {
      const registros = [
        { ...punch(ROSA, '2026-03-02', '08:00:05', 'entrada'), device: 'ZK-01', verify: 1 },
        { ...punch(ROSA, '2026-03-02', '16:30', 'SALIDA'), device: 'ZK-01', verify: 15 },
        punch(LUIS, '2026-03-02', '09:00:00'),
        punch(LUIS, '2026-03-02', '17:00:00'),
      ];
      expect(await db.importar(registros, 'attlog-0302.dat')).toEqual({
        recibidos: 4,
        insertados: 4,
        duplicados: 0,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 2,
      });
      expect(
        await db.rows(
          `SELECT u.documento, d.fecha::text, d.hora::text, d.modo, d.origen, d.datos
             FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
            ORDER BY u.documento, d.fecha, d.hora`,
        ),
      ).toEqual([
        {
          documento: ROSA,
          fecha: '2026-03-02',
          hora: '08:00:05',
          modo: 'entrada',
          origen: 'attlog-0302.dat',
          datos: { device: 'ZK-01', verify: 1 },
        },
        {
          documento: ROSA,
          fecha: '2026-03-02',
          hora: '16:30:00',
          modo: 'salida',
          origen: 'attlog-0302.dat',
          datos: { device: 'ZK-01', verify: 15 },
        },
        {
          documento: LUIS,
          fecha: '2026-03-02',
          hora: '09:00:00',
          modo: null,
          origen: 'attlog-0302.dat',
          datos: {},
        },
        {
          documento: LUIS,
          fecha: '2026-03-02',
          hora: '17:00:00',
          modo: null,
          origen: 'attlog-0302.dat',
          datos: {},
        },
      ]);
      const intervalos = await db.rows('SELECT count(*)::int AS n FROM asistencia_intervalo');

      // the same file again inserts nothing and rebuilds nothing
      expect(await db.importar(registros, 'attlog-0302.dat')).toEqual({
        recibidos: 4,
        insertados: 0,
        duplicados: 4,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 0,
      });
      expect(await db.rows('SELECT count(*)::int AS n FROM asistencia_detalle')).toEqual([
        { n: 4 },
      ]);
      expect(await db.rows('SELECT count(*)::int AS n FROM asistencia_intervalo')).toEqual(
        intervalos,
      );
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-03-02', minutos: 510, intervalos: 1, marcas: 2, incompleto: false },
      ]);
    });

    it('reports unknown documents and malformed records, and imports the rest', async () => {
      const result = await db.importar(
        [
          punch('77777777', '2026-03-03', '08:00:00'),
          punch(ROSA, '2026-03-03', '08:00:00', 'entrada'),
          { doc: ROSA, fecha: '2026-02-30', hora: '18:00:00' },
          punch('77777777', '2026-03-03', '17:00:00'),
          { doc: ROSA, fecha: '2026-03-03', hora: '25:10' },
          { fecha: '2026-03-03', hora: '12:00:00' },
          { doc: ROSA, fecha: '2026-03-03', hora: '17:00', modo: 'in' },
          'not a record',
          punch('66666666', '2026-03-03', '09:00:00'),
          punch(ROSA, '2026-03-03', '17:00:00', 'salida'),
          punch(ROSA, '2026-03-03', '17:00:00', 'salida'), // twice in the same file
        ],
        'mixed.csv',
      );
      expect(result).toEqual({
        recibidos: 11,
        insertados: 2,
        duplicados: 1,
        desconocidos: ['77777777', '66666666'],
        invalidos: [
          { indice: 2, motivo: 'fecha inválida "2026-02-30" (se espera AAAA-MM-DD)' },
          { indice: 4, motivo: 'hora inválida "25:10" (se espera HH:MM:SS o HH:MM)' },
          { indice: 5, motivo: 'falta doc' },
          { indice: 6, motivo: 'modo inválido "in" (se espera entrada o salida)' },
          { indice: 7, motivo: 'el registro no es un objeto JSON' },
        ],
        dias_recalculados: 1,
      });
      expect(await db.resumen(ROSA)).toContainEqual({
        fecha_trabajo: '2026-03-03',
        minutos: 540,
        intervalos: 1,
        marcas: 2,
        incompleto: false,
      });
      expect(
        await db.rows(
          `SELECT count(*)::int AS n FROM asistencia_detalle WHERE origen = 'mixed.csv'`,
        ),
      ).toEqual([{ n: 2 }]);
    });

    it('two imports of the same file at once insert each punch once', async () => {
      const registros = [
        punch(ROSA, '2026-03-09', '08:00:00'),
        punch(LUIS, '2026-03-09', '08:30:00'),
        punch(ROSA, '2026-03-09', '17:00:00'),
        punch(LUIS, '2026-03-09', '17:30:00'),
      ];
      const [a, b] = await Promise.all([db.importar(registros), db.importar(registros)]);
      expect(a.insertados + b.insertados).toBe(4);
      expect(a.duplicados + b.duplicados).toBe(4);
      expect(await db.resumen(LUIS)).toContainEqual({
        fecha_trabajo: '2026-03-09',
        minutos: 540,
        intervalos: 1,
        marcas: 2,
        incompleto: false,
      });
      expect(
        await db.rows(
          `SELECT count(*)::int AS n FROM asistencia_intervalo WHERE fecha_trabajo = '2026-03-09'`,
        ),
      ).toEqual([{ n: 2 }]);
    });

    it('lists every problem of one record, and treats a non-array as no records', async () => {
      expect(
        (await db.importar([{ doc: ' ', fecha: '05/03/2026', hora: 'ocho', modo: 3 }])).invalidos,
      ).toEqual([
        {
          indice: 0,
          motivo:
            'falta doc; fecha inválida "05/03/2026" (se espera AAAA-MM-DD); ' +
            'hora inválida "ocho" (se espera HH:MM:SS o HH:MM); ' +
            'modo inválido 3 (se espera entrada o salida)',
        },
      ]);
      const vacio = {
        recibidos: 0,
        insertados: 0,
        duplicados: 0,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 0,
      };
      expect(await db.importar({ registros: [] })).toEqual(vacio);
      expect(await db.importar(null, null)).toEqual(vacio);
    });
  });

  describe('attendance pairing (asistencia_recalcular through import_asistencia)', () => {
    const db = tenant('pares');

    beforeAll(async () => {
      await dbs.createTenant('pares');
      await seedMenu(dbs, 'pares');
    });

    it('counts punches closer than 60 s to the previous kept one once (raw rows kept)', async () => {
      await db.importar([
        punch(ROSA, '2026-04-01', '08:00:00'),
        punch(ROSA, '2026-04-01', '08:00:40'), // double press
        punch(ROSA, '2026-04-01', '08:01:00'), // 60 s after the kept 08:00:00: not closer, kept
        punch(ROSA, '2026-04-01', '13:00:00'),
        punch(ROSA, '2026-04-01', '13:00:59'), // double press on the way out
      ]);
      expect(await db.intervalos(ROSA)).toEqual([
        {
          fecha_trabajo: '2026-04-01',
          entrada: '2026-04-01 08:00:00',
          salida: '2026-04-01 08:01:00',
          minutos: 1,
          id_raw_entrada: expect.any(String),
          id_raw_salida: expect.any(String),
        },
        {
          fecha_trabajo: '2026-04-01',
          entrada: '2026-04-01 13:00:00',
          salida: null,
          minutos: null,
          id_raw_entrada: expect.any(String),
          id_raw_salida: null,
        },
      ]);
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-01', minutos: 1, intervalos: 2, marcas: 3, incompleto: true },
      ]);
      expect(
        await db.rows(
          `SELECT count(*)::int AS n FROM asistencia_detalle WHERE fecha = '2026-04-01'`,
        ),
      ).toEqual([{ n: 5 }]);
    });

    it('pairs a shift 18:00 -> 01:30 across midnight into one interval of the work day', async () => {
      await db.importar([
        punch(LUIS, '2026-04-03', '18:00:00'),
        punch(LUIS, '2026-04-04', '01:30:00'),
        punch(LUIS, '2026-04-04', '18:05:00'),
        punch(LUIS, '2026-04-05', '04:59:59'), // still the 4th: the cut-off is 05:00
      ]);
      expect(await db.intervalos(LUIS)).toEqual([
        expect.objectContaining({
          fecha_trabajo: '2026-04-03',
          entrada: '2026-04-03 18:00:00',
          salida: '2026-04-04 01:30:00',
          minutos: 450,
        }),
        expect.objectContaining({
          fecha_trabajo: '2026-04-04',
          entrada: '2026-04-04 18:05:00',
          salida: '2026-04-05 04:59:59',
          minutos: 655,
        }),
      ]);
      expect(await db.resumen(LUIS)).toEqual([
        { fecha_trabajo: '2026-04-03', minutos: 450, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-04-04', minutos: 655, intervalos: 1, marcas: 2, incompleto: false },
      ]);
    });

    it('leaves a missing out-punch as an open interval and marks the day incompleto', async () => {
      const db2 = tenant('abierto');
      await dbs.createTenant('abierto');
      await seedMenu(dbs, 'abierto');
      await db2.importar([
        punch(ROSA, '2026-04-06', '08:00:00'),
        punch(ROSA, '2026-04-06', '12:00:00'),
        punch(ROSA, '2026-04-06', '13:00:00'), // back from lunch, never punched out
        punch(ROSA, '2026-04-07', '08:00:00'),
        punch(ROSA, '2026-04-07', '16:00:00'),
      ]);
      expect(await db2.intervalos(ROSA)).toEqual([
        expect.objectContaining({ entrada: '2026-04-06 08:00:00', salida: '2026-04-06 12:00:00' }),
        expect.objectContaining({
          fecha_trabajo: '2026-04-06',
          entrada: '2026-04-06 13:00:00',
          salida: null,
          minutos: null,
          id_raw_salida: null,
        }),
        expect.objectContaining({ entrada: '2026-04-07 08:00:00', salida: '2026-04-07 16:00:00' }),
      ]);
      expect(await db2.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-06', minutos: 240, intervalos: 2, marcas: 3, incompleto: true },
        { fecha_trabajo: '2026-04-07', minutos: 480, intervalos: 1, marcas: 2, incompleto: false },
      ]);
    });

    it('follows modo: two entradas leave the first open, a lone salida pairs with nothing', async () => {
      const db2 = tenant('modo');
      await dbs.createTenant('modo');
      await seedMenu(dbs, 'modo');
      await db2.importar([
        // day 1: entrada, entrada, salida -> [08:00 open], [09:00-17:00]
        punch(ROSA, '2026-04-08', '08:00:00', 'entrada'),
        punch(ROSA, '2026-04-08', '09:00:00', 'entrada'),
        punch(ROSA, '2026-04-08', '17:00:00', 'salida'),
        // day 2: salida with nothing open, then entrada, salida
        punch(ROSA, '2026-04-09', '07:30:00', 'salida'),
        punch(ROSA, '2026-04-09', '08:00:00', 'entrada'),
        punch(ROSA, '2026-04-09', '12:00:00', 'salida'),
        // day 3: modo wins over alternation: salida, salida -> one interval, second salida lone
        punch(ROSA, '2026-04-10', '08:00:00', 'entrada'),
        punch(ROSA, '2026-04-10', '12:00:00', 'salida'),
        punch(ROSA, '2026-04-10', '16:00:00', 'salida'),
      ]);
      expect(
        (await db2.intervalos(ROSA)).map((i) => [i.fecha_trabajo, i.entrada, i.salida]),
      ).toEqual([
        ['2026-04-08', '2026-04-08 08:00:00', null],
        ['2026-04-08', '2026-04-08 09:00:00', '2026-04-08 17:00:00'],
        ['2026-04-09', '2026-04-09 08:00:00', '2026-04-09 12:00:00'],
        ['2026-04-10', '2026-04-10 08:00:00', '2026-04-10 12:00:00'],
      ]);
      expect(await db2.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-08', minutos: 480, intervalos: 2, marcas: 3, incompleto: true },
        { fecha_trabajo: '2026-04-09', minutos: 240, intervalos: 1, marcas: 2, incompleto: true },
        { fecha_trabajo: '2026-04-10', minutos: 240, intervalos: 1, marcas: 2, incompleto: true },
      ]);
    });

    it('reads the cut-off and the duplicate window from parametros', async () => {
      const db2 = tenant('parametros');
      await dbs.createTenant('parametros');
      await seedMenu(dbs, 'parametros');
      expect(await db2.rows('SELECT clave, valor FROM parametros ORDER BY clave')).toEqual([
        { clave: 'asistencia.hora_corte', valor: '05:00' },
        { clave: 'asistencia.ventana_duplicados_seg', valor: '60' },
      ]);
      await db2.rows(
        `UPDATE parametros SET valor = '06:00' WHERE clave = 'asistencia.hora_corte';
         DELETE FROM parametros WHERE clave = 'asistencia.ventana_duplicados_seg';`,
      );
      await db2.importar([
        punch(ROSA, '2026-04-11', '20:00:00'),
        punch(ROSA, '2026-04-12', '05:30:00'), // before 06:00: still the 11th
        punch(ROSA, '2026-04-12', '05:30:30'), // default window (60 s) when the row is absent
      ]);
      expect(await db2.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-11', minutos: 570, intervalos: 1, marcas: 2, incompleto: false },
      ]);
      await expect(
        db2.rows(`UPDATE parametros SET valor = '5am' WHERE clave = 'asistencia.hora_corte'`),
      ).rejects.toMatchObject({ code: '23514', constraint: 'ck_parametros_hora_corte' });
    });
  });

  describe('asistencia_update_raw and asistencia_delete_raw', () => {
    const db = tenant('editar');

    beforeAll(async () => {
      await dbs.createTenant('editar');
      await seedMenu(dbs, 'editar');
      await db.importar([
        { ...punch(ROSA, '2026-05-04', '08:00:00'), device: 'ZK-01' },
        punch(ROSA, '2026-05-04', '12:00:00'),
        punch(ROSA, '2026-05-04', '13:00:00'),
        punch(ROSA, '2026-05-04', '17:00:00'),
        punch(ROSA, '2026-05-05', '08:00:00'),
        punch(ROSA, '2026-05-05', '16:00:00'),
      ]);
    });

    const update = (id: number, fecha: string, hora: string, modo: string | null = null) =>
      db.call<{ ok: boolean; id_raw: number; dias_recalculados: number }>(
        'asistencia_update_raw($1::bigint, $2::date, $3, $4)',
        id,
        fecha,
        hora,
        modo,
      );
    const remove = (id: number) =>
      db.call<{ ok: boolean; id_raw: number; dias_recalculados: number }>(
        'asistencia_delete_raw($1::bigint)',
        id,
      );

    it('update_raw corrects a punch, keeps the clock reading and re-pairs its day', async () => {
      const id = await db.idRaw(ROSA, '2026-05-04', '08:00:00');
      expect(await update(id, '2026-05-04', '07:30')).toEqual({
        ok: true,
        id_raw: id,
        dias_recalculados: 1,
      });
      const [fila] = await db.rows<{
        hora: string;
        modo: string | null;
        datos: Record<string, unknown>;
      }>('SELECT hora::text, modo, datos FROM asistencia_detalle WHERE id_raw = $1', [id]);
      expect(fila).toEqual({
        hora: '07:30:00',
        modo: null,
        datos: {
          device: 'ZK-01',
          original: { fecha: '2026-05-04', hora: '08:00:00', modo: null },
          editado_en: expect.any(String),
        },
      });
      expect((await db.resumen(ROSA))[0]).toEqual({
        fecha_trabajo: '2026-05-04',
        minutos: 510,
        intervalos: 2,
        marcas: 4,
        incompleto: false,
      });

      // a second edit keeps the first original reading
      await update(id, '2026-05-04', '07:45:00', 'entrada');
      const [otra] = await db.rows<{ datos: { original: unknown } }>(
        'SELECT datos FROM asistencia_detalle WHERE id_raw = $1',
        [id],
      );
      expect(otra.datos.original).toEqual({ fecha: '2026-05-04', hora: '08:00:00', modo: null });
    });

    it('update_raw moving a punch to another work day re-pairs both days', async () => {
      const id = await db.idRaw(ROSA, '2026-05-04', '17:00:00');
      // the 17:00 punch of the 4th really was the out-punch of the 5th's shift, at 01:00 on the
      // 6th: the 4th loses its out-punch, the 5th gains an unpaired salida
      expect(await update(id, '2026-05-06', '01:00:00', 'salida')).toEqual({
        ok: true,
        id_raw: id,
        dias_recalculados: 2,
      });
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-05-04', minutos: 255, intervalos: 2, marcas: 3, incompleto: true },
        { fecha_trabajo: '2026-05-05', minutos: 480, intervalos: 1, marcas: 2, incompleto: true },
      ]);
      expect(
        (await db.intervalos(ROSA))
          .filter((i) => i.fecha_trabajo === '2026-05-05')
          .map((i) => [i.entrada, i.salida]),
      ).toEqual([['2026-05-05 08:00:00', '2026-05-05 16:00:00']]);
    });

    it('update_raw refuses bad input and unknown punches', async () => {
      const id = await db.idRaw(ROSA, '2026-05-05', '08:00:00');
      await expect(update(id, '2026-05-05', '8h')).rejects.toMatchObject({ code: '22023' });
      await expect(update(id, '2026-05-05', '08:00', 'in')).rejects.toMatchObject({
        code: '22023',
      });
      await expect(update(id, '2026-05-05', '16:00:00')).rejects.toMatchObject({
        code: '23505',
        constraint: 'uq_asistencia_detalle_marca',
      });
      await expect(update(987654, '2026-05-05', '08:00')).rejects.toMatchObject({
        code: 'P0002',
        message: 'marca 987654 no existe',
      });
    });

    it('delete_raw removes a punch and re-pairs its work day', async () => {
      const id = await db.idRaw(ROSA, '2026-05-05', '16:00:00');
      expect(await remove(id)).toEqual({ ok: true, id_raw: id, dias_recalculados: 1 });
      expect(await db.rows('SELECT 1 FROM asistencia_detalle WHERE id_raw = $1', [id])).toEqual([]);
      // 08:00 (no modo) and the moved 01:00 salida of the next night
      expect(
        (await db.intervalos(ROSA))
          .filter((i) => i.fecha_trabajo === '2026-05-05')
          .map((i) => [i.entrada, i.salida, i.minutos]),
      ).toEqual([['2026-05-05 08:00:00', '2026-05-06 01:00:00', 1020]]);

      // deleting the last punch of a day removes its summary
      const ultimo = await db.idRaw(ROSA, '2026-05-05', '08:00:00');
      const fin = await db.idRaw(ROSA, '2026-05-06', '01:00:00');
      await remove(ultimo);
      expect(await remove(fin)).toEqual({ ok: true, id_raw: fin, dias_recalculados: 1 });
      expect((await db.resumen(ROSA)).map((r) => r.fecha_trabajo)).toEqual(['2026-05-04']);
      await expect(remove(fin)).rejects.toMatchObject({
        code: 'P0002',
        message: `marca ${fin} no existe`,
      });
    });
  });

  describe('asistencia_get and report_asistencia', () => {
    const db = tenant('consulta');

    beforeAll(async () => {
      await dbs.createTenant('consulta');
      await seedMenu(dbs, 'consulta');
      await db.rows(
        `INSERT INTO usuarios (documento, nombre, apellido) VALUES ('40000003', 'Ana', 'Flores')`,
      );
      await db.importar(
        [
          { ...punch(ROSA, '2026-06-01', '18:00:00', 'entrada'), device: 'ZK-02' },
          punch(ROSA, '2026-06-02', '01:30:00', 'salida'),
          punch(ROSA, '2026-06-02', '18:00:00', 'entrada'), // no out-punch
          punch(ROSA, '2026-06-04', '09:00:00'),
          punch(ROSA, '2026-06-04', '10:00:00'),
          punch(LUIS, '2026-06-01', '08:00:00'),
          punch(LUIS, '2026-06-01', '16:00:00'),
          punch('40000003', '2026-05-20', '08:00:00'), // outside the range
          punch('40000003', '2026-05-20', '09:00:00'),
        ],
        'zk-02',
      );
    });

    it('asistencia_get returns the punches, intervals and summaries of the work days', async () => {
      const res = await db.asistencia(ROSA, '2026-06-01', '2026-06-02');
      expect(res.usuario).toEqual({
        id_usuario: MENU.rosa,
        documento: ROSA,
        nombre: 'Rosa',
        apellido: 'Quispe',
      });
      expect(res.marcas).toEqual([
        {
          id_raw: expect.any(Number),
          fecha: '2026-06-01',
          hora: '18:00:00',
          modo: 'entrada',
          origen: 'zk-02',
          datos: { device: 'ZK-02' },
          fecha_trabajo: '2026-06-01',
        },
        expect.objectContaining({
          fecha: '2026-06-02',
          hora: '01:30:00',
          modo: 'salida',
          fecha_trabajo: '2026-06-01',
        }),
        expect.objectContaining({
          fecha: '2026-06-02',
          hora: '18:00:00',
          fecha_trabajo: '2026-06-02',
        }),
      ]);
      expect(res.intervalos).toEqual([
        {
          id_intervalo: expect.any(Number),
          fecha_trabajo: '2026-06-01',
          entrada: '2026-06-01T18:00:00',
          salida: '2026-06-02T01:30:00',
          minutos: 450,
        },
        {
          id_intervalo: expect.any(Number),
          fecha_trabajo: '2026-06-02',
          entrada: '2026-06-02T18:00:00',
          salida: null,
          minutos: null,
        },
      ]);
      expect(res.resumen).toEqual([
        { fecha_trabajo: '2026-06-01', minutos: 450, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-06-02', minutos: 0, intervalos: 1, marcas: 1, incompleto: true },
      ]);

      // one work day: its night-shift out-punch after midnight is included
      const dia = await db.asistencia(ROSA, '2026-06-01', '2026-06-01');
      expect(dia.marcas.map((m) => m.hora)).toEqual(['18:00:00', '01:30:00']);
      expect(dia.resumen).toHaveLength(1);
    });

    it('asistencia_get of an unknown document: usuario null and empty lists', async () => {
      expect(await db.asistencia('12345678', '2026-06-01', '2026-06-30')).toEqual({
        usuario: null,
        marcas: [],
        intervalos: [],
        resumen: [],
      });
      await expect(
        db.call('asistencia_get($1, NULL, $2::date)', ROSA, '2026-06-30'),
      ).rejects.toMatchObject({ code: '22023' });
    });

    it('report_asistencia sums the days per person, ordered by apellido, nombre', async () => {
      expect(
        await db.call('report_asistencia($1::date, $2::date)', '2026-06-01', '2026-06-30'),
      ).toEqual({
        desde: '2026-06-01',
        hasta: '2026-06-30',
        personas: [
          {
            id_usuario: MENU.rosa,
            documento: ROSA,
            nombre: 'Rosa',
            apellido: 'Quispe',
            dias_trabajados: 3,
            minutos: 510,
            dias_incompletos: 1,
          },
          {
            id_usuario: MENU.luis,
            documento: LUIS,
            nombre: 'Luis',
            apellido: 'Rojas',
            dias_trabajados: 1,
            minutos: 480,
            dias_incompletos: 0,
          },
        ],
      });
      expect(
        await db.call('report_asistencia($1::date, $2::date)', '2026-07-01', '2026-07-31'),
      ).toEqual({ desde: '2026-07-01', hasta: '2026-07-31', personas: [] });
    });

    it('tenant A cannot see tenant B: another tenant has none of these punches', async () => {
      const otro = tenant('vecino');
      await dbs.createTenant('vecino');
      await seedMenu(dbs, 'vecino');
      expect(await otro.asistencia(ROSA, '2026-06-01', '2026-06-30')).toMatchObject({
        usuario: { documento: ROSA },
        marcas: [],
        intervalos: [],
        resumen: [],
      });
      expect(
        await otro.call('report_asistencia($1::date, $2::date)', '2026-06-01', '2026-06-30'),
      ).toMatchObject({ personas: [] });
    });
  });
  describe('the migrations', () => {
    /** Objects of schema public besides the domain schema's tables and view. */
    const extras = (slug: string) =>
      dbs.query<{ nombre: string }>(
        dbs.tenantUrl(slug),
        `SELECT p.proname AS nombre FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
         UNION ALL
         SELECT c.relname FROM pg_class c
          WHERE c.relnamespace = 'public'::regnamespace AND c.relname = 'parametros'
         ORDER BY 1`,
      );

    it('down drops exactly what up created, and up again restores it', async () => {
      await dbs.createTenant('migraciones');
      const creado = (await extras('migraciones')).map((r) => r.nombre);
      expect(creado).toEqual(
        expect.arrayContaining([
          'parametros',
          'get_producto',
          'save_producto',
          'import_asistencia',
          'asistencia_recalcular',
          'report_gastos',
        ]),
      );
      const client = new Client({ connectionString: dbs.tenantUrl('migraciones') });
      await client.connect();
      try {
        const runner = { query: (sql: string) => client.query(sql) } as unknown as QueryRunner;
        const storeFunctions = [
          new StoreFunctionsCatalog1764200000000(),
          new StoreFunctionsCompras1764200000001(),
          new StoreFunctionsAsistencia1764200000002(),
          new StoreFunctionsReports1764200000003(),
        ];
        for (const migration of [...storeFunctions].reverse()) await migration.down(runner);
        expect(await extras('migraciones')).toEqual([]);
        for (const migration of storeFunctions) await migration.up(runner);
      } finally {
        await client.end();
      }
      expect((await extras('migraciones')).map((r) => r.nombre)).toEqual(creado);
    });
  });
});
