import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Logger } from '../common/logging/logger';
import { FailOpenStorage } from './fail-open-storage';

const COUNTED = { totalHits: 3, timeToExpire: 42, isBlocked: false, timeToBlockExpire: 0 };

function setup(increment: ThrottlerStorage['increment']) {
  let now = 1_000_000;
  const logger = { warn: jest.fn(), info: jest.fn() };
  const storage = new FailOpenStorage(
    { increment: jest.fn(increment) },
    logger as unknown as Logger,
    {
      timeoutMs: 50,
      warnEveryMs: 60_000,
      now: () => now,
    },
  );
  return {
    storage,
    logger,
    advance: (ms: number) => (now += ms),
    count: () => storage.increment('k', 60_000, 10, 60_000, 'default'),
  };
}

describe('FailOpenStorage', () => {
  it("answers the wrapped storage's count when it works, and tells nothing", async () => {
    const { count, logger } = setup(() => Promise.resolve(COUNTED));
    await expect(count()).resolves.toEqual(COUNTED);
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.info).not.toHaveBeenCalled();
  });

  it('answers "first of its window, under the limit" when the storage throws', async () => {
    const { count } = setup(() => Promise.reject(new Error('Connection is closed.')));
    await expect(count()).resolves.toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('gives up on a storage that does not answer within timeoutMs', async () => {
    const { count, logger } = setup(() => new Promise(() => undefined));
    const started = Date.now();
    await expect(count()).resolves.toMatchObject({ isBlocked: false });
    expect(Date.now() - started).toBeLessThan(500);
    expect(logger.warn).toHaveBeenCalledWith(
      { err: 'no answer within 50 ms' },
      expect.stringContaining('the limit fails open'),
    );
  });

  it('warns once a minute at most, with the failures untold since', async () => {
    const { count, logger, advance, storage } = setup(() =>
      Promise.reject(new Error('ECONNREFUSED')),
    );
    for (let i = 0; i < 50; i += 1) await count();
    storage.failed(new Error('connect ECONNREFUSED 127.0.0.1:6379')); // a connection error too
    expect(logger.warn).toHaveBeenCalledTimes(1);
    advance(59_999);
    await count();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    advance(1);
    await count();
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenLastCalledWith(
      { err: 'ECONNREFUSED', failuresSinceLastWarning: 51 },
      expect.any(String),
    );
  });

  it('tells once that the storage works again, and counts again', async () => {
    let down = true;
    const { count, logger, advance } = setup(() =>
      down ? Promise.reject(new Error('down')) : Promise.resolve(COUNTED),
    );
    await count();
    down = false;
    await expect(count()).resolves.toEqual(COUNTED);
    await count();
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('counted again'));
    // failing again within the minute stays untold
    down = true;
    advance(10_000);
    await count();
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});
