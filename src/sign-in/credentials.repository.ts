import { Injectable } from '@nestjs/common';
import { ROLES_OF_U } from '../auth/staff.repository';
import { returnedRows } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';

/** What sign-in reads of a staff member: who they are and the hashes to check. */
export interface SignInRow {
  id_usuario: number;
  nombre: string;
  activo: boolean;
  roles: string[];
  password_hash: string | null;
  pin_hash: string | null;
}

const SIGN_IN_SELECT = `
  SELECT u.id_usuario, concat_ws(' ', u.nombre, u.apellido) AS nombre, u.activo,
         ${ROLES_OF_U} AS roles,
         c.password_hash, c.pin_hash
    FROM usuarios u
    LEFT JOIN credenciales c ON c.id_usuario = u.id_usuario`;

/** The only SQL of sign-in: credentials, the tenant's PIN salt, sessions (docs/sign-in.md). */
@Injectable()
export class CredentialsRepository extends TenantRepository {
  async byDocumento(documento: string): Promise<SignInRow | undefined> {
    const rows: SignInRow[] = await this.db.query(`${SIGN_IN_SELECT} WHERE u.documento = $1`, [
      documento,
    ]);
    return rows[0];
  }

  async byId(id: number): Promise<SignInRow | undefined> {
    const rows: SignInRow[] = await this.db.query(`${SIGN_IN_SELECT} WHERE u.id_usuario = $1`, [
      id,
    ]);
    return rows[0];
  }

  async byPinHash(pinHash: string): Promise<SignInRow | undefined> {
    const rows: SignInRow[] = await this.db.query(`${SIGN_IN_SELECT} WHERE c.pin_hash = $1`, [
      pinHash,
    ]);
    return rows[0];
  }

  /** The tenant's PIN salt (drawn by the migration, never changed). */
  async pinSalt(): Promise<Buffer> {
    const rows: { sal_pin: Buffer }[] = await this.db.query(
      'SELECT sal_pin FROM credenciales_ajustes WHERE id = 1',
    );
    return rows[0].sal_pin;
  }

  /** Whether the user exists, locking their row for the change of their credentials. */
  async lockUser(id: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'SELECT 1 FROM usuarios WHERE id_usuario = $1 FOR UPDATE',
      [id],
    );
    return rows.length > 0;
  }

  /**
   * Takes a PIN away from former staff (inactive users) who hold it: they cannot sign in, and
   * the PIN may go to someone else. Answers whether an active user other than `id` holds it.
   */
  async pinHeldByOther(id: number, pinHash: string): Promise<boolean> {
    await this.db.query(
      `UPDATE credenciales c SET pin_hash = NULL, actualizado = now()
         FROM usuarios u
        WHERE u.id_usuario = c.id_usuario AND NOT u.activo
          AND c.pin_hash = $2 AND c.id_usuario <> $1`,
      [id, pinHash],
    );
    const rows: unknown[] = await this.db.query(
      'SELECT 1 FROM credenciales WHERE pin_hash = $2 AND id_usuario <> $1',
      [id, pinHash],
    );
    return rows.length > 0;
  }

  /**
   * Sets what `change` names (undefined: unchanged, null: removed); answers what the user has
   * afterwards.
   */
  async save(
    id: number,
    change: { password_hash?: string | null; pin_hash?: string | null },
  ): Promise<{ password: boolean; pin: boolean }> {
    const rows = returnedRows<{ password: boolean; pin: boolean }>(
      await this.db.query(
        `INSERT INTO credenciales AS c (id_usuario, password_hash, pin_hash)
       VALUES ($1, $3, $5)
       ON CONFLICT (id_usuario) DO UPDATE
          SET password_hash = CASE WHEN $2 THEN EXCLUDED.password_hash ELSE c.password_hash END,
              pin_hash      = CASE WHEN $4 THEN EXCLUDED.pin_hash ELSE c.pin_hash END,
              actualizado   = now()
       RETURNING c.password_hash IS NOT NULL AS password, c.pin_hash IS NOT NULL AS pin`,
        [
          id,
          change.password_hash !== undefined,
          change.password_hash ?? null,
          change.pin_hash !== undefined,
          change.pin_hash ?? null,
        ],
      ),
    );
    return rows[0];
  }

  /** Stores a password's hash made at today's cost (a re-hash at sign-in). */
  async rehashPassword(id: number, previous: string, next: string): Promise<void> {
    await this.db.query(
      'UPDATE credenciales SET password_hash = $3 WHERE id_usuario = $1 AND password_hash = $2',
      [id, previous, next],
    );
  }

  /** Records a session opened by sign-in, and forgets the user's sessions expired a day ago. */
  async openSession(
    jti: string,
    id: number,
    method: 'password' | 'pin',
    expiresAt: Date,
  ): Promise<void> {
    await this.db.query(
      `WITH viejas AS (
         DELETE FROM sesiones_usuario
          WHERE id_usuario = $2 AND expira < now() - interval '1 day'
       )
       INSERT INTO sesiones_usuario (jti, id_usuario, metodo, expira) VALUES ($1, $2, $3, $4)`,
      [jti, id, method, expiresAt],
    );
  }

  /** Revokes one session; answers whether it was open. */
  async revokeSession(jti: string, id: number): Promise<boolean> {
    const rows = returnedRows<unknown>(
      await this.db.query(
        `UPDATE sesiones_usuario SET revocada = now()
        WHERE jti = $1 AND id_usuario = $2 AND revocada IS NULL
        RETURNING 1`,
        [jti, id],
      ),
    );
    return rows.length > 0;
  }

  /** Revokes every open session of a user; answers how many. */
  async revokeAllSessions(id: number): Promise<number> {
    const rows = returnedRows<unknown>(
      await this.db.query(
        `UPDATE sesiones_usuario SET revocada = now()
        WHERE id_usuario = $1 AND revocada IS NULL AND expira > now()
        RETURNING 1`,
        [id],
      ),
    );
    return rows.length;
  }
}
