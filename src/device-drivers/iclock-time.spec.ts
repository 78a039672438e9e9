import { pushTimeZone, serverTimeLine, utcOffsetMinutes } from './iclock-time';

describe('push handshake TimeZone', () => {
  it.each([
    [-300, -5],
    [0, 0],
    [60, 1],
    [-720, -12],
    [720, 12],
    [330, 330], // UTC+05:30, India
    [-210, -210], // UTC-03:30, Newfoundland standard time
    [345, 345], // UTC+05:45, Nepal
    [570, 570], // UTC+09:30, Adelaide standard time
    [780, 780], // UTC+13:00: whole hours, but outside -12..12
    [840, 840], // UTC+14:00, Kiribati
    [-660, -11],
  ])('writes an offset of %i minutes as %i', (minutes, expected) => {
    expect(pushTimeZone(minutes)).toBe(expected);
  });

  it('never writes -0', () => {
    expect(Object.is(pushTimeZone(-0), 0)).toBe(true);
  });

  it.each([
    ['Asia/Kolkata', new Date('2026-03-01T12:00:00Z'), 330],
    ['America/Lima', new Date('2026-03-01T12:00:00Z'), -5],
    ['Asia/Kathmandu', new Date('2026-03-01T12:00:00Z'), 345],
    ['America/St_Johns', new Date('2026-01-15T12:00:00Z'), -210], // standard time
    ['America/St_Johns', new Date('2026-07-15T12:00:00Z'), -150], // daylight time: -2:30
    ['Australia/Adelaide', new Date('2026-07-15T12:00:00Z'), 570], // standard time
    ['Pacific/Tongatapu', new Date('2026-07-15T12:00:00Z'), 780],
    ['UTC', new Date('2026-07-15T12:00:00Z'), 0],
    ['Europe/Madrid', new Date('2026-07-15T12:00:00Z'), 2],
  ])('for %s at %s it is %i', (zone, now, expected) => {
    expect(pushTimeZone(utcOffsetMinutes(zone, now))).toBe(expected);
  });
});

describe('server time (cdata?type=time)', () => {
  it('is the local time of the zone, ISO 8601 with its offset', () => {
    const now = new Date('2026-11-23T19:05:09.750Z');
    expect(serverTimeLine('America/Lima', now)).toBe('Time=2026-11-23T14:05:09-05:00');
    expect(serverTimeLine('Asia/Kolkata', now)).toBe('Time=2026-11-24T00:35:09+05:30');
    expect(serverTimeLine('UTC', now)).toBe('Time=2026-11-23T19:05:09+00:00');
  });
});
