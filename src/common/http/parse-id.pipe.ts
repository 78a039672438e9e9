import { Injectable, PipeTransform, type ArgumentMetadata } from '@nestjs/common';
import { invalidId } from '../errors/common.errors';

/** A positive integer id from a path parameter; anything else is 400 INVALID_ID. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  /** The largest id accepted. */
  protected readonly max: number = Number.MAX_SAFE_INTEGER;

  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^[1-9]\d{0,14}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id > this.max) {
      throw invalidId(metadata.data ?? 'id', value);
    }
    return id;
  }
}

/** An id of an `integer` (int4) key: at most 2147483647. */
@Injectable()
export class ParseInt4IdPipe extends ParseIdPipe {
  protected override readonly max = 2_147_483_647;
}
