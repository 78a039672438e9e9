import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import {
  DEFAULT_RECORD_FORMATS,
  FORMAT_NAMES,
  RECORD_FORMATS,
  type RecordFormatConfig,
  type RecordFormatName,
} from './parsers/record-formats';
import { TRANSPORTS, type DriverManifest, type ManifestError } from './driver.types';

/**
 * The manifest contract as a JSON Schema: vendor and model non-empty strings, transport one
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

/** The manifest schema alone: is this a manifest (and so a driver the registry loads)? */
export function validateManifest(value: unknown): ManifestValidation {
  if (manifestSchema(value)) return { valid: true, manifest: value as DriverManifest, errors: [] };
  return { valid: false, errors: byPath(toManifestErrors(manifestSchema.errors ?? [])) };
}

const byPath = (errors: ManifestError[]) => errors.sort((a, b) => a.path.localeCompare(b.path));

/**
 * What importing with a driver needs, apart from its validity: the record format its records
 * are read with and that format's settings (column mapping, status map ...).
 */
export interface ImportCheck {
  /** The driver can read records: a tcp driver, or a file / http driver with a usable format. */
  importable: boolean;
  /** Notes on the format (a default assumed) and the problems below, by path. */
  warnings: ManifestError[];
  /** Why the driver cannot import (empty when it can): an unknown format, invalid settings. */
  problems: ManifestError[];
  /** The format and settings a file or http driver reads records with, defaults applied. */
  recordFormat?: RecordFormatConfig;
}

export type DriverManifestCheck =
  | ({ valid: true; manifest: DriverManifest; errors: [] } & ImportCheck)
  | ({ valid: false; errors: ManifestError[] } & ImportCheck);

/**
 * A driver manifest: `valid` and `errors` follow the manifest schema alone (a valid manifest is
 * loaded and listed); `warnings` say what importing with it needs. A `file` or `http` driver
 * reads its records with the format it names (`format`) and that format's settings; one that
 * names none is read with the ZKTeco layout of its transport (DEFAULT_RECORD_FORMATS), which a
 * warning notes. An unknown format or invalid settings do not make the manifest invalid: they
 * make the driver unable to import (`importable: false`), and the warnings say why. A `tcp`
 * driver decodes its own protocol: no format, no warning.
 */
export function validateDriverManifest(value: unknown): DriverManifestCheck {
  const base = validateManifest(value);
  const check: ImportCheck =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? checkImport(value as Record<string, unknown>)
      : { importable: false, warnings: [], problems: [] };
  if (base.valid) return { ...base, ...check };
  // a manifest that is not valid is not loaded: it imports nothing, whatever its format
  return { ...base, importable: false, warnings: check.warnings, problems: check.problems };
}

/** The record format a manifest's driver reads with, and why it cannot import, if it cannot. */
export function checkImport(manifest: Record<string, unknown>): ImportCheck {
  const { transport } = manifest;
  if (transport !== 'file' && transport !== 'http') {
    return { importable: transport === 'tcp', warnings: [], problems: [] };
  }
  const notes: ManifestError[] = [];
  let config: Record<string, unknown> = manifest;
  if (manifest.format === undefined) {
    const fallback = DEFAULT_RECORD_FORMATS[transport];
    notes.push({ path: '/format', message: `not named: ${fallback.label} is assumed` });
    // the manifest's own settings (columns, delimiter ...) win over the layout's
    config = { ...fallback.config, ...manifest, format: fallback.config.format };
  }
  const { format } = config;
  const schema =
    typeof format === 'string' ? formatSchemas.get(format as RecordFormatName) : undefined;
  const problems: ManifestError[] = !schema
    ? [{ path: '/format', message: `must be one of ${FORMAT_NAMES.join(', ')}` }]
    : schema(config)
      ? []
      : toManifestErrors(schema.errors ?? []);
  const warnings = byPath([...notes, ...problems]);
  if (problems.length > 0) return { importable: false, warnings, problems: byPath(problems) };
  return { importable: true, warnings, problems: [], recordFormat: config as RecordFormatConfig };
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
