import { CLIENTES, MESAS } from '../restaurant';
import { type DemoDataSummary, type DemoSeed, at, json, ruc } from '../seed-helpers';

/** Customers (with documentos unique against the staff's) and the dining room's tables. */
export async function seedCustomersAndTables(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'clientes' | 'mesas'>> {
  const { query, rng, today, timeZone, documentos } = seed;
  const clientes = CLIENTES.map((c, i) => ({
    id_cliente: i + 1,
    documento:
      c.doc === 'dni'
        ? documentos.unique(rng.int(1, 7), 8)
        : c.doc === 'ruc'
          ? ruc(rng, '20')
          : null,
    nombre: c.nombre,
    apellido: c.apellido,
    telefono: rng.chance(0.8) ? `9${rng.digits(8)}` : null,
    email:
      c.apellido !== null && rng.chance(0.6)
        ? `${c.nombre.split(' ')[0]}.${c.apellido.split(' ')[0]}${rng.int(1, 99)}@correo.example`
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .toLowerCase()
        : null,
    direccion: c.direccion,
    dia: rng.int(60, 360),
    seg: rng.int(12 * 3600, 22 * 3600),
  }));
  await query(
    `INSERT INTO clientes (id_cliente, documento, nombre, apellido, telefono, email, direccion,
                           created_at)
     SELECT r.id_cliente, r.documento, r.nombre, r.apellido, r.telefono, r.email, r.direccion,
            ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_cliente integer, documento text, nombre text,
            apellido text, telefono text, email text, direccion text, dia integer, seg integer)`,
    [json(clientes), today, timeZone],
  );

  const mesas = Array.from({ length: MESAS }, (_, i) => ({
    id_mesa: i + 1,
    numero: i + 1,
    zona: i < 8 ? 'Salón' : 'Terraza',
    capacidad: [2, 4, 4, 6][i % 4],
  }));
  await query(
    `INSERT INTO mesas (id_mesa, numero, zona, capacidad, activo)
     SELECT r.id_mesa, r.numero, r.zona, r.capacidad, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_mesa integer, numero integer, zona text,
            capacidad integer)`,
    [json(mesas)],
  );

  return { clientes: clientes.length, mesas: mesas.length };
}
