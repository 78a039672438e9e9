import type { NextFunction, Request, Response } from 'express';
import { validationError } from '../errors/common.errors';
import { validationFailed } from '../validation';

/**
 * Input that no route accepts is refused in one place, as the request is read, before any
 * route, guard or validation sees it (docs/security.md, "Hostile input"): 400
 * VALIDATION_FAILED naming where it was found.
 *
 * - **JSON nested deeper than MAX_JSON_DEPTH**, found by a scan of the raw bytes before they are
 *   parsed (linear, and it stops at the first byte too deep): a body of 800 kB of `[[[[` costs a
 *   few microseconds instead of a second of the event loop and a stack overflow in the layers
 *   that walk the parsed value.
 * - **Control characters** (U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+007F) in any string
 *   or property name of a JSON body, a query parameter or the path. PostgreSQL's text cannot hold
 *   U+0000, and the others have no place in a name, a note or an id: they reach receipts,
 *   printers (ESC/POS commands start with U+001B) and spreadsheets. Tab, line feed and carriage
 *   return are text and pass.
 * - **Property names of JavaScript objects' prototype** (`__proto__`, `constructor`,
 *   `toString` ...) anywhere in a JSON body or the query: the layers that turn a body into a class
 *   drop them silently, which let them pass the "unknown fields are refused" rule; here they are
 *   an unknown field like any other.
 */

/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;
/** At most this many problems are listed in one answer. */
const MAX_PROBLEMS = 20;

// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Names that are members of every object through its prototype. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  ...Object.getOwnPropertyNames(Object.prototype),
]);

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text in `bytes` nests arrays and objects deeper than `max`, read byte by
 * byte (UTF-8 never uses these bytes inside a multi-byte character). Malformed JSON is the
 * parser's to refuse; this only counts brackets outside strings.
 */
export function jsonNestingExceeds(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return false;
}

/** `U+0000` for the first control character of `text`. */
function codePointOf(text: string): string {
  const found = CONTROL_CHARACTER.exec(text)![0];
  return `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * The problems of a parsed value (a JSON body, the query): control characters in its strings
 * and property names, prototype member names as properties. Paths as the validation messages
 * write them (`items.0.nota`). Walks at most MAX_JSON_DEPTH levels (a body deeper was refused
 * before it was parsed).
 */
export function hostileValueProblems(value: unknown, path = '', depth = 0): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, at: string, level: number): void => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof node === 'string') {
      if (CONTROL_CHARACTER.test(node))
        problems.push(
          `${at || 'value'} must not contain control characters (${codePointOf(node)})`,
        );
      return;
    }
    if (typeof node !== 'object' || node === null || level > MAX_JSON_DEPTH) return;
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, join(at, String(index)), level + 1));
      return;
    }
    for (const key of Object.keys(node)) {
      if (problems.length >= MAX_PROBLEMS) return;
      const child = join(at, key);
      if (CONTROL_CHARACTER.test(key)) {
        problems.push(
          `property names must not contain control characters (${codePointOf(key)}): ${JSON.stringify(child)}`,
        );
        continue;
      }
      if (PROTOTYPE_KEYS.has(key)) {
        problems.push(`property ${child} should not exist`);
        continue;
      }
      visit((node as Record<string, unknown>)[key], child, level + 1);
    }
  };
  visit(value, path, depth);
  return problems;
}

/**
 * The JSON body parser's `verify` hook: refuses a body nested too deep, before it is parsed.
 * A DomainError, which the exception filter finds inside the body parser's error.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (jsonNestingExceeds(bytes))
    throw validationError([
      `the body must not nest arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
    ]);
}

/**
 * After the body parsers: the body, the query and the path of every request, refused with 400
 * VALIDATION_FAILED when they hold what no route accepts (above). A text body (the time clocks'
 * pushes) is its parser's: it reports the lines it cannot read.
 */
export function refuseHostileInput(req: Request, _res: Response, next: NextFunction): void {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    // a malformed escape: the router answers it
    path = req.path;
  }
  const problems = CONTROL_CHARACTER.test(path)
    ? [`the path must not contain control characters (${codePointOf(path)})`]
    : [];
  problems.push(...hostileValueProblems(req.query));
  const body: unknown = req.body;
  if (typeof body === 'object' && body !== null) problems.push(...hostileValueProblems(body));
  else if (typeof body === 'string' && req.is('application/json'))
    problems.push(...hostileValueProblems(body, 'body'));
  next(problems.length > 0 ? validationFailed(problems.slice(0, MAX_PROBLEMS)) : undefined);
}
