import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config';
import { completeDocument } from './openapi-contract';

const DESCRIPTION = [
  'Multi-tenant back-office of restaurants: order tickets (comandas), products, purchases, ' +
    'attendance.',
  '',
  '- Every `/api/v1` route but the driver catalogue needs the header `X-Tenant-ID` (the ' +
    'tenant slug).',
  '- Every error has the body `{"error": message, "code": MACHINE_CODE or SQLSTATE, ' +
    '"detail"?: ..., "requestId": ...}`; each error response of an operation shows an example ' +
    'of every code it can carry. Every response carries `X-Request-Id`.',
  '- The `error` text is in Spanish when the request’s `Accept-Language` prefers it (`es`, ' +
    '`es-PE` ..., q-values weighed), in English otherwise; `Content-Language` says which. The ' +
    'code, the detail and every other field are the same in both languages; each example shows ' +
    'its Spanish text as `x-error-es`.',
  '- Authentication: with `AUTH_MODE=jwt` a Bearer token on every route but health (this ' +
    'document then declares the bearer scheme); with `AUTH_MODE=off` no credentials.',
  '- The generic table and RPC routes are switchable features, off unless switched on: off ' +
    'for a tenant, they answer 404 like routes that do not exist.',
].join('\n');

/**
 * The OpenAPI document of the running configuration: what the controllers' decorators
 * declare, completed by `completeDocument` (openapi-contract.ts) with what every route shares.
 * Also built without a database by src/cli/openapi-export.ts, for the lint (`npm run lint:openapi`).
 */
export function createOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Comandas back-office API')
    .setDescription(DESCRIPTION)
    .setVersion('v1')
    .build();
  return completeDocument(SwaggerModule.createDocument(app, builder), config);
}

/** OpenAPI document at /api/docs-json and Swagger UI at /api/docs. */
export function setupOpenApi(app: INestApplication, config: AppConfig): OpenAPIObject {
  const document = createOpenApiDocument(app, config);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return document;
}
