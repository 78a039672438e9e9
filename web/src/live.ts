import type { ApiClient, Schemas } from './api';
import type { paths } from './api/schema';

/** The `data:` of an `event: comanda`. */
export type StreamEvent = Schemas['ComandaStreamEvent'];

/** The filters of the stream: its query parameters. */
export type StreamQuery = NonNullable<
  paths['/api/v1/comandas/stream']['get']['parameters']['query']
>;

/** One Server-Sent Events frame. */
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

/**
 * Splits a text stream into SSE frames (a blank line ends one; `:` lines are comments). Feed it
 * chunks as they come; it returns the complete frames and keeps the rest.
 */
export class SseParser {
  private buffer = '';

  push(chunk: string): SseFrame[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const frames: SseFrame[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame: SseFrame = { event: 'message', data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') frame.id = value;
        else if (field === 'event') frame.event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) {
        frame.data = data.join('\n');
        frames.push(frame);
      }
    }
    return frames;
  }
}

export type LiveStatus = 'connecting' | 'live' | 'retrying';

export interface LiveHandlers {
  onEvent(event: StreamEvent): void;
  /** The server could not replay the gap: reload what is shown. */
  onReset(): void;
  onStatus(status: LiveStatus): void;
}

/**
 * Follows GET /comandas/stream with fetch (so the tenant header and the token go as headers,
 * not in the URL), and reconnects by itself with the last event id it received: after a
 * dropped connection, a server restart or a deploy, nothing is missed (docs/comandas.md, Live
 * updates). It stops by itself on 401: the session ended. Returns a function that stops it.
 */
export function followComandas(
  api: ApiClient,
  handlers: LiveHandlers,
  query: StreamQuery = {},
): () => void {
  return follow(
    (header, signal) =>
      api.GET('/api/v1/comandas/stream', {
        params: { query, header },
        headers: { Accept: 'text/event-stream' },
        parseAs: 'stream',
        signal,
        cache: 'no-store',
      }),
    'comanda',
    { ...handlers, onEvent: (data) => handlers.onEvent(data as StreamEvent) },
  );
}

/** The `data:` of an `event: cocina`: the comanda stream's event, plus the tickets it touched. */
export type CocinaEvent = StreamEvent & { envios?: number[]; estaciones?: number[] };

/**
 * Follows a station's kitchen events, GET /cocina/stream?estacion=<id>, the same way as the
 * comandas' (fetch, Last-Event-ID resume, reconnecting by itself; docs/cocina.md).
 */
export function followCocina(
  api: ApiClient,
  estacion: number,
  handlers: Omit<LiveHandlers, 'onEvent'> & { onEvent(event: CocinaEvent): void },
): () => void {
  return follow(
    (header, signal) =>
      api.GET('/api/v1/cocina/stream', {
        params: { query: { estacion }, header },
        headers: { Accept: 'text/event-stream' },
        parseAs: 'stream',
        signal,
        cache: 'no-store',
      }),
    'cocina',
    { ...handlers, onEvent: (data) => handlers.onEvent(data as CocinaEvent) },
  );
}

/** The longest wait between two attempts to connect. */
const MAX_WAIT_MS = 15_000;

/** One stream's loop: connect, read frames, hand over `eventName`'s data, retry with backoff. */
function follow(
  open: (
    header: { 'Last-Event-ID'?: string },
    signal: AbortSignal,
  ) => Promise<{ data?: ReadableStream | null; response: Response }>,
  eventName: string,
  handlers: Omit<LiveHandlers, 'onEvent'> & { onEvent(data: unknown): void },
): () => void {
  let stopped = false;
  let lastId: string | undefined;
  let controller: AbortController | null = null;
  let attempt = 0;
  let sessionEnded = false;

  const run = async () => {
    while (!stopped) {
      handlers.onStatus(attempt === 0 ? 'connecting' : 'retrying');
      controller = new AbortController();
      try {
        const { data: body, response } = await open(
          lastId ? { 'Last-Event-ID': lastId } : {},
          controller.signal,
        );
        // a token the service no longer takes: no retry brings it back (the client's
        // onUnauthenticated tells the page, which asks who is there)
        if (response.status === 401) return;
        if (!response.ok || !body) throw new Error(`stream answered ${response.status}`);
        handlers.onStatus('live');
        attempt = 0;
        const reader = body.pipeThrough(new TextDecoderStream()).getReader();
        const parser = new SseParser();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const frame of parser.push(value)) {
            if (frame.id) lastId = frame.id;
            if (frame.event === 'reset') handlers.onReset();
            else if (frame.event === 'end') sessionEnded = true;
            else if (frame.event === eventName) handlers.onEvent(JSON.parse(frame.data));
          }
        }
      } catch {
        if (stopped) return;
      }
      if (stopped) return;
      attempt += 1;
      handlers.onStatus('retrying');
      // 1 s, 2 s, 4 s ... up to 15 s between attempts; after the service ended the stream with
      // its session (`event: end`: signed out, deactivated, expired), the longest wait: the page
      // that signed out stops this stream meanwhile, and otherwise the attempt's 401 tells the
      // page the session is over
      const wait = sessionEnded ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, 1_000 * 2 ** (attempt - 1));
      sessionEnded = false;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
