import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { SetBasedAttendanceImport1764700000000 } from '../../../src/database/migrations/tenant/1764700000000-set-based-attendance-import';
import { MENU, seedMenu } from '../../support/fixtures';
import { TestDatabases } from '../../support/test-databases';
import { LUIS, ROSA, punch, tenantSql, type Registro } from '../support/tenant-sql';

/**
 * Integration specs of the store functions shipped by the tenant migrations
 * (src/database/migrations/tenant/17642000000*-store-functions-*.ts): each function is called
 * with SQL on a real, migrated tenant database (no HTTP), and both its JSON result and the
 * tables afterwards are asserted. docs/rpc.md describes the rules tested here.
 *
 * This file: attendance (the import, the pairing, corrections of punches, the queries and
 * the report).
 */

describe('store functions (tenant migrations, called with SQL)', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });
  afterAll(() => dbs.drop());

  const tenant = tenantSql(() => dbs);

  describe('import_asistencia', () => {
    const db = tenant('importar');

    beforeAll(async () => {
      await dbs.createTenant('importar');
      await seedMenu(dbs, 'importar');
    });

    it('stores every record with its origen and device fields, and is idempotent', async () => {
      const registros = [
        { ...punch(ROSA, '2026-03-02', '08:00:05', 'entrada'), device: 'ZK-01', verify: 1 },
        { ...punch(ROSA, '2026-03-02', '16:30', 'SALIDA'), device: 'ZK-01', verify: 15 },
        punch(LUIS, '2026-03-02', '09:00:00'),
        punch(LUIS, '2026-03-02', '17:00:00'),
      ];
      expect(await db.importar(registros, 'attlog-0302.dat')).toEqual({
        recibidos: 4,
        insertados: 4,
        duplicados: 0,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 2,
      });
      expect(
        await db.rows(
          `SELECT u.documento, d.fecha::text, d.hora::text, d.modo, d.origen, d.datos
             FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
            ORDER BY u.documento, d.fecha, d.hora`,
        ),
      ).toEqual([
        {
          documento: ROSA,
          fecha: '2026-03-02',
          hora: '08:00:05',
          modo: 'entrada',
          origen: 'attlog-0302.dat',
          datos: { device: 'ZK-01', verify: 1 },
        },
        {
          documento: ROSA,
          fecha: '2026-03-02',
          hora: '16:30:00',
          modo: 'salida',
          origen: 'attlog-0302.dat',
          datos: { device: 'ZK-01', verify: 15 },
        },
        {
          documento: LUIS,
          fecha: '2026-03-02',
          hora: '09:00:00',
          modo: null,
          origen: 'attlog-0302.dat',
          datos: {},
        },
        {
          documento: LUIS,
          fecha: '2026-03-02',
          hora: '17:00:00',
          modo: null,
          origen: 'attlog-0302.dat',
          datos: {},
        },
      ]);
      const intervalos = await db.rows('SELECT count(*)::int AS n FROM asistencia_intervalo');

      // the same file again inserts nothing and rebuilds nothing
      expect(await db.importar(registros, 'attlog-0302.dat')).toEqual({
        recibidos: 4,
        insertados: 0,
        duplicados: 4,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 0,
      });
      expect(await db.rows('SELECT count(*)::int AS n FROM asistencia_detalle')).toEqual([
        { n: 4 },
      ]);
      expect(await db.rows('SELECT count(*)::int AS n FROM asistencia_intervalo')).toEqual(
        intervalos,
      );
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-03-02', minutos: 510, intervalos: 1, marcas: 2, incompleto: false },
      ]);
    });

    it('reports unknown documents and malformed records, and imports the rest', async () => {
      const result = await db.importar(
        [
          punch('77777777', '2026-03-03', '08:00:00'),
          punch(ROSA, '2026-03-03', '08:00:00', 'entrada'),
          { doc: ROSA, fecha: '2026-02-30', hora: '18:00:00' },
          punch('77777777', '2026-03-03', '17:00:00'),
          { doc: ROSA, fecha: '2026-03-03', hora: '25:10' },
          { fecha: '2026-03-03', hora: '12:00:00' },
          { doc: ROSA, fecha: '2026-03-03', hora: '17:00', modo: 'in' },
          'not a record',
          punch('66666666', '2026-03-03', '09:00:00'),
          punch(ROSA, '2026-03-03', '17:00:00', 'salida'),
          punch(ROSA, '2026-03-03', '17:00:00', 'salida'), // twice in the same file
        ],
        'mixed.csv',
      );
      expect(result).toEqual({
        recibidos: 11,
        insertados: 2,
        duplicados: 1,
        desconocidos: ['77777777', '66666666'],
        invalidos: [
          { indice: 2, motivo: 'fecha inválida "2026-02-30" (se espera AAAA-MM-DD)' },
          { indice: 4, motivo: 'hora inválida "25:10" (se espera HH:MM:SS o HH:MM)' },
          { indice: 5, motivo: 'falta doc' },
          { indice: 6, motivo: 'modo inválido "in" (se espera entrada o salida)' },
          { indice: 7, motivo: 'el registro no es un objeto JSON' },
        ],
        dias_recalculados: 1,
      });
      expect(await db.resumen(ROSA)).toContainEqual({
        fecha_trabajo: '2026-03-03',
        minutos: 540,
        intervalos: 1,
        marcas: 2,
        incompleto: false,
      });
      expect(
        await db.rows(
          `SELECT count(*)::int AS n FROM asistencia_detalle WHERE origen = 'mixed.csv'`,
        ),
      ).toEqual([{ n: 2 }]);
    });

    it('two imports of the same file at once insert each punch once', async () => {
      const registros = [
        punch(ROSA, '2026-03-09', '08:00:00'),
        punch(LUIS, '2026-03-09', '08:30:00'),
        punch(ROSA, '2026-03-09', '17:00:00'),
        punch(LUIS, '2026-03-09', '17:30:00'),
      ];
      const [a, b] = await Promise.all([db.importar(registros), db.importar(registros)]);
      expect(a.insertados + b.insertados).toBe(4);
      expect(a.duplicados + b.duplicados).toBe(4);
      expect(await db.resumen(LUIS)).toContainEqual({
        fecha_trabajo: '2026-03-09',
        minutos: 540,
        intervalos: 1,
        marcas: 2,
        incompleto: false,
      });
      expect(
        await db.rows(
          `SELECT count(*)::int AS n FROM asistencia_intervalo WHERE fecha_trabajo = '2026-03-09'`,
        ),
      ).toEqual([{ n: 2 }]);
    });

    it('lists every problem of one record, and treats a non-array as no records', async () => {
      expect(
        (await db.importar([{ doc: ' ', fecha: '05/03/2026', hora: 'ocho', modo: 3 }])).invalidos,
      ).toEqual([
        {
          indice: 0,
          motivo:
            'falta doc; fecha inválida "05/03/2026" (se espera AAAA-MM-DD); ' +
            'hora inválida "ocho" (se espera HH:MM:SS o HH:MM); ' +
            'modo inválido 3 (se espera entrada o salida)',
        },
      ]);
      const vacio = {
        recibidos: 0,
        insertados: 0,
        duplicados: 0,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 0,
      };
      expect(await db.importar({ registros: [] })).toEqual(vacio);
      expect(await db.importar(null, null)).toEqual(vacio);
    });
  });

  describe('attendance pairing (asistencia_recalcular through import_asistencia)', () => {
    const db = tenant('pares');

    beforeAll(async () => {
      await dbs.createTenant('pares');
      await seedMenu(dbs, 'pares');
    });

    it('counts punches closer than 60 s to the previous kept one once (raw rows kept)', async () => {
      await db.importar([
        punch(ROSA, '2026-04-01', '08:00:00'),
        punch(ROSA, '2026-04-01', '08:00:40'), // double press
        punch(ROSA, '2026-04-01', '08:01:00'), // 60 s after the kept 08:00:00: not closer, kept
        punch(ROSA, '2026-04-01', '13:00:00'),
        punch(ROSA, '2026-04-01', '13:00:59'), // double press on the way out
      ]);
      expect(await db.intervalos(ROSA)).toEqual([
        {
          fecha_trabajo: '2026-04-01',
          entrada: '2026-04-01 08:00:00',
          salida: '2026-04-01 08:01:00',
          minutos: 1,
          id_raw_entrada: expect.any(String),
          id_raw_salida: expect.any(String),
        },
        {
          fecha_trabajo: '2026-04-01',
          entrada: '2026-04-01 13:00:00',
          salida: null,
          minutos: null,
          id_raw_entrada: expect.any(String),
          id_raw_salida: null,
        },
      ]);
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-01', minutos: 1, intervalos: 2, marcas: 3, incompleto: true },
      ]);
      expect(
        await db.rows(
          `SELECT count(*)::int AS n FROM asistencia_detalle WHERE fecha = '2026-04-01'`,
        ),
      ).toEqual([{ n: 5 }]);
    });

    it('pairs a shift 18:00 -> 01:30 across midnight into one interval of the work day', async () => {
      await db.importar([
        punch(LUIS, '2026-04-03', '18:00:00'),
        punch(LUIS, '2026-04-04', '01:30:00'),
        punch(LUIS, '2026-04-04', '18:05:00'),
        punch(LUIS, '2026-04-05', '04:59:59'), // still the 4th: the cut-off is 05:00
      ]);
      expect(await db.intervalos(LUIS)).toEqual([
        expect.objectContaining({
          fecha_trabajo: '2026-04-03',
          entrada: '2026-04-03 18:00:00',
          salida: '2026-04-04 01:30:00',
          minutos: 450,
        }),
        expect.objectContaining({
          fecha_trabajo: '2026-04-04',
          entrada: '2026-04-04 18:05:00',
          salida: '2026-04-05 04:59:59',
          minutos: 655,
        }),
      ]);
      expect(await db.resumen(LUIS)).toEqual([
        { fecha_trabajo: '2026-04-03', minutos: 450, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-04-04', minutos: 655, intervalos: 1, marcas: 2, incompleto: false },
      ]);
    });

    it('leaves a missing out-punch as an open interval and marks the day incompleto', async () => {
      const db2 = tenant('abierto');
      await dbs.createTenant('abierto');
      await seedMenu(dbs, 'abierto');
      await db2.importar([
        punch(ROSA, '2026-04-06', '08:00:00'),
        punch(ROSA, '2026-04-06', '12:00:00'),
        punch(ROSA, '2026-04-06', '13:00:00'), // back from lunch, never punched out
        punch(ROSA, '2026-04-07', '08:00:00'),
        punch(ROSA, '2026-04-07', '16:00:00'),
      ]);
      expect(await db2.intervalos(ROSA)).toEqual([
        expect.objectContaining({ entrada: '2026-04-06 08:00:00', salida: '2026-04-06 12:00:00' }),
        expect.objectContaining({
          fecha_trabajo: '2026-04-06',
          entrada: '2026-04-06 13:00:00',
          salida: null,
          minutos: null,
          id_raw_salida: null,
        }),
        expect.objectContaining({ entrada: '2026-04-07 08:00:00', salida: '2026-04-07 16:00:00' }),
      ]);
      expect(await db2.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-06', minutos: 240, intervalos: 2, marcas: 3, incompleto: true },
        { fecha_trabajo: '2026-04-07', minutos: 480, intervalos: 1, marcas: 2, incompleto: false },
      ]);
    });

    it('follows modo: two entradas leave the first open, a lone salida pairs with nothing', async () => {
      const db2 = tenant('modo');
      await dbs.createTenant('modo');
      await seedMenu(dbs, 'modo');
      await db2.importar([
        // day 1: entrada, entrada, salida -> [08:00 open], [09:00-17:00]
        punch(ROSA, '2026-04-08', '08:00:00', 'entrada'),
        punch(ROSA, '2026-04-08', '09:00:00', 'entrada'),
        punch(ROSA, '2026-04-08', '17:00:00', 'salida'),
        // day 2: salida with nothing open, then entrada, salida
        punch(ROSA, '2026-04-09', '07:30:00', 'salida'),
        punch(ROSA, '2026-04-09', '08:00:00', 'entrada'),
        punch(ROSA, '2026-04-09', '12:00:00', 'salida'),
        // day 3: modo wins over alternation: salida, salida -> one interval, second salida lone
        punch(ROSA, '2026-04-10', '08:00:00', 'entrada'),
        punch(ROSA, '2026-04-10', '12:00:00', 'salida'),
        punch(ROSA, '2026-04-10', '16:00:00', 'salida'),
      ]);
      expect(
        (await db2.intervalos(ROSA)).map((i) => [i.fecha_trabajo, i.entrada, i.salida]),
      ).toEqual([
        ['2026-04-08', '2026-04-08 08:00:00', null],
        ['2026-04-08', '2026-04-08 09:00:00', '2026-04-08 17:00:00'],
        ['2026-04-09', '2026-04-09 08:00:00', '2026-04-09 12:00:00'],
        ['2026-04-10', '2026-04-10 08:00:00', '2026-04-10 12:00:00'],
      ]);
      expect(await db2.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-08', minutos: 480, intervalos: 2, marcas: 3, incompleto: true },
        { fecha_trabajo: '2026-04-09', minutos: 240, intervalos: 1, marcas: 2, incompleto: true },
        { fecha_trabajo: '2026-04-10', minutos: 240, intervalos: 1, marcas: 2, incompleto: true },
      ]);
    });

    it('reads the cut-off and the duplicate window from parametros', async () => {
      const db2 = tenant('parametros');
      await dbs.createTenant('parametros');
      await seedMenu(dbs, 'parametros');
      expect(await db2.rows('SELECT clave, valor FROM parametros ORDER BY clave')).toEqual([
        { clave: 'asistencia.hora_corte', valor: '05:00' },
        { clave: 'asistencia.ventana_duplicados_seg', valor: '60' },
      ]);
      await db2.rows(
        `UPDATE parametros SET valor = '06:00' WHERE clave = 'asistencia.hora_corte';
         DELETE FROM parametros WHERE clave = 'asistencia.ventana_duplicados_seg';`,
      );
      await db2.importar([
        punch(ROSA, '2026-04-11', '20:00:00'),
        punch(ROSA, '2026-04-12', '05:30:00'), // before 06:00: still the 11th
        punch(ROSA, '2026-04-12', '05:30:30'), // default window (60 s) when the row is absent
      ]);
      expect(await db2.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-04-11', minutos: 570, intervalos: 1, marcas: 2, incompleto: false },
      ]);
      await expect(
        db2.rows(`UPDATE parametros SET valor = '5am' WHERE clave = 'asistencia.hora_corte'`),
      ).rejects.toMatchObject({ code: '23514', constraint: 'ck_parametros_hora_corte' });
    });
  });

  describe('import_asistencia, a whole batch at a time', () => {
    const db = tenant('lotes');
    const ANA = '40000003';

    beforeAll(async () => {
      await dbs.createTenant('lotes');
      await seedMenu(dbs, 'lotes');
      await db.rows(
        `INSERT INTO usuarios (documento, nombre, apellido) VALUES ('${ANA}', 'Ana', 'Flores')`,
      );
    });

    it('pairs every person and work day of a mixed batch, on both sides of the cut-off', async () => {
      const registros = [
        // Rosa, with modo: two intervals; then a double press at 08:00:30
        punch(ROSA, '2026-07-01', '08:00:00', 'entrada'),
        punch(ROSA, '2026-07-01', '12:00:00', 'salida'),
        punch(ROSA, '2026-07-01', '13:00:00', 'entrada'),
        punch(ROSA, '2026-07-01', '17:00:00', 'salida'),
        punch(ROSA, '2026-07-02', '08:00:00', 'entrada'),
        punch(ROSA, '2026-07-02', '08:00:30', 'entrada'),
        punch(ROSA, '2026-07-02', '16:00:00', 'salida'),
        // Luis, no modo, nights: 04:30 and 03:00 belong to the day before, 05:00 does not
        punch(LUIS, '2026-07-01', '22:00:00'),
        punch(LUIS, '2026-07-02', '04:30:00'),
        punch(LUIS, '2026-07-02', '05:00:00'),
        punch(LUIS, '2026-07-02', '13:00:00'),
        punch(LUIS, '2026-07-02', '22:00:00'),
        punch(LUIS, '2026-07-03', '03:00:00'),
        // Ana: a salida with nothing open, then two entradas in a row
        punch(ANA, '2026-07-03', '07:00:00', 'salida'),
        punch(ANA, '2026-07-03', '08:00:00', 'entrada'),
        punch(ANA, '2026-07-03', '09:00:00', 'entrada'),
        punch(ANA, '2026-07-03', '17:00:00', 'salida'),
      ];
      // the clock's order: by time of day, people and days mixed
      registros.sort((a, b) => a.hora.localeCompare(b.hora) || a.doc.localeCompare(b.doc));
      expect(await db.importar(registros)).toEqual({
        recibidos: 17,
        insertados: 17,
        duplicados: 0,
        desconocidos: [],
        invalidos: [],
        dias_recalculados: 5, // Rosa 1st-2nd, Luis 1st-2nd, Ana 3rd
      });
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-07-01', minutos: 480, intervalos: 2, marcas: 4, incompleto: false },
        { fecha_trabajo: '2026-07-02', minutos: 480, intervalos: 1, marcas: 2, incompleto: false },
      ]);
      expect(
        (await db.intervalos(LUIS)).map((i) => [i.fecha_trabajo, i.entrada, i.salida, i.minutos]),
      ).toEqual([
        ['2026-07-01', '2026-07-01 22:00:00', '2026-07-02 04:30:00', 390],
        ['2026-07-02', '2026-07-02 05:00:00', '2026-07-02 13:00:00', 480],
        ['2026-07-02', '2026-07-02 22:00:00', '2026-07-03 03:00:00', 300],
      ]);
      expect(await db.resumen(LUIS)).toEqual([
        { fecha_trabajo: '2026-07-01', minutos: 390, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-07-02', minutos: 780, intervalos: 2, marcas: 4, incompleto: false },
      ]);
      expect((await db.intervalos(ANA)).map((i) => [i.entrada, i.salida, i.minutos])).toEqual([
        ['2026-07-03 08:00:00', null, null],
        ['2026-07-03 09:00:00', '2026-07-03 17:00:00', 480],
      ]);
      expect(await db.resumen(ANA)).toEqual([
        { fecha_trabajo: '2026-07-03', minutos: 480, intervalos: 2, marcas: 3, incompleto: true },
      ]);
    });

    it('a fuller re-import re-pairs each person from the first to the last new punch only', async () => {
      const primero = [
        punch(ROSA, '2026-07-06', '08:00:00', 'entrada'),
        punch(ROSA, '2026-07-08', '08:00:00', 'entrada'),
        punch(ROSA, '2026-07-08', '16:00:00', 'salida'),
      ];
      expect((await db.importar(primero)).dias_recalculados).toBe(2); // the 7th has no punch
      expect(await db.resumen(ROSA)).toContainEqual({
        fecha_trabajo: '2026-07-06',
        minutos: 0,
        intervalos: 1,
        marcas: 1,
        incompleto: true,
      });
      const octavo = `SELECT r.updated_at FROM asistencia_resumen_diario r
                       WHERE r.id_usuario = ${MENU.rosa} AND r.fecha_trabajo = '2026-07-08'`;
      const antes = await db.rows(octavo);

      const completo = [
        ...primero,
        punch(ROSA, '2026-07-06', '16:30:00', 'salida'),
        punch(ROSA, '2026-07-07', '09:00:00', 'entrada'),
        punch(ROSA, '2026-07-07', '13:00:00', 'salida'),
      ];
      expect(await db.importar(completo)).toMatchObject({
        insertados: 3,
        duplicados: 3,
        dias_recalculados: 2, // the 6th and the 7th; the 8th got nothing new
      });
      expect((await db.resumen(ROSA)).filter((r) => r.fecha_trabajo >= '2026-07-06')).toEqual([
        { fecha_trabajo: '2026-07-06', minutos: 510, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-07-07', minutos: 240, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-07-08', minutos: 480, intervalos: 1, marcas: 2, incompleto: false },
      ]);
      expect(await db.rows(octavo)).toEqual(antes);
    });

    it('an import of people another import is changing waits for it, then pairs with its punches', async () => {
      const dias = ['2026-07-13', '2026-07-14', '2026-07-15', '2026-07-16', '2026-07-17'];
      const personas = [ROSA, LUIS, ANA];
      const entradas = dias.flatMap((d) => personas.map((p) => punch(p, d, '08:00', 'entrada')));
      const salidas = dias.flatMap((d) => personas.map((p) => punch(p, d, '17:00', 'salida')));
      const primera = new Client({ connectionString: dbs.tenantUrl('lotes') });
      await primera.connect();
      try {
        await primera.query('BEGIN');
        await primera.query('SELECT import_asistencia($1::jsonb, $2)', [
          JSON.stringify(entradas),
          'entradas.dat',
        ]);
        const segunda = db.importar(salidas, 'salidas.dat');
        // the second import waits on a lock while the first one's transaction is open
        const esperando = async () =>
          (
            await db.rows<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          )[0].n;
        for (let i = 0; i < 100 && (await esperando()) === 0; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(await esperando()).toBe(1);
        await primera.query('COMMIT');
        expect(await segunda).toMatchObject({ insertados: 15, dias_recalculados: 15 });
      } finally {
        await primera.end();
      }
      // every day paired across both imports: 08:00 entrada -> 17:00 salida
      const resumen = await db.rows(
        `SELECT count(*)::int AS dias, sum(minutos)::int AS minutos,
                count(*) FILTER (WHERE incompleto)::int AS incompletos
           FROM asistencia_resumen_diario WHERE fecha_trabajo BETWEEN '2026-07-13' AND '2026-07-17'`,
      );
      expect(resumen).toEqual([{ dias: 15, minutos: 15 * 540, incompletos: 0 }]);
    });

    it('of a punch repeated in one batch, stores the first record', async () => {
      expect(
        await db.importar([
          punch(ROSA, '2026-07-20', '08:00:00', 'salida'),
          punch(ROSA, '2026-07-20', '08:00', 'entrada'),
          punch(ROSA, '2026-07-20', '12:00:00'),
        ]),
      ).toMatchObject({ insertados: 2, duplicados: 1 });
      expect(
        await db.rows(
          `SELECT hora::text, modo FROM asistencia_detalle
            WHERE id_usuario = ${MENU.rosa} AND fecha = '2026-07-20' ORDER BY hora`,
        ),
      ).toEqual([
        { hora: '08:00:00', modo: 'salida' },
        { hora: '12:00:00', modo: null },
      ]);
      // the salida pairs with nothing; the unmarked 12:00 opens an interval
      expect((await db.resumen(ROSA)).find((r) => r.fecha_trabajo === '2026-07-20')).toEqual({
        fecha_trabajo: '2026-07-20',
        minutos: 0,
        intervalos: 1,
        marcas: 1,
        incompleto: true,
      });
    });
  });

  describe('the set-based import against the record-by-record one it replaced', () => {
    /**
     * The same fixed pseudo-random work (imports of mixed batches, re-imports, edits, deletes,
     * a change of cut-off and duplicate window) on two tenants: one with the functions of
     * migration 1764700000000, one with what its down() restores (the record-by-record
     * functions of 1764200000002). Every result and every stored row must be the same.
     */
    const antes = tenant('por-registro');
    const ahora = tenant('por-lote');
    type Db = typeof ahora;

    beforeAll(async () => {
      for (const slug of ['por-registro', 'por-lote']) {
        await dbs.createTenant(slug);
        await seedMenu(dbs, slug);
        await dbs.query(
          dbs.tenantUrl(slug),
          `INSERT INTO usuarios (documento, nombre)
           SELECT '4100000' || n, 'Persona ' || n FROM generate_series(1, 6) n`,
        );
      }
      const client = new Client({ connectionString: dbs.tenantUrl('por-registro') });
      await client.connect();
      try {
        const runner = { query: (sql: string) => client.query(sql) } as unknown as QueryRunner;
        await new SetBasedAttendanceImport1764700000000().down(runner);
      } finally {
        await client.end();
      }
    });

    /** mulberry32: the same numbers on every run. */
    const aleatorio = (semilla: number) => () => {
      semilla = (semilla + 0x6d2b79f5) | 0;
      let t = Math.imul(semilla ^ (semilla >>> 15), 1 | semilla);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };

    type Paso =
      | { importar: unknown[] }
      | { sql: string }
      | { editar: number; fecha: string; hora: string; modo: string | null }
      | { borrar: number };

    function escenario(): Paso[] {
      const azar = aleatorio(18);
      const entre = (n: number) => Math.floor(azar() * n);
      const uno = <T>(xs: readonly T[]) => xs[entre(xs.length)];
      const dos = (n: number) => String(n).padStart(2, '0');
      const dia = (d: number) => `2026-08-${dos(d + 1)}`;
      const hora = (s: number) =>
        `${dos(Math.floor(s / 3600))}:${dos(Math.floor(s / 60) % 60)}:${dos(s % 60)}`;
      const personas = [ROSA, LUIS, ...[1, 2, 3, 4, 5, 6].map((n) => `4100000${n}`)];
      const previos: Registro[] = [];
      const registro = (desde: number, hasta: number): unknown => {
        const r = azar();
        if (r < 0.03)
          return uno([{ doc: ROSA, fecha: '2026-08-32', hora: '08:00' }, 'x', { doc: LUIS }]);
        if (r < 0.08 && previos.length > 0) return uno(previos); // a punch sent again
        const cerca = r < 0.2 && previos.length > 0 ? uno(previos) : undefined;
        const segundos = cerca
          ? Math.min(
              86399,
              Number(cerca.hora.slice(0, 2)) * 3600 +
                Number(cerca.hora.slice(3, 5)) * 60 +
                Number(cerca.hora.slice(6, 8)) +
                entre(120),
            )
          : azar() < 0.3
            ? entre(7 * 3600)
            : entre(86400); // a third around the cut-off
        const nuevo: Registro = {
          doc: cerca?.doc ?? (r < 0.24 ? '49999999' : uno(personas)),
          fecha: cerca?.fecha ?? dia(desde + entre(hasta - desde + 1)),
          hora: hora(segundos),
        };
        const modo = uno([
          'entrada',
          'salida',
          'entrada',
          'salida',
          undefined,
          undefined,
          ' Salida ',
        ]);
        if (modo) nuevo.modo = modo;
        if (azar() < 0.3) nuevo.device = uno(['ZK-01', 'ZK-02']);
        previos.push(nuevo);
        return nuevo;
      };
      /** A batch; a punch repeated in it is the same record (which copy is stored is moot). */
      const lote = (n: number, desde: number, hasta: number) => {
        const vistos = new Map<string, unknown>();
        return Array.from({ length: n }, () => {
          const r = registro(desde, hasta);
          if (typeof r !== 'object' || r === null || !('hora' in r)) return r;
          const { doc, fecha, hora: h } = r as Registro;
          const clave = `${doc} ${fecha} ${h}`;
          if (!vistos.has(clave)) vistos.set(clave, r);
          return vistos.get(clave);
        });
      };
      const editar = (): Paso =>
        azar() < 0.5
          ? { borrar: azar() }
          : {
              editar: azar(),
              fecha: dia(entre(12)),
              hora: hora(entre(86400)),
              modo: uno(['entrada', 'salida', null]),
            };
      const pasos: Paso[] = [];
      for (let b = 0; b < 6; b += 1)
        pasos.push({ importar: lote(120, b, b + 4) }, editar(), editar());
      const otra = lote(100, 0, 9);
      pasos.push({ importar: otra }, { importar: otra });
      pasos.push({
        sql: `UPDATE parametros SET valor = '06:30' WHERE clave = 'asistencia.hora_corte';
              UPDATE parametros SET valor = '90' WHERE clave = 'asistencia.ventana_duplicados_seg'`,
      });
      for (let b = 0; b < 3; b += 1)
        pasos.push({ importar: lote(150, 2 * b, 2 * b + 6) }, editar());
      pasos.push({
        sql: `SELECT asistencia_recalcular(id_usuario, '2026-08-01', '2026-08-12') FROM usuarios`,
      });
      return pasos;
    }

    async function recorrer(db: Db): Promise<unknown[]> {
      const marca = async (k: number) => {
        const [{ n }] = await db.rows<{ n: number }>(
          'SELECT count(*)::int AS n FROM asistencia_detalle',
        );
        const [{ id }] = await db.rows<{ id: string }>(
          `SELECT d.id_raw AS id FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
            ORDER BY u.documento, d.fecha, d.hora OFFSET $1 LIMIT 1`,
          [Math.floor(k * n)],
        );
        return Number(id);
      };
      // ids are surrogate: the same work may number its rows differently
      const sinId = (r: { id_raw: number }) => ({ ...r, id_raw: undefined });
      const hecho: unknown[] = [];
      for (const paso of escenario()) {
        if ('importar' in paso) hecho.push(await db.importar(paso.importar, 'lote.dat'));
        else if ('sql' in paso) hecho.push(await db.rows(paso.sql));
        else if ('borrar' in paso)
          hecho.push(
            sinId(
              await db.call<{ id_raw: number }>(
                'asistencia_delete_raw($1::bigint)',
                await marca(paso.borrar),
              ),
            ),
          );
        else
          hecho.push(
            await db
              .call<{ id_raw: number }>(
                'asistencia_update_raw($1::bigint, $2::date, $3, $4)',
                await marca(paso.editar),
                paso.fecha,
                paso.hora,
                paso.modo,
              )
              .then(sinId, (error: { code?: string }) => ({ error: error.code })),
          );
      }
      const filas = (sql: string) => db.rows(sql).then((rows) => rows.map((r) => r.fila));
      return [
        hecho,
        await filas(
          `SELECT (u.documento, d.fecha, d.hora, d.modo, d.origen, d.datos - 'editado_en')::text AS fila
             FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
            ORDER BY u.documento, d.fecha, d.hora`,
        ),
        await filas(
          `SELECT (u.documento, i.fecha_trabajo, i.entrada, i.salida, i.minutos,
                   e.fecha + e.hora, s.fecha + s.hora)::text AS fila
             FROM asistencia_intervalo i JOIN usuarios u USING (id_usuario)
             LEFT JOIN asistencia_detalle e ON e.id_raw = i.id_raw_entrada
             LEFT JOIN asistencia_detalle s ON s.id_raw = i.id_raw_salida
            ORDER BY u.documento, i.entrada`,
        ),
        await filas(
          `SELECT (u.documento, r.fecha_trabajo, r.minutos, r.intervalos, r.marcas, r.incompleto)::text AS fila
             FROM asistencia_resumen_diario r JOIN usuarios u USING (id_usuario)
            ORDER BY u.documento, r.fecha_trabajo`,
        ),
      ];
    }

    it('gives the same results and stores the same rows', async () => {
      const [hechoAntes, ...tablasAntes] = await recorrer(antes);
      const [hechoAhora, ...tablasAhora] = await recorrer(ahora);
      expect(hechoAhora).toEqual(hechoAntes);
      expect(tablasAhora).toEqual(tablasAntes);
      // the scenario exercises what it is meant to
      const [marcas, intervalos, resumenes] = tablasAhora as string[][];
      expect(marcas.length).toBeGreaterThan(500);
      expect(intervalos.some((i) => i.includes(',,,'))).toBe(true); // open intervals
      expect(resumenes.some((r) => r.endsWith(',f)'))).toBe(true);
      expect(resumenes.some((r) => r.endsWith(',t)'))).toBe(true);
      expect(JSON.stringify(hechoAhora)).toContain('"desconocidos":["49999999"]');
    });
  });

  describe('asistencia_update_raw and asistencia_delete_raw', () => {
    const db = tenant('editar');

    beforeAll(async () => {
      await dbs.createTenant('editar');
      await seedMenu(dbs, 'editar');
      await db.importar([
        { ...punch(ROSA, '2026-05-04', '08:00:00'), device: 'ZK-01' },
        punch(ROSA, '2026-05-04', '12:00:00'),
        punch(ROSA, '2026-05-04', '13:00:00'),
        punch(ROSA, '2026-05-04', '17:00:00'),
        punch(ROSA, '2026-05-05', '08:00:00'),
        punch(ROSA, '2026-05-05', '16:00:00'),
      ]);
    });

    const update = (id: number, fecha: string, hora: string, modo: string | null = null) =>
      db.call<{ ok: boolean; id_raw: number; dias_recalculados: number }>(
        'asistencia_update_raw($1::bigint, $2::date, $3, $4)',
        id,
        fecha,
        hora,
        modo,
      );
    const remove = (id: number) =>
      db.call<{ ok: boolean; id_raw: number; dias_recalculados: number }>(
        'asistencia_delete_raw($1::bigint)',
        id,
      );

    it('update_raw corrects a punch, keeps the clock reading and re-pairs its day', async () => {
      const id = await db.idRaw(ROSA, '2026-05-04', '08:00:00');
      expect(await update(id, '2026-05-04', '07:30')).toEqual({
        ok: true,
        id_raw: id,
        dias_recalculados: 1,
      });
      const [fila] = await db.rows<{
        hora: string;
        modo: string | null;
        datos: Record<string, unknown>;
      }>('SELECT hora::text, modo, datos FROM asistencia_detalle WHERE id_raw = $1', [id]);
      expect(fila).toEqual({
        hora: '07:30:00',
        modo: null,
        datos: {
          device: 'ZK-01',
          original: { fecha: '2026-05-04', hora: '08:00:00', modo: null },
          editado_en: expect.any(String),
        },
      });
      expect((await db.resumen(ROSA))[0]).toEqual({
        fecha_trabajo: '2026-05-04',
        minutos: 510,
        intervalos: 2,
        marcas: 4,
        incompleto: false,
      });

      // a second edit keeps the first original reading
      await update(id, '2026-05-04', '07:45:00', 'entrada');
      const [otra] = await db.rows<{ datos: { original: unknown } }>(
        'SELECT datos FROM asistencia_detalle WHERE id_raw = $1',
        [id],
      );
      expect(otra.datos.original).toEqual({ fecha: '2026-05-04', hora: '08:00:00', modo: null });
    });

    it('update_raw moving a punch to another work day re-pairs both days', async () => {
      const id = await db.idRaw(ROSA, '2026-05-04', '17:00:00');
      // the 17:00 punch of the 4th really was the out-punch of the 5th's shift, at 01:00 on the
      // 6th: the 4th loses its out-punch, the 5th gains an unpaired salida
      expect(await update(id, '2026-05-06', '01:00:00', 'salida')).toEqual({
        ok: true,
        id_raw: id,
        dias_recalculados: 2,
      });
      expect(await db.resumen(ROSA)).toEqual([
        { fecha_trabajo: '2026-05-04', minutos: 255, intervalos: 2, marcas: 3, incompleto: true },
        { fecha_trabajo: '2026-05-05', minutos: 480, intervalos: 1, marcas: 2, incompleto: true },
      ]);
      expect(
        (await db.intervalos(ROSA))
          .filter((i) => i.fecha_trabajo === '2026-05-05')
          .map((i) => [i.entrada, i.salida]),
      ).toEqual([['2026-05-05 08:00:00', '2026-05-05 16:00:00']]);
    });

    it('update_raw refuses bad input and unknown punches', async () => {
      const id = await db.idRaw(ROSA, '2026-05-05', '08:00:00');
      await expect(update(id, '2026-05-05', '8h')).rejects.toMatchObject({ code: '22023' });
      await expect(update(id, '2026-05-05', '08:00', 'in')).rejects.toMatchObject({
        code: '22023',
      });
      await expect(update(id, '2026-05-05', '16:00:00')).rejects.toMatchObject({
        code: '23505',
        constraint: 'uq_asistencia_detalle_marca',
      });
      await expect(update(987654, '2026-05-05', '08:00')).rejects.toMatchObject({
        code: 'P0002',
        message: 'marca 987654 no existe',
      });
    });

    it('delete_raw removes a punch and re-pairs its work day', async () => {
      const id = await db.idRaw(ROSA, '2026-05-05', '16:00:00');
      expect(await remove(id)).toEqual({ ok: true, id_raw: id, dias_recalculados: 1 });
      expect(await db.rows('SELECT 1 FROM asistencia_detalle WHERE id_raw = $1', [id])).toEqual([]);
      // 08:00 (no modo) and the moved 01:00 salida of the next night
      expect(
        (await db.intervalos(ROSA))
          .filter((i) => i.fecha_trabajo === '2026-05-05')
          .map((i) => [i.entrada, i.salida, i.minutos]),
      ).toEqual([['2026-05-05 08:00:00', '2026-05-06 01:00:00', 1020]]);

      // deleting the last punch of a day removes its summary
      const ultimo = await db.idRaw(ROSA, '2026-05-05', '08:00:00');
      const fin = await db.idRaw(ROSA, '2026-05-06', '01:00:00');
      await remove(ultimo);
      expect(await remove(fin)).toEqual({ ok: true, id_raw: fin, dias_recalculados: 1 });
      expect((await db.resumen(ROSA)).map((r) => r.fecha_trabajo)).toEqual(['2026-05-04']);
      await expect(remove(fin)).rejects.toMatchObject({
        code: 'P0002',
        message: `marca ${fin} no existe`,
      });
    });
  });

  describe('asistencia_get and report_asistencia', () => {
    const db = tenant('consulta');

    beforeAll(async () => {
      await dbs.createTenant('consulta');
      await seedMenu(dbs, 'consulta');
      await db.rows(
        `INSERT INTO usuarios (documento, nombre, apellido) VALUES ('40000003', 'Ana', 'Flores')`,
      );
      await db.importar(
        [
          { ...punch(ROSA, '2026-06-01', '18:00:00', 'entrada'), device: 'ZK-02' },
          punch(ROSA, '2026-06-02', '01:30:00', 'salida'),
          punch(ROSA, '2026-06-02', '18:00:00', 'entrada'), // no out-punch
          punch(ROSA, '2026-06-04', '09:00:00'),
          punch(ROSA, '2026-06-04', '10:00:00'),
          punch(LUIS, '2026-06-01', '08:00:00'),
          punch(LUIS, '2026-06-01', '16:00:00'),
          punch('40000003', '2026-05-20', '08:00:00'), // outside the range
          punch('40000003', '2026-05-20', '09:00:00'),
        ],
        'zk-02',
      );
    });

    it('asistencia_get returns the punches, intervals and summaries of the work days', async () => {
      const res = await db.asistencia(ROSA, '2026-06-01', '2026-06-02');
      expect(res.usuario).toEqual({
        id_usuario: MENU.rosa,
        documento: ROSA,
        nombre: 'Rosa',
        apellido: 'Quispe',
      });
      expect(res.marcas).toEqual([
        {
          id_raw: expect.any(Number),
          fecha: '2026-06-01',
          hora: '18:00:00',
          modo: 'entrada',
          origen: 'zk-02',
          datos: { device: 'ZK-02' },
          fecha_trabajo: '2026-06-01',
        },
        expect.objectContaining({
          fecha: '2026-06-02',
          hora: '01:30:00',
          modo: 'salida',
          fecha_trabajo: '2026-06-01',
        }),
        expect.objectContaining({
          fecha: '2026-06-02',
          hora: '18:00:00',
          fecha_trabajo: '2026-06-02',
        }),
      ]);
      expect(res.intervalos).toEqual([
        {
          id_intervalo: expect.any(Number),
          fecha_trabajo: '2026-06-01',
          entrada: '2026-06-01T18:00:00',
          salida: '2026-06-02T01:30:00',
          minutos: 450,
        },
        {
          id_intervalo: expect.any(Number),
          fecha_trabajo: '2026-06-02',
          entrada: '2026-06-02T18:00:00',
          salida: null,
          minutos: null,
        },
      ]);
      expect(res.resumen).toEqual([
        { fecha_trabajo: '2026-06-01', minutos: 450, intervalos: 1, marcas: 2, incompleto: false },
        { fecha_trabajo: '2026-06-02', minutos: 0, intervalos: 1, marcas: 1, incompleto: true },
      ]);

      // one work day: its night-shift out-punch after midnight is included
      const dia = await db.asistencia(ROSA, '2026-06-01', '2026-06-01');
      expect(dia.marcas.map((m) => m.hora)).toEqual(['18:00:00', '01:30:00']);
      expect(dia.resumen).toHaveLength(1);
    });

    it('asistencia_get of an unknown document: usuario null and empty lists', async () => {
      expect(await db.asistencia('12345678', '2026-06-01', '2026-06-30')).toEqual({
        usuario: null,
        marcas: [],
        intervalos: [],
        resumen: [],
      });
      await expect(
        db.call('asistencia_get($1, NULL, $2::date)', ROSA, '2026-06-30'),
      ).rejects.toMatchObject({ code: '22023' });
    });

    it('report_asistencia sums the days per person, ordered by apellido, nombre', async () => {
      expect(
        await db.call('report_asistencia($1::date, $2::date)', '2026-06-01', '2026-06-30'),
      ).toEqual({
        desde: '2026-06-01',
        hasta: '2026-06-30',
        personas: [
          {
            id_usuario: MENU.rosa,
            documento: ROSA,
            nombre: 'Rosa',
            apellido: 'Quispe',
            dias_trabajados: 3,
            minutos: 510,
            dias_incompletos: 1,
          },
          {
            id_usuario: MENU.luis,
            documento: LUIS,
            nombre: 'Luis',
            apellido: 'Rojas',
            dias_trabajados: 1,
            minutos: 480,
            dias_incompletos: 0,
          },
        ],
      });
      expect(
        await db.call('report_asistencia($1::date, $2::date)', '2026-07-01', '2026-07-31'),
      ).toEqual({ desde: '2026-07-01', hasta: '2026-07-31', personas: [] });
    });

    it('tenant A cannot see tenant B: another tenant has none of these punches', async () => {
      const otro = tenant('vecino');
      await dbs.createTenant('vecino');
      await seedMenu(dbs, 'vecino');
      expect(await otro.asistencia(ROSA, '2026-06-01', '2026-06-30')).toMatchObject({
        usuario: { documento: ROSA },
        marcas: [],
        intervalos: [],
        resumen: [],
      });
      expect(
        await otro.call('report_asistencia($1::date, $2::date)', '2026-06-01', '2026-06-30'),
      ).toMatchObject({ personas: [] });
    });
  });
});
