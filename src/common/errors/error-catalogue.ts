import { DomainError, type DomainErrorOptions } from './domain-error';
import type { ErrorEnvelope } from './error-envelope';

/**
 * The one way an error code is declared: an entry of its module's catalogue (`src/x/x.errors.ts`,
 * the shared codes in `src/common/errors/common.errors.ts`), written once with everything the
 * service says about it: its code and status, its text in English and in Spanish, its detail,
 * and the values of its example in the OpenAPI document. From that entry come the error thrown
 * (the entry is its factory), the example of the document (`ApiErrors(entry)`), and the text of
 * the answer in the request's language.
 *
 * ```ts
 * export const comandaNotFound = defineError({
 *   status: 404,
 *   code: 'COMANDA_NOT_FOUND',
 *   summary: 'No comanda has this id',
 *   en: (id: number) => `Comanda ${id} does not exist`,
 *   es: (id) => `La comanda ${id} no existe`,
 *   detail: (id) => ({ id_comanda: id }),
 *   example: [9999],
 * });
 *
 * throw comandaNotFound(id);                      // in the service
 * @ApiErrors(comandaNotFound)                      // on the route
 * ```
 */

/** The values an entry's texts and detail are made of (the factory's arguments). */
type Values = readonly unknown[];

/** One error code, as its catalogue writes it. */
export interface ErrorSpec<A extends Values> {
  status: number;
  /** The machine code of the envelope (a name, or a SQLSTATE). */
  code: string;
  /**
   * The example's key in the document, when it is not the code: a second entry of a code
   * (the 400 of an id_caja that names no till, beside the 404 of an unknown caja).
   */
  name?: string;
  /** When it is answered, in one line: the document's example list and response description. */
  summary: string;
  /** The text for people, in English (the default language, and the logs'). */
  en: (...values: A) => string;
  /** The same text in Spanish, with the same variable parts. */
  es: (...values: A) => string;
  /** The envelope's `detail`: the same in both languages. */
  detail?: (...values: A) => unknown;
  /** Fields added at the top level of the envelope. */
  extra?: (...values: A) => Record<string, unknown> | undefined;
  /** Response headers (Retry-After, WWW-Authenticate ...). */
  headers?: (...values: A) => Record<string, string>;
  /** Logged where it was found, once: the exception filter logs its answers at debug only. */
  reported?: boolean;
  /** The values of the document's example. */
  example: A;
}

/** One error body the document shows as an example of a status, with its Spanish text. */
export interface ErrorExample {
  /** The key of the example in its response (usually the code; unique within a response). */
  name: string;
  status: number;
  /** One line for the example list and the response description. */
  summary: string;
  /** The envelope as answered in English. */
  body: ErrorEnvelope;
  /** The envelope's `error` as answered in Spanish (`x-error-es` in the document). */
  spanish: string;
}

/** An entry of a catalogue: the factory of its error, with what the document shows of it. */
export interface ErrorEntry<A extends Values> {
  (...values: A): DomainError;
  readonly code: string;
  readonly status: number;
  /** The example of the document, made of the spec's example values. */
  readonly example: ErrorExample;
  /** Those values. */
  readonly exampleValues: A;
  /** The example of other values (a route's own validation messages, its own path). */
  exampleOf(...values: A): ErrorExample;
  /** Both texts of these values. */
  texts(...values: A): { en: string; es: string };
  /** The options of its error, for a subclass of DomainError that keeps a type of its own. */
  options(...values: A): DomainErrorOptions;
}

/** The request id the document's examples show. */
export const EXAMPLE_REQUEST_ID = '3f0e8a52-6d1c-4f7e-9b0a-52c1d7e4a9b6';

const ENTRIES = new WeakSet<object>();

/** Whether a value is an entry of a catalogue (the catalogues' spec finds them by it). */
export function isErrorEntry(value: unknown): value is ErrorEntry<Values> {
  return typeof value === 'function' && ENTRIES.has(value);
}

/** Declares one error code: see the comment on top. */
export function defineError<A extends Values>(spec: ErrorSpec<A>): ErrorEntry<A> {
  const options = (...values: A): DomainErrorOptions => ({
    status: spec.status,
    code: spec.code,
    message: spec.en(...values),
    spanish: spec.es(...values),
    detail: spec.detail?.(...values),
    extra: spec.extra?.(...values),
    headers: spec.headers?.(...values),
    reported: spec.reported,
  });
  const exampleOf = (...values: A): ErrorExample => {
    const detail = spec.detail?.(...values);
    return {
      name: spec.name ?? spec.code,
      status: spec.status,
      summary: spec.summary,
      body: {
        error: spec.en(...values),
        code: spec.code,
        ...(detail === undefined ? {} : { detail }),
        ...spec.extra?.(...values),
        requestId: EXAMPLE_REQUEST_ID,
      },
      spanish: spec.es(...values),
    };
  };
  const entry = Object.assign((...values: A) => new DomainError(options(...values)), {
    code: spec.code,
    status: spec.status,
    example: exampleOf(...spec.example),
    exampleValues: spec.example,
    exampleOf,
    texts: (...values: A) => ({ en: spec.en(...values), es: spec.es(...values) }),
    options,
  });
  ENTRIES.add(entry);
  return entry;
}
