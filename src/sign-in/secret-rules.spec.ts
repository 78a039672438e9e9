import fc from 'fast-check';
import { isTrivialPin, passwordProblem, pinProblem } from './secret-rules';

describe('the rules of sign-in secrets', () => {
  it('refuses the PINs anyone tries first', () => {
    for (const pin of ['0000', '1111', '1234', '4321', '9876', '123456', '654321', '012345']) {
      expect(isTrivialPin(pin)).toBe(true);
    }
    for (const pin of ['1212', '123123', '909090', '2580', '6969']) {
      expect(isTrivialPin(pin)).toBe(true);
    }
    for (const pin of ['4827', '3951', '51730', '284613']) {
      expect(pinProblem(pin)).toBeUndefined();
    }
  });

  it('takes 4 to 6 digits and nothing else', () => {
    expect(pinProblem('482')).toBe('pin must be 4 to 6 digits');
    expect(pinProblem('4827153')).toBe('pin must be 4 to 6 digits');
    expect(pinProblem('48 27')).toBe('pin must be 4 to 6 digits');
    expect(pinProblem('４８２７')).toBe('pin must be 4 to 6 digits');
  });

  it('refuses every PIN of one digit repeated and every straight run, whatever its length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 4, max: 6 }), (d, n) => {
        expect(isTrivialPin(String(d).repeat(n))).toBe(true);
        const start = Math.min(d, 10 - n);
        const up = Array.from({ length: n }, (_, i) => start + i).join('');
        expect(isTrivialPin(up)).toBe(true);
        expect(isTrivialPin([...up].reverse().join(''))).toBe(true);
      }),
    );
  });

  it('asks passwords for 10 characters at least', () => {
    expect(passwordProblem('corto123')).toBe('password must be at least 10 characters long');
    expect(passwordProblem('aaaaaaaaaaaa')).toBe('password must not be one character repeated');
    expect(passwordProblem('ají de gallina')).toBeUndefined();
    expect(passwordProblem('x'.repeat(201))).toBe('password must be at most 200 characters long');
  });
});
