import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { isSecret, newSecret, signature, signatureHeader } from './webhook-signature';

const BODY = JSON.stringify({ type: 'comanda.closed', data: { id: 42, total: '58.50' } });
const MSG_ID = 'msg_2xKq7Wn4';

function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** What a receiver does with the reference library (it refuses timestamps 5 minutes off). */
function verifies(secret: string, msgId: string, timestamp: number, header: string, body = BODY) {
  const headers = {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': header,
  };
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

describe('webhook secrets', () => {
  it('makes whsec_ secrets of 32 random bytes, each one new', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(isSecret(secret)).toBe(true);
    expect(newSecret()).not.toBe(secret);
  });

  it('accepts keys of 24 to 64 bytes in canonical base64 after whsec_, and nothing else', () => {
    const key = (bytes: number) => Buffer.alloc(bytes, 0xa7).toString('base64');
    expect(isSecret(`whsec_${key(24)}`)).toBe(true);
    expect(isSecret(`whsec_${key(64)}`)).toBe(true);
    expect(isSecret(`whsec_${key(23)}`)).toBe(false);
    expect(isSecret(`whsec_${key(65)}`)).toBe(false);
    // the wrong prefix, or none
    expect(isSecret(`whsk_${key(32)}`)).toBe(false);
    expect(isSecret(`WHSEC_${key(32)}`)).toBe(false);
    expect(isSecret(key(32))).toBe(false);
    // not base64: URL-safe letters, missing padding, spaces, nothing at all
    const withSigns = Buffer.alloc(32, 0xfb).toString('base64'); // '+/v7+/v7...'
    expect(isSecret(`whsec_${withSigns}`)).toBe(true);
    expect(isSecret(`whsec_${withSigns.replace(/\+/g, '-').replace(/\//g, '_')}`)).toBe(false);
    expect(isSecret(`whsec_${key(32).replace(/=+$/, '')}`)).toBe(false);
    expect(isSecret(`whsec_ ${key(32)}`)).toBe(false);
    expect(isSecret('whsec_')).toBe(false);
  });

  it('refuses to sign with something that is not a secret, without quoting it', () => {
    expect(() => signature('sk_live_notasecret', MSG_ID, now(), BODY)).toThrow(TypeError);
    expect(() => signature('sk_live_notasecret', MSG_ID, now(), BODY)).not.toThrow(/notasecret/);
    expect(() => signature(newSecret(), MSG_ID, 1.5, BODY)).toThrow(RangeError);
    expect(() => signatureHeader([], MSG_ID, now(), BODY)).toThrow(RangeError);
  });
});

describe('webhook signatures, checked with the standardwebhooks library', () => {
  it('signs a message the reference library verifies', () => {
    const secret = newSecret();
    const ts = now();
    const header = signatureHeader([secret], MSG_ID, ts, BODY);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifies(secret, MSG_ID, ts, header)).toBe(true);
    // the library's own signature is the same text
    expect(new Webhook(secret).sign(MSG_ID, new Date(ts * 1000), BODY)).toBe(header);
  });

  it('carries both signatures during a rotation: either secret alone verifies', () => {
    const previous = newSecret();
    const next = newSecret();
    const ts = now();
    const header = signatureHeader([previous, next], MSG_ID, ts, BODY);
    expect(header.split(' ')).toEqual([
      signature(previous, MSG_ID, ts, BODY),
      signature(next, MSG_ID, ts, BODY),
    ]);
    expect(verifies(previous, MSG_ID, ts, header)).toBe(true);
    expect(verifies(next, MSG_ID, ts, header)).toBe(true);
    expect(verifies(newSecret(), MSG_ID, ts, header)).toBe(false);
  });

  it('fails when the body, the id or the timestamp changed', () => {
    const secret = newSecret();
    const ts = now();
    const header = signatureHeader([secret], MSG_ID, ts, BODY);
    expect(verifies(secret, MSG_ID, ts, header, BODY.replace('58.50', '5.85'))).toBe(false);
    expect(verifies(secret, 'msg_2xKq7Wn5', ts, header)).toBe(false);
    expect(verifies(secret, MSG_ID, ts - 1, header)).toBe(false);
    expect(verifies(secret, MSG_ID, ts + 1, header)).toBe(false);
  });

  it('signs non-ASCII bodies as UTF-8, as the library does', () => {
    const secret = newSecret();
    const ts = now();
    const body = JSON.stringify({ item: 'ají de gallina', note: 'sin picante 🌶' });
    expect(verifies(secret, MSG_ID, ts, signature(secret, MSG_ID, ts, body), body)).toBe(true);
  });
});

describe('webhook signatures, known values', () => {
  it('matches an HMAC-SHA256 computed here of id.timestamp.body with the decoded key', () => {
    const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key)
      .update(Buffer.from(`msg_1.1700000000.{"a":1}`, 'utf8'))
      .digest('base64');
    expect(signature(secret, 'msg_1', 1700000000, '{"a":1}')).toBe(`v1,${expected}`);
  });

  it('matches the example the Standard Webhooks reference libraries test against', () => {
    expect(
      signature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
