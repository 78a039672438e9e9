import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../app.module';
import { loadConfig, type AppConfig } from '../common/config/app-config';
import { featureVariables } from '../common/config/features';
import { createLogger } from '../common/logging/logger';
import { createOpenApiDocument } from '../common/http/openapi';

/** Never connected to: the application is built in preview mode, no provider is created. */
const OFFLINE_CONTROL_URL = 'postgres://offline@127.0.0.1:1/offline';
/** Only to pass the start-up validation of AUTH_MODE=jwt; nothing is signed or verified. */
const PLACEHOLDER_SECRET = 'placeholder-secret-of-the-offline-openapi-export';

/**
 * The OpenAPI document the service serves with `config`, built without a database: the real
 * AppModule in Nest's preview mode (the module graph and the routes, no provider instantiated),
 * with the global prefix and versioning of app.factory.ts. The contract test checks that it
 * equals the document a running service serves.
 */
export async function buildOfflineDocument(config: AppConfig): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({
      config,
      target: { controlUrl: OFFLINE_CONTROL_URL, embedded: false },
      logger: createLogger('silent'),
    }),
    { preview: true, logger: false, abortOnError: false, bodyParser: false },
  );
  try {
    app.setGlobalPrefix('api', {
      exclude: [{ path: 'iclock/{*path}', method: RequestMethod.ALL }],
    });
    app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
    return createOpenApiDocument(app, config);
  } finally {
    await app.close();
  }
}

/** The configurations whose documents differ: authentication off or jwt, features off or on. */
const ALL_FEATURES_ON = Object.fromEntries(
  featureVariables().map((variable) => [variable, 'true']),
);

export const DOCUMENT_VARIANTS: { name: string; env: Record<string, string> }[] = [
  { name: 'auth-off.features-off', env: { AUTH_MODE: 'off' } },
  { name: 'auth-off.features-on', env: { AUTH_MODE: 'off', ...ALL_FEATURES_ON } },
  { name: 'auth-jwt.features-off', env: { AUTH_MODE: 'jwt' } },
  { name: 'auth-jwt.features-on', env: { AUTH_MODE: 'jwt', ...ALL_FEATURES_ON } },
];

/** A configuration for a variant: the defaults, with a placeholder secret for jwt. */
export function variantConfig(env: Record<string, string>): AppConfig {
  return loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    ...(env.AUTH_MODE === 'jwt' ? { AUTH_JWT_SECRET: PLACEHOLDER_SECRET } : {}),
    ...env,
  });
}

/** `node dist/cli/openapi-export.js DIR`: writes openapi.VARIANT.json for each variant. */
async function main(dir: string | undefined): Promise<void> {
  if (!dir) {
    process.stderr.write('usage: node dist/cli/openapi-export.js OUTPUT_DIRECTORY\n');
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  for (const variant of DOCUMENT_VARIANTS) {
    const document = await buildOfflineDocument(variantConfig(variant.env));
    const file = join(dir, `openapi.${variant.name}.json`);
    writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write(`${file}\n`);
  }
}

if (require.main === module) {
  main(process.argv[2]).catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
