import type { IncomingMessage, Server } from 'node:http';
import { OpenAPIBackend, SetMatchType, type Document, type Operation } from 'openapi-backend';
import request from 'supertest';

/**
 * A client that checks every answer it gets against the OpenAPI document the same service
 * serves, with openapi-backend's validator: the status is declared for the operation, the body
 * matches the declared schema, the declared headers are there with their types, and an error's
 * code is among the examples of its status. Problems are collected, not thrown, so that one run
 * lists all of them.
 */

export interface CallOptions {
  /** X-Tenant-ID; null: none. Default: the sweep's tenant. */
  tenant?: string | null;
  /** Authorization token (jwt sweeps); null: none. Default: the sweep's token for the tenant. */
  token?: string | null;
  headers?: Record<string, string>;
  /** A JSON body, serialised as is (so `[]`, `null` and `"x"` can be sent). */
  json?: unknown;
  /** A body of another media type, or malformed JSON. */
  raw?: { type: string; data: string };
  /** A multipart/form-data body. */
  form?: { fields: Record<string, string>; file?: { name: string; content: Buffer } };
  /** What the exchange is about, in problem reports. */
  label?: string;
  /** An event stream: read until its first frame, then hang up (it never ends by itself). */
  stream?: boolean;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

export class ContractSweep {
  readonly problems: string[] = [];
  /** Operation ids answered with a 2xx at least once. */
  readonly succeeded = new Set<string>();
  /** Statuses seen, per operation id. */
  readonly seen = new Map<string, Set<number>>();
  exchanges = 0;

  private constructor(
    readonly api: OpenAPIBackend,
    readonly document: Document,
    private readonly http: Server,
    private readonly defaults: { tenant: string; token?: (tenant: string | null) => string },
  ) {}

  /** A sweep over the service at `http`, against the document it serves at /api/docs-json. */
  static async start(
    http: Server,
    defaults: { tenant: string; token?: (tenant: string | null) => string },
  ): Promise<ContractSweep> {
    const document = (await request(http).get('/api/docs-json').expect(200)).body as Document;
    // strict: a document that is not valid OpenAPI 3 fails here
    const api = new OpenAPIBackend({
      definition: structuredClone(document),
      strict: true,
      validate: true,
      // a business day, as the service reads it (openapi-backend knows no `date` format)
      customizeAjv: (ajv) => ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/),
    });
    await api.init();
    return new ContractSweep(api, document, http, defaults);
  }

  /** Every operation of the document. */
  operations(): Operation[] {
    return this.api.router.getOperations();
  }

  /** Calls the service, checks the answer against the document, and returns it. */
  async call(
    expected: number,
    method: Method,
    url: string,
    options: CallOptions = {},
  ): Promise<request.Response> {
    const full = url.startsWith('/api/') ? url : `/api/v1${url}`;
    let req = request(this.http)[method](full);
    const tenant = options.tenant === undefined ? this.defaults.tenant : options.tenant;
    if (tenant !== null) req = req.set('X-Tenant-ID', tenant);
    const token =
      options.token === undefined ? this.defaults.token?.(tenant) : (options.token ?? undefined);
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
    if (options.json !== undefined) {
      req = req.set('Content-Type', 'application/json').send(JSON.stringify(options.json));
    } else if (options.raw) {
      req = req.set('Content-Type', options.raw.type).send(options.raw.data);
    } else if (options.form) {
      for (const [name, value] of Object.entries(options.form.fields)) req = req.field(name, value);
      if (options.form.file)
        req = req.attach('file', options.form.file.content, options.form.file.name);
    }
    if (options.stream) {
      req = req.buffer(true).parse((response, done) => {
        const res = response as unknown as IncomingMessage;
        let text = '';
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          // an error answer is JSON like any other; the stream's first frame stays text
          const json = String(res.headers['content-type']).startsWith('application/json');
          done(null, json ? (JSON.parse(text) as unknown) : text);
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('\n\n')) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('close', finish);
      });
    }
    const res = await req;
    this.exchanges += 1;
    this.check(expected, method, full, res, options.label);
    return res;
  }

  private check(
    expected: number,
    method: Method,
    url: string,
    res: request.Response,
    label = '',
  ): void {
    const where = `${label ? `${label}: ` : ''}${method.toUpperCase()} ${url} → ${res.status}`;
    const problem = (what: string): void => {
      this.problems.push(`${where}: ${what}`);
    };
    if (res.status !== expected) problem(`expected ${expected} (${JSON.stringify(res.body)})`);
    const path = url.split('?')[0];
    const operation = this.api.router.matchOperation({ method, path, headers: {} });
    if (!operation) return problem('no operation of the document matches');
    const id = operation.operationId!;
    if (!this.seen.has(id)) this.seen.set(id, new Set());
    this.seen.get(id)!.add(res.status);
    if (res.status >= 200 && res.status < 300 && res.status === expected) this.succeeded.add(id);

    const declared = operation.responses?.[String(res.status)] as
      | {
          content?: Record<
            string,
            { examples?: Record<string, { value?: { code?: unknown } }> } | undefined
          >;
        }
      | undefined;
    if (!declared) return problem(`status ${res.status} is not declared for ${id}`);

    if (declared.content) {
      const mediaType = String(res.headers['content-type'] ?? '').split(';')[0];
      if (!(mediaType in declared.content))
        problem(`content type ${mediaType || '(none)'} is not declared`);
      if (mediaType === 'application/json' || !('application/json' in declared.content)) {
        const body = this.api.validator.validateResponse(res.body, operation, res.status);
        if (body.errors) problem(`body does not match the schema: ${JSON.stringify(body.errors)}`);
      } else if (!res.text) {
        // another representation of a JSON answer (a receipt as text/plain): there is one
        problem(`the ${mediaType} body is empty`);
      }
    }
    const headers = this.api.validator.validateResponseHeaders(res.headers, operation, {
      statusCode: res.status,
      setMatchType: SetMatchType.Superset,
    });
    if (headers.errors) problem(`headers do not match: ${JSON.stringify(headers.errors)}`);

    const examples = declared.content?.['application/json']?.examples;
    if (res.status >= 400 && examples) {
      const codes = Object.values(examples).map((e) => String(e.value?.code));
      const code = String((res.body as { code?: unknown }).code);
      const listed =
        codes.includes(code) || (SQLSTATE.test(code) && codes.some((c) => SQLSTATE.test(c)));
      if (!listed)
        problem(`code ${code} is not among the examples of ${res.status}: ${codes.join(', ')}`);
    }
  }
}

/** A path of the document with sample values for its parameters. */
export function samplePath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? '1');
}
