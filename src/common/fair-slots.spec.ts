import { FairSlots, SlotsFull } from './fair-slots';

/** A piece of work the test ends by hand, recording the order work starts in. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return {
    work: () => {
      log.push(name);
      return done.then(() => name);
    },
    open: () => open(),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairSlots', () => {
  it('runs at most `slots` at once, and starts the rest as slots free', async () => {
    const slots = new FairSlots({ slots: 2, perKey: 10, max: 10 });
    const log: string[] = [];
    const gates = ['a', 'b', 'c'].map((n) => gate(log, n));
    const results = gates.map((g) => slots.run('t', 'k', g.work));
    await settle();
    expect(log).toEqual(['a', 'b']);
    expect(slots.size).toEqual({ running: 2, waiting: 1, admitted: 3 });
    gates[0].open();
    await settle();
    expect(log).toEqual(['a', 'b', 'c']);
    gates[1].open();
    gates[2].open();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c']);
    expect(slots.size).toEqual({ running: 0, waiting: 0, admitted: 0 });
  });

  it('gives a freed slot to the next key in turn, not to the key that queued most', async () => {
    const slots = new FairSlots({ slots: 1, perKey: 100, max: 100 });
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const runs: Promise<string>[] = [];
    const start = (group: string, key: string, name: string) => {
      const g = gate(log, name);
      gates.set(name, g);
      runs.push(slots.run(group, key, g.work));
    };
    for (let i = 0; i < 5; i += 1) start('t1', 'flood', `flood${i}`);
    start('t1', 'tablet', 'tablet');
    start('t2', 'other', 'other');
    await settle();
    // one slot: end whatever runs now, and see who starts next
    while (log.length < gates.size || slots.size.running > 0) {
      gates.get(log.at(-1)!)!.open();
      await settle();
      if (slots.size.running === 0) break;
    }
    await Promise.all(runs);
    // the groups take turns (t1 was served last: t2 first), and within t1 its keys (flood was
    // served last: tablet first): the other tenant and the tablet wait one piece of work each,
    // not the whole flood
    expect(log).toEqual(['flood0', 'other', 'tablet', 'flood1', 'flood2', 'flood3', 'flood4']);
  });

  it('refuses past the bound of a key (scope key) and past the whole bound (scope all)', async () => {
    const slots = new FairSlots({ slots: 1, perKey: 2, max: 3 });
    const log: string[] = [];
    const a = [gate(log, 'a0'), gate(log, 'a1')];
    const runs = a.map((g) => slots.run('t', 'a', g.work));
    const third = slots.run('t', 'a', gate(log, 'a2').work);
    await expect(third).rejects.toBeInstanceOf(SlotsFull);
    await expect(third).rejects.toMatchObject({ scope: 'key', limit: 2 });
    const b = gate(log, 'b0');
    const runB = slots.run('t', 'b', b.work);
    const refused = slots.run('t', 'c', gate(log, 'c0').work);
    await expect(refused).rejects.toMatchObject({ scope: 'all', limit: 3 });
    const error = (await refused.catch((e: unknown) => e)) as SlotsFull;
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    for (const g of [...a, b]) g.open();
    await Promise.all([...runs, runB]);
    // room again once the work ended
    await expect(slots.run('t', 'a', () => Promise.resolve('again'))).resolves.toBe('again');
    expect(slots.size).toEqual({ running: 0, waiting: 0, admitted: 0 });
  });

  it('holds a place from admit to leave, before the work has its turn', async () => {
    const slots = new FairSlots({ slots: 1, perKey: 1, max: 2 });
    const ticket = slots.admit('t', 'k');
    expect(() => slots.admit('t', 'k')).toThrow(SlotsFull);
    const other = slots.admit('t', 'j');
    expect(() => slots.admit('t', 'i')).toThrow(expect.objectContaining({ scope: 'all' }));
    other.leave();
    other.leave();
    await expect(ticket.run(() => Promise.resolve('ran'))).resolves.toBe('ran');
    await expect(ticket.run(() => Promise.resolve('again'))).rejects.toThrow('runs once');
    ticket.leave();
    expect(slots.size).toEqual({ running: 0, waiting: 0, admitted: 0 });
  });

  it('frees the slot and the share of work that throws', async () => {
    const slots = new FairSlots({ slots: 1, perKey: 1, max: 1 });
    await expect(slots.run('t', 'k', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(slots.run('t', 'k', () => Promise.resolve(1))).resolves.toBe(1);
    expect(slots.size).toEqual({ running: 0, waiting: 0, admitted: 0 });
  });

  it('refuses limits that cannot work', () => {
    expect(() => new FairSlots({ slots: 0, perKey: 1, max: 1 })).toThrow(RangeError);
    expect(() => new FairSlots({ slots: 2, perKey: 1, max: 1 })).toThrow(RangeError);
  });
});
