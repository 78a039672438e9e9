import {
  addDays,
  currentYearIn,
  formatInstant,
  formatInstantIntl,
  isBusinessDate,
  todayIn,
} from './time';

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

describe('formatInstant (fast path) agrees with Intl', () => {
  const zones = [
    'America/Lima',
    'UTC',
    'Europe/Madrid',
    'America/Santiago', // DST in the southern hemisphere
    'America/Sao_Paulo', // DST abolished in 2019
    'Australia/Lord_Howe', // 30-minute DST
    'Asia/Kathmandu', // +05:45
    'America/St_Johns', // -03:30 / -02:30
    'Pacific/Apia', // skipped a whole day in 2011
  ];

  it.each(zones)('for every quarter of an hour around the transitions of %s', (zone) => {
    // every 7 minutes of four days around European and southern transitions: each 15-minute
    // slot, the one holding the change included, gets two instants
    const starts = [
      '2026-03-27T00:00Z',
      '2026-04-03T00:00Z',
      '2026-09-04T00:00Z',
      '2026-10-23T00:00Z',
      '2011-12-28T00:00Z',
    ];
    for (const start of starts) {
      const from = Date.parse(start);
      for (let t = from; t < from + 4 * 86_400_000; t += 7 * 60_000 + 1_001) {
        const instant = new Date(t);
        expect(formatInstant(instant, zone)).toBe(formatInstantIntl(instant, zone));
      }
    }
  });

  it('over a century of random instants', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (const zone of zones) {
      for (let i = 0; i < 1_000; i += 1) {
        const instant = new Date(Date.UTC(1950, 0, 1) + random() * 100 * 365.25 * 86_400_000);
        expect(formatInstant(instant, zone)).toBe(formatInstantIntl(instant, zone));
      }
    }
  });

  it('keeps Intl’s answer for local mean time (offsets with seconds)', () => {
    const lmt = new Date('1890-06-01T12:00:00Z');
    expect(formatInstant(lmt, 'America/Lima')).toBe(formatInstantIntl(lmt, 'America/Lima'));
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
