import { MENU, seedMenu } from '../../support/fixtures';
import { TestDatabases } from '../../support/test-databases';
import { LUIS, ROSA, punch, tenantSql } from '../support/tenant-sql';

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
