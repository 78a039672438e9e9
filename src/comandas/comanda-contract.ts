import type { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import type { Permission } from '../auth/permissions';
import { ResourceActions } from '../auth/resource-actions';
import type { DocumentedError } from '../common/http/openapi-errors';
import {
  COMANDA_STATES,
  type ActionMoves,
  type ComandaAction,
  type ComandaState,
} from './comanda-state';

/** An action an extension adds to the comanda's state machine. */
export interface ExtensionAction {
  /** The permission it needs: its routes declare it, the answers' `acciones` list it by it. */
  permission: Permission;
  /** The states it is allowed from, each with what it does to the comanda ({}: nothing). */
  from: ActionMoves;
}

/** Errors an extension's rules answer on the comanda's own routes that perform `on`. */
export interface ExtensionErrors {
  on: readonly ComandaAction[];
  errors: readonly DocumentedError[];
}

/**
 * What a module adds to the comandas' contract, declared in its own folder: its actions (the
 * moves of the state machine they are allowed, their permissions), the fields it adds to the
 * comanda's answers and to its PUT body (with their validation and OpenAPI schema), and the
 * errors it adds to the comanda's routes. The comandas module reads none of it until the
 * application is composed: `ComandasModule.extendWith([...])` in src/app.module.ts, whose order
 * is the order of the actions in `acciones`, of the fields in the schemas, and of the
 * extensions' hooks on every change (ComandaExtensions). What happens on each change is the
 * module's provider that implements ComandaExtension (comanda-extensions.ts), registered with
 * this contract.
 */
export interface ComandaExtensionContract<A extends ComandaAction = ComandaAction> {
  /** The module, for messages. */
  readonly name: string;
  /** Its actions, in the order answers list them. */
  readonly actions?: Readonly<Partial<Record<A, ExtensionAction>>>;
  /**
   * Fields of `PUT /comandas/:id`: a class whose properties (their validation and OpenAPI
   * schema) the body gains. While the extension is off for the tenant they are refused like
   * unknown fields (ComandaExtension.bodyFields names those it takes).
   */
  readonly updateFields?: Type;
  /**
   * The action each of those fields performs besides the PUT's own (`pagos` pays as it
   * closes): a PUT that sends the field needs that action's permission too.
   */
  readonly updateFieldActions?: Readonly<Record<string, NoInfer<A>>>;
  /** Fields of the comanda's detail: a class whose documented properties the detail gains. */
  readonly detailFields?: Type;
  /** Fields of each line of the detail, likewise. */
  readonly lineFields?: Type;
  /** The errors its rules add to the comanda's own routes, by the actions they refuse. */
  readonly errors?: readonly ExtensionErrors[];
}

/** A contract as its module uses it: with its actions' permissions, for its own routes. */
export interface ComandaExtensionDefinition<
  A extends ComandaAction = ComandaAction,
> extends ComandaExtensionContract<A> {
  /** Its actions and their permissions: `@RequireActionPermission(X.acciones, 'pagar')`. */
  readonly acciones: ResourceActions<ComandaState, A>;
}

/** An extension's contract (docs/adding-a-module.md, "Extending the comandas"). */
export function defineComandaExtension<A extends ComandaAction = never>(
  contract: ComandaExtensionContract<A>,
): ComandaExtensionDefinition<A> {
  const actions = Object.entries(contract.actions ?? {}) as [A, ExtensionAction][];
  const names = actions.map(([name]) => name);
  const permissions = Object.fromEntries(
    actions.map(([name, action]) => [name, action.permission]),
  ) as Record<A, Permission>;
  const allowed = Object.fromEntries(
    COMANDA_STATES.map((state) => [
      state,
      actions.filter(([, action]) => action.from[state]).map(([name]) => name),
    ]),
  ) as Record<ComandaState, A[]>;
  return {
    ...contract,
    acciones: new ResourceActions(names, permissions, (state) => allowed[state]),
  };
}

let composed: readonly ComandaExtensionContract[] | undefined;

/**
 * Records the extensions the application is composed with, in their order; once (a second
 * composition of the same list changes nothing: a process may build several applications).
 * Answers whether this call is the one that composes.
 */
export function composeExtensions(extensions: readonly ComandaExtensionContract[]): boolean {
  if (composed === undefined) {
    composed = [...extensions];
    return true;
  }
  const same =
    composed.length === extensions.length && composed.every((e, n) => e === extensions[n]);
  if (!same)
    throw new Error(
      `The comandas are extended by ${composed.map((e) => e.name).join(', ')} already`,
    );
  return false;
}

/** The extensions, in the order of the composition (none before it). */
export function composedExtensions(): readonly ComandaExtensionContract[] {
  return composed ?? [];
}

/** The names of the properties a class documents (its OpenAPI schema's), in their order. */
export function documentedProperties(type: Type): string[] {
  const prototype = type.prototype as object;
  const keys = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ??
    []) as string[];
  return keys.map((key) => key.replace(/^:/, ''));
}

/** The actions the PUT /comandas/:id fields of the composed extensions perform, by field. */
export function extensionUpdateFieldActions(): [field: string, action: ComandaAction][] {
  return composedExtensions().flatMap((e) =>
    Object.entries<ComandaAction>(e.updateFieldActions ?? {}),
  );
}

/** The PUT /comandas/:id fields the composed extensions add (`updateFields`), in order. */
export function extensionUpdateFields(): string[] {
  return composedExtensions().flatMap((e) =>
    e.updateFields ? documentedProperties(e.updateFields) : [],
  );
}
