import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  TagObject,
} from '@nestjs/swagger';
import { issuesTokens, type AppConfig } from '../config/app-config';
import {
  featureDefinition,
  featureDefinitions,
  isTenantFeature,
  type FeatureVariable,
} from '../config/features';
import { TENANT_HEADER_PARAMETER } from '../decorators';
import {
  authenticationRequired,
  databaseUnavailable,
  forbidden,
  invalidBody,
  invalidId,
  invalidIfMatch,
  malformedJson,
  payloadTooLarge,
  rateLimited,
  requestTimeout,
  staleVersion,
  tenantInvalid,
  tenantMismatch,
  tenantNotFound,
  tenantProvisioning,
  tenantRequired,
  tenantSchemaOutdated,
  tenantSuspended,
  unknownRoute,
  unsupportedMediaType,
} from '../errors/common.errors';
import {
  errorResponse,
  examplesNamedIn,
  SPANISH_EXAMPLE,
  STATUS_TEXT,
  type ErrorExample,
} from './openapi-errors';

/**
 * What the running service's configuration makes of the scanned document, in ONE place:
 *
 * - the statuses every route shares, which no controller declares: the tenant header's and the
 *   tenant's answers (400 / 404 / 403 / 503), the rate limit (429), a switched-off feature
 *   (404), what any request body can get (413 / 415 / 400), a path id that is not one (400),
 *   and with AUTH_MODE=jwt the token's and the roles' answers (401 / 403). They follow from
 *   the global guards, pipes and interceptors (app.module.ts), so they are added here from
 *   what an operation is (tenant-scoped unless `@NoTenant()`, public, switchable, rate limited,
 *   reading a body, taking an id), not repeated on every handler;
 * - every error response rebuilt the same way (the envelope schema, an example of each code
 *   it can carry with its Spanish text, a description listing them, Content-Language) and every
 *   response's headers with a schema;
 * - what depends on the configuration: the bearer scheme and its requirement only with
 *   AUTH_MODE=jwt, and whether a switchable feature is on or off by default.
 */

/** Markers the decorators leave on operations for this step (removed from the document). */
const NO_TENANT = 'x-no-tenant';
const NOT_RATE_LIMITED = 'x-rate-limited';
const LONG_RUNNING = 'x-long-running';
const TAG_DESCRIPTION = 'x-tag-description';
/** Marks the sign-in operations, left out of the document where this service issues no tokens. */
export const SIGN_IN_OPERATION = 'x-sign-in';

const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description:
      'The id of the request (the caller’s own X-Request-Id when it is a sane token), also in ' +
      'error bodies and in every log line of the request',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1 },
  },
  'Content-Language': {
    description:
      'The language of the error’s text (`error`): `es` when the request’s Accept-Language ' +
      'prefers Spanish (`es`, `es-PE` ...), `en` otherwise. Every other field of the body is the ' +
      'same in both languages; each example shows its Spanish text as `x-error-es`',
    schema: { type: 'string', enum: ['en', 'es'] },
  },
  'WWW-Authenticate': {
    description:
      'The Bearer challenge (RFC 6750), with error="invalid_token" when a token was sent',
    schema: { type: 'string' },
  },
};

const headerRef = (name: keyof typeof HEADERS): ReferenceObject => ({
  $ref: `#/components/headers/${name}`,
});

type Operation = OperationObject & Record<`x-${string}`, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function* operationsOf(
  document: OpenAPIObject,
): Generator<{ path: string; method: string; op: Operation }> {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (op) yield { path, method, op };
    }
  }
}

const isReference = (value: unknown): value is ReferenceObject =>
  typeof value === 'object' && value !== null && '$ref' in value;

