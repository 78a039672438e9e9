import {
  allowedActions,
  InvalidReservaTransitionError,
  isFinal,
  RESERVA_ACTIONS,
  RESERVA_ESTADOS,
  transition,
  type ReservaAction,
  type ReservaEstado,
} from './reservas-state';

/** The state table of docs/reservas.md, row by row. */
const ALLOWED: [ReservaEstado, ReservaAction, ReservaEstado][] = [
  ['pendiente', 'editar', 'pendiente'],
  ['pendiente', 'sentar', 'sentada'],
  ['pendiente', 'cancelar', 'cancelada'],
  ['pendiente', 'no_show', 'no_show'],
];

const REFUSED = RESERVA_ESTADOS.flatMap((estado) =>
  RESERVA_ACTIONS.filter((action) => !ALLOWED.some(([e, a]) => e === estado && a === action)).map(
    (action) => [estado, action] as const,
  ),
);

describe('reservation state machine', () => {
  it.each(ALLOWED)('%s + %s → %s', (estado, action, next) => {
    expect(transition(estado, action)).toBe(next);
  });

  it('refuses the 12 other pairs: every action on a sentada, cancelada or no_show one', () => {
    expect(REFUSED).toHaveLength(12);
    expect(REFUSED.every(([estado]) => estado !== 'pendiente')).toBe(true);
  });

  it.each(REFUSED)('%s + %s is 409 INVALID_TRANSITION naming the state', (estado, action) => {
    let thrown: unknown;
    try {
      transition(estado, action);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidReservaTransitionError);
    expect(thrown).toMatchObject({
      status: 409,
      code: 'INVALID_TRANSITION',
      message: `Cannot ${action} a reserva that is ${estado}`,
      detail: { estado, action },
    });
  });

  it('has pendiente as the only state that is not final', () => {
    expect(RESERVA_ESTADOS.filter((estado) => !isFinal(estado))).toEqual(['pendiente']);
    expect(allowedActions('pendiente')).toEqual(['editar', 'sentar', 'cancelar', 'no_show']);
    expect(allowedActions('sentada')).toEqual([]);
  });
});
