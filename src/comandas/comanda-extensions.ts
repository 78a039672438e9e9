import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import type { Queryable } from '../database/sql';
import { composedExtensions, type ComandaExtensionContract } from './comanda-contract';
import type { ComandaAction } from './comanda-state';
import type { LockedComanda } from './comandas.repository';
import type { UpdateComandaBody } from './dto/comanda-input.dto';

/**
 * What a module that keeps rules of its own on comandas adds to the comandas' changes, without
 * the comandas module knowing it: the hooks of its extension (the static part, its actions and
 * fields, is its ComandaExtensionContract: comanda-contract.ts). Each method runs inside the
 * change's transaction, on the comanda's locked row, and may refuse the change by throwing a
 * domain error. An extension decides by itself whether it applies to the request's tenant (its
 * feature switch): off, it must change nothing.
 */
export interface ComandaExtension {
  /**
   * The body fields of `PUT /comandas/:id` (its contract's `updateFields`) the extension takes
   * when it is on for the tenant; while it is off, a body with one of them is refused like an
   * unknown field.
   */
  bodyFields?(): readonly string[];
  /**
   * A PUT's body, once its own fields are known to be taken and before anything else is checked
   * or locked: refuse it by throwing (a field of the extension sent with the wrong action).
   */
  checkUpdate?(body: UpdateComandaBody): void;
  /**
   * The fields of an ordered line (`POST /comandas` items, `POST /comandas/:id/items`) the
   * extension takes when it is on for the tenant (`curso`); while it is off, a line with one of
   * them is refused like an unknown field.
   */
  itemFields?(): readonly string[];
  /**
   * A line's quantity is about to end at `cantidad` (0: the line is voided) by `modificar_item`
   * or `quitar_item` (called after the change of a quantity, before a line is deleted), or
   * every line of a deleted comanda: may write (the kitchen's cancellations). Answers fields
   * the change's audit entry (`despues`) gains, if any.
   */
  itemChanging?(
    tx: Queryable,
    comanda: LockedComanda,
    idItem: number,
    cantidad: number,
    actor: Actor,
  ): Promise<Record<string, unknown> | undefined>;
  /** A split moved `cantidad` of line `idOrigen` onto the new line `idNueva`. */
  itemSplit?(tx: Queryable, idOrigen: number, idNueva: number, cantidad: number): Promise<void>;
  /**
   * Quantities of products sent to be prepared and then cancelled (thrown away): the stock
   * records them as waste. Called by the module that knows (the kitchen), implemented by the
   * one that keeps the stock.
   */
  itemsWasted?(
    tx: Queryable,
    items: readonly { id_producto: number; cantidad: string }[],
    motivo: string,
    actor: Actor,
  ): Promise<void>;
  /** Before any change of a locked comanda (moving lines, deleting it ...): refuse by throwing. */
  checkChange?(tx: Queryable, comanda: LockedComanda, action: ComandaAction): Promise<void>;
  /** Before a move of the state machine is applied (cerrar, abrir): may write, or refuse. */
  beforeTransition?(
    tx: Queryable,
    comanda: LockedComanda,
    action: ComandaAction,
    body: UpdateComandaBody,
    actor: Actor,
  ): Promise<void>;
  /** After it is applied: `after` is the comanda as changed. */
  afterTransition?(
    tx: Queryable,
    after: LockedComanda,
    action: ComandaAction,
    actor: Actor,
  ): Promise<void>;
  /**
   * The move's last writes, after its audit entry and the answer's read, right before the
   * commit: for effects that lock rows every change of the tenant shares (the stock's balance
   * rows), so that those locks are held for as short a time as possible. They must not change
   * what the answer shows; a refusal here still refuses the whole move.
   */
  beforeCommit?(
    tx: Queryable,
    after: LockedComanda,
    action: ComandaAction,
    actor: Actor,
  ): Promise<void>;
  /**
   * The fields the comanda's detail gains (its contract's `detailFields`, read on `db`, a
   * transaction, when given); a field of the detail it answers (`total`) replaces the comanda's.
   */
  detail?(id: number, db?: Queryable): Promise<object | undefined>;
  /** The fields each line of the comanda's detail gains, by id_item. */
  lineFields?(id: number, db?: Queryable): Promise<Map<number, object> | undefined>;
}

