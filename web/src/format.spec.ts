import { cantidad, duracion, hora, minutesSince, plural, sameDay, soles, when } from './format';

describe('format', () => {
  it('writes money as soles with two decimals and thousands', () => {
    expect(soles(84)).toBe('S/ 84.00');
    expect(soles(1234.5)).toBe('S/ 1,234.50');
  });

  it('reads the time of an instant in the offset the API sent it with', () => {
    expect(when('2026-11-23T13:05:09-05:00')).toBe('23/11/26 13:05');
    expect(when(null)).toBe('—');
    expect(hora('2026-11-23T21:40:00-05:00')).toBe('21:40');
    expect(sameDay('2026-11-23T21:40:00-05:00', '2026-11-23T09:00:00-05:00')).toBe(true);
    expect(sameDay('2026-11-23T21:40:00-05:00', '2026-11-24T00:10:00-05:00')).toBe(false);
  });

  it('writes quantities without useless decimals', () => {
    expect(cantidad(2)).toBe('2');
    expect(cantidad(0.5)).toBe('0.5');
    expect(cantidad(1.25)).toBe('1.25');
  });

  it('says how long a table has been open, shortly', () => {
    const opened = '2026-11-23T13:05:00-05:00';
    const at = (minutes: number) => Date.parse(opened) + minutes * 60_000;
    expect(duracion(opened, at(0.5))).toBe('recién');
    expect(duracion(opened, at(25))).toBe('25 min');
    expect(duracion(opened, at(65))).toBe('1 h 05');
    expect(duracion(opened, at(27 * 60 + 10))).toBe('1 d 3 h');
    // a clock a little behind the service's never gives a negative time
    expect(duracion(opened, at(-2))).toBe('recién');
    expect(minutesSince(opened, at(-2))).toBe(0);
    expect(minutesSince(opened, at(181.5))).toBe(181);
  });

  it('counts with the right word', () => {
    expect(plural(1, 'comanda', 'comandas')).toBe('1 comanda');
    expect(plural(0, 'comanda', 'comandas')).toBe('0 comandas');
    expect(plural(29271, 'comanda', 'comandas')).toBe('29,271 comandas');
  });
});
