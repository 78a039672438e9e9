import type { AppConfig } from '../common/config/app-config';
import type { RpcRepository } from '../rpc/rpc.repository';
import { AttendanceImporter } from './attendance-importer';
import type { ParsedLine, PunchRecord } from './driver.types';

const punch = (n: number): PunchRecord => ({
  doc: '40000001',
  fecha: '2026-03-02',
  hora: `08:00:${String(n).padStart(2, '0')}`,
});

/** An export of `count` punches; `failAfter` lines, it throws like a parser on a broken file. */
function source(count: number, failAfter?: number) {
  const state = { read: 0, closed: false };
  async function* lines(): AsyncIterable<ParsedLine> {
    try {
      for (let n = 1; n <= count; n += 1) {
        if (n - 1 === failAfter) throw new Error('broken file');
        state.read = n;
        yield { kind: 'record', line: n, record: punch(n) };
      }
    } finally {
      state.closed = true;
    }
  }
  return { lines: lines(), state };
}

/**
 * import_asistencia as the importer sees it: each call takes a few milliseconds and stores every
 * punch; `failing` calls (1-based) are refused like a database gone away.
 */
function storeFunction(readSoFar: () => number, failing: number[] = []) {
  const calls: { batch: string[]; readWhenStored: number }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const rpc = {
    call: async (_fn: string, [records]: [PunchRecord[]]) => {
      const call = { batch: records.map((r) => r.hora), readWhenStored: 0 };
      calls.push(call);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      call.readWhenStored = readSoFar();
      if (failing.includes(calls.length)) throw new Error('database gone');
      return { insertados: records.length, duplicados: 0, dias_recalculados: 1 };
    },
  };
  return { rpc: rpc as unknown as RpcRepository, calls, mostAtOnce: () => mostAtOnce };
}

const importer = (rpc: RpcRepository, batchSize: number) =>
  new AttendanceImporter(rpc, { IMPORT_BATCH_SIZE: batchSize } as AppConfig);

describe('AttendanceImporter batches', () => {
  it('sends the batches one at a time, in file order, reading the next one meanwhile', async () => {
    const file = source(5);
    const store = storeFunction(() => file.state.read);
    const progress: number[] = [];

    const summary = await importer(store.rpc, 2).importRecords(
      file.lines,
      'zkteco-attlog',
      'attlog.dat',
      (s) => progress.push(s.inserted),
    );

    expect(store.calls.map((c) => c.batch)).toEqual([
      ['08:00:01', '08:00:02'],
      ['08:00:03', '08:00:04'],
      ['08:00:05'],
    ]);
    expect(store.mostAtOnce()).toBe(1);
    // while the first batch was stored, the second one was read
    expect(store.calls[0].readWhenStored).toBe(4);
    expect(progress).toEqual([2, 4, 5]);
    expect(summary).toMatchObject({ read: 5, punches: 5, inserted: 5, daysRecalculated: 3 });
  });

  it('stops at a batch the database refuses: no later batch is sent, the file is closed', async () => {
    const file = source(9);
    const store = storeFunction(() => file.state.read, [2]);

    await expect(
      importer(store.rpc, 2).importRecords(file.lines, 'zkteco-attlog', 'attlog.dat'),
    ).rejects.toThrow('database gone');
    expect(store.calls).toHaveLength(2);
    expect(file.state.read).toBeLessThanOrEqual(6);
    expect(file.state.closed).toBe(true);
  });

  it('on a broken file, waits for the batch being stored before failing', async () => {
    const file = source(9, 3);
    const store = storeFunction(() => file.state.read);

    await expect(
      importer(store.rpc, 2).importRecords(file.lines, 'zkteco-attlog', 'attlog.dat'),
    ).rejects.toThrow('broken file');
    // the first batch was in flight when the file broke: it was stored, nothing after it sent
    expect(store.calls).toEqual([{ batch: ['08:00:01', '08:00:02'], readWhenStored: 3 }]);
    expect(store.mostAtOnce()).toBe(1);
  });
});
