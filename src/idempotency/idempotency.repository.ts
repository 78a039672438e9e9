import { Injectable } from '@nestjs/common';
import { firstRow, returnedRows, type Queryable } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';

/** A stored answer (the row of `idempotencia` a key names). */
export interface StoredAnswer {
  huella: string;
  estado_http: number;
  cuerpo: unknown;
  etag: string | null;
  location: string | null;
}

export interface NewAnswer extends Omit<StoredAnswer, 'cuerpo'> {
  clave: string;
  id_usuario: number;
  metodo: string;
  ruta: string;
  /** The body as sent, JSON text. */
  cuerpo: string | null;
}

/** Expired keys deleted per purge, at most (the purge runs again with later writes). */
const PURGE_BATCH = 1_000;

/** The only place with the SQL of `idempotencia` (tenant migration 1764500000000). */
@Injectable()
export class IdempotencyRepository extends TenantRepository {
  /**
   * Takes the key for the rest of the transaction, without waiting: false when another
   * transaction (a request with the same key, on any instance) holds it. A 64-bit hash of the
   * key and the user names the lock; the tenant is the database.
   */
  async tryLock(tx: Queryable, clave: string, idUsuario: number): Promise<boolean> {
    const row = await firstRow<{ locked: boolean }>(
      tx,
      `SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ' ' || $2::text, 1764500000000))
              AS locked`,
      [clave, idUsuario],
    );
    return row?.locked === true;
  }

  /** The answer stored for the key, unless it has expired. */
  find(tx: Queryable, clave: string, idUsuario: number): Promise<StoredAnswer | undefined> {
    return firstRow<StoredAnswer>(
      tx,
      `SELECT huella, estado_http, cuerpo, etag, location
         FROM idempotencia
        WHERE clave = $1 AND id_usuario = $2 AND fec_expira > now()`,
      [clave, idUsuario],
    );
  }

  /** Stores the answer for `ttlHours` (over an expired row of the same key). */
  async store(tx: Queryable, answer: NewAnswer, ttlHours: number): Promise<void> {
    await tx.query(
      `INSERT INTO idempotencia
              (clave, id_usuario, huella, metodo, ruta, estado_http, cuerpo, etag, location, fec_expira)
       VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9, now() + make_interval(hours => $10))
       ON CONFLICT (clave, id_usuario) DO UPDATE
          SET huella = excluded.huella, metodo = excluded.metodo, ruta = excluded.ruta,
              estado_http = excluded.estado_http, cuerpo = excluded.cuerpo, etag = excluded.etag,
              location = excluded.location, fec_registro = now(), fec_expira = excluded.fec_expira`,
      [
        answer.clave,
        answer.id_usuario,
        answer.huella,
        answer.metodo,
        answer.ruta,
        answer.estado_http,
        answer.cuerpo,
        answer.etag,
        answer.location,
        ttlHours,
      ],
    );
  }

  /**
   * Deletes expired keys, a batch at a time; rows another transaction holds are skipped (so two
   * purges never wait for each other), the next purge takes them.
   */
  async purgeExpired(db: Queryable = this.db): Promise<number> {
    const result = await db.query<{ clave: string }[] | [{ clave: string }[], number]>(
      `WITH doomed AS (
         SELECT clave, id_usuario FROM idempotencia
          WHERE fec_expira <= now()
          ORDER BY fec_expira
          LIMIT ${PURGE_BATCH}
          FOR UPDATE SKIP LOCKED)
       DELETE FROM idempotencia i USING doomed d
        WHERE i.clave = d.clave AND i.id_usuario = d.id_usuario
       RETURNING i.clave`,
    );
    return returnedRows(result).length;
  }
}
