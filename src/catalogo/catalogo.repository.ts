import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../tenancy/tenant-repository';

/** A product as PostgreSQL returns it (numeric as a string). */
export interface ProductoRow {
  id_producto: number;
  nombre: string;
  precio: string;
  activo: boolean;
  id_categoria: number | null;
  categoria: string | null;
}

export interface MesaRow {
  id_mesa: number;
  numero: number;
  zona: string | null;
  capacidad: number;
  activo: boolean;
  abiertas: number;
}

export interface MozoRow {
  id_usuario: number;
  nombre: string;
  activo: boolean;
}

export interface ProductoFilter {
  q?: string;
  activo?: boolean;
  id_categoria?: number;
}

/** `q` as a LIKE pattern that matches it literally anywhere: its `\`, `%` and `_` escaped. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, '\\$&')}%`;
}

/** The only place with the SQL of the catalogue (read only). Every value is a bound parameter. */
@Injectable()
export class CatalogoRepository extends TenantRepository {
  async productos(
    filter: ProductoFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: ProductoRow[]; total: number }> {
    const params: unknown[] = [];
    const clauses: string[] = [];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      clauses.push(clause(`$${params.length}`));
    };
    // no unaccent in the tenant databases: case-insensitive only, accents must match
    if (filter.q)
      add((n) => `lower(p.nombre) LIKE lower(${n}) ESCAPE '\\'`, containsPattern(filter.q));
    if (filter.activo !== undefined) add((n) => `p.activo = ${n}`, filter.activo);
    if (filter.id_categoria !== undefined) add((n) => `p.id_categoria = ${n}`, filter.id_categoria);
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    const n = params.length;
    const [rows, count] = await Promise.all([
      this.db.query<ProductoRow[]>(
        `SELECT p.id_producto, p.nombre, p.precio, p.activo, p.id_categoria,
                c.nombre AS categoria
           FROM productos p
           LEFT JOIN categorias c ON c.id_categoria = p.id_categoria
           ${where}
          ORDER BY c.nombre NULLS LAST, p.nombre, p.id_producto
          LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, limit, offset],
      ),
      this.db.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM productos p ${where}`,
        params,
      ),
    ]);
    return { rows, total: count[0].total };
  }

  /** Every table (or only the active or retired ones) by number, with its open comandas. */
  mesas(activo?: boolean): Promise<MesaRow[]> {
    return this.db.query<MesaRow[]>(
      `SELECT m.id_mesa, m.numero, m.zona, m.capacidad, m.activo,
              (SELECT count(*)::int FROM comandas c
                WHERE c.id_mesa = m.id_mesa AND c.estado = 'abierta' AND NOT c.eliminada
              ) AS abiertas
         FROM mesas m
        WHERE $1::boolean IS NULL OR m.activo = $1
        ORDER BY m.numero`,
      [activo ?? null],
    );
  }

  /**
   * The waiters: staff holding the mozo role, and anyone who is the waiter of a comanda (a
   * tenant without roles, a cashier who opened one), by name. Only the name: never the
   * document, which is also the clock's PIN.
   */
  mozos(activo?: boolean): Promise<MozoRow[]> {
    return this.db.query<MozoRow[]>(
      `SELECT u.id_usuario, concat_ws(' ', u.nombre, u.apellido) AS nombre, u.activo
         FROM usuarios u
        WHERE ($1::boolean IS NULL OR u.activo = $1)
          AND (EXISTS (SELECT 1 FROM usua_roles ur JOIN roles r ON r.id_rol = ur.id_rol
                        WHERE ur.id_usuario = u.id_usuario AND lower(btrim(r.nombre)) = 'mozo')
               OR EXISTS (SELECT 1 FROM comandas c WHERE c.id_usuario = u.id_usuario))
        ORDER BY nombre, u.id_usuario`,
      [activo ?? null],
    );
  }
}
