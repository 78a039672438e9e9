import { redactQueryToken } from '../../common/logging/request-logging';
import { directUrl } from '../../database/pg-url';
import { matches } from './comanda-event-hub.service';
import type { FeedEvent } from './tenant-feed';

const event = (comanda: { id_mesa: number | null; estado: string }, antes: object | null) =>
  ({ id: 1, data: { comanda }, antes }) as unknown as FeedEvent;

describe('stream filters', () => {
  it('match the comanda as it is now, or as it was before the change', () => {
    const moved = event({ id_mesa: 1, estado: 'abierta' }, { id_mesa: 2 });
    expect(matches(moved, { id_mesa: 1 })).toBe(true);
    expect(matches(moved, { id_mesa: 2 })).toBe(true);
    expect(matches(moved, { id_mesa: 3 })).toBe(false);
    const closed = event({ id_mesa: 1, estado: 'cerrada' }, { estado: 'abierta' });
    expect(matches(closed, { estado: 'abierta' })).toBe(true);
    expect(matches(closed, { estado: 'cerrada' })).toBe(true);
    expect(matches(closed, { estado: 'abierta', id_mesa: 2 })).toBe(false);
    expect(matches(event({ id_mesa: null, estado: 'abierta' }, null), {})).toBe(true);
  });
});

describe('redactQueryToken', () => {
  it('keeps a token in the query out of the request log', () => {
    expect(redactQueryToken('/api/v1/comandas/stream?access_token=eyJ.a.b&estado=abierta')).toBe(
      '/api/v1/comandas/stream?access_token=[redacted]&estado=abierta',
    );
    expect(redactQueryToken('/x?estado=abierta&ACCESS_TOKEN=abc')).toBe(
      '/x?estado=abierta&ACCESS_TOKEN=[redacted]',
    );
    expect(redactQueryToken('/api/v1/comandas?limit=5')).toBe('/api/v1/comandas?limit=5');
  });
});

describe('directUrl', () => {
  it('swaps a pooler host:port for the server named in DIRECT_DATABASE_HOSTS', () => {
    const map = 'pgbouncer:6432=db1:5432,pgb2:6432=db2:5433';
    expect(directUrl('postgres://u:p@pgbouncer:6432/t1', map)).toBe('postgres://u:p@db1:5432/t1');
    expect(directUrl('postgres://u:p@pgb2:6432/t2?sslmode=require', map)).toBe(
      'postgres://u:p@db2:5433/t2?sslmode=require',
    );
    expect(directUrl('postgres://u:p@other:5432/t3', map)).toBe('postgres://u:p@other:5432/t3');
    expect(directUrl('postgres://u:p@pgbouncer:6432/t1', undefined)).toBe(
      'postgres://u:p@pgbouncer:6432/t1',
    );
  });
});
