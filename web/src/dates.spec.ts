import { addDays, dayLabel, daysBetween, isDate, nowIn, todayIn } from './dates';

describe('business days', () => {
  it('gives today and the time in the tenant zone', () => {
    const instant = new Date('2026-06-02T03:00:00Z'); // 22:00 of 1 June in Lima
    expect(todayIn('America/Lima', instant)).toBe('2026-06-01');
    expect(todayIn('UTC', instant)).toBe('2026-06-02');
    expect(nowIn('America/Lima', instant)).toBe('22:00');
    expect(nowIn('UTC', new Date('2026-06-02T00:05:00Z'))).toBe('00:05');
  });

  it('knows calendar dates and moves across months', () => {
    expect(isDate('2026-02-28')).toBe(true);
    expect(isDate('2026-02-30')).toBe(false);
    expect(isDate('2026-2-3')).toBe(false);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-02-27', '2026-03-02')).toBe(3);
  });

  it('names the weekday', () => {
    expect(dayLabel('2026-06-01')).toBe('lun 01/06/2026');
    expect(dayLabel('2026-06-07')).toBe('dom 07/06/2026');
  });
});
