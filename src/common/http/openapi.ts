import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config';

const FEATURE_SWITCHES: Record<string, keyof AppConfig> = {
  genericTables: 'FEATURE_GENERIC_TABLES',
  rpc: 'FEATURE_RPC',
};

type Operation = Record<string, unknown> & {
  summary?: string;
  description?: string;
  security?: unknown[];
};

/** Every operation of the document that carries the extension `key`, with its value. */
function* operationsWith(document: OpenAPIObject, key: string): Generator<[Operation, unknown]> {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (typeof operation === 'object' && operation !== null && key in operation)
        yield [operation as Operation, (operation as Operation)[key]];
    }
  }
}

/** Marks the operations of switched-off features (DESIGN §5) in the document. */
function markDisabledFeatures(document: OpenAPIObject, config: AppConfig): void {
  for (const [op, value] of operationsWith(document, 'x-feature')) {
    const feature = String(value);
    const variable = FEATURE_SWITCHES[feature];
    const on = variable ? Boolean(config[variable]) : false;
    op['x-enabled'] = on;
    if (!on) {
      op.summary = `[disabled] ${op.summary ?? ''}`.trim();
      op.description =
        `Switched off: answers 404 like an unknown route unless ${variable}=true or the tenant's ` +
        `catalog override turns "${feature}" on.\n\n${op.description ?? ''}`;
    }
  }
}

/** Routes marked @Public() ask for no token (the document requires one everywhere else). */
function markPublicOperations(document: OpenAPIObject): void {
  for (const [op] of operationsWith(document, 'x-public')) op.security = [];
}

/** OpenAPI document at /api/docs-json and Swagger UI at /api/docs. */
export function setupOpenApi(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Comandas back-office API')
    .setDescription(
      'Multi-tenant back-office of restaurants: order tickets (comandas), products, purchases, ' +
        'attendance. Every /api/v1 route needs the X-Tenant-ID header. Errors: ' +
        '{ "error": "<message>", "code": "<MACHINE_CODE or SQLSTATE>", "detail"?: ... }.',
    )
    .setVersion('v1')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `AUTH_MODE=jwt (now ${config.AUTH_MODE}): a token from \`npm run token\``,
      },
      'bearer',
    )
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, builder);
  markDisabledFeatures(document, config);
  markPublicOperations(document);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return document;
}
