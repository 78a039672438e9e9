import type { Response } from 'express';

/** One Server-Sent Events frame: `id:` (when given), `event:`, `data:` and the blank line. */
export function sseFrame(event: string, data: unknown, id?: number): string {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return `${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A Server-Sent Events response: the headers, `id:`/`event:`/`data:` frames, comment
 * heartbeats, and a bound on what a client that stops reading can make the server keep: past
 * `maxBufferedBytes` waiting in the socket, the stream is cut (the client reconnects with
 * Last-Event-ID and misses nothing).
 */
export class SseStream {
  private heartbeat: NodeJS.Timeout | null = null;
  private ended = false;
  private corked = false;
  private readonly closeHandlers: (() => void)[] = [];

  constructor(
    private readonly response: Response,
    private readonly options: { heartbeatMs: number; maxBufferedBytes: number; retryMs: number },
  ) {}

  /** Sends the headers and the reconnection delay; starts the heartbeat. */
  open(): void {
    const res = this.response;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // proxies (nginx) must not buffer the stream
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.write(`retry: ${this.options.retryMs}\n: connected\n\n`);
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), this.options.heartbeatMs);
    this.heartbeat.unref();
    res.on('close', () => this.finish());
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  onClose(handler: () => void): void {
    this.closeHandlers.push(handler);
  }

  send(event: string, data: unknown, id?: number): void {
    this.write(sseFrame(event, data, id));
  }

  /** A frame already made (one event sent to many streams is serialized once). */
  sendFrame(frame: string): void {
    this.write(frame);
  }

  /** Ends the stream (shutdown, the client's limit): the client reconnects elsewhere. */
  end(): void {
    if (this.ended) return;
    this.response.end();
    this.finish();
  }

  private write(text: string): void {
    if (this.ended) return;
    const res = this.response;
    // the frames of one tick (a burst of events) go out in one write of the socket
    if (!this.corked) {
      this.corked = true;
      res.cork();
      process.nextTick(() => {
        this.corked = false;
        res.uncork();
      });
    }
    res.write(text);
    if (res.writableLength > this.options.maxBufferedBytes) {
      // the client does not read: cut it rather than hold its backlog in memory
      res.destroy();
      this.finish();
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
