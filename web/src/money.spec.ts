import { soles } from './format';
import { amountText, centimosOf, formatCentimos, parseAmount, toAmount, total } from './money';

describe('money', () => {
  it('reads what people type as whole céntimos', () => {
    expect(parseAmount('64.50')).toBe(6450);
    expect(parseAmount('64.5')).toBe(6450);
    expect(parseAmount('64,5')).toBe(6450);
    expect(parseAmount('64')).toBe(6400);
    expect(parseAmount('64.')).toBe(6400);
    expect(parseAmount('.5')).toBe(50);
    expect(parseAmount('0.10')).toBe(10);
    expect(parseAmount(' S/ 100 ')).toBe(10000);
    expect(parseAmount('S/. 7.05')).toBe(705);
    expect(parseAmount('1,234.50')).toBe(123450);
    expect(parseAmount('1,234,567')).toBe(123456700);
    expect(parseAmount('1 234.50')).toBe(123450);
    expect(parseAmount('0')).toBe(0);
  });

  it('refuses what is not an amount, or is ambiguous', () => {
    for (const text of ['', ' ', '.', 'abc', '-5', '5.005', '1e3', '12.3.4', '1,234', '5 soles'])
      expect({ text, value: parseAmount(text) }).toEqual({ text, value: null });
  });

  it('never goes through floating point: the classic sums come out exact', () => {
    // 0.1 + 0.2 and 64.35 * 100 are not what they seem in floating point
    expect(total([parseAmount('0.10')!, parseAmount('0.20')!])).toBe(30);
    expect(parseAmount('64.35')).toBe(6435);
    expect(parseAmount('1.15')).toBe(115);
    expect(parseAmount('4.35')).toBe(435);
    // a change: 100.00 handed over for 64.35 and a tip of 5.30
    expect(parseAmount('100')! - parseAmount('64.35')! - parseAmount('5.30')!).toBe(3035);
  });

  it('reads the API’s amounts from their two-decimal text', () => {
    expect(centimosOf(64.5)).toBe(6450);
    expect(centimosOf(1.15)).toBe(115);
    expect(centimosOf(4.35)).toBe(435);
    expect(centimosOf(0)).toBe(0);
    expect(centimosOf(-0.05)).toBe(-5);
    expect(centimosOf(1_000_000)).toBe(100_000_000);
  });

  it('writes céntimos back for an input and for the API', () => {
    expect(amountText(6450)).toBe('64.50');
    expect(amountText(5)).toBe('0.05');
    expect(amountText(-5)).toBe('-0.05');
    expect(toAmount(6450)).toBe(64.5);
    expect(toAmount(115)).toBe(1.15);
    expect(JSON.stringify({ monto: toAmount(435) })).toBe('{"monto":4.35}');
  });

  it('shows céntimos as the page shows every amount', () => {
    expect(formatCentimos(6450)).toBe('S/ 64.50');
    expect(formatCentimos(123456750)).toBe('S/ 1,234,567.50');
    expect(formatCentimos(0)).toBe('S/ 0.00');
    expect(formatCentimos(-5)).toBe('S/ -0.05');
    for (const value of [0, 0.05, 8, 64.5, 999.99, 1234.5, 1_000_000, -0.05, -40])
      expect(formatCentimos(centimosOf(value))).toBe(soles(value));
  });
});
