import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { sign, type SignOptions } from 'jsonwebtoken';
import request from 'supertest';
import type { TestDatabases } from './test-databases';

/** The HS256 secret of the suites that switch authentication on. */
export const TEST_SECRET = 'e2e-shared-secret-of-at-least-32-characters';

/** An RSA key pair whose public half is written to `dir` (AUTH_JWT_PUBLIC_KEY_FILE). */
export function rsaKeys(dir: string): { privateKey: KeyObject; publicKeyFile: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = join(dir, 'public.pem');
  writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKeyFile };
}

/** A token as the token CLI issues it: sub = id_usuario, tenant = slug, 10 minutes. */
export function tokenFor(
  tenant: string,
  userId: number,
  options: SignOptions = {},
  key: string | KeyObject = TEST_SECRET,
): string {
  return sign({ tenant }, key, {
    algorithm: typeof key === 'string' ? 'HS256' : 'RS256',
    subject: String(userId),
    expiresIn: 600,
    ...options,
  });
}

/** The demo's four roles, and staff holding them, added to a tenant seeded by `seedMenu`. */
export const STAFF = {
  mozo: { id: 1, documento: '40000001' }, // Rosa, from seedMenu
  cajero: { id: 2, documento: '40000002' }, // Luis, from seedMenu
  admin: { id: 3, documento: '40000003' },
  cocina: { id: 4, documento: '40000004' },
  sinRol: { id: 5, documento: '40000005' },
  exEmpleado: { id: 6, documento: '40000006' },
} as const;

export async function seedStaff(dbs: TestDatabases, slug: string): Promise<void> {
  await dbs.query(
    dbs.tenantUrl(slug),
    `INSERT INTO roles (nombre) VALUES ('admin'), ('cajero'), ('mozo'), ('cocina');
     INSERT INTO usuarios (documento, nombre, apellido, activo) VALUES
       ('40000003', 'Carmen', 'Salazar', true), ('40000004', 'Wilmer', 'Condori', true),
       ('40000005', 'Nadia', 'Sin Rol', true), ('40000006', 'Ernesto', 'Ex', false);
     INSERT INTO usua_roles (id_usuario, id_rol) VALUES (1, 3), (2, 2), (3, 1), (4, 4), (6, 1);`,
  );
}

/** A client of one tenant's /api/v1 routes that sends a token (or none). */
export function authedApi(http: Server, slug: string, token?: string) {
  const at = (path: string) => `/api/v1${path}`;
  const prepare = (req: request.Test) => {
    req.set('X-Tenant-ID', slug);
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };
  return {
    get: (path: string) => prepare(request(http).get(at(path))),
    post: (path: string, body?: object) => prepare(request(http).post(at(path))).send(body),
    put: (path: string, body?: object) => prepare(request(http).put(at(path))).send(body),
    patch: (path: string, body?: object) => prepare(request(http).patch(at(path))).send(body),
    delete: (path: string) => prepare(request(http).delete(at(path))),
  };
}
