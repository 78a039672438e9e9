import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors, ERRORS } from '../common/http/openapi-errors';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency-key';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * A write that may be retried safely with an `Idempotency-Key` (docs/comandas.md): the
 * interceptor, the header in the document and its errors. The module of the controller imports
 * IdempotencyModule.
 */
export function Idempotent() {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS ' +
        `answers what the first answered (with ${REPLAYED_HEADER}: true) and does nothing again. ` +
        '1 to 255 visible ASCII characters, one per intended change (a UUID).',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
    }),
    ApiErrors(
      ERRORS.IDEMPOTENCY_KEY_INVALID,
      ERRORS.IDEMPOTENCY_KEY_IN_USE,
      ERRORS.IDEMPOTENCY_KEY_REUSED,
    ),
  );
}
