import { ResourceActions } from '../auth/resource-actions';

/** A kitchen ticket's states: pendiente → en_preparacion → listo (recall: listo → pendiente). */
export const ENVIO_ESTADOS = ['pendiente', 'en_preparacion', 'listo'] as const;
export type EnvioEstado = (typeof ENVIO_ESTADOS)[number];

export const ENVIO_ACTIONS = ['preparar', 'listo', 'recuperar'] as const;
export type EnvioAction = (typeof ENVIO_ACTIONS)[number];

const ALLOWED: Record<EnvioEstado, EnvioAction[]> = {
  pendiente: ['preparar', 'listo'],
  en_preparacion: ['listo'],
  listo: ['recuperar'],
};

/** The actions a ticket's state allows. */
export function envioAllowed(estado: EnvioEstado): EnvioAction[] {
  return ALLOWED[estado];
}

/**
 * A ticket's actions and the permission each needs: what its routes declare and what its
 * answers list as `acciones` (docs/cocina.md, "Acciones"). The same actions are comanda actions
 * (COCINA_EXTENSION, comanda-extension.ts: the comanda's state machine) with the same
 * permissions: a ticket's change is a change of its comanda.
 */
export const ENVIO_ACCIONES = new ResourceActions<EnvioEstado, EnvioAction>(
  ENVIO_ACTIONS,
  { preparar: 'cocina:bump', listo: 'cocina:bump', recuperar: 'cocina:bump' },
  envioAllowed,
);

/** A line's kitchen states, in order. */
export const ESTADOS_COCINA = [
  'pendiente',
  'enviado',
  'en_preparacion',
  'listo',
  'entregado',
] as const;
export type EstadoCocina = (typeof ESTADOS_COCINA)[number];