/** The examples an error response already has, or those its description names. */
function examplesOf(response: ResponseObject, status: number): ErrorExample[] {
  const examples = response.content?.['application/json']?.examples;
  if (!examples || Object.keys(examples).length === 0)
    return examplesNamedIn(response.description, status);
  return Object.entries(examples).flatMap(([name, value]) => {
    if (isReference(value)) return [];
    const body = value.value as ErrorExample['body'];
    const summary = (value.summary ?? '').replace(`${body.code}: `, '');
    const spanish = (value as Record<string, unknown>)[SPANISH_EXAMPLE];
    return [{ name, status, summary, body, spanish: typeof spanish === 'string' ? spanish : '' }];
  });
}

/** The statuses an operation shares with every route of its kind. */
function sharedErrors(path: string, method: string, op: Operation, config: AppConfig) {
  const examples: ErrorExample[] = [];
  const tenant = op[NO_TENANT] !== true;
  const isPublic = op['x-public'] === true;
  const feature = op['x-feature'];
  if (typeof feature === 'string') {
    const samplePath = path.replace(/\{[^}]+\}/g, '1');
    examples.push(unknownRoute.exampleOf(method.toUpperCase(), samplePath));
  }
  if (op[NOT_RATE_LIMITED] !== false) examples.push(rateLimited.example);
  if (config.AUTH_MODE === 'jwt' && !isPublic) {
    examples.push(authenticationRequired.example, tenantMismatch.example);
    if (tenant && op['x-permission'] !== undefined) examples.push(forbidden.example);
  }
  if (tenant) {
    examples.push(
      tenantRequired.example,
      tenantInvalid.example,
      tenantNotFound.example,
      tenantSuspended.example,
      tenantProvisioning.example,
      tenantSchemaOutdated.example,
      databaseUnavailable.example,
    );
    if (op[LONG_RUNNING] !== true) examples.push(requestTimeout.example);
  }
  const body = op.requestBody;
  if (body && !isReference(body)) {
    const types = Object.keys(body.content);
    examples.push(payloadTooLarge.example, unsupportedMediaType.exampleOf(types, 'text/plain'));
    if (types.includes('application/json'))
      examples.push(invalidBody.example, malformedJson.example);
  }
  // an operation that takes If-Match (the @IfMatch() parameter) can refuse a malformed or stale one
  const ifMatch = (op.parameters ?? []).some(
    (p) => !isReference(p) && p.in === 'header' && p.name.toLowerCase() === 'if-match',
  );
  if (ifMatch) examples.push(invalidIfMatch.example, staleVersion.example);
  for (const name of idParameters(op)) {
    examples.push({
      ...invalidId.exampleOf(name, 'abc'),
      name: examples.some((e) => e.name === 'INVALID_ID') ? `INVALID_ID_${name}` : 'INVALID_ID',
    });
  }
  return examples;
}

/**
 * Path parameters declared as numbers are ids read by ParseIdPipe: positive integers, and
 * 400 INVALID_ID for anything else. Their schema says so.
 */
function idParameters(op: Operation): string[] {
  const names: string[] = [];
  for (const parameter of op.parameters ?? []) {
    if (isReference(parameter) || parameter.in !== 'path') continue;
    const schema = parameter.schema as SchemaObject | undefined;
    if (schema?.type !== 'number' && schema?.type !== 'integer') continue;
    parameter.schema = { ...schema, type: 'integer', minimum: 1 };
    parameter.description ??= 'A positive integer id';
    names.push(parameter.name);
  }
  return names;
}

function ensureTenantHeader(op: Operation): void {
  const parameters = (op.parameters ??= []);
  const has = parameters.some(
    (p) => !isReference(p) && p.in === 'header' && p.name.toLowerCase() === 'x-tenant-id',
  );
  if (has) return;
  const header: ParameterObject = {
    ...TENANT_HEADER_PARAMETER,
    in: 'header',
    schema: { ...TENANT_HEADER_PARAMETER.schema },
  };
  parameters.unshift(header);
}

