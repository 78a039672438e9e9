#!/usr/bin/env node
/**
 * The back-office page's types, generated from the service's own OpenAPI document
 * (docs/web.md, "One author for the API"). `npm run build` writes web/src/api/schema.ts;
 * `--check` (part of `npm run lint`) fails when that file is not what the code would generate
 * now, i.e. a DTO changed and the page was not rebuilt against it.
 *
 * The document is the one a service serves with authentication and every feature on (the
 * widest: the page hides what a tenant does not have at run time), built without a database by
 * dist/cli/openapi-export.js, so src/ must be compiled first (`npm run build:js`).
 * `openapi-typescript` turns it into types; `openapi-fetch` (web/src/api.ts) is the client
 * over them. One change is made to the document first: the `X-Tenant-ID` header parameter is
 * dropped, because the client's middleware sends it on every request; the page's code never
 * names it. A `format: binary` value (an uploaded file) is typed as the `Blob` the page sends,
 * not as a string.
 */
'use strict';
const { readFileSync, writeFileSync, existsSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const target = join(root, 'web', 'src', 'api', 'schema.ts');
const exporter = join(root, 'dist', 'cli', 'openapi-export.js');

/** Header parameters the client's middleware sets on every request. */
const SET_BY_MIDDLEWARE = new Set(['x-tenant-id']);

const BANNER = `/**
 * Generated from the service's OpenAPI document by \`npm run build\` (scripts/generate-client.js).
 * Do not edit: change the service's DTOs and rebuild. \`npm run lint\` fails when this file is stale.
 */

`;

function withoutMiddlewareHeaders(document) {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (!operation || !Array.isArray(operation.parameters)) continue;
      operation.parameters = operation.parameters.filter(
        (p) => !(p.in === 'header' && SET_BY_MIDDLEWARE.has(String(p.name).toLowerCase())),
      );
    }
  }
  return document;
}

async function generate() {
  if (!existsSync(exporter)) throw new Error(`${exporter} is missing: run npm run build:js first`);
  const { buildOfflineDocument, variantConfig, DOCUMENT_VARIANTS } = require(exporter);
  const widest = DOCUMENT_VARIANTS.find((v) => v.name === 'auth-jwt.features-on');
  const document = withoutMiddlewareHeaders(
    JSON.parse(JSON.stringify(await buildOfflineDocument(variantConfig(widest.env)))),
  );
  const { default: openapiTS, astToString } = require('openapi-typescript');
  const ts = require('typescript');
  const ast = await openapiTS(document, {
    alphabetize: false,
    defaultNonNullable: true,
    transform: (schema) =>
      schema.format === 'binary' ? ts.factory.createTypeReferenceNode('Blob') : undefined,
  });
  const prettier = require('prettier');
  const options = (await prettier.resolveConfig(target)) ?? {};
  return prettier.format(BANNER + astToString(ast), { ...options, parser: 'typescript' });
}

async function main() {
  const check = process.argv.includes('--check');
  const text = await generate();
  const name = relative(root, target);
  if (check) {
    const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (current !== text) {
      process.stderr.write(
        `${name} is stale: the service's OpenAPI document changed. Run npm run build and commit it.\n`,
      );
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`${name}: up to date with the OpenAPI document\n`);
    return;
  }
  writeFileSync(target, text);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
