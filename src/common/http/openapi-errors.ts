import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import * as SHARED from '../errors/common.errors';
import { ErrorBody } from '../errors/error-body.dto';
import { isErrorEntry, type ErrorEntry, type ErrorExample } from '../errors/error-catalogue';

/**
 * The error responses of the OpenAPI document, and the one builder of them: the envelope schema
 * plus one example per code, each example the English body with its Spanish text beside it
 * (`x-error-es`). The examples come from the entries of the catalogues (error-catalogue.ts):
 * controllers declare the codes of their own operations with `ApiErrors(entry, ...)`; the
 * statuses every route shares are added by `openapi-contract.ts` with the same builder, so every
 * error response of the document looks alike.
 */

export type { ErrorExample } from '../errors/error-catalogue';

/** An entry of a catalogue, or one example of it made of other values (`entry.exampleOf(...)`). */
export type DocumentedError = Pick<ErrorEntry<never>, 'example'> | ErrorExample;

/** The extension of an example that holds its Spanish text. */
export const SPANISH_EXAMPLE = 'x-error-es';

const exampleOf = (error: DocumentedError): ErrorExample =>
  'example' in error ? error.example : error;

/** The reason phrase that opens the description of an error response. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** The shared codes' examples, for responses declared by a description naming their codes. */
const SHARED_EXAMPLES: ErrorExample[] = (Object.values(SHARED) as unknown[])
  .filter(isErrorEntry)
  .map((entry) => entry.example);

/** The lookup of the shared codes by their code (for responses declared by description alone). */
export function examplesNamedIn(text: string, status: number): ErrorExample[] {
  const words = new Set(text.match(/\b[A-Z0-9][A-Z0-9_]{3,}\b/g) ?? []);
  return SHARED_EXAMPLES.filter((e) => e.status === status && words.has(e.body.code));
}

interface ExampleObject {
  summary: string;
  value: ErrorExample['body'];
  [SPANISH_EXAMPLE]: string;
}

interface MediaTypeWithExamples {
  schema: { $ref: string };
  examples: Record<string, ExampleObject>;
}

/** An error response object: the envelope schema and an example of each code, described. */
export function errorResponse(
  status: number,
  examples: readonly ErrorExample[],
): { description: string; content: { 'application/json': MediaTypeWithExamples } } {
  const byName = new Map(examples.map((e) => [e.name, e]));
  const list = [...byName.values()];
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${list
      .map((e) => `\`${e.body.code}\` ${e.summary}`)
      .join('; ')}.`,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorBody' },
        examples: Object.fromEntries(
          list.map((e) => [
            e.name,
            {
              summary: `${e.body.code}: ${e.summary}`,
              value: e.body,
              [SPANISH_EXAMPLE]: e.spanish,
            },
          ]),
        ),
      },
    },
  };
}

/**
 * The error responses an operation answers of its own (the statuses every route shares are
 * added to the document in one place, openapi-contract.ts): one response per status, with the
 * envelope schema and an example of each code, from the entries of the catalogues.
 */
export function ApiErrors(...errors: DocumentedError[]): MethodDecorator & ClassDecorator {
  const examples = errors.map(exampleOf);
  const statuses = [...new Set(examples.map((e) => e.status))];
  return applyDecorators(
    ...statuses.map((status) => {
      const ofStatus = examples.filter((e) => e.status === status);
      const response = errorResponse(status, ofStatus);
      return ApiResponse({
        status,
        type: ErrorBody,
        description: response.description,
        examples: response.content['application/json'].examples,
      });
    }),
  );
}
