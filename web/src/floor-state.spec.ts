import type { ComandaSummary, Mesa } from './api';
import { allows, applyEvent, estadoDe, floorOf, isOpen } from './floor-state';

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
  items: 0,
  eliminada: false,
  version: 1,
  acciones: [],
  ...over,
});

const mesa = (id_mesa: number, over: Partial<Mesa> = {}): Mesa => ({
  id_mesa,
  numero: id_mesa,
  zona: null,
  capacidad: 4,
  activo: true,
  abiertas: 0,
  ...over,
});

describe('allows', () => {
  it('is what the service listed in acciones, nothing more', () => {
    const c = summary({ acciones: ['agregar_item', 'cerrar'] });
    expect(allows(c, 'cerrar')).toBe(true);
    expect(allows(c, 'eliminar')).toBe(false);
    expect(allows(summary({ acciones: [] }), 'cerrar')).toBe(false);
  });
});

describe('estadoDe and isOpen', () => {
  it('reads a voided comanda as eliminada, whatever its estado', () => {
    expect(estadoDe(summary({}))).toBe('abierta');
    expect(estadoDe(summary({ estado: 'cerrada' }))).toBe('cerrada');
    expect(estadoDe(summary({ estado: 'cerrada', eliminada: true }))).toBe('eliminada');
    expect(isOpen(summary({}))).toBe(true);
    expect(isOpen(summary({ eliminada: true }))).toBe(false);
  });
});

describe('applyEvent', () => {
  it('adds, replaces by a newer version, and drops what leaves the view', () => {
    let list = applyEvent([], summary({ id_comanda: 7, version: 1 }), isOpen);
    expect(list.map((c) => c.id_comanda)).toEqual([7]);
    list = applyEvent(list, summary({ id_comanda: 7, version: 3, total: 10 }), isOpen);
    expect(list[0].total).toBe(10);
    // an older event arriving late changes nothing
    list = applyEvent(list, summary({ id_comanda: 7, version: 2, total: 5 }), isOpen);
    expect(list[0].total).toBe(10);
    list = applyEvent(list, summary({ id_comanda: 7, version: 4, estado: 'cerrada' }), isOpen);
    expect(list).toEqual([]);
  });

  it('takes the acciones of the newer version', () => {
    let list = [summary({ id_comanda: 7, version: 1, acciones: ['cerrar'] })];
    list = applyEvent(list, summary({ id_comanda: 7, version: 2, acciones: [] }), isOpen);
    expect(list[0].acciones).toEqual([]);
  });
});

describe('floorOf', () => {
  it('lays the tickets on their tables by number, take-away apart, with the figures', () => {
    const floor = floorOf(
      [mesa(2), mesa(1), mesa(3)],
      [
        summary({ id_comanda: 2, numero_ticket: 12, id_mesa: 3, total: 0.1 }),
        summary({
          id_comanda: 1,
          numero_ticket: 11,
          id_mesa: 3,
          total: 0.2,
          fec_apertura: '2026-11-23T11:30:00-05:00',
        }),
        summary({ id_comanda: 3, numero_ticket: 13, id_mesa: null, total: 20 }),
      ],
    );
    expect(floor.mesas.map((t) => t.mesa.numero)).toEqual([1, 2, 3]);
    const tres = floor.mesas[2];
    expect(tres.comandas.map((c) => c.numero_ticket)).toEqual([11, 12]);
    expect(tres.total).toBe(0.3);
    expect(tres.desde).toBe('2026-11-23T11:30:00-05:00');
    expect(floor.mesas[0]).toMatchObject({ comandas: [], total: 0, desde: null });
    expect(floor.llevar.map((c) => c.id_comanda)).toEqual([3]);
    expect(floor).toMatchObject({ ocupadas: 1, comandas: 3, total: 20.3 });
  });

  it('shows a retired table only while it has tickets, and a table it does not know yet', () => {
    const floor = floorOf(
      [mesa(1), mesa(9, { numero: 9, activo: false }), mesa(8, { numero: 8, activo: false })],
      [
        summary({ id_comanda: 1, id_mesa: 9, mesa: 9 }),
        summary({ id_comanda: 2, id_mesa: 20, mesa: 14 }),
      ],
    );
    expect(floor.mesas.map((t) => t.mesa.numero)).toEqual([1, 9, 14]);
    expect(floor.ocupadas).toBe(2);
  });
});
