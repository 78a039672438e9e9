import { BadRequestError, DomainError } from '../errors/domain-error';

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
    throw new BadRequestError('If-Match must be an ETag such as "3"', 'INVALID_IF_MATCH', {
      'If-Match': header,
    });
  }
  return Number(match[1]);
}

export class StaleVersionError extends DomainError {
  constructor(current: number, expected: number) {
    super({
      status: 412,
      code: 'STALE_VERSION',
      message: `The resource changed: its version is ${current}, not ${expected}`,
      detail: { currentVersion: current, expectedVersion: expected },
    });
  }
}
