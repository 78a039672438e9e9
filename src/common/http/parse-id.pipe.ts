import { Injectable, PipeTransform, type ArgumentMetadata } from '@nestjs/common';
import { BadRequestError } from '../errors/domain-error';

/** A positive integer id from a path parameter; anything else is 400 INVALID_ID. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^[1-9]\d{0,14}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id)) {
      throw new BadRequestError(
        `${metadata.data ?? 'id'} must be a positive integer`,
        'INVALID_ID',
        {
          [metadata.data ?? 'id']: value,
        },
      );
    }
    return id;
  }
}
