import { fingerprintOf, parseIdempotencyKey, type RequestShape } from './idempotency-key';

describe('parseIdempotencyKey', () => {
  it('takes 1 to 255 visible ASCII characters, quoted or not', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(parseIdempotencyKey('"abc"')).toBe('abc');
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
    expect(parseIdempotencyKey('!~')).toBe('!~');
  });

  it.each([
    ['', 'is empty'],
    ['""', 'is empty'],
    ['k'.repeat(256), 'is longer than 255 characters'],
    ['a b', 'has a character that is not visible ASCII'],
    ['clave-ñ', 'has a character that is not visible ASCII'],
    ['a\tb', 'has a character that is not visible ASCII'],
  ])('refuses %j: 400 IDEMPOTENCY_KEY_INVALID (%s)', (raw, reason) => {
    expect(() => parseIdempotencyKey(raw)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'IDEMPOTENCY_KEY_INVALID',
        message: `Idempotency-Key ${reason}`,
      }),
    );
  });

  it('refuses a key sent twice', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(
      expect.objectContaining({ code: 'IDEMPOTENCY_KEY_INVALID' }),
    );
  });
});

describe('fingerprintOf', () => {
  const base: RequestShape = {
    method: 'POST',
    route: '/api/v1/comandas/:id/items',
    params: { id: '7' },
    query: {},
    body: { id_producto: 3, cantidad: 2, nota: 'sin ají' },
  };

  it('is the same for the same request whatever the key order', () => {
    const reordered = { ...base, body: { nota: 'sin ají', cantidad: 2, id_producto: 3 } };
    expect(fingerprintOf(reordered)).toBe(fingerprintOf(base));
    expect(fingerprintOf(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['another body value', { body: { id_producto: 3, cantidad: 3, nota: 'sin ají' } }],
    ['another field', { body: { id_producto: 3, cantidad: 2 } }],
    ['another id', { params: { id: '8' } }],
    ['another route', { route: '/api/v1/comandas/:id/split' }],
    ['another method', { method: 'PUT' }],
    ['another query', { query: { motivo: 'x' } }],
    ['a string for a number', { body: { id_producto: '3', cantidad: 2, nota: 'sin ají' } }],
  ])('differs for %s', (_, change) => {
    expect(fingerprintOf({ ...base, ...change })).not.toBe(fingerprintOf(base));
  });
});
