/**
 * Money the page computes itself (the change before a payment is sent, a till's count by
 * denomination, a difference against what was expected): in whole céntimos, integers only, so
 * 0.10 + 0.20 is 0.30 and never 0.30000000000000004. Amounts typed by people are read from their
 * text (never `parseFloat(x) * 100`); amounts the API sends (numbers with at most two decimals)
 * are read from their two-decimal text; amounts the API is sent are written back from the
 * céntimos' digits. Unit tested in money.spec.ts.
 */

import { soles } from './format';

/** An amount in céntimos of a sol: an integer (6450 is S/ 64.50). */
export type Centimos = number;

/** Digits, with thousands grouped by commas and an optional decimal point: 1,234.50. */
const GROUPED = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d{1,2}))?$/;
/** Digits and at most two decimals after a point or a comma: 64.5, 64,50, .50, 12. */
const PLAIN = /^(\d*)(?:[.,](\d{0,2}))?$/;

/**
 * What a person typed, as céntimos: `64.50`, `64,5`, `S/ 64.50`, `1,234.50`, `1 234.50`, `12`.
 * A comma before exactly three digits groups thousands when more groups or a decimal point
 * follow it (`1,234.50`); otherwise a comma is a decimal comma (`12,5`). Null for anything else:
 * empty, negative, letters, more than two decimals.
 */
export function parseAmount(text: string): Centimos | null {
  const compact = text
    .trim()
    .replace(/^S\/\.?/i, '')
    .replace(/[\s\u00a0]/g, '');
  if (compact === '') return null;
  const grouped = GROUPED.exec(compact);
  if (grouped && (grouped[2] !== undefined || compact.split(',').length > 2))
    return centimos(grouped[1].replace(/,/g, ''), grouped[2] ?? '');
  const plain = PLAIN.exec(compact);
  if (!plain || (plain[1] === '' && !plain[2])) return null;
  return centimos(plain[1], plain[2] ?? '');
}

/** Whole soles' digits and up to two decimal digits → céntimos (string → integer). */
function centimos(whole: string, decimals: string): Centimos | null {
  const digits = `${whole === '' ? '0' : whole}${decimals.padEnd(2, '0')}`;
  const value = Number.parseInt(digits, 10);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * An amount as the API sends it (a JSON number with at most two decimals, e.g. 64.5 or -0.05),
 * as céntimos: read from its two-decimal text, the number is never multiplied.
 */
export function centimosOf(value: number): Centimos {
  const text = value.toFixed(2);
  const negative = text.startsWith('-');
  const [whole, decimals] = (negative ? text.slice(1) : text).split('.');
  const magnitude = Number.parseInt(`${whole}${decimals}`, 10);
  return negative ? -magnitude : magnitude;
}

/** `1234.50`, `-0.05`: the plain decimal text of céntimos (an input's value). */
export function amountText(value: Centimos): string {
  const magnitude = Math.abs(value);
  const whole = Math.trunc(magnitude / 100);
  const cents = magnitude % 100;
  return `${value < 0 ? '-' : ''}${whole}.${String(cents).padStart(2, '0')}`;
}

/** Céntimos as the JSON number the API takes (soles, two decimals), from their digits. */
export function toAmount(value: Centimos): number {
  return Number(amountText(value));
}

/** `S/ 1,234.50`, `S/ -0.05`: céntimos as the page shows any money (format.ts `soles`). */
export function formatCentimos(value: Centimos): string {
  return soles(toAmount(value));
}

/** The sum of céntimos. */
export function total(values: readonly Centimos[]): Centimos {
  return values.reduce((sum, v) => sum + v, 0);
}
