import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * The error envelope, for the OpenAPI document. No example of its own: every error response
 * of the document shows examples of the codes it can carry, from the entries of the error
 * catalogues (src/common/errors/error-catalogue.ts, src/common/http/openapi-errors.ts).
 * Some errors add top-level fields (the diagnostics of a failed RPC, the column and constraint
 * of a constraint violation), so other properties are allowed.
 */
@ApiSchema({
  name: 'ErrorBody',
  description:
    'Every error: a message for people, a machine code (a name such as `COMANDA_NOT_FOUND` or a ' +
    'PostgreSQL SQLSTATE such as `23503`), an optional detail and the request id; some errors ' +
    'add fields of their own at the top level.',
})
export class ErrorBody {
  @ApiProperty({
    type: String,
    description:
      'What went wrong, for people: in Spanish when the request’s Accept-Language prefers it, ' +
      'in English otherwise (Content-Language says which)',
  })
  error!: string;

  @ApiProperty({
    type: String,
    description: 'Machine code: a name (`VALIDATION_FAILED`) or a SQLSTATE (`23503`)',
  })
  code!: string;

  @ApiPropertyOptional({
    description:
      'Depends on the code: the list of violations (`VALIDATION_FAILED`: one message per ' +
      'field), the database detail (constraint violations), or an object naming the values ' +
      'involved; null when the database gave none',
    oneOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'string', nullable: true },
      { type: 'object', additionalProperties: true },
    ],
  })
  detail?: unknown;

  @ApiPropertyOptional({
    type: String,
    description: 'The request id, also in the X-Request-Id header and in the service log',
  })
  requestId?: string;
}
