// What the stages share to time requests one at a time: a plain HTTP call that never throws
// (a network error answers status 0), and the percentiles of the durations it measures.
const { Buffer } = require('node:buffer');
const http = require('node:http');
const { performance } = require('node:perf_hooks');

const HOST = '127.0.0.1';

/** The p-th percentile (nearest rank) of an ascending list; NaN when it is empty. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** p50, p95, p99 and max (and the count) of a list of milliseconds, to 0.1 ms. */
function latencyFigures(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

/**
 * One request to the service on 127.0.0.1: the tenant's header, a bearer `token`, an `accept` and
 * the client address it stands for (`forwardedFor`, as X-Forwarded-For) when given, `body` sent as
 * JSON. Resolves with its status, content type, body (text, and JSON
 * when it parses) and duration in milliseconds; `sentAt` and `answeredAt` are performance.now()
 * when it was sent and when its headers came back (a write has committed by then).
 */
function call(port, { method = 'GET', path, tenant, token, accept, body, agent, forwardedFor }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const started = performance.now();
    let answeredAt = NaN;
    const req = http.request(
      {
        agent,
        host: HOST,
        port,
        method,
        path,
        headers: {
          'x-tenant-id': tenant,
          ...(token && { authorization: `Bearer ${token}` }),
          ...(accept && { accept }),
          ...(forwardedFor && { 'x-forwarded-for': forwardedFor }),
          ...(payload && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          }),
        },
      },
      (res) => {
        answeredAt = performance.now();
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode,
            type: res.headers['content-type'] ?? '',
            text,
            json,
            ms: performance.now() - started,
            sentAt: started,
            answeredAt,
          });
        });
      },
    );
    req.on('error', (error) =>
      resolve({
        status: 0,
        type: '',
        text: String(error),
        ms: performance.now() - started,
        sentAt: started,
        answeredAt,
      }),
    );
    req.end(payload);
  });
}

module.exports = { call, latencyFigures, percentile };
