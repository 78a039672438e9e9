import {
  Agent as HttpAgent,
  request as httpRequest,
  validateHeaderName,
  validateHeaderValue,
} from 'node:http';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  guardedLookup,
  isDisallowedAddress,
  urlHost,
  WEBHOOK_ADDRESS_NOT_ALLOWED,
} from './webhook-address';

/** How much of a receiver's answer is kept: enough for an error page in the delivery log. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'comandas-webhooks/1';
/** Headers this module sets itself; the caller's spelling of them is dropped. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'user-agent']);

export interface WebhookRequest {
  url: string;
  /** The Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) and such. */
  headers: Record<string, string>;
  /** The JSON text that was signed, sent as it is. */
  body: string;
  /** For the whole exchange: resolving and connecting, sending, and the answer. */
  timeoutMs: number;
  /** Whether private, loopback and other reserved addresses may be reached (development). */
  allowPrivate: boolean;
  /** The most of the answer's body that is read; 65536 when not given. */
  maxResponseBytes?: number;
}

export interface SendResult {
  /** The receiver answered 2xx. */
  ok: boolean;
  /** The HTTP status, or null when no answer came (network error, refused address, timeout). */
  status: number | null;
  /** Why the delivery is not ok, null when it is. Never quotes a header's value. */
  error: string | null;
  durationMs: number;
  /** The start of the answer's body (maxResponseBytes at most), as UTF-8 text. */
  responseBody: string;
}

/** A readable cause of a network error: its message, and its code when the message lacks it. */
function describeError(error: unknown): string {
  const { code } = error as NodeJS.ErrnoException;
  // OpenSSL's messages end with a line break
  const message = (error as Error).message?.trim();
  if (!message) return code ?? 'connection failed';
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect not followed (${status})`;
  return `HTTP ${status}`;
}

/** Why the request cannot be sent as given, checked before any connection; undefined if it can. */
function refusal(url: URL | undefined, request: WebhookRequest): string | undefined {
  if (!url) return 'not a valid absolute URL';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `unsupported scheme (${url.protocol})`;
  }
  // Node connects to an IP address without calling the lookup: it is judged here
  const host = urlHost(url);
  if (!request.allowPrivate && isIP(host) !== 0 && isDisallowedAddress(host)) {
    return `${WEBHOOK_ADDRESS_NOT_ALLOWED}: the host is a private address (${host})`;
  }
  for (const [name, value] of Object.entries(request.headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      // Node's message may quote the value, and values carry signatures
      return `invalid header ${JSON.stringify(name)}`;
    }
  }
  return undefined;
}

/**
 * The kept-alive connections of the attempts, one pool per scheme and per address rule: every
 * socket of a pool was opened through the lookup of its rule, so a connection reused by a later
 * attempt was checked by that same rule (one made while private addresses were allowed never
 * serves an attempt that forbids them). Keeping connections saves a TCP (and TLS) handshake per
 * message to a busy receiver.
 */
const AGENTS = new Map<string, HttpAgent>();

function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate}`;
  let agent = AGENTS.get(key);
  if (!agent) {
    const options = { keepAlive: true, lookup: guardedLookup(allowPrivate), maxFreeSockets: 16 };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    AGENTS.set(key, agent);
  }
  return agent;
}

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * One delivery attempt: a POST of `body` to `url`, told apart by its status alone (2xx is ok).
 * It never throws: every failure is a result, for the caller to record and retry.
 *
 * - The host is resolved at this moment through guardedLookup, and an IP address in the URL is
 *   checked here, so unless `allowPrivate` the request reaches no private address, whatever the
 *   name resolved to when the URL was saved. Connections are kept alive in a pool per address
 *   rule (`agentFor`): a reused socket was checked when it connected, by the same rule.
 * - A redirect is not followed: it could point anywhere, past the address rules; it is a failure
 *   for the tenant to fix.
 * - At most `maxResponseBytes` of the answer are read; then the connection is dropped, and the
 *   status already received decides. A receiver that answers 2xx has taken the message, so an
 *   endless or slow body does not turn it into a failure (and a retry, and a duplicate).
 * - `timeoutMs` bounds the whole exchange. Without a status by then the result is a timeout;
 *   with one, the status decides and the body is what arrived.
 */
export async function sendWebhook(request: WebhookRequest): Promise<SendResult> {
  const started = performance.now();
  const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const url = parseUrl(request.url);
  const refused = refusal(url, request);
  if (refused !== undefined || !url) {
    const durationMs = Math.round(performance.now() - started);
    return { ok: false, status: null, error: refused ?? null, durationMs, responseBody: '' };
  }

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(Buffer.byteLength(request.body, 'utf8'));
  headers['user-agent'] = USER_AGENT;
  const options: RequestOptions = {
    method: 'POST',
    headers,
    lookup: guardedLookup(request.allowPrivate),
    agent: agentFor(url.protocol, request.allowPrivate),
  };

  return new Promise<SendResult>((resolve) => {
    let status: number | null = null;
    let received = 0;
    const chunks: Buffer[] = [];
    let req: ClientRequest | undefined;
    let settled = false;

    /**
     * Ends the attempt once: `failure` is the error when no status came. The connection is
     * dropped unless the answer was read to its end (then it goes back to the pool).
     */
    const finish = (failure?: string, complete = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!complete) req?.destroy();
      const error = status === null ? (failure ?? 'no answer') : statusError(status);
      resolve({
        ok: status !== null && error === null,
        status,
        error,
        durationMs: Math.round(performance.now() - started),
        responseBody: Buffer.concat(chunks).toString('utf8'),
      });
    };

    const timer = setTimeout(
      () => finish(`timeout after ${request.timeoutMs} ms`),
      request.timeoutMs,
    );

    const onResponse = (res: IncomingMessage) => {
      status = res.statusCode ?? null;
      if (maxBytes <= 0) return finish();
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const kept = chunk.subarray(0, maxBytes - received);
        chunks.push(kept);
        received += kept.length;
        if (received >= maxBytes) finish();
      });
      res.on('end', () => finish(undefined, true));
      res.on('error', () => finish());
      res.on('close', () => finish());
    };

    try {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      req = send(url, options, onResponse);
      req.on('error', (error) => finish(describeError(error)));
      req.end(request.body, 'utf8');
    } catch (error) {
      // options Node refuses before connecting; its messages may quote a header
      const { code } = error as NodeJS.ErrnoException;
      finish(`request not sent (${code ?? 'invalid request'})`);
    }
  });
}
