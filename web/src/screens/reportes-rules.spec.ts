import {
  enCurso,
  horasVisibles,
  agrupacionTiempo,
  archivoCsv,
  celdaLabel,
  celdaSemanal,
  ejeLabel,
  ejeTiempo,
  etiquetaCorta,
  hayVentas,
  horaLabel,
  intensidad,
  isoDow,
  presetDe,
  PRESETS,
  problemaDeRango,
  rangoDe,
  topPorVentaBruta,
  valorLabel,
} from './reportes-rules';

describe('reportes rules', () => {
  it('knows the ISO day of the week', () => {
    expect(isoDow('2026-11-23')).toBe(1); // a Monday
    expect(isoDow('2026-11-28')).toBe(6);
    expect(isoDow('2026-11-29')).toBe(7);
  });

  it("gives each preset's period up to the tenant's today", () => {
    // a Saturday
    expect(rangoDe('hoy', '2026-11-28')).toEqual({ desde: '2026-11-28', hasta: '2026-11-28' });
    expect(rangoDe('semana', '2026-11-28')).toEqual({ desde: '2026-11-23', hasta: '2026-11-28' });
    expect(rangoDe('mes', '2026-11-28')).toEqual({ desde: '2026-11-01', hasta: '2026-11-28' });
    expect(rangoDe('doce_meses', '2026-11-28')).toEqual({
      desde: '2025-12-01',
      hasta: '2026-11-28',
    });
  });

  it('starts the week on Monday, also across a month and a year', () => {
    expect(rangoDe('semana', '2026-11-23')).toEqual({ desde: '2026-11-23', hasta: '2026-11-23' });
    expect(rangoDe('semana', '2026-11-29')).toEqual({ desde: '2026-11-23', hasta: '2026-11-29' });
    expect(rangoDe('semana', '2027-01-02')).toEqual({ desde: '2026-12-28', hasta: '2027-01-02' });
  });

  it('counts twelve calendar months back across the year', () => {
    expect(rangoDe('doce_meses', '2026-01-15').desde).toBe('2025-02-01');
    expect(rangoDe('doce_meses', '2026-12-31').desde).toBe('2026-01-01');
    expect(rangoDe('mes', '2026-03-01')).toEqual({ desde: '2026-03-01', hasta: '2026-03-01' });
  });

  it('finds the preset of a period, if any', () => {
    const today = '2026-11-28';
    for (const { preset } of PRESETS) expect(presetDe(rangoDe(preset, today), today)).toBe(preset);
    expect(presetDe({ desde: '2026-11-02', hasta: '2026-11-28' }, today)).toBeNull();
    // on the 1st, this month is today: the one chosen, else the first preset that matches
    expect(presetDe({ desde: '2026-11-01', hasta: '2026-11-01' }, '2026-11-01')).toBe('hoy');
    expect(presetDe({ desde: '2026-11-01', hasta: '2026-11-01' }, '2026-11-01', 'mes')).toBe('mes');
    expect(presetDe({ desde: '2026-11-30', hasta: '2026-11-30' }, '2026-11-30', 'semana')).toBe(
      'semana',
    );
    expect(presetDe({ desde: '2026-11-01', hasta: '2026-11-01' }, '2026-11-01', 'semana')).toBe(
      'hoy',
    );
  });

  it('refuses dates that are not a period', () => {
    expect(problemaDeRango({ desde: '2026-11-01', hasta: '2026-11-30' })).toBeNull();
    expect(problemaDeRango({ desde: '2026-11-01', hasta: '2026-11-01' })).toBeNull();
    expect(problemaDeRango({ desde: '', hasta: '2026-11-30' })).toBe(
      'Indique las fechas desde y hasta',
    );
    expect(problemaDeRango({ desde: '2026-02-30', hasta: '2026-03-01' })).toBe(
      'Indique las fechas desde y hasta',
    );
    expect(problemaDeRango({ desde: '2026-12-01', hasta: '2026-11-30' })).toBe(
      'La fecha desde es posterior a la fecha hasta',
    );
  });

  it('draws one day by hour, up to two months by day, longer periods by week', () => {
    expect(agrupacionTiempo({ desde: '2026-11-28', hasta: '2026-11-28' })).toBe('hora');
    expect(agrupacionTiempo({ desde: '2026-11-27', hasta: '2026-11-28' })).toBe('dia');
    expect(agrupacionTiempo({ desde: '2026-10-01', hasta: '2026-11-30' })).toBe('dia'); // 61 days
    expect(agrupacionTiempo({ desde: '2026-10-01', hasta: '2026-12-01' })).toBe('dia'); // 62
    expect(agrupacionTiempo({ desde: '2026-10-01', hasta: '2026-12-02' })).toBe('semana');
    expect(agrupacionTiempo(rangoDe('doce_meses', '2026-11-28'))).toBe('semana');
  });

  it('keeps the ten products that sold most, largest first, ties in the API order', () => {
    const filas = Array.from({ length: 14 }, (_, i) => ({
      clave: String(i),
      venta_bruta: [5, 80, 12, 80, 0, 33, 7, 1, 90, 2, 45, 3, 60, 4][i],
    }));
    const top = topPorVentaBruta(filas);
    expect(top.map((f) => f.clave)).toEqual(['8', '1', '3', '12', '10', '5', '2', '6', '0', '13']);
    expect(topPorVentaBruta(filas, 3).map((f) => f.venta_bruta)).toEqual([90, 80, 80]);
    // nothing sold is no bar
    expect(topPorVentaBruta([{ venta_bruta: 0 }])).toEqual([]);
  });

  it('reads the heat map cells of agrupar=dia_semana_hora', () => {
    expect(celdaSemanal('1-0')).toEqual({ dia: 1, hora: 0 });
    expect(celdaSemanal('7-23')).toEqual({ dia: 7, hora: 23 });
    expect(celdaSemanal('0-5')).toBeNull();
    expect(celdaSemanal('3-24')).toBeNull();
    expect(celdaSemanal('x')).toBeNull();
    expect(celdaLabel('5-13')).toBe('viernes 13:00');
    expect(horaLabel('9')).toBe('09:00');
    expect(intensidad(50, 200)).toBe(0.25);
    expect(intensidad(0, 0)).toBe(0);
    expect(intensidad(10, 0)).toBe(0);
  });

  it('writes figures and axis ticks as the page writes money (es-PE)', () => {
    expect(valorLabel(1234.5, 'soles')).toBe('S/ 1,234.50');
    expect(valorLabel(0, 'soles')).toBe('S/ 0.00');
    expect(valorLabel(28.4, 'porcentaje')).toBe('28.40 %');
    expect(valorLabel(162.5, 'horas')).toBe('162.5 h');
    expect(valorLabel(8, 'horas')).toBe('8.0 h');
    expect(valorLabel(null, 'porcentaje')).toBe('—');
    expect(ejeLabel(12500, 'soles')).toBe('S/ 12,500');
    expect(ejeLabel(30, 'porcentaje')).toBe('30 %');
    expect(ejeLabel(40, 'horas')).toBe('40 h');
  });

  it('writes the time buckets short on the axis', () => {
    expect(ejeTiempo('2026-11-03', 'dia')).toBe('03/11');
    expect(ejeTiempo('2026-11-02', 'semana')).toBe('02/11');
    expect(ejeTiempo('2026-09', 'mes')).toEqual(['set', '26']);
    expect(ejeTiempo('9', 'hora')).toBe('09:00');
    expect(ejeTiempo('x', 'mes')).toBe('x');
  });

  it('shortens a long name on an axis to two lines, whole words', () => {
    expect(etiquetaCorta('Ceviche clásico')).toBe('Ceviche clásico');
    expect(etiquetaCorta('Chicha morada (jarra 1 l)')).toBe('Chicha morada (jarra 1 l)');
    expect(etiquetaCorta('Chicharrón de pescado con yuca frita y salsa criolla', 22)).toEqual([
      'Chicharrón de pescado',
      'con yuca frita y salsa…',
    ]);
    expect(etiquetaCorta('María Fernanda   Huamán')).toBe('María Fernanda Huamán');
    expect(etiquetaCorta('Supercalifragilisticoexpialidoso', 22)).toEqual([
      'Supercalifragilistico…',
    ]);
  });

  it('says when there is nothing to draw and names the CSV files', () => {
    expect(hayVentas({ totales: { comandas: 0 } })).toBe(false);
    expect(hayVentas({ totales: { comandas: 3 } })).toBe(true);
    expect(archivoCsv('ventas-producto', { desde: '2026-11-01', hasta: '2026-11-30' })).toBe(
      'reporte-ventas-producto_2026-11-01_2026-11-30.csv',
    );
  });

  it('shows the heat map from the hour before the first sale to the hour after the last', () => {
    expect(horasVisibles([12, 13, 21, 23])).toEqual([
      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
    ]);
    expect(horasVisibles([0, 5])).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(horasVisibles([14])).toEqual([13, 14, 15]);
    // nothing sold: the whole day
    expect(horasVisibles([])).toHaveLength(24);
  });

  it('marks today and this week as still going on, and nothing before them', () => {
    expect(enCurso('2026-11-28', 'dia', '2026-11-28')).toBe(true);
    expect(enCurso('2026-11-27', 'dia', '2026-11-28')).toBe(false);
    // the week of Monday the 23rd runs to Sunday the 29th
    expect(enCurso('2026-11-23', 'semana', '2026-11-28')).toBe(true);
    expect(enCurso('2026-11-23', 'semana', '2026-11-29')).toBe(true);
    expect(enCurso('2026-11-23', 'semana', '2026-11-30')).toBe(false);
    expect(enCurso('13', 'hora', '2026-11-28')).toBe(false);
  });
});