/**
 * The extensions' hooks, registered by their modules (in their onModuleInit) and run in the
 * order of the application's composition (ComandasModule.extendWith in src/app.module.ts), not
 * in the order the modules start.
 */
@Injectable()
export class ComandaExtensions {
  private readonly registered: { order: number; extension: ComandaExtension }[] = [];
  private extensions: readonly ComandaExtension[] = [];

  /** The hooks of the extension `contract` declares: it must be one the application composes. */
  register(contract: ComandaExtensionContract, extension: ComandaExtension): void {
    const order = composedExtensions().indexOf(contract);
    if (order < 0)
      throw new Error(
        `The comanda extension ${contract.name} is not composed: list it in ComandasModule.extendWith`,
      );
    if (this.registered.some((r) => r.order === order))
      throw new Error(`The comanda extension ${contract.name} registered its hooks twice`);
    this.registered.push({ order, extension });
    this.registered.sort((a, b) => a.order - b.order);
    this.extensions = this.registered.map((r) => r.extension);
  }

  /** The PUT body fields the extensions on for this tenant take. */
  bodyFields(): Set<string> {
    return new Set(this.extensions.flatMap((e) => e.bodyFields?.() ?? []));
  }

  /** The extensions' checks of a PUT's body, in order. */
  checkUpdate(body: UpdateComandaBody): void {
    for (const e of this.extensions) e.checkUpdate?.(body);
  }

  /** The ordered-line fields the extensions on for this tenant take. */
  itemFields(): Set<string> {
    return new Set(this.extensions.flatMap((e) => e.itemFields?.() ?? []));
  }

  async itemChanging(
    tx: Queryable,
    comanda: LockedComanda,
    idItem: number,
    cantidad: number,
    actor: Actor,
  ): Promise<Record<string, unknown>> {
    let fields: Record<string, unknown> = {};
    for (const e of this.extensions)
      fields = { ...fields, ...(await e.itemChanging?.(tx, comanda, idItem, cantidad, actor)) };
    return fields;
  }

  async itemSplit(tx: Queryable, idOrigen: number, idNueva: number, cantidad: number) {
    for (const e of this.extensions) await e.itemSplit?.(tx, idOrigen, idNueva, cantidad);
  }

  async itemsWasted(
    tx: Queryable,
    items: readonly { id_producto: number; cantidad: string }[],
    motivo: string,
    actor: Actor,
  ): Promise<void> {
    if (items.length === 0) return;
    for (const e of this.extensions) await e.itemsWasted?.(tx, items, motivo, actor);
  }

  async lineFields(id: number, db?: Queryable): Promise<Map<number, object>> {
    const fields = new Map<number, object>();
    for (const e of this.extensions)
      for (const [item, more] of (await e.lineFields?.(id, db)) ?? [])
        fields.set(item, { ...fields.get(item), ...more });
    return fields;
  }

  async checkChange(tx: Queryable, comanda: LockedComanda, action: ComandaAction): Promise<void> {
    for (const e of this.extensions) await e.checkChange?.(tx, comanda, action);
  }

  async beforeTransition(
    tx: Queryable,
    comanda: LockedComanda,
    action: ComandaAction,
    body: UpdateComandaBody,
    actor: Actor,
  ): Promise<void> {
    for (const e of this.extensions) await e.beforeTransition?.(tx, comanda, action, body, actor);
  }

  async afterTransition(
    tx: Queryable,
    after: LockedComanda,
    action: ComandaAction,
    actor: Actor,
  ): Promise<void> {
    for (const e of this.extensions) await e.afterTransition?.(tx, after, action, actor);
  }

  async beforeCommit(
    tx: Queryable,
    after: LockedComanda,
    action: ComandaAction,
    actor: Actor,
  ): Promise<void> {
    for (const e of this.extensions) await e.beforeCommit?.(tx, after, action, actor);
  }

  async detail(id: number, db?: Queryable): Promise<object> {
    let fields: object = {};
    for (const e of this.extensions) fields = { ...fields, ...(await e.detail?.(id, db)) };
    return fields;
  }
}
