import fc from 'fast-check';
import { LOCKOUT_WINDOW_MS, MAX_FAILURES, MemoryAttemptCounter } from './attempt-counter';

const KEYS = ['demo|documento:40000001', 'demo|address:10.0.0.7', 'otro|documento:40000001'];

const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 20 * 60_000 }) }),
    fc.record({ kind: fc.constant('fail' as const), key: fc.constantFrom(...KEYS) }),
    fc.record({ kind: fc.constant('reset' as const), key: fc.constantFrom(...KEYS) }),
  ),
  { maxLength: 60 },
);

/**
 * The lockout's rule, stated the simplest way: a key's failures are counted from the first one
 * of a window of LOCKOUT_WINDOW_MS; a reset or the window's end forgets them; a key is locked
 * while its window holds MAX_FAILURES failures, until the window ends.
 */
class Model {
  private windows = new Map<string, { start: number; failures: number }>();
  now = 0;

  private live(key: string) {
    const w = this.windows.get(key);
    if (w && this.now >= w.start + LOCKOUT_WINDOW_MS) this.windows.delete(key);
    return this.windows.get(key);
  }

  fail(key: string) {
    const w = this.live(key) ?? { start: this.now, failures: 0 };
    w.failures += 1;
    this.windows.set(key, w);
  }

  reset(key: string) {
    this.windows.delete(key);
  }

  lockedFor(key: string): number {
    const w = this.live(key);
    if (!w || w.failures < MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil((w.start + LOCKOUT_WINDOW_MS - this.now) / 1000));
  }
}

describe('the sign-in lockout (MemoryAttemptCounter) against its rule', () => {
  it('locks exactly when the window holds 5 failures, for the rest of that window, per key', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const model = new Model();
        const counter = new MemoryAttemptCounter(() => model.now);
        for (const step of plan) {
          if (step.kind === 'wait') model.now += step.ms;
          else if (step.kind === 'fail') {
            model.fail(step.key);
            expect(await counter.fail(step.key)).toBe(model.lockedFor(step.key));
          } else {
            model.reset(step.key);
            await counter.reset(step.key);
          }
          for (const key of KEYS) expect(await counter.lockedFor(key)).toBe(model.lockedFor(key));
        }
      }),
    );
  });

  it('never locks for longer than the window, and never before the fifth failure', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.nat(LOCKOUT_WINDOW_MS),
        async (n, ms) => {
          let now = 0;
          const counter = new MemoryAttemptCounter(() => now);
          for (let i = 0; i < n; i += 1) await counter.fail('k');
          now += ms;
          const wait = await counter.lockedFor('k');
          if (n < MAX_FAILURES) expect(wait).toBe(0);
          else if (ms < LOCKOUT_WINDOW_MS) {
            expect(wait).toBeGreaterThan(0);
            expect(wait).toBeLessThanOrEqual(LOCKOUT_WINDOW_MS / 1000);
          } else expect(wait).toBe(0);
        },
      ),
    );
  });
});
