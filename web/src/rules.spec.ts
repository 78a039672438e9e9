import { allowedActions, applyEvent, byTable } from './rules';
import type { ComandaSummary } from './types';

const summary = (over: Partial<ComandaSummary>): ComandaSummary => ({
  id_comanda: 1,
  numero_ticket: 1,
  id_mesa: 1,
  mesa: 1,
  id_usuario: null,
  mozo: null,
  id_cliente: null,
  cliente: null,
  estado: 'abierta',
  fec_apertura: '2026-11-23T12:00:00-05:00',
  fec_cierre: null,
  total: 0,
  n_items: 0,
  eliminada: false,
  version: 1,
  ...over,
});

const role =
  (...permissions: string[]) =>
  (p: string) =>
    permissions.includes(p);

describe('allowedActions', () => {
  it('follows the state machine', () => {
    const all = () => true;
    expect([...allowedActions(summary({}), all)].sort()).toEqual(
      ['anular', 'cerrar', 'dividir', 'lineas', 'transferir', 'unir'].sort(),
    );
    expect([...allowedActions(summary({ estado: 'cerrada' }), all)].sort()).toEqual([
      'abrir',
      'anular',
    ]);
    expect([...allowedActions(summary({ eliminada: true }), all)]).toEqual(['restaurar']);
  });

  it('follows the role matrix', () => {
    const mozo = role(
      'comandas:read',
      'comandas:write',
      'comandas:split',
      'comandas:merge',
      'comandas:transfer',
    );
    expect([...allowedActions(summary({}), mozo)].sort()).toEqual(
      ['dividir', 'lineas', 'transferir', 'unir'].sort(),
    );
    const cocina = role('comandas:read');
    expect(allowedActions(summary({}), cocina).size).toBe(0);
    const cajero = role(
      'comandas:read',
      'comandas:close',
      'comandas:split',
      'comandas:merge',
      'comandas:transfer',
    );
    expect([...allowedActions(summary({ estado: 'cerrada' }), cajero)]).toEqual(['abrir']);
  });
});

describe('applyEvent', () => {
  const open = (c: ComandaSummary) => c.estado === 'abierta' && !c.eliminada;

  it('adds, replaces by a newer version, and drops what leaves the view', () => {
    let list = applyEvent([], summary({ id_comanda: 7, version: 1 }), open);
    expect(list.map((c) => c.id_comanda)).toEqual([7]);
    list = applyEvent(list, summary({ id_comanda: 7, version: 3, total: 10 }), open);
    expect(list[0].total).toBe(10);
    // an older event arriving late changes nothing
    list = applyEvent(list, summary({ id_comanda: 7, version: 2, total: 5 }), open);
    expect(list[0].total).toBe(10);
    list = applyEvent(list, summary({ id_comanda: 7, version: 4, estado: 'cerrada' }), open);
    expect(list).toEqual([]);
  });
});

describe('byTable', () => {
  it('groups by table, tickets in number order, take-away apart', () => {
    const groups = byTable([
      summary({ id_comanda: 2, numero_ticket: 12, id_mesa: 3 }),
      summary({ id_comanda: 1, numero_ticket: 11, id_mesa: 3 }),
      summary({ id_comanda: 3, numero_ticket: 13, id_mesa: null }),
    ]);
    expect(groups.get(3)!.map((c) => c.numero_ticket)).toEqual([11, 12]);
    expect(groups.get(null)!.map((c) => c.id_comanda)).toEqual([3]);
  });
});
