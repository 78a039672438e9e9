import { ROLES, STAFF, rolId } from '../restaurant';
import { type DemoDataSummary, type DemoSeed, at, idOf, json } from '../seed-helpers';

/** Roles, the staff (usuarios) and the roles of each: the first draws of the generator. */
export async function seedStaff(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'roles' | 'usuarios' | 'usua_roles'>> {
  const { query, rng, today, timeZone, documentos } = seed;
  await query(
    `INSERT INTO roles (id_rol, nombre, descripcion)
     SELECT r.id_rol, r.nombre, r.descripcion
       FROM jsonb_to_recordset($1::jsonb) AS r(id_rol integer, nombre text, descripcion text)`,
    [json(ROLES.map((r, i) => ({ id_rol: i + 1, ...r })))],
  );

  const usuarios = STAFF.map((s, i) => ({
    id_usuario: i + 1,
    documento: documentos.unique(rng.int(1, 7), 8),
    nombre: s.nombre,
    apellido: s.apellido,
    email: `${s.nombre.split(' ')[0]}.${s.apellido.split(' ')[0]}@cevicheria.example`
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
    telefono: `9${rng.digits(8)}`,
    dia: rng.int(400, 900),
    seg: rng.int(9 * 3600, 17 * 3600),
  }));
  await query(
    `INSERT INTO usuarios (id_usuario, documento, nombre, apellido, email, telefono, activo, created_at)
     SELECT r.id_usuario, r.documento, r.nombre, r.apellido, r.email, r.telefono, true,
            ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_usuario integer, documento text, nombre text,
            apellido text, email text, telefono text, dia integer, seg integer)`,
    [json(usuarios), today, timeZone],
  );

  const usuaRoles = STAFF.flatMap((s, i) =>
    s.roles.map((rol) => ({ id_usuario: i + 1, id_rol: idOf(rolId, rol) })),
  );
  await query(
    `INSERT INTO usua_roles (id_usuario, id_rol)
     SELECT r.id_usuario, r.id_rol
       FROM jsonb_to_recordset($1::jsonb) AS r(id_usuario integer, id_rol integer)`,
    [json(usuaRoles)],
  );

  return { roles: ROLES.length, usuarios: usuarios.length, usua_roles: usuaRoles.length };
}
