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

const STAFF_SELECT = `
  SELECT u.id_usuario, u.documento, u.nombre, u.activo,
         COALESCE(array_agg(r.nombre ORDER BY r.nombre) FILTER (WHERE r.id_rol IS NOT NULL), '{}') AS roles
    FROM usuarios u
    LEFT JOIN usua_roles ur ON ur.id_usuario = u.id_usuario
    LEFT JOIN roles r ON r.id_rol = ur.id_rol`;

/** Users and their roles in the current tenant's database (usuarios, usua_roles, roles). */
@Injectable()
export class StaffRepository extends TenantRepository {
  async findById(id: number): Promise<StaffMember | undefined> {
    const rows: StaffMember[] = await this.db.query(
      `${STAFF_SELECT} WHERE u.id_usuario = $1 GROUP BY u.id_usuario`,
      [id],
    );
    return rows[0];
  }

  /** The active staff, by id. */
  listActive(): Promise<StaffMember[]> {
    return this.db.query(
      `${STAFF_SELECT} WHERE u.activo GROUP BY u.id_usuario ORDER BY u.id_usuario`,
    );
  }

  async findByDocumento(documento: string): Promise<StaffMember | undefined> {
    const rows: StaffMember[] = await this.db.query(
      `${STAFF_SELECT} WHERE u.documento = $1 GROUP BY u.id_usuario`,
      [documento],
    );
    return rows[0];
  }
}
