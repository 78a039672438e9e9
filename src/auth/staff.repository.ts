import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../tenancy/tenant-repository';

/** A staff member as authorization sees them. */
export interface StaffMember {
  id_usuario: number;
  documento: string;
  nombre: string;
  activo: boolean;
  /** Names of the roles held through usua_roles, as stored, sorted. */
  roles: string[];
}

/** A staff member with what ends their sessions early, as the permission guard reads them. */
export interface StaffSessions extends StaffMember {
  /** The `jti` of their revoked sign-in sessions that have not expired yet (the deny-list). */
  revocadas: string[];
  /** Tokens issued before this are refused (set when the user was deactivated). */
  tokens_desde: Date | null;
}

/** The role names of the user `u` (usuarios aliased u), sorted: `${ROLES_OF_U} AS roles`. */
export const ROLES_OF_U = `
  COALESCE((SELECT array_agg(r.nombre ORDER BY r.nombre)
              FROM usua_roles ur JOIN roles r ON r.id_rol = ur.id_rol
             WHERE ur.id_usuario = u.id_usuario), '{}')`;

const STAFF_COLUMNS = `u.id_usuario, u.documento, u.nombre, u.activo, ${ROLES_OF_U} AS roles`;
const STAFF_SELECT = `SELECT ${STAFF_COLUMNS} FROM usuarios u`;

/** Users and their roles in the current tenant's database (usuarios, usua_roles, roles). */
@Injectable()
export class StaffRepository extends TenantRepository {
  /** The member with their revoked sessions: one query, which the roles cache keeps. */
  async findWithSessions(id: number): Promise<StaffSessions | undefined> {
    const rows: StaffSessions[] = await this.db.query(
      `SELECT ${STAFF_COLUMNS},
              COALESCE((SELECT array_agg(s.jti::text)
                          FROM sesiones_usuario s
                         WHERE s.id_usuario = u.id_usuario AND s.revocada IS NOT NULL
                           AND s.expira > now()), '{}') AS revocadas,
              u.tokens_desde
         FROM usuarios u
        WHERE u.id_usuario = $1`,
      [id],
    );
    return rows[0];
  }

  async findById(id: number): Promise<StaffMember | undefined> {
    const rows: StaffMember[] = await this.db.query(`${STAFF_SELECT} WHERE u.id_usuario = $1`, [
      id,
    ]);
    return rows[0];
  }

  /** The active staff, by id. */
  listActive(): Promise<StaffMember[]> {
    return this.db.query(`${STAFF_SELECT} WHERE u.activo ORDER BY u.id_usuario`);
  }

  async findByDocumento(documento: string): Promise<StaffMember | undefined> {
    const rows: StaffMember[] = await this.db.query(`${STAFF_SELECT} WHERE u.documento = $1`, [
      documento,
    ]);
    return rows[0];
  }
}
