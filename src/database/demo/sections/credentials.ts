import { hashPassword, hashPin } from '../../../common/secret-hashing';
import type { DemoQuery } from '../seed-helpers';

/**
 * The demo staff's development credentials (README, "Authentication and roles"; docs/sign-in.md): a PIN each, in STAFF's
 * order, and a password for the manager. Known to everyone who reads the README, so they are
 * seeded only outside production (TenantAdminSettings.demoCredentials).
 */
export const DEMO_PINS = ['4827', '3951', '5173', '6284', '7395', '8406', '9517', '1648'] as const;
export const DEMO_ADMIN_PASSWORD = 'cevicheria-demo';
/** The manager's documento (drawn by the demo's seeded generator: the same on every machine). */
export const DEMO_ADMIN_DOCUMENTO = '39019936';

/** The demo staff's hashed credentials, ready to insert: scrypt work, done apart from the SQL. */
export interface DemoCredentialHashes {
  pins: string[];
  password: string;
}

/** Reads the tenant's PIN salt (set by its migration). */
export async function demoPinSalt(query: DemoQuery): Promise<Buffer> {
  const answer = await query('SELECT sal_pin FROM credenciales_ajustes WHERE id = 1');
  // a TypeORM manager answers the rows, a pg client a result holding them
  const rows = (Array.isArray(answer) ? answer : (answer as { rows: unknown[] }).rows) as {
    sal_pin: Buffer;
  }[];
  return rows[0].sal_pin;
}

/**
 * Hashes the demo PINs with the tenant's salt and the manager's password: nine scrypt hashes,
 * about half a second of CPU, which the provisioning runs while PostgreSQL writes the demo's
 * year. One at a time: one core for them, the other for PostgreSQL.
 */
export async function hashDemoCredentials(salt: Buffer): Promise<DemoCredentialHashes> {
  const pins: string[] = [];
  for (const pin of DEMO_PINS) pins.push(await hashPin(pin, salt));
  return { pins, password: await hashPassword(DEMO_ADMIN_PASSWORD) };
}

/** Stores the demo staff's credentials (hashed by hashDemoCredentials, or here). */
export async function seedDemoCredentials(
  query: DemoQuery,
  hashes?: DemoCredentialHashes,
): Promise<number> {
  const { pins, password } = hashes ?? (await hashDemoCredentials(await demoPinSalt(query)));
  await query(
    `INSERT INTO credenciales (id_usuario, pin_hash, password_hash)
     SELECT r.id_usuario, r.pin_hash, CASE WHEN r.id_usuario = 1 THEN $2 END
       FROM jsonb_to_recordset($1::jsonb) AS r(id_usuario integer, pin_hash text)`,
    [JSON.stringify(pins.map((pin_hash, i) => ({ id_usuario: i + 1, pin_hash }))), password],
  );
  return pins.length;
}
