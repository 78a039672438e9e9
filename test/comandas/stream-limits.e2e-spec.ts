import type { DynamicModule } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import {
  LIVE_STREAM_OPTIONS,
  type LiveStreamOptions,
} from '../../src/comandas/stream/comanda-event-hub.service';
import { MENU, seedMenu, tenantApi } from '../support/fixtures';
import { SseClient } from '../support/sse-client';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The limits of the live stream (docs/comandas.md, "Live updates"): a tenant's LISTEN connection
 * outlives its last subscriber for a while (30 s by default, shortened here) and then closes;
 * a client that stops reading is cut once more than 1 MiB waits for it, without holding back
 * the others, and reconnecting with its Last-Event-ID it misses nothing.
 */

/** The streams' settings as a test sets them (the service itself runs with the defaults). */
function liveStreamOptions(options: LiveStreamOptions): DynamicModule {
  class LiveStreamOptionsModule {}
  return {
    module: LiveStreamOptionsModule,
    global: true,
    providers: [{ provide: LIVE_STREAM_OPTIONS, useValue: options }],
    exports: [LIVE_STREAM_OPTIONS],
  };
}

/** Retries `check` until it passes or `timeoutMs` has gone by. */
async function eventually(check: () => Promise<unknown>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

describe('live stream limits', () => {
  const opened: SseClient[] = [];
  const apps: TestApp[] = [];

  const start = async (options: LiveStreamOptions = {}) => {
    const t = await startTestApp({}, undefined, [liveStreamOptions(options)]);
    apps.push(t);
    await t.app.listen(0, '127.0.0.1');
    await t.dbs.createTenant('vivo');
    await seedMenu(t.dbs, 'vivo');
    return t;
  };

  const stream = async (t: TestApp, headers: Record<string, string> = {}) => {
    const client = await SseClient.open(t.http, '/api/v1/comandas/stream', {
      'X-Tenant-ID': 'vivo',
      ...headers,
    });
    opened.push(client);
    expect(client.status).toBe(200);
    // the first comment is written once the stream has joined the tenant's feed
    await client.until(() => client.comments >= 1);
    return client;
  };

  /** What GET /api/health reports of the live streams of the instance. */
  const connections = async (t: TestApp) =>
    (await request(t.http).get('/api/health').expect(200)).body.connections as {
      listeners: number;
      streams: number;
    };

  /** The backend pids of the tenant's LISTEN connections, as PostgreSQL shows them. */
  const listenerPids = async (t: TestApp) =>
    (
      await t.dbs.query<{ pid: number }>(
        t.dbs.serverUrl,
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
        [`${t.dbs.prefix}vivo`, 'comandas-listener:vivo'],
      )
    ).map((row) => row.pid);

  afterAll(async () => {
    for (const client of opened) client.close();
    for (const t of apps) await t.close();
  });

  describe("the tenant's LISTEN connection after its last subscriber leaves", () => {
    it('stays open while the idle delay runs, and serves the next subscriber', async () => {
      const t = await start({ feedIdleMs: 3_600_000 });
      const first = await stream(t);
      expect(await connections(t)).toMatchObject({ listeners: 1, streams: 1 });
      const [listener] = await listenerPids(t);
      expect(listener).toEqual(expect.any(Number));

      first.close();
      await eventually(async () => expect((await connections(t)).streams).toBe(0));
      expect((await connections(t)).listeners).toBe(1);
      expect(await listenerPids(t)).toEqual([listener]);

      // a subscriber arriving within the delay joins the same connection: no new one
      const second = await stream(t);
      expect(await connections(t)).toMatchObject({ listeners: 1, streams: 1 });
      expect(await listenerPids(t)).toEqual([listener]);
      second.close();
    });

    it('is closed once the idle delay has passed, and opened again for a new subscriber', async () => {
      const t = await start({ feedIdleMs: 200 });
      const first = await stream(t);
      const [listener] = await listenerPids(t);
      first.close();
      await eventually(async () => {
        expect(await connections(t)).toMatchObject({ listeners: 0, streams: 0 });
        expect(await listenerPids(t)).toEqual([]);
      });

      const again = await stream(t);
      expect(await connections(t)).toMatchObject({ listeners: 1, streams: 1 });
      const pids = await listenerPids(t);
      expect(pids).toHaveLength(1);
      expect(pids).not.toEqual([listener]);
      again.close();
    });
  });

  describe('a client that stops reading', () => {
    it('is cut past 1 MiB unread; the others get everything; its Last-Event-ID loses nothing', async () => {
      const t = await start();
      const api = tenantApi(t.http, 'vivo');
      const comanda = (
        await api
          .post('/comandas', { id_mesa: 1, items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
          .expect(201)
      ).body as { id_comanda: number };
      const newest = async () =>
        (
          await t.dbs.query<{ n: number }>(
            t.dbs.tenantUrl('vivo'),
            'SELECT max(id_evento)::int AS n FROM comanda_eventos',
          )
        )[0].n;
      const after = await newest();

      const reader = await stream(t);
      const slow = await stream(t);
      slow.pause();

      // audit entries of 32 KiB each (a long motivo), 512 KiB a round, until the slow client is
      // cut; each round waits for the reading client, which so never has much waiting for it
      const written: number[] = [];
      for (let round = 0; round < 64 && (await connections(t)).streams === 2; round++) {
        const rows = await t.dbs.query<{ id: number }>(
          t.dbs.tenantUrl('vivo'),
          `INSERT INTO comanda_eventos (id_comanda, accion, motivo)
           SELECT $1, 'editar', repeat('x', 32768) FROM generate_series(1, 16)
           RETURNING id_evento::int AS id`,
          [comanda.id_comanda],
        );
        written.push(...rows.map((row) => row.id));
        const last = written[written.length - 1];
        await reader.until(() => reader.comandaEvents().some((e) => e._id >= last), 20_000);
      }
      expect(await connections(t)).toMatchObject({ listeners: 1, streams: 1 });

      // the reading client got every entry, in order, and is still served
      const ids = (client: SseClient) =>
        client
          .comandaEvents()
          .map((e) => e._id)
          .filter((id) => id > after);
      expect(ids(reader)).toEqual(written);
      expect(reader.ended).toBe(false);

      // the slow one reads what was in its socket, then finds its stream ended, short of the end
      slow.resume();
      await slow.until(() => slow.ended, 20_000, 'the end of the cut stream');
      const got = ids(slow);
      expect(got).toEqual(written.slice(0, got.length));
      expect(got.length).toBeLessThan(written.length);

      // reconnecting with its Last-Event-ID, it gets the rest
      const lastSeen = got.length > 0 ? got[got.length - 1] : after;
      const resumed = await stream(t, { 'Last-Event-ID': String(lastSeen) });
      const rest = written.filter((id) => id > lastSeen);
      await resumed.until(
        () => resumed.comandaEvents().some((e) => e._id >= written[written.length - 1]),
        20_000,
      );
      expect(ids(resumed)).toEqual(rest);
      reader.close();
      resumed.close();
    });
  });
});
