import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { AppLogger, createLogger } from '../logging/logger';
import { RequestTimeouts } from './request-timeouts';

/** Just enough of an Express response: what sendError writes, and its end events. */
interface FakeResponse extends EventEmitter {
  headersSent: boolean;
  writableEnded: boolean;
  statusCode: number;
  headers: Record<string, unknown>;
  body: unknown;
  setHeader(name: string, value: unknown): void;
  status(code: number): FakeResponse;
  json(body: unknown): FakeResponse;
}

function fakeResponse(): FakeResponse {
  const res = new EventEmitter() as FakeResponse;
  res.headersSent = false;
  res.writableEnded = false;
  res.statusCode = 200;
  res.headers = {};
  res.body = undefined;
  res.setHeader = (name, value) => {
    res.headers[name.toLowerCase()] = value;
  };
  res.status = (code) => {
    res.statusCode = code;
    return res;
  };
  res.json = (body) => {
    res.body = body;
    res.headersSent = true;
    res.writableEnded = true;
    res.emit('finish');
    return res;
  };
  return res;
}

/** The handler answered: what Express does when a response is sent. */
function answer(res: FakeResponse) {
  res.json({ ok: true });
}

describe('RequestTimeouts', () => {
  let timeouts: RequestTimeouts;
  const start = (res: FakeResponse, id = 'r') =>
    timeouts.start({ id } as unknown as Request, res as unknown as Response);

  beforeEach(() => {
    jest.useFakeTimers();
    const config = { REQUEST_TIMEOUT_MS: 1_000 } as AppConfig;
    timeouts = new RequestTimeouts(config, new AppLogger(createLogger('silent')));
  });

  afterEach(() => {
    timeouts.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('answers 503 REQUEST_TIMEOUT with Retry-After to a request still unanswered at its deadline', () => {
    const res = fakeResponse();
    start(res, 'req-1');
    jest.advanceTimersByTime(999);
    expect(res.headersSent).toBe(false);
    jest.advanceTimersByTime(1);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ code: 'REQUEST_TIMEOUT', requestId: 'req-1' });
  });

  it('leaves alone the requests answered in time, and times out each late one at its own deadline', () => {
    const early = fakeResponse();
    const late1 = fakeResponse();
    const late2 = fakeResponse();
    start(early);
    jest.advanceTimersByTime(300);
    start(late1);
    jest.advanceTimersByTime(300);
    start(late2);
    answer(early);
    jest.advanceTimersByTime(699); // t = 1299: late1's deadline is 1300
    expect(early.body).toEqual({ ok: true });
    expect(late1.headersSent).toBe(false);
    jest.advanceTimersByTime(1);
    expect(late1.statusCode).toBe(503);
    expect(late2.headersSent).toBe(false);
    jest.advanceTimersByTime(300); // t = 1600: late2's deadline
    expect(late2.statusCode).toBe(503);
  });

  it('does nothing to a response that ended otherwise (client gone) before its deadline', () => {
    const res = fakeResponse();
    start(res);
    res.emit('close');
    jest.advanceTimersByTime(5_000);
    expect(res.headersSent).toBe(false);
    expect(res.body).toBeUndefined();
  });

  it('keeps timing out requests after thousands have been answered in time', () => {
    for (let i = 0; i < 3_000; i += 1) {
      const res = fakeResponse();
      start(res);
      answer(res);
      jest.advanceTimersByTime(1);
    }
    const late = fakeResponse();
    start(late);
    jest.advanceTimersByTime(1_000);
    expect(late.statusCode).toBe(503);
  });

  it('starts no deadline with REQUEST_TIMEOUT_MS=0', () => {
    const none = new RequestTimeouts(
      { REQUEST_TIMEOUT_MS: 0 } as AppConfig,
      new AppLogger(createLogger('silent')),
    );
    const res = fakeResponse();
    none.start({} as Request, res as unknown as Response);
    jest.advanceTimersByTime(3_600_000);
    expect(res.headersSent).toBe(false);
  });
});
