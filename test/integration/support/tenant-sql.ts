/**
 * What the integration specs of the store functions share: SQL access to a tenant database of
 * the file's own databases, the two people of `seedMenu` and the shapes the attendance
 * functions answer.
 */

import type { TestDatabases } from '../../support/test-databases';

export interface Marca {
  id_raw: number;
  fecha: string;
  hora: string;
  modo: string | null;
  origen: string | null;
  datos: Record<string, unknown>;
  fecha_trabajo: string;
}

export interface Intervalo {
  id_intervalo: number;
  fecha_trabajo: string;
  entrada: string;
  salida: string | null;
  minutos: number | null;
}

export interface Resumen {
  fecha_trabajo: string;
  minutos: number;
  intervalos: number;
  marcas: number;
  incompleto: boolean;
}

export interface AsistenciaGet {
  usuario: { id_usuario: number; documento: string; nombre: string; apellido: string } | null;
  marcas: Marca[];
  intervalos: Intervalo[];
  resumen: Resumen[];
}

export interface ImportResult {
  recibidos: number;
  insertados: number;
  duplicados: number;
  desconocidos: string[];
  invalidos: { indice: number; motivo: string }[];
  dias_recalculados: number;
}

export interface Registro {
  doc: string;
  fecha: string;
  hora: string;
  modo?: string;
  [extra: string]: unknown;
}

export const ROSA = '40000001';
export const LUIS = '40000002';

/**
 * `tenant(slug)`: SQL access to one tenant database of a file's databases. `databases` is read
 * at call time (a file creates its databases in its beforeAll).
 */
export function tenantSql(databases: () => TestDatabases) {
  return (slug: string) => {
    const url = () => databases().tenantUrl(slug);
    return {
      /** `SELECT <expression> AS result`: the JSON a store function returns. */
      call: async <T = unknown>(expression: string, ...params: unknown[]): Promise<T> =>
        (await databases().query<{ result: T }>(url(), `SELECT ${expression} AS result`, params))[0]
          .result,
      rows: <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
        databases().query<T>(url(), sql, params),
      /** import_asistencia(registros, origen). */
      importar: async (registros: unknown, origen: string | null = 'attlog.dat') =>
        (
          await databases().query<{ result: ImportResult }>(
            url(),
            'SELECT import_asistencia($1::jsonb, $2) AS result',
            [JSON.stringify(registros), origen],
          )
        )[0].result,
      asistencia: async (doc: string, desde: string, hasta: string) =>
        (
          await databases().query<{ result: AsistenciaGet }>(
            url(),
            'SELECT asistencia_get($1, $2::date, $3::date) AS result',
            [doc, desde, hasta],
          )
        )[0].result,
      /** A person's intervals as plain text, in time order. */
      intervalos: (doc: string) =>
        databases().query<{
          fecha_trabajo: string;
          entrada: string;
          salida: string | null;
          minutos: number | null;
          id_raw_entrada: string;
          id_raw_salida: string | null;
        }>(
          url(),
          `SELECT i.fecha_trabajo::text, i.entrada::text, i.salida::text, i.minutos,
                  i.id_raw_entrada, i.id_raw_salida
             FROM asistencia_intervalo i JOIN usuarios u USING (id_usuario)
            WHERE u.documento = $1 ORDER BY i.entrada`,
          [doc],
        ),
      /** A person's daily summaries, in day order. */
      resumen: (doc: string) =>
        databases().query<Resumen>(
          url(),
          `SELECT r.fecha_trabajo::text, r.minutos, r.intervalos, r.marcas, r.incompleto
             FROM asistencia_resumen_diario r JOIN usuarios u USING (id_usuario)
            WHERE u.documento = $1 ORDER BY r.fecha_trabajo`,
          [doc],
        ),
      /** id_raw of a person's punch. */
      idRaw: async (doc: string, fecha: string, hora: string) =>
        Number(
          (
            await databases().query<{ id_raw: string }>(
              url(),
              `SELECT d.id_raw FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
                WHERE u.documento = $1 AND d.fecha = $2 AND d.hora = $3`,
              [doc, fecha, hora],
            )
          )[0].id_raw,
        ),
    };
  };
}

export const json = (value: unknown) => JSON.stringify(value);
export const punch = (doc: string, fecha: string, hora: string, modo?: string): Registro =>
  modo ? { doc, fecha, hora, modo } : { doc, fecha, hora };
