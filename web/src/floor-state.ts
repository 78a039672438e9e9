/**
 * The floor's state, as pure functions: what the service said (the open comandas, the tables,
 * each comanda's `acciones`) turned into what the screens draw. No rule of the service is
 * copied here: which actions a comanda allows is its `acciones`, listed by the service for the
 * caller (docs/comandas.md).
 */
import type { ComandaSummary, Mesa } from './api';

/** An action the service may list in a comanda's `acciones`, by the API's name. */
export type Accion = ComandaSummary['acciones'][number];

/** Whether the service lists `accion` for the caller on this comanda now. */
export function allows(comanda: Pick<ComandaSummary, 'acciones'>, accion: Accion): boolean {
  return comanda.acciones.includes(accion);
}

export type Estado = 'abierta' | 'cerrada' | 'eliminada';

/** How the page names each state: the API's `eliminada` is what the staff call anulada. */
export const ESTADO: Record<Estado, string> = {
  abierta: 'abierta',
  cerrada: 'cerrada',
  eliminada: 'anulada',
};

/** The state people read: a voided comanda is `eliminada` whatever its estado was. */
export function estadoDe(comanda: Pick<ComandaSummary, 'estado' | 'eliminada'>): Estado {
  return comanda.eliminada ? 'eliminada' : comanda.estado;
}

/** On the floor: open and not voided. */
export function isOpen(comanda: Pick<ComandaSummary, 'estado' | 'eliminada'>): boolean {
  return estadoDe(comanda) === 'abierta';
}

/** A list after a live event or an answer: the newer version wins, an older one changes nothing. */
export function applyEvent<T extends ComandaSummary>(
  list: T[],
  comanda: T,
  keep: (c: T) => boolean,
): T[] {
  const current = list.find((c) => c.id_comanda === comanda.id_comanda);
  if (current && current.version > comanda.version) return list;
  const rest = list.filter((c) => c.id_comanda !== comanda.id_comanda);
  return keep(comanda) ? [...rest, comanda] : rest;
}

/** One table as the floor draws it. */
export interface TableOnFloor {
  mesa: Mesa;
  /** Its open comandas, by ticket number. */
  comandas: ComandaSummary[];
  /** The sum of their totals. */
  total: number;
  /** When the first of them was opened (null: a free table). */
  desde: string | null;
}

export interface Floor {
  /** The tables in use by number, and a retired one only while it has open comandas. */
  mesas: TableOnFloor[];
  /** The take-away comandas, by ticket number. */
  llevar: ComandaSummary[];
  ocupadas: number;
  comandas: number;
  total: number;
}

const byTicket = (a: ComandaSummary, b: ComandaSummary) => a.numero_ticket - b.numero_ticket;

/** A table the list of tables does not have yet (opened since it was read). */
function unknownTable(comanda: ComandaSummary): Mesa {
  return {
    id_mesa: comanda.id_mesa ?? 0,
    numero: comanda.mesa ?? comanda.id_mesa ?? 0,
    zona: null,
    capacidad: 0,
    activo: true,
    abiertas: 0,
  };
}

/** The open comandas laid out on the tables, take-away apart, with the floor's figures. */
export function floorOf(mesas: Mesa[], open: ComandaSummary[]): Floor {
  const atTable = new Map<number, ComandaSummary[]>();
  const llevar: ComandaSummary[] = [];
  for (const c of [...open].sort(byTicket)) {
    if (c.id_mesa === null) llevar.push(c);
    else atTable.set(c.id_mesa, [...(atTable.get(c.id_mesa) ?? []), c]);
  }
  const known = new Map(mesas.map((m) => [m.id_mesa, m]));
  for (const [id, comandas] of atTable)
    if (!known.has(id)) known.set(id, unknownTable(comandas[0]));
  const tables = [...known.values()]
    .filter((m) => m.activo || atTable.has(m.id_mesa))
    .sort((a, b) => a.numero - b.numero || a.id_mesa - b.id_mesa)
    .map((mesa): TableOnFloor => {
      const comandas = atTable.get(mesa.id_mesa) ?? [];
      return {
        mesa,
        comandas,
        total: sum(comandas),
        desde: comandas.reduce<string | null>(
          (first, c) =>
            first === null || Date.parse(c.fec_apertura) < Date.parse(first)
              ? c.fec_apertura
              : first,
          null,
        ),
      };
    });
  return {
    mesas: tables,
    llevar,
    ocupadas: tables.filter((t) => t.comandas.length > 0).length,
    comandas: open.length,
    total: sum(open),
  };
}

/**
 * The sum of comandas' totals, added in whole céntimos (integers), so that 0.1 + 0.2 is 0.30:
 * the API's amounts have two decimals; the page adds them only to show them.
 */
export function sum(comandas: ComandaSummary[]): number {
  return comandas.reduce((s, c) => s + Math.round(c.total * 100), 0) / 100;
}
