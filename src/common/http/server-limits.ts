import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppConfig } from '../config/app-config';

/** The settings of the HTTP server's limits (docs/security.md, "The HTTP server's limits"). */
export type ServerLimitSettings = Pick<
  AppConfig,
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
  | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'
  | 'HTTP_BODY_MIN_BYTES_PER_S'
  | 'HTTP_MAX_CONNECTIONS'
  | 'HTTP_MAX_HEADER_BYTES'
>;

/** A body gets this long before its pace is measured (its first bytes, a slow start). */
export const BODY_GRACE_MS = 5_000;
/** How often the bodies being received are checked. */
const BODY_CHECK_MS = 1_000;

const TIMED_OUT =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n';

/** The raw answer of a body cut for its pace: the envelope of every error, then the end. */
function timedOut(message: string): string {
  const body = JSON.stringify({ error: message, code: 'REQUEST_TIMEOUT' });
  return `${TIMED_OUT}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

interface BodyInFlight {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Socket;
  startedAt: number;
  /** The socket's bytes read when the request's head had been read. */
  bytesAtStart: number;
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

/**
 * The HTTP server's own limits, set on Node's server before it listens, so that a client can
 * hold no connection, no request head and no body for longer than they need:
 *
 * - at most HTTP_MAX_CONNECTIONS connections at once (Node closes the ones beyond);
 * - a new connection must send its request's head within HTTP_HEADERS_TIMEOUT_MS (Node times a
 *   head only from its first byte: a connection that sends nothing would stay forever), and so
 *   must each later request on it (Node's headersTimeout);
 * - between two requests a connection stays open HTTP_KEEP_ALIVE_TIMEOUT_MS;
 * - a request (head and body) must be received within HTTP_REQUEST_TIMEOUT_MS (408), and its body,
 *   after BODY_GRACE_MS, at HTTP_BODY_MIN_BYTES_PER_S on average at least (408 and the connection
 *   closed: a body trickled a byte a second would otherwise hold its connection for the whole
 *   request timeout, and an upload of 100 MB still has minutes);
 * - request heads of at most HTTP_MAX_HEADER_BYTES (431).
 *
 * A request being answered is never cut by these: a handler's own time is bounded by
 * REQUEST_TIMEOUT_MS (src/common/http/request-timeouts.ts) and the statement timeout.
 */
export function applyServerLimits(http: Server, limits: ServerLimitSettings): void {
  // two settings Node reads from the server when a connection comes and when it listens
  const server = http as Server & { maxHeaderSize?: number; connectionsCheckingInterval?: number };
  server.maxConnections = limits.HTTP_MAX_CONNECTIONS;
  server.maxHeaderSize = limits.HTTP_MAX_HEADER_BYTES;
  server.headersTimeout = limits.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = limits.HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = limits.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  // Node checks the heads and requests it times this often (30 s by default, which would let a
  // 10 s limit run to 40 s)
  server.connectionsCheckingInterval = Math.min(
    1_000,
    Math.max(100, Math.floor(limits.HTTP_HEADERS_TIMEOUT_MS / 2)),
  );

  // a connection with no request yet: closed once it has been idle for the head's time (Node
  // destroys a socket that times out when no request or response listens for it)
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(limits.HTTP_HEADERS_TIMEOUT_MS);
  });

  const bodies = new Set<BodyInFlight>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    // a request being answered is never timed by its socket (a long report, a held lock)
    request.socket.setTimeout(0);
    if (limits.HTTP_BODY_MIN_BYTES_PER_S > 0 && hasBody(request) && !request.complete) {
      bodies.add({
        request,
        response,
        socket: request.socket,
        startedAt: Date.now(),
        bytesAtStart: request.socket.bytesRead,
      });
    }
  });

  if (limits.HTTP_BODY_MIN_BYTES_PER_S === 0) return;
  let timer: NodeJS.Timeout | null = null;
  const check = () => {
    const now = Date.now();
    for (const body of bodies) {
      if (body.request.complete || body.socket.destroyed) {
        bodies.delete(body);
        continue;
      }
      const elapsed = now - body.startedAt;
      if (elapsed < BODY_GRACE_MS) continue;
      const rate = ((body.socket.bytesRead - body.bytesAtStart) * 1000) / elapsed;
      if (rate >= limits.HTTP_BODY_MIN_BYTES_PER_S) continue;
      bodies.delete(body);
      // what Node does when a request times out: the answer written on the socket, then closed
      if (!body.response.headersSent && body.socket.writable)
        body.socket.write(
          timedOut(
            `The request body came slower than ${limits.HTTP_BODY_MIN_BYTES_PER_S} bytes per second`,
          ),
        );
      body.socket.destroySoon();
    }
  };
  server.on('listening', () => {
    timer ??= setInterval(check, BODY_CHECK_MS);
    timer.unref();
  });
  server.on('close', () => {
    if (timer) clearInterval(timer);
    timer = null;
    bodies.clear();
  });
}
