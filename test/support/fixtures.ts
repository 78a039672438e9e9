import request from 'supertest';
import type { Server } from 'node:http';
import { Client } from 'pg';
import { seedDemoCredentials } from '../../src/database/demo/sections/credentials';
import { seedDemoData } from '../../src/database/demo/demo-data';
import { todayIn } from '../../src/common/time';
import type { TestDatabases } from './test-databases';

/** Ids of the small menu `seedMenu` writes in a fresh tenant database. */
export const MENU = {
  ceviche: { id: 1, precio: 38 },
  lomo: { id: 2, precio: 42.5 },
  chicha: { id: 3, precio: 8 },
  retirado: { id: 4, precio: 20 },
  mesas: [1, 2, 3],
  rosa: 1,
  luis: 2,
  cliente: 1,
} as const;

/** A known menu, tables, two waiters and a customer (fresh database: ids start at 1). */
export async function seedMenu(dbs: TestDatabases, slug: string): Promise<void> {
  await dbs.query(
    dbs.tenantUrl(slug),
    `INSERT INTO categorias (nombre) VALUES ('Platos');
     INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES
       ('Ceviche clásico', 38.00, 1, true), ('Lomo saltado', 42.50, 1, true),
       ('Chicha morada', 8.00, 1, true), ('Plato retirado', 20.00, 1, false);
     INSERT INTO mesas (numero) VALUES (1), (2), (3);
     INSERT INTO usuarios (documento, nombre, apellido) VALUES
       ('40000001', 'Rosa', 'Quispe'), ('40000002', 'Luis', 'Rojas');
     INSERT INTO clientes (nombre, apellido) VALUES ('Ana', 'Torres');`,
  );
}

/**
 * The demo restaurant of `npm run tenant -- create <slug> --demo` (a year of comandas, twelve
 * tables, its staff and menu) in a fresh tenant database, as of today in Lima.
 */
export async function seedDemo(dbs: TestDatabases, slug: string): Promise<void> {
  const client = new Client({ connectionString: dbs.tenantUrl(slug) });
  await client.connect();
  try {
    await client.query('BEGIN');
    const query = (sql: string, params?: unknown[]) => client.query(sql, params);
    await seedDemoData(query, { today: todayIn('America/Lima'), timeZone: 'America/Lima' });
    // the demo staff's development PINs and password (README), as `npm start` seeds them
    await seedDemoCredentials(query);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.end();
  }
}

/** A client of the /api/v1 routes of one tenant. */
export function tenantApi(http: Server, slug: string) {
  const at = (path: string) => `/api/v1${path}`;
  return {
    get: (path: string) => request(http).get(at(path)).set('X-Tenant-ID', slug),
    post: (path: string, body?: object) =>
      request(http).post(at(path)).set('X-Tenant-ID', slug).send(body),
    put: (path: string, body?: object) =>
      request(http).put(at(path)).set('X-Tenant-ID', slug).send(body),
    patch: (path: string, body?: object) =>
      request(http).patch(at(path)).set('X-Tenant-ID', slug).send(body),
    delete: (path: string, body?: object) => {
      const req = request(http).delete(at(path)).set('X-Tenant-ID', slug);
      return body ? req.send(body) : req;
    },
  };
}

export type TenantApi = ReturnType<typeof tenantApi>;
