import { comandaExtensions } from '../../modules';
import { Grants } from '../../auth/grants';
import { redactQueryToken } from '../../common/logging/request-logging';
import { directUrl } from '../../database/pg-url';
import type { StreamEventRow } from '../comandas.repository';
import { matches } from './comanda-event-hub.service';
import { ComandasModule } from '../comandas.module';
import { feedEvent, frameOf, type FeedEvent } from './tenant-feed';

// the `acciones` of the application's comandas: their own actions and their extensions'
ComandasModule.extendWith(comandaExtensions());

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

describe('stream frames', () => {
  const row = {
    id_evento: '7',
    accion: 'cerrar',
    actor_id: null,
    actor: null,
    motivo: null,
    antes: { estado: 'abierta' },
    despues: { estado: 'cerrada' },
    fec_evento: new Date('2026-03-02T18:00:00Z'),
    id_comanda: '3',
    numero_ticket: '3',
    id_mesa: 1,
    mesa_numero: 1,
    id_usuario: null,
    mozo: null,
    id_cliente: null,
    cliente: null,
    estado: 'cerrada',
    fec_apertura: new Date('2026-03-02T17:00:00Z'),
    fec_cierre: new Date('2026-03-02T18:00:00Z'),
    total: '38.00',
    observacion: null,
    eliminada: false,
    fec_eliminacion: null,
    version: 2,
    items: 1,
  } satisfies StreamEventRow;
  const accionesOf = (frame: string) =>
    (JSON.parse(frame.split('data: ')[1]) as { comanda: { acciones: string[] } }).comanda.acciones;

  it('serialize an event once per distinct set of permissions, with that set’s acciones', () => {
    const event = feedEvent(row, 'America/Lima');
    const waiter = frameOf(event, Grants.ofRoles(['mozo']));
    expect(frameOf(event, Grants.ofRoles(['Mozo']))).toBe(waiter);
    const cashier = frameOf(event, Grants.ofRoles(['cajero']));
    const admin = frameOf(event, Grants.ALL);
    expect(event.frames.size).toBe(3);
    expect([accionesOf(waiter), accionesOf(cashier), accionesOf(admin)]).toEqual([
      [],
      ['abrir'],
      ['abrir', 'eliminar', 'reembolsar', 'preparar', 'listo', 'recuperar'],
    ]);
    expect(cashier.startsWith('id: 7\nevent: comanda\ndata: {"id_evento":7,')).toBe(true);
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
