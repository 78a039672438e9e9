import { formatInstant, isBusinessDate } from './time';

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
