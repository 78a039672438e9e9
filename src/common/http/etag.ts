import { invalidIfMatch, staleVersion } from '../errors/common.errors';
import { DomainError } from '../errors/domain-error';

/** The ETag of a versioned resource: its version number, quoted. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The version an `If-Match` header asks for: undefined without the header or with `*`.
 * Accepts `"3"`, `W/"3"` and a bare `3`; anything else is 400.
 */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '' || header.trim() === '*') return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(header.trim());
  if (!match) {
    throw invalidIfMatch(header);
  }
  return Number(match[1]);
}

export class StaleVersionError extends DomainError {
  constructor(current: number, expected: number) {
    super(staleVersion.options(current, expected));
  }
}
