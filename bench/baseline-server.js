// The bare baseline of `npm run bench`: node:http + pg, one tenant, no framework. It runs
// exactly the SQL of the service, because it drives the service's own ComandasService and
// ComandasRepository (plain classes) through a pg Pool instead of the tenant's TypeORM
// DataSource: what the service adds on top of it (Nest, Express, TypeORM, tenancy, validation,
// logging) is what the benchmark's ratio measures.
// The money module's rules ride on the comandas' changes as in the service: its CobrosService is
// registered as a comanda extension, and acts only while FEATURE_COBROS is on (read from the
// environment, like every FEATURE_* switch, the way the service reads it;
// bench/support/service-classes.js). So with FEATURE_COBROS=true, PUT /comandas/:id
// {"action":"cerrar","pagos":[...]} pays and closes with the service's statements, and the
// detail carries the bill.
// The generic table routes (GET /table/:table, GET /schema/:table) are written here by hand, the
// floor of such a route: the table's metadata read once, its SELECT and a converter per column
// built once, one JSON.stringify. They run the service's SQL and answer the service's JSON
// byte for byte (the bench compares both answers before it loads them).
// Usage: BASELINE_DB_URL=postgres://... BASELINE_PORT=3100 [BASELINE_POOL_MAX=3] node bench/baseline-server.js
require('reflect-metadata');
const http = require('node:http');
const { Buffer } = require('node:buffer');
const { URL } = require('node:url');
const { Pool } = require('pg');
const { etagOf } = require('../dist/common/http/etag');
const { DomainError } = require('../dist/common/errors/domain-error');
const { formatInstant } = require('../dist/common/time');
const { quoteIdent } = require('../dist/database/sql');
const { TableMetadataService } = require('../dist/generic-tables/table-metadata.service');
const { writeAccessOf } = require('../dist/generic-tables/allowed-tables');
const { serviceClasses } = require('./support/service-classes');
const { poolQueryRunner } = require('./support/query-runner');

/** The actor of the service's requests with AUTH_MODE=off (the benchmark's setting). */
const ANONYMOUS_ACTOR = { id_usuario: null };

// the session settings the service's connections to the tenant carry (its features off: their
// triggers skip), so that both run the same work in PostgreSQL
require('../dist/modules'); // the modules' features, which the config reads
const { loadConfig } = require('../dist/common/config/app-config');
const { databaseSwitchesOff, featureVariables } = require('../dist/common/config/features');
const { TenantFeatures } = require('../dist/tenancy/tenant-features.service');
const baselineFeatures = new TenantFeatures(
  loadConfig(Object.fromEntries(featureVariables().map((name) => [name, process.env[name]]))),
);
const sessionOptions = databaseSwitchesOff((feature) => baselineFeatures.isOn(feature, null));

const pool = new Pool({
  connectionString: process.env.BASELINE_DB_URL,
  max: Number(process.env.BASELINE_POOL_MAX ?? 3),
  application_name: process.env.BASELINE_APPLICATION_NAME ?? 'comandas-bench-baseline',
  ...(sessionOptions
    ? { options: [process.env.PGOPTIONS, sessionOptions].filter(Boolean).join(' ') }
    : {}),
});
const rowsOf = (result) => result.rows;

/**
 * The surface of a TypeORM DataSource the repositories use: query, and the query runner of a
 * transaction (src/database/transaction.ts).
 */
const dataSource = {
  query: (sql, params) => pool.query(sql, params).then(rowsOf),
  createQueryRunner: () => poolQueryRunner(pool),
};
const { context, comandas: service } = serviceClasses(dataSource, {
  timeZone: process.env.BASELINE_TIME_ZONE ?? 'America/Lima',
});
const metadata = new TableMetadataService(context);

/** Wall-clock types are read as text, like the service does. */
const AS_TEXT = new Set(['date', 'timestamp', 'time', 'timetz', 'interval']);
const asNumber = (value) => {
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
};
const asSafeInteger = (value) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
};
const asInstant = (value) => formatInstant(value, context.tenant.timeZone);

