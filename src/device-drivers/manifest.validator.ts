import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { FORMAT_NAMES, RECORD_FORMATS, type RecordFormatName } from './parsers/record-formats';
import { TRANSPORTS, type DriverManifest, type ManifestError } from './driver.types';

/**
 * The manifest of seed §2.2 as a JSON Schema: vendor and model non-empty strings, transport one
 * of file / tcp / http, optional array of string capabilities, a version string; additional
 * properties are allowed (a driver keeps its own settings there).
 */
export const MANIFEST_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Device driver manifest',
  type: 'object',
  required: ['vendor', 'model', 'transport', 'version'],
  properties: {
    vendor: { type: 'string', minLength: 1 },
    model: { type: 'string', minLength: 1 },
    transport: { type: 'string', enum: [...TRANSPORTS] },
    capabilities: { type: 'array', items: { type: 'string' } },
    version: { type: 'string' },
  },
  additionalProperties: true,
} as const;

export type ManifestValidation =
  { valid: true; manifest: DriverManifest; errors: [] } | { valid: false; errors: ManifestError[] };

// allErrors: a manifest is refused with every violation, not the first one. strictRequired is
// off: `if`/`then` sub-schemas name required properties declared by their parent.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const manifestSchema: ValidateFunction = ajv.compile(MANIFEST_SCHEMA);
const formatSchemas = new Map<RecordFormatName, ValidateFunction>(
  FORMAT_NAMES.map((name) => [name, ajv.compile(RECORD_FORMATS[name].settingsSchema)]),
);

/** Seed §2.2 alone: is this a manifest? */
export function validateManifest(value: unknown): ManifestValidation {
  if (manifestSchema(value)) return { valid: true, manifest: value as DriverManifest, errors: [] };
  return { valid: false, errors: byPath(toManifestErrors(manifestSchema.errors ?? [])) };
}

const byPath = (errors: ManifestError[]) => errors.sort((a, b) => a.path.localeCompare(b.path));

/**
 * What the registry loads: a manifest (seed §2.2) whose driver can run. A `file` or `http`
 * driver names the record format of its clock (`format`) and that format's settings must be
 * valid (column mapping, status map ...); a `tcp` driver decodes its own protocol. Every
 * violation of both checks is listed.
 */
export function validateDriverManifest(value: unknown): ManifestValidation {
  const base = validateManifest(value);
  const errors = base.valid ? [] : [...base.errors];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    errors.push(...formatErrors(value as Record<string, unknown>));
  }
  if (errors.length > 0) return { valid: false, errors: byPath(errors) };
  return base;
}

function formatErrors(manifest: Record<string, unknown>): ManifestError[] {
  const { format, transport } = manifest;
  if (format === undefined) {
    return transport === 'file' || transport === 'http'
      ? [
          {
            path: '/format',
            message: `is required for a ${transport} driver: one of ${FORMAT_NAMES.join(', ')}`,
          },
        ]
      : [];
  }
  const schema =
    typeof format === 'string' ? formatSchemas.get(format as RecordFormatName) : undefined;
  if (!schema) {
    return [{ path: '/format', message: `must be one of ${FORMAT_NAMES.join(', ')}` }];
  }
  return schema(manifest) ? [] : toManifestErrors(schema.errors ?? []);
}

/** Violations on one line: "/model is required; /transport must be one of file, tcp, http". */
export function describeManifestErrors(errors: ManifestError[]): string {
  return errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ');
}

/** ajv's errors as {path, message}: the path names the offending (or missing) value. */
export function toManifestErrors(errors: ErrorObject[]): ManifestError[] {
  const seen = new Set<string>();
  const out: ManifestError[] = [];
  for (const error of errors) {
    // `if`/`then` wrappers repeat what their inner error already says
    if (error.keyword === 'if') continue;
    const converted = toManifestError(error);
    const key = `${converted.path} ${converted.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(converted);
  }
  return out;
}

function toManifestError(error: ErrorObject): ManifestError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${error.instancePath}/${String(params.missingProperty)}`,
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${String(params.additionalProperty)}`,
        message: 'is not a known property here',
      };
    case 'enum':
      return {
        path: error.instancePath,
        message: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
      };
    case 'const':
      return {
        path: error.instancePath,
        message: `must be ${JSON.stringify(params.allowedValue)}`,
      };
    case 'minLength':
      return params.limit === 1
        ? { path: error.instancePath, message: 'must not be empty' }
        : { path: error.instancePath, message: error.message ?? 'is too short' };
    case 'maxLength':
      return params.limit === 1
        ? { path: error.instancePath, message: 'must be a single character' }
        : { path: error.instancePath, message: error.message ?? 'is too long' };
    default:
      return { path: error.instancePath, message: error.message ?? `violates ${error.keyword}` };
  }
}
