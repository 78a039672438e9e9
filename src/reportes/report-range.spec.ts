import { BadRequestException } from '@nestjs/common';
import { daysIn, DEFAULT_DESDE, firstOfMonth, resolveRange } from './report-range';

const messages = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { detail: string[] }).detail;
  }
  throw new Error('expected a 400');
};

describe('report ranges', () => {
  it('moves to the first day of a month, across years', () => {
    expect(firstOfMonth('2026-11-17')).toBe('2026-11-01');
    expect(firstOfMonth('2026-11-17', -11)).toBe('2025-12-01');
    expect(firstOfMonth('2026-01-31', -1)).toBe('2025-12-01');
  });

  it('counts both ends', () => {
    expect(daysIn('2026-11-01', '2026-11-01')).toBe(1);
    expect(daysIn('2024-01-01', '2025-12-31')).toBe(731);
    expect(daysIn('2026-03-01', '2026-03-31')).toBe(31);
  });

  it('defaults hasta to today and desde to the report’s default before it', () => {
    expect(resolveRange({}, '2026-11-17', DEFAULT_DESDE.ventas)).toEqual({
      desde: '2026-11-01',
      hasta: '2026-11-17',
    });
    expect(resolveRange({}, '2026-11-17', DEFAULT_DESDE.gastos)).toEqual({
      desde: '2025-12-01',
      hasta: '2026-11-17',
    });
    expect(resolveRange({}, '2026-11-17', DEFAULT_DESDE.asistencia)).toEqual({
      desde: '2026-10-19',
      hasta: '2026-11-17',
    });
    expect(resolveRange({ hasta: '2026-02-10' }, '2026-11-17', DEFAULT_DESDE.ventas)).toEqual({
      desde: '2026-02-01',
      hasta: '2026-02-10',
    });
  });

  it('refuses desde after hasta and a range over 731 days, naming the field', () => {
    expect(
      messages(() => resolveRange({ desde: '2026-11-18' }, '2026-11-17', DEFAULT_DESDE.ventas)),
    ).toEqual([expect.stringMatching(/^desde must not be after hasta/)]);
    expect(
      messages(() =>
        resolveRange(
          { desde: '2024-01-01', hasta: '2026-01-01' },
          '2026-11-17',
          DEFAULT_DESDE.ventas,
        ),
      ),
    ).toEqual([expect.stringMatching(/^hasta must be at most 730 days after desde/)]);
    expect(
      resolveRange(
        { desde: '2024-01-01', hasta: '2025-12-31' },
        '2026-11-17',
        DEFAULT_DESDE.ventas,
      ),
    ).toEqual({ desde: '2024-01-01', hasta: '2025-12-31' });
  });
});
