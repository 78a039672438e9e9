import type { Schemas } from '../api';
import { addDays } from '../dates';
import {
  accountsForAll,
  dayRows,
  driverLabel,
  formatBytes,
  formatMinutes,
  intervalText,
  MAX_LISTED_DAYS,
  percent,
  personName,
  queryProblem,
  totals,
  whyNotSelectable,
} from './attendance-format';

type Driver = Schemas['DriverDto'];
type ImportSummary = Schemas['ImportSummaryDto'];
type ResumenDia = Schemas['AsistenciaResumenDiaDto'];
type Intervalo = Schemas['AsistenciaIntervaloDto'];

const driver = (over: Partial<Driver>): Driver => ({
  name: 'zkteco-attlog',
  source: 'builtin',
  manifest: { vendor: 'ZKTeco', model: 'USB export', transport: 'file', version: '1.0.0' },
  importable: true,
  warnings: [],
  ...over,
});

describe('drivers', () => {
  it('lets only importable file drivers take an upload', () => {
    expect(whyNotSelectable(driver({}))).toBeNull();
    expect(whyNotSelectable(driver({ importable: false }))).toBe('no puede importar');
    expect(
      whyNotSelectable(
        driver({
          importable: false,
          manifest: { vendor: 'ZKTeco', model: 'push', transport: 'http', version: '1' },
        }),
      ),
    ).toBe('no lee archivos (http)');
  });

  it('names a driver with its vendor and model', () => {
    expect(driverLabel(driver({}))).toBe('zkteco-attlog — ZKTeco USB export');
    expect(driverLabel(driver({ manifest: {} }))).toBe('zkteco-attlog');
  });
});

describe('import summary', () => {
  const summary: ImportSummary = {
    driver: 'zkteco-attlog',
    origen: 'attlog.dat',
    read: 6,
    punches: 5,
    inserted: 4,
    duplicates: 0,
    unknownDocuments: ['99999999'],
    unknownDocumentPunches: 1,
    badLineCount: 1,
    badLines: [{ line: 7, reason: 'no datetime (column 2)' }],
    daysRecalculated: 2,
  };

  it('checks that nothing was lost', () => {
    expect(accountsForAll(summary)).toBe(true);
    expect(accountsForAll({ ...summary, read: 7 })).toBe(false);
  });

  it('turns upload progress into a percentage', () => {
    expect(percent(0, 200)).toBe(0);
    expect(percent(50, 200)).toBe(25);
    expect(percent(199, 200)).toBe(99);
    expect(percent(300, 200)).toBe(100);
    expect(percent(10, 0)).toBeNull();
  });

  it('writes sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1,5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5,0 MB');
  });
});

describe('queries', () => {
  it('checks a range before sending it', () => {
    expect(queryProblem('', '2026-06-02')).toBe('Indique las fechas desde y hasta');
    expect(queryProblem('2026-06-03', '2026-06-02')).toBe(
      'La fecha desde es posterior a la fecha hasta',
    );
    expect(queryProblem('2026-06-01', '2026-06-01')).toBeNull();
  });

  it('names a person by surname first, as the staff list is ordered', () => {
    expect(personName({ nombre: 'Rosa', apellido: 'Quispe' })).toBe('Quispe, Rosa');
    expect(personName({ nombre: 'Rosa', apellido: null })).toBe('Rosa');
  });
});

describe('daily summary', () => {
  const resumen: ResumenDia[] = [
    { fecha_trabajo: '2026-06-01', minutos: 450, intervalos: 1, marcas: 2, incompleto: false },
    { fecha_trabajo: '2026-06-03', minutos: 0, intervalos: 1, marcas: 1, incompleto: true },
  ];
  const intervalos: Intervalo[] = [
    {
      id_intervalo: 1,
      fecha_trabajo: '2026-06-01',
      entrada: '2026-06-01T18:00:00',
      salida: '2026-06-02T01:30:00',
      minutos: 450,
    },
    {
      id_intervalo: 2,
      fecha_trabajo: '2026-06-03',
      entrada: '2026-06-03T08:00:00',
      salida: null,
      minutos: null,
    },
  ];

  it('writes minutes as hours', () => {
    expect(formatMinutes(450)).toBe('7 h 30 min');
    expect(formatMinutes(60)).toBe('1 h');
    expect(formatMinutes(5)).toBe('5 min');
    expect(formatMinutes(0)).toBe('0 min');
    expect(formatMinutes(null)).toBe('—');
  });

  it('writes intervals, a night shift and an open one', () => {
    expect(intervalText(intervalos[0])).toBe('18:00 – 01:30 (+1)');
    expect(intervalText(intervalos[1])).toBe('08:00 – sin salida');
  });

  it('lists every day of a short range, in order', () => {
    const rows = dayRows('2026-06-01', '2026-06-04', resumen, intervalos);
    expect(rows.map((r) => r.fecha)).toEqual([
      '2026-06-01',
      '2026-06-02',
      '2026-06-03',
      '2026-06-04',
    ]);
    expect(rows[0].resumen?.minutos).toBe(450);
    expect(rows[0].intervalos).toHaveLength(1);
    expect(rows[1].resumen).toBeNull();
    expect(rows[2].resumen?.incompleto).toBe(true);
  });

  it('lists only days with punches over a long range', () => {
    const hasta = addDays('2026-06-01', MAX_LISTED_DAYS + 10);
    expect(dayRows('2026-06-01', hasta, resumen, intervalos).map((r) => r.fecha)).toEqual([
      '2026-06-01',
      '2026-06-03',
    ]);
  });

  it('adds up the days', () => {
    expect(totals(resumen)).toEqual({ diasTrabajados: 2, minutos: 450, diasIncompletos: 1 });
  });
});
