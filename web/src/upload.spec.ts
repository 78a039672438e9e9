import { ApiError, createApi, ok } from './api';
import { formData, parseHeaders, xhrFetch, type Progress, type XhrLike } from './upload';

/** An XMLHttpRequest that records what it was asked to send and answers when told to. */
class FakeXhr {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = undefined;
  status = 0;
  statusText = '';
  responseText = '';
  responseHeaders = '';
  aborted = false;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  private sentResolve!: () => void;
  readonly sent = new Promise<void>((resolve) => (this.sentResolve = resolve));

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    this.sentResolve();
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
    this.onloadend?.();
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }

  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: total > 0 } as ProgressEvent);
  }
  respond(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.statusText = status === 200 ? 'OK' : 'Bad Request';
    this.responseText = JSON.stringify(body);
    this.responseHeaders = Object.entries({ 'content-type': 'application/json', ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    this.onload?.();
    this.onloadend?.();
  }
  fail() {
    this.onerror?.();
    this.onloadend?.();
  }
}

const SUMMARY = {
  driver: 'zkteco-attlog',
  origen: 'attlog.dat',
  read: 2,
  punches: 2,
  inserted: 2,
  duplicates: 0,
  unknownDocuments: [],
  unknownDocumentPunches: 0,
  badLineCount: 0,
  badLines: [],
  daysRecalculated: 1,
};

function setUp() {
  const xhr = new FakeXhr();
  const seen: Progress[] = [];
  const api = createApi({ tenant: 'demo', token: 'tok' }, { origin: 'http://service.test' });
  const file = new File(['40000001\t2026-03-02 08:00:12\t1\t0\t1\t0\n'], 'attlog.dat');
  const controller = new AbortController();
  const call = api.POST('/api/v1/asistencia/import', {
    body: { driver: 'zkteco-attlog', file },
    bodySerializer: formData,
    fetch: xhrFetch(
      (p) => seen.push(p),
      () => xhr as unknown as XhrLike,
    ),
    signal: controller.signal,
  });
  return { xhr, seen, call, controller };
}

describe('uploads through the generated client (xhrFetch)', () => {
  it('sends the client’s request and reports its progress', async () => {
    const { xhr, seen, call } = setUp();
    await xhr.sent;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://service.test/api/v1/asistencia/import');
    // the session's headers, set by the client's middleware
    expect(xhr.headers['x-tenant-id']).toBe('demo');
    expect(xhr.headers.authorization).toBe('Bearer tok');
    expect(xhr.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const text = await (xhr.body as Blob).text();
    expect(text.indexOf('name="driver"')).toBeLessThan(text.indexOf('name="file"'));
    expect(text).toContain('filename="attlog.dat"');

    xhr.progress(10, 40);
    xhr.progress(40, 40);
    xhr.respond(200, SUMMARY, { 'x-request-id': 'r1' });
    const { data, response } = await call;
    expect(seen).toEqual([
      { loaded: 10, total: 40 },
      { loaded: 40, total: 40 },
    ]);
    expect(data).toEqual(SUMMARY);
    expect(response.headers.get('X-Request-Id')).toBe('r1');
  });

  it('reads a refusal from its envelope, as for any request', async () => {
    const { xhr, call } = setUp();
    await xhr.sent;
    xhr.respond(400, {
      error: 'The header row lacks doc',
      code: 'EXPORT_HEADER_MISMATCH',
      detail: { header: ['a', 'b'] },
    });
    const error = await ok(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).text).toBe('The header row lacks doc (EXPORT_HEADER_MISMATCH)');
    expect((error as ApiError).detail).toEqual({ header: ['a', 'b'] });
  });

  it('fails like fetch when there is no answer, or when it is cancelled', async () => {
    const lost = setUp();
    await lost.xhr.sent;
    lost.xhr.fail();
    const error = await ok(lost.call).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('NETWORK');

    const cancelled = setUp();
    await cancelled.xhr.sent;
    cancelled.controller.abort();
    expect(cancelled.xhr.aborted).toBe(true);
    await expect(ok(cancelled.call)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('parseHeaders', () => {
  it('reads the raw header lines', () => {
    const headers = parseHeaders('content-type: application/json\r\nx-total-count: 3\r\n');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('X-Total-Count')).toBe('3');
  });
});
