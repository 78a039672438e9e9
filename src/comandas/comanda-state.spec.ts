import { comandaExtensions } from '../modules';
import {
  allowedActions,
  COMANDA_OWN_ACTIONS,
  COMANDA_STATES,
  comandaActions,
  InvalidTransitionError,
  stateOf,
  transition,
  type ComandaAction,
  type ComandaState,
  type Transition,
} from './comanda-state';
import { ComandasModule } from './comandas.module';

// the machine as the application composes it: the comanda's own moves, then its extensions'
ComandasModule.extendWith(comandaExtensions());
const COMANDA_ACTIONS = comandaActions();

/** The state table of docs/comandas.md, row by row. */
const ALLOWED: [ComandaState, ComandaAction, Transition][] = [
  ['abierta', 'cerrar', { estado: 'cerrada' }],
  ['cerrada', 'abrir', { estado: 'abierta' }],
  ['eliminada', 'restaurar', { eliminada: false }],
  ['abierta', 'editar', {}],
  ['abierta', 'agregar_item', {}],
  ['abierta', 'modificar_item', {}],
  ['abierta', 'quitar_item', {}],
  ['abierta', 'dividir', {}],
  ['abierta', 'unir', {}],
  ['abierta', 'transferir', {}],
  ['abierta', 'eliminar', { eliminada: true }],
  ['cerrada', 'eliminar', { eliminada: true }],
  // money (feature cobros)
  ['abierta', 'pagar', {}],
  ['abierta', 'anular_pago', {}],
  ['abierta', 'descontar', {}],
  ['cerrada', 'reembolsar', {}],
  // the kitchen (feature cocina)
  ['abierta', 'enviar', {}],
  ['abierta', 'disparar', {}],
  ['abierta', 'entregar', {}],
  ['abierta', 'preparar', {}],
  ['abierta', 'listo', {}],
  ['abierta', 'recuperar', {}],
  ['cerrada', 'preparar', {}],
  ['cerrada', 'listo', {}],
  ['cerrada', 'recuperar', {}],
  ['eliminada', 'listo', {}],
];

describe('comanda state machine', () => {
  it.each(ALLOWED)('%s + %s is allowed', (state, action, expected) => {
    expect(transition(state, action)).toEqual(expected);
  });

  const refused = COMANDA_STATES.flatMap((state) =>
    COMANDA_ACTIONS.filter((action) => !ALLOWED.some(([s, a]) => s === state && a === action)).map(
      (action) => [state, action] as const,
    ),
  );

  it('refuses every other pair (37 of them)', () => {
    expect(refused).toHaveLength(37);
    expect(refused).toHaveLength(COMANDA_STATES.length * COMANDA_ACTIONS.length - ALLOWED.length);
  });

  it.each(refused)(
    '%s + %s is refused with INVALID_TRANSITION naming the state',
    (state, action) => {
      let error: unknown;
      try {
        transition(state, action);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidTransitionError);
      expect(error).toMatchObject({
        status: 409,
        code: 'INVALID_TRANSITION',
        message: `Cannot ${action} a comanda that is ${state}`,
        detail: { estado: state, action },
      });
    },
  );

  it('a logical delete overrides the estado', () => {
    expect(stateOf({ estado: 'abierta', eliminada: false })).toBe('abierta');
    expect(stateOf({ estado: 'cerrada', eliminada: false })).toBe('cerrada');
    expect(stateOf({ estado: 'cerrada', eliminada: true })).toBe('eliminada');
    expect(stateOf({ estado: 'abierta', eliminada: true })).toBe('eliminada');
  });

  it('lists the comanda’s own actions first, then the extensions’ in the composition’s order', () => {
    expect(COMANDA_ACTIONS.slice(0, COMANDA_OWN_ACTIONS.length)).toEqual(COMANDA_OWN_ACTIONS);
    expect(COMANDA_ACTIONS.slice(COMANDA_OWN_ACTIONS.length)).toEqual([
      'pagar',
      'anular_pago',
      'descontar',
      'reembolsar',
      'enviar',
      'disparar',
      'entregar',
      'preparar',
      'listo',
      'recuperar',
    ]);
  });

  it('lists what each state allows', () => {
    expect(allowedActions('cerrada')).toEqual([
      'abrir',
      'eliminar',
      'reembolsar',
      'preparar',
      'listo',
      'recuperar',
    ]);
    expect(allowedActions('eliminada')).toEqual(['restaurar', 'listo']);
  });
});
