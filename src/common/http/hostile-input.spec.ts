import fc from 'fast-check';
import { hostileValueProblems, jsonNestingExceeds, MAX_JSON_DEPTH } from './hostile-input';

/** The nesting of arrays and objects of a parsed value, walked the simplest way. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonNestingExceeds', () => {
  it('agrees with the depth of the parsed value, for any JSON and any limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        const text = JSON.stringify(value);
        expect(jsonNestingExceeds(bytes(text), max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 500 },
    );
  });

  it('counts no bracket inside a string, escaped quotes included', () => {
    expect(jsonNestingExceeds(bytes(JSON.stringify({ a: '[[[[{{{{' })), 1)).toBe(false);
    expect(jsonNestingExceeds(bytes(JSON.stringify({ a: 'x\\"[[[' })), 1)).toBe(false);
    expect(jsonNestingExceeds(bytes(JSON.stringify(['"', ['\\']])), 1)).toBe(true);
    expect(jsonNestingExceeds(bytes(JSON.stringify({ ñandú: ['☕ [[['] })), 1)).toBe(true);
  });

  it(`stops at the first bracket past ${MAX_JSON_DEPTH}`, () => {
    expect(jsonNestingExceeds(bytes('['.repeat(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonNestingExceeds(bytes('['.repeat(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonNestingExceeds(bytes('['.repeat(5_000_000)))).toBe(true);
  });
});

describe('hostileValueProblems', () => {
  it('names each field with a control character, by its path', () => {
    expect(
      hostileValueProblems({
        nombre: 'a\u0000b',
        items: [{ nota: 'ok' }, { nota: '\u001b[1m' }],
        texto: 'línea\tcon\r\nsaltos',
      }),
    ).toEqual([
      'nombre must not contain control characters (U+0000)',
      'items.1.nota must not contain control characters (U+001B)',
    ]);
  });

  it('refuses every prototype member name as a property, wherever it is', () => {
    for (const key of [
      '__proto__',
      'constructor',
      'toString',
      'valueOf',
      'isPrototypeOf',
      'prototype',
    ]) {
      const body = JSON.parse(`{"a": [{${JSON.stringify(key)}: 1}]}`) as unknown;
      expect(hostileValueProblems(body)).toEqual([`property a.0.${key} should not exist`]);
    }
  });

  it('finds a problem exactly when a string or a name is hostile, and at most 20', () => {
    // eslint-disable-next-line no-control-regex -- the oracle looks for them
    const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
    const prototypeName = (key: string) => key === '__proto__' || key === 'prototype' || key in {};
    // the rule written the simplest way, as the oracle
    const hostile = (value: unknown): boolean => {
      if (typeof value === 'string') return control.test(value);
      if (typeof value !== 'object' || value === null) return false;
      if (Array.isArray(value)) return value.some(hostile);
      return Object.entries(value).some(
        ([key, child]) => control.test(key) || prototypeName(key) || hostile(child),
      );
    };
    const text = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('constructor', 'toString', '__proto__', 'a\u0000', '\t\r\n', 'ñ\u007f'),
    );
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(text, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(values, (value) => {
        const problems = hostileValueProblems(value);
        expect(problems.length > 0).toBe(hostile(value));
        expect(problems.length).toBeLessThanOrEqual(20);
      }),
      { numRuns: 500 },
    );
  });
});