/** GET /table/:table of one table: its SELECT and a converter per column, built once. */
function tableReader(meta) {
  const select = meta.columns
    .map((c) =>
      AS_TEXT.has(c.udt)
        ? `${quoteIdent(c.name)}::text AS ${quoteIdent(c.name)}`
        : quoteIdent(c.name),
    )
    .join(', ');
  const order = meta.primaryKey.map((name) => `${quoteIdent(name)} DESC`).join(', ');
  const sql = `SELECT ${select} FROM ${quoteIdent(meta.table)}${order ? ` ORDER BY ${order}` : ''} LIMIT $1`;
  const columns = meta.columns.map((c) => ({
    name: c.name,
    convert:
      c.udt === 'numeric'
        ? asNumber
        : c.udt === 'int8'
          ? asSafeInteger
          : c.udt === 'timestamptz'
            ? asInstant
            : undefined,
  }));
  return async (limit) => {
    const { rows } = await pool.query(sql, [limit]);
    return rows.map((row) => {
      const out = {};
      for (const { name, convert } of columns) {
        const value = row[name];
        out[name] = value === null || value === undefined ? null : convert ? convert(value) : value;
      }
      return out;
    });
  };
}
const readers = new Map();
async function readerOf(table) {
  let reader = readers.get(table);
  if (!reader) {
    const meta = await metadata.get(table);
    if (!meta) return undefined;
    reader = { meta, rows: tableReader(meta) };
    readers.set(table, reader);
  }
  return reader;
}

function send(res, status, body, headers = {}) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      try {
        resolve(data ? JSON.parse(data) : {});
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

const DETAIL = /^\/api\/v1\/comandas\/(\d+)$/;
const TABLE = /^\/api\/v1\/table\/([a-z_]+)$/;
const SCHEMA = /^\/api\/v1\/schema\/([a-z_]+)$/;

async function route(req, res) {
  const url = new URL(req.url, 'http://baseline');
  const detail = DETAIL.exec(url.pathname);
  if (req.method === 'GET' && detail) {
    const comanda = await service.get(Number(detail[1]));
    return send(res, 200, comanda, { ETag: etagOf(comanda.version) });
  }
  if (req.method === 'GET' && url.pathname === '/api/v1/comandas') {
    const q = url.searchParams;
    const number = (name) => (q.has(name) ? Number(q.get(name)) : undefined);
    const { items, total } = await service.list({
      estado: q.get('estado') ?? undefined,
      id_mesa: number('id_mesa'),
      id_usuario: number('id_usuario'),
      limit: number('limit'),
      offset: number('offset'),
    });
    return send(res, 200, items, { 'X-Total-Count': String(total) });
  }
  if (req.method === 'PUT' && detail) {
    const body = await readJson(req);
    const comanda = await service.update(Number(detail[1]), body, undefined, ANONYMOUS_ACTOR);
    return send(res, 200, comanda, { ETag: etagOf(comanda.version) });
  }
  const table = req.method === 'GET' && TABLE.exec(url.pathname);
  if (table) {
    const reader = await readerOf(table[1]);
    if (reader) {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), 1000);
      return send(res, 200, await reader.rows(limit));
    }
  }
  const schema = req.method === 'GET' && SCHEMA.exec(url.pathname);
  if (schema) {
    const reader = await readerOf(schema[1]);
    if (reader)
      return send(res, 200, {
        table: reader.meta.table,
        kind: reader.meta.kind,
        ...writeAccessOf(reader.meta.table, reader.meta.kind),
        columns: reader.meta.columns,
      });
  }
  return send(res, 404, { error: 'not found', code: 'NOT_FOUND' });
}

const server = http.createServer((req, res) => {
  route(req, res).catch((error) => {
    if (error instanceof DomainError)
      send(res, error.status, { error: error.message, code: error.code });
    else {
      console.error(error);
      send(res, 500, { error: 'internal error', code: 'INTERNAL_ERROR' });
    }
  });
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.BASELINE_PORT ?? 3100), '127.0.0.1', () => {
  console.log(`baseline listening on ${server.address().port}`);
});
const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