/** Merges the shared errors into the operation's responses and rebuilds every error response. */
function completeResponses(op: Operation, shared: ErrorExample[], config: AppConfig): void {
  const byStatus = new Map<number, ErrorExample[]>();
  for (const [key, response] of Object.entries(op.responses)) {
    const status = Number(key);
    if (!response || isReference(response) || !(status >= 400)) continue;
    if (response.content?.['application/json']?.schema === undefined) continue;
    const schema = response.content['application/json'].schema;
    if (!isReference(schema) || !schema.$ref.endsWith('/ErrorBody')) continue;
    byStatus.set(status, examplesOf(response, status));
  }
  for (const example of shared) {
    const list = byStatus.get(example.status) ?? [];
    if (!list.some((e) => e.name === example.name)) list.push(example);
    byStatus.set(example.status, list);
  }
  for (const [status, examples] of byStatus) {
    const existing = op.responses[status] as ResponseObject | undefined;
    op.responses[status] = { ...errorResponse(status, examples), headers: existing?.headers };
  }
  for (const [key, response] of Object.entries(op.responses)) {
    if (!response || isReference(response)) continue;
    const status = Number(key);
    if (!response.description) response.description = defaultDescription(status);
    const headers: Record<string, HeaderObject | ReferenceObject> = { ...response.headers };
    for (const [name, header] of Object.entries(headers)) {
      if (!isReference(header) && !header.schema && !header.content)
        headers[name] = { ...header, schema: { type: 'string' } };
    }
    headers['X-Request-Id'] = headerRef('X-Request-Id');
    // an error's text is in the language the request asks for
    if (byStatus.has(status)) headers['Content-Language'] = headerRef('Content-Language');
    if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
    if (status === 401 && config.AUTH_MODE === 'jwt')
      headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
    response.headers = headers;
  }
  // statuses in ascending order, as people read them
  op.responses = Object.fromEntries(
    Object.entries(op.responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
}

function defaultDescription(status: number): string {
  if (status === 200) return 'OK';
  if (status === 201) return 'Created';
  return STATUS_TEXT[status] ?? 'Response';
}

/** Says how a switchable operation is switched, and whether it is on by default. */
function describeSwitch(op: Operation, feature: string, config: AppConfig): void {
  if (!isTenantFeature(feature)) return;
  const variable = featureDefinition(feature).variable as FeatureVariable;
  const on = config[variable];
  op['x-enabled'] = on;
  const state = on ? 'on by default' : 'off by default';
  op.summary = `[switchable, ${state}] ${op.summary ?? ''}`.trim();
  op.description =
    `Switchable feature \`${feature}\`, ${state} on this instance (\`${variable}=${String(on)}\`). ` +
    'While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route ' +
    `that does not exist. Switch it for every tenant with \`${variable}=true\` (or \`false\`), ` +
    `or for one tenant with \`npm run tenant -- feature SLUG ${feature} on\` (or \`off\`; ` +
    '`default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective ' +
    'switches.' +
    (op.description ? `\n\n${op.description}` : '');
}

/** Completes the scanned document for the running configuration (see the comment on top). */
/**
 * Marks a schema as the features' switches (`features` of `GET /api/v1/tenant`): the document
 * gets one described boolean per feature of the module list there.
 */
export const FEATURE_SWITCHES_SCHEMA = 'x-feature-switches';

/** Every schema marked FEATURE_SWITCHES_SCHEMA, filled with the features' switches. */
function fillFeatureSwitches(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(fillFeatureSwitches);
  if (value === null || typeof value !== 'object') return;
  const schema = value as Record<string, unknown>;
  if (schema[FEATURE_SWITCHES_SCHEMA] === true) {
    delete schema[FEATURE_SWITCHES_SCHEMA];
    schema.properties = Object.fromEntries(
      [...featureDefinitions()].map(([feature, { description }]) => [
        feature,
        { type: 'boolean', description },
      ]),
    );
    schema.required = [...featureDefinitions().keys()];
    schema.additionalProperties = false;
    return;
  }
  Object.values(schema).forEach(fillFeatureSwitches);
}

export function completeDocument(document: OpenAPIObject, config: AppConfig): OpenAPIObject {
  fillFeatureSwitches(document.components?.schemas);
  document.servers = [
    {
      url: '/',
      description:
        'This service, wherever it is hosted (the paths carry the /api prefix): the page’s own origin in Swagger UI',
    },
  ];
  document.tags = declaredTags(document, config);
  const components = (document.components ??= {});
  components.headers = { ...components.headers, ...HEADERS };
  // the Bearer challenge of a 401 exists only with AUTH_MODE=jwt
  if (config.AUTH_MODE !== 'jwt') delete components.headers['WWW-Authenticate'];
  const errorBody = components.schemas?.ErrorBody;
  if (errorBody && !isReference(errorBody)) errorBody.additionalProperties = true;
  if (config.AUTH_MODE === 'jwt') {
    components.securitySchemes = {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'AUTH_MODE=jwt: a token whose `tenant` claim is the X-Tenant-ID and whose `sub` is an ' +
          'active user of it (`npm run token` in development)',
      },
    };
    document.security = [{ bearer: [] }];
  } else {
    delete components.securitySchemes;
    // AUTH_MODE=off: no credentials are asked anywhere
    document.security = [];
  }

  // the sign-in routes are served only where this service issues tokens (AUTH_MODE=jwt with
  // AUTH_JWT_SECRET); elsewhere they answer 404 like a route that does not exist
  let removed = false;
  for (const { path, method, op } of operationsOf(document)) {
    if (op[SIGN_IN_OPERATION] !== true) continue;
    delete op[SIGN_IN_OPERATION];
    if (issuesTokens(config)) continue;
    const item = document.paths[path] as Record<string, unknown>;
    delete item[method];
    if (!METHODS.some((m) => m in item)) delete document.paths[path];
    removed = true;
  }
  if (removed) dropUnusedSchemas(document);

  for (const { path, method, op } of operationsOf(document)) {
    if (op[NO_TENANT] !== true) ensureTenantHeader(op);
    const shared = sharedErrors(path, method, op, config);
    completeResponses(op, shared, config);
    const feature = op['x-feature'];
    if (typeof feature === 'string') describeSwitch(op, feature, config);
    if (config.AUTH_MODE === 'jwt' && op['x-public'] === true) op.security = [];
    else delete op.security;
    delete op[NO_TENANT];
    delete op[NOT_RATE_LIMITED];
    delete op[LONG_RUNNING];
  }
  return document;
}

/** Removes the schemas no operation refers to any more, directly or through another schema. */
function dropUnusedSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const ref = (value as { $ref?: unknown }).$ref;
      const name =
        typeof ref === 'string' && ref.startsWith('#/components/schemas/')
          ? ref.slice('#/components/schemas/'.length)
          : undefined;
      if (name !== undefined && !used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(document.paths);
  visit({ ...document.components, schemas: undefined });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

/**
 * The tags, each described where its controller declares it (`@ApiTag`), in the order they first
 * appear; a switchable feature's tag says whether it is on by default and how to switch it.
 */
function declaredTags(document: OpenAPIObject, config: AppConfig): TagObject[] {
  const tags = new Map<string, string>();
  for (const { op } of operationsOf(document)) {
    const description = op[TAG_DESCRIPTION];
    delete op[TAG_DESCRIPTION];
    for (const name of op.tags ?? []) {
      if (!tags.has(name) || (typeof description === 'string' && !tags.get(name)))
        tags.set(name, typeof description === 'string' ? description : '');
    }
  }
  for (const feature of featureDefinitions().values()) {
    const described = tags.get(feature.tag);
    if (described === undefined) continue;
    const state = config[feature.variable as FeatureVariable] ? 'on' : 'off';
    tags.set(
      feature.tag,
      `${described || feature.description}. Switchable, ${state} by default (${feature.variable}, or a tenant override).`,
    );
  }
  return [...tags].map(([name, description]) => ({ name, description }));
}
