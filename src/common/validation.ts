import {
  BadRequestException,
  ValidationError,
  ValidationPipe,
  type ArgumentMetadata,
} from '@nestjs/common';
import {
  ValidateBy,
  ValidatorConstraint,
  type ValidationOptions,
  type ValidatorConstraintInterface,
  type ValidationArguments,
} from 'class-validator';
import { validationError } from './errors/common.errors';
import { cacheValidationMetadata } from './validation-metadata';
import { isBusinessDate, isInstantText } from './time';

/** The largest PostgreSQL integer: an id above it is refused before the database (22003). */
export const MAX_INT4 = 2_147_483_647;

@ValidatorConstraint({ name: 'isBusinessDate' })
export class IsBusinessDate implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isBusinessDate(value);
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a date YYYY-MM-DD`;
  }
}

@ValidatorConstraint({ name: 'isInstant' })
export class IsInstant implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isInstantText(value);
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be an instant YYYY-MM-DDTHH:MM[:SS[.ffffff]][Z|±HH:MM]`;
  }
}

@ValidatorConstraint({ name: 'isDateOrInstant' })
export class IsDateOrInstant implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && (isBusinessDate(value) || isInstantText(value));
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a date YYYY-MM-DD or an instant YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]`;
  }
}

/**
 * Whether a finite number has at most `places` decimals. Read from the number itself, not from
 * its text: `1e-7` has no "." in its text yet seven decimals (class-validator's
 * `maxDecimalPlaces` reads the text and throws on it).
 */
export function hasAtMostDecimals(value: unknown, places: number): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && Number(value.toFixed(places)) === value
  );
}

/** A finite number with at most `places` decimals (a quantity, an amount). */
export function IsDecimalNumber(places: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNumber',
      constraints: [places],
      validator: {
        validate: (value: unknown) => hasAtMostDecimals(value, places),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must be a number with at most ${places} decimals`,
      },
    },
    options,
  );
}

/**
 * Which failed rule speaks for a field, most basic first: a field that should not be there,
 * then its type, then its range or length. So `id_mesa: "tres"` is "must be an integer
 * number", not "must not be greater than 2147483647". Rules not listed come after these.
 */
const RULE_ORDER = [
  'whitelistValidation',
  'isDefined',
  'isBoolean',
  'isInt',
  'isNumber',
  'isString',
  'isArray',
  'isObject',
  'isIn',
  'isEnum',
  'isBusinessDate',
  'isNotEmpty',
];

function rank(rule: string): number {
  const index = RULE_ORDER.indexOf(rule);
  return index === -1 ? RULE_ORDER.length : index;
}

/** The one message of a field: "is required" when it is missing, else its most basic rule. */
function fieldMessage(error: ValidationError, path: string): string | undefined {
  const rules = Object.keys(error.constraints ?? {});
  if (rules.length === 0) return undefined;
  if (error.value === undefined && !rules.includes('whitelistValidation')) {
    return `${path} is required`;
  }
  const rule = rules.sort((a, b) => rank(a) - rank(b))[0];
  const message = error.constraints![rule];
  return path === error.property ? message : message.replace(error.property, path);
}

/** One message per field that failed, in the order of the fields, nested ones by their path. */
export function validationMessages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = fieldMessage(error, path);
    return [...(own ? [own] : []), ...validationMessages(error.children ?? [], path)];
  });
}

/**
 * 400 VALIDATION_FAILED with these messages (the answer of every refused body or query): the
 * validation pipe's BadRequestException, carrying the error of the catalogue entry (its text in
 * both languages) as its cause, which the exception filter answers.
 */
export const validationFailed = (detail: string[]) => {
  const error = validationError(detail);
  return new BadRequestException(
    { message: error.message, code: error.code, detail: error.detail },
    { cause: error },
  );
};

/**
 * Path parameters are left to their own pipes (ParseIdPipe sees the text as sent). A query
 * parameter given twice (`limit=5&limit=6`) is one clear error, not a list of type errors.
 */
class BodyAndQueryValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // a custom decorator's value is never validated here (validateCustomDecorators is off):
    // Nest's pipe would hand it back as it is, after its own checks
    if (metadata.type === 'param' || metadata.type === 'custom') return Promise.resolve(value);
    if (metadata.type === 'query' && typeof value === 'object' && value !== null) {
      const repeated = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => Array.isArray(v))
        .map(
          ([name, v]) =>
            `${name} must be given once (it was given ${(v as unknown[]).length} times)`,
        );
      if (repeated.length > 0) throw validationFailed(repeated);
    }
    return super.transform(value, metadata);
  }
}

/**
 * The global validation: unknown properties are refused (never silently dropped), values are
 * converted to their declared types, and every field in violation is listed in `detail` with
 * one message.
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new BodyAndQueryValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => validationFailed(validationMessages(errors)),
  });
}
