import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/openapi-errors';
import {
  idempotencyKeyInUse,
  idempotencyKeyInvalid,
  idempotencyKeyReused,
} from './idempotency.errors';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency-key';
import { IdempotentWrites } from './idempotent-writes';

/** Metadata of an @Idempotent() route (the request guard prepares its keyed calls). */
export const IDEMPOTENT = 'comandas:idempotent';

/**
 * Makes the handler run through IdempotentWrites when the request guard prepared a keyed call
 * for it, and call itself directly otherwise: no interceptor (and no rxjs pipeline) around
 * every write for the few that send a key. The metadata the decorators below this one wrote on
 * the handler moves with it.
 */
function throughIdempotentWrites(
  _target: object,
  _key: string | symbol,
  descriptor: PropertyDescriptor,
): void {
  const handler = descriptor.value as (...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    return IdempotentWrites.handle(() => handler.apply(this, args));
  };
  for (const key of Reflect.getOwnMetadataKeys(handler) as unknown[]) {
    Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
  }
  Object.defineProperty(wrapped, 'name', { value: handler.name });
  descriptor.value = wrapped;
}

/**
 * A write that may be retried safely with an `Idempotency-Key` (docs/comandas.md): the
 * handler's keyed calls go through IdempotentWrites, and the document gets the header and its
 * errors. The module of the controller imports IdempotencyModule.
 */
export function Idempotent() {
  return applyDecorators(
    throughIdempotentWrites,
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS ' +
        `answers what the first answered (with ${REPLAYED_HEADER}: true) and does nothing again. ` +
        '1 to 255 visible ASCII characters, one per intended change (a UUID).',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
    }),
    ApiErrors(idempotencyKeyInvalid, idempotencyKeyInUse, idempotencyKeyReused),
  );
}
