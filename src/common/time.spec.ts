import { addDays, currentYearIn, formatInstant, isBusinessDate, todayIn } from './time';

describe('formatInstant', () => {
  const instant = new Date('2026-11-22T18:05:09.123Z');

  it.each([
    ['America/Lima', '2026-11-22T13:05:09-05:00'],
    ['UTC', '2026-11-22T18:05:09+00:00'],
    ['Asia/Kolkata', '2026-11-22T23:35:09+05:30'],
    ['Pacific/Kiritimati', '2026-11-23T08:05:09+14:00'],
  ])('writes the instant in %s with its offset', (zone, expected) => {
    expect(formatInstant(instant, zone)).toBe(expected);
    expect(new Date(expected).getTime()).toBe(Math.floor(instant.getTime() / 1000) * 1000);
  });

  it('follows daylight saving time', () => {
    expect(formatInstant(new Date('2026-07-01T12:00:00Z'), 'Europe/Madrid')).toBe(
      '2026-07-01T14:00:00+02:00',
    );
    expect(formatInstant(new Date('2026-01-01T12:00:00Z'), 'Europe/Madrid')).toBe(
      '2026-01-01T13:00:00+01:00',
    );
  });
});

describe('isBusinessDate', () => {
  it.each(['2026-01-31', '2024-02-29', '2000-12-01'])('accepts %s', (value) => {
    expect(isBusinessDate(value)).toBe(true);
  });
  it.each([
    '2026-02-29',
    '2026-13-01',
    '2026-1-1',
    '20260101',
    '2026-01-01T00:00',
    'yesterday',
    '',
  ])('refuses %j', (value) => {
    expect(isBusinessDate(value)).toBe(false);
  });
});

describe('business days in a time zone', () => {
  const newYearUtc = new Date('2027-01-01T03:00:00Z'); // still 2026-12-31 22:00 in Lima

  it('gives today and the current year of the zone, not of UTC', () => {
    expect(todayIn('America/Lima', newYearUtc)).toBe('2026-12-31');
    expect(todayIn('UTC', newYearUtc)).toBe('2027-01-01');
    expect(currentYearIn('America/Lima', newYearUtc)).toBe(2026);
    expect(currentYearIn('UTC', newYearUtc)).toBe(2027);
  });

  it('moves dates across months, years and leap days', () => {
    expect(addDays('2026-03-01', -30)).toBe('2026-01-30');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
