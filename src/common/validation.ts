import {
  BadRequestException,
  ValidationError,
  ValidationPipe,
  type ArgumentMetadata,
} from '@nestjs/common';
import {
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  type ValidationArguments,
} from 'class-validator';
import { isBusinessDate } from './time';

@ValidatorConstraint({ name: 'isBusinessDate' })
export class IsBusinessDate implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isBusinessDate(value);
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a date YYYY-MM-DD`;
  }
}

function messages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((m) =>
      parent ? m.replace(error.property, path) : m,
    );
    return [...own, ...messages(error.children ?? [], path)];
  });
}

/** Path parameters are left to their own pipes (ParseIdPipe sees the text as sent). */
class BodyAndQueryValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return Promise.resolve(value);
    return super.transform(value, metadata);
  }
}

/**
 * The global validation: unknown properties are refused (never silently dropped), values are
 * converted to their declared types, and every violation is listed in `detail`.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyAndQueryValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) =>
      new BadRequestException({
        message: 'Validation failed',
        code: 'VALIDATION_FAILED',
        detail: messages(errors),
      }),
  });
}
