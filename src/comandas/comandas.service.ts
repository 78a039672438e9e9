import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import { StaleVersionError } from '../common/http/etag';
import { validationFailed } from '../common/validation';
import { TenantContext } from '../tenancy/tenant-context';
import { extensionUpdateFields } from './comanda-contract';
import { ComandaExtensions } from './comanda-extensions';
import { updateActionOf } from './comanda-actions';
import { stateOf, transition, type ComandaAction } from './comanda-state';
import { toDetail, toEvento, toSummary } from './comanda.mapper';
import {
  actionWithFields,
  comandaEmpty,
  comandaNotFound,
  emptyChange,
  invalidMerge,
  invalidSplit,
  itemNotFound,
  mergeNotAbierta,
  type MergeProblem,
  type SplitProblem,
  productsInactive,
  productsNotFound,
} from './comandas.errors';
import type { Queryable } from '../database/sql';
import { ComandasRepository, type LockedComanda, type NewItem } from './comandas.repository';
import {
  EDITABLE_FIELDS,
  ITEM_EXTENSION_FIELDS,
  type CreateComandaBody,
  type EditableField,
  type ItemChange,
  type ItemInput,
  type MergeComandaBody,
  type SplitComandaBody,
  type UpdateComandaBody,
} from './dto/comanda-input.dto';
import type {
  ComandaDetail,
  ComandaEvento,
  ComandaSummary,
  SplitResult,
} from './dto/comanda-output.dto';
import { LIST_LIMIT_DEFAULT, type ListComandasQuery } from './dto/list-comandas.query';

/** What an audit event records about a comanda before and after a transition. */
function snapshot(c: LockedComanda) {
  return { estado: c.estado, eliminada: c.eliminada, total: Number(c.total), version: c.version };
}

function pickFields(
  body: Partial<Record<EditableField, unknown>>,
): Partial<Record<EditableField, unknown>> {
  const fields: Partial<Record<EditableField, unknown>> = {};
  for (const name of EDITABLE_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
  return fields;
}

/**
 * The business rules of comandas (docs/comandas.md). Every change runs in one transaction that
 * first locks the comanda's row, so concurrent waiters are serialized: no lost update, no
 * double close. The state machine (comanda-state.ts) decides what is allowed.
 */
@Injectable()
export class ComandasService {
  constructor(
    private readonly repository: ComandasRepository,
    private readonly context: TenantContext,
    private readonly caller: CallerPermissions,
    private readonly extensions: ComandaExtensions,
  ) {}

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  async list(query: ListComandasQuery): Promise<{ items: ComandaSummary[]; total: number }> {
    const { rows, total } = await this.repository.list(
      {
        estado: query.estado,
        id_mesa: query.id_mesa,
        id_usuario: query.id_usuario,
        desde: query.desde,
        hasta: query.hasta,
        eliminada: query.eliminada ?? false,
        timeZone: this.timeZone,
      },
      query.limit ?? LIST_LIMIT_DEFAULT,
      query.offset ?? 0,
    );
    const grants = this.caller.grants;
    return { items: rows.map((row) => toSummary(row, this.timeZone, grants)), total };
  }

  async get(id: number): Promise<ComandaDetail> {
    return this.detail(id);
  }

  async events(id: number): Promise<ComandaEvento[]> {
    const rows = await this.repository.events(id);
    if (rows.length === 0 && !(await this.repository.exists(id))) throw comandaNotFound(id);
    return rows.map((row) => toEvento(row, this.timeZone));
  }

  /**
   * Opens a comanda. `within`: the transaction of another module's change that opens it (a
   * reservation being seated), so that both commit or neither does.
   */
  async create(
    body: CreateComandaBody,
    actor: Actor,
    within?: EntityManager,
  ): Promise<ComandaDetail> {
    this.checkItemFields(body.items ?? [], 'items.');
    return this.repository.transaction(within, async (tx) => {
      const fields = pickFields(body);
      // The waiter is the one named, else whoever opens it (the token's user).
      const waiter = (fields.id_usuario as number | undefined) ?? actor.id_usuario;
      if (waiter !== null) fields.id_usuario = waiter;
      const id = await this.repository.insert(tx, fields);
      const items = await this.addItems(tx, id, body.items ?? [], waiter);
      const created = await this.repository.refreshTotal(tx, id);
      await this.repository.audit(tx, {
        id_comanda: id,
        accion: 'crear',
        id_usuario: actor.id_usuario,
        motivo: null,
        antes: null,
        despues: { ...snapshot(created), ...fields, items },
      });
      return this.detail(id, tx);
    });
  }

  async update(
    id: number,
    body: UpdateComandaBody,
    expectedVersion: number | undefined,
    actor: Actor,
  ) {
    const fields = pickFields(body);
    const changed = Object.keys(fields);
    this.checkExtensionFields(body);
    if (body.action && changed.length > 0) throw actionWithFields(changed);
    if (!body.action && changed.length === 0) throw emptyChange();
    if (body.action)
      return this.transitionTo(id, body.action, expectedVersion, actor, body.motivo ?? null, body);

    // a change of the table alone is a transfer (the party moves), audited as such
    const action = updateActionOf(body);
    return this.change(id, action, expectedVersion, async (tx, before) => {
      const after = await this.repository.applyChange(tx, id, { fields });
      const was = Object.fromEntries(changed.map((f) => [f, before[f as EditableField]]));
      return { after, antes: was, despues: fields, motivo: body.motivo ?? null, actor };
    });
  }

  remove(id: number, motivo: string | null, expectedVersion: number | undefined, actor: Actor) {
    return this.transitionTo(id, 'eliminar', expectedVersion, actor, motivo, {});
  }

  /**
   * A change another module makes to a comanda (a payment, a refund): the same frame as the
   * comanda's own changes (row lock, If-Match, the state machine's check of `action`, a new
   * version, one audit entry, the detail as answer), with `apply` doing the module's part on the
   * locked row inside the transaction.
   */
  changeBy(
    id: number,
    action: ComandaAction,
    expectedVersion: number | undefined,
    actor: Actor,
    apply: (
      tx: Queryable,
      before: LockedComanda,
    ) => Promise<{ antes: unknown; despues: unknown; motivo: string | null }>,
  ): Promise<ComandaDetail> {
    return this.change(id, action, expectedVersion, async (tx, before) => {
      const done = await apply(tx, before);
      const after = await this.repository.applyChange(tx, id, {});
      return { ...done, after, actor };
    });
  }

  /** An entry of the comanda's audit trail written by another module inside its change. */
  recordEvent(
    tx: Queryable,
    event: {
      id_comanda: number;
      accion: ComandaAction;
      id_usuario: number | null;
      motivo: string | null;
      antes: unknown;
      despues: unknown;
    },
  ): Promise<void> {
    return this.repository.audit(tx, event);
  }

  addItem(id: number, item: ItemInput, expectedVersion: number | undefined, actor: Actor) {
    this.checkItemFields([item], '');
    return this.change(id, 'agregar_item', expectedVersion, async (tx, before) => {
      const by = item.id_usuario ?? actor.id_usuario ?? before.id_usuario;
      const [added] = await this.addItems(tx, id, [item], by);
      const after = await this.repository.applyChange(tx, id, {});
      return { after, antes: null, despues: added, motivo: null, actor };
    });
  }

  changeItem(
    id: number,
    itemId: number,
    change: ItemChange,
    expectedVersion: number | undefined,
    actor: Actor,
  ) {
    if (change.cantidad === undefined && change.nota === undefined) {
      throw emptyChange();
    }
    return this.change(id, 'modificar_item', expectedVersion, async (tx, before) => {
      const existing = await this.repository.item(tx, id, itemId);
      if (!existing) throw itemNotFound(id, itemId);
      const updated = await this.repository.updateItem(tx, itemId, change.cantidad, change.nota);
      const more =
        change.cantidad === undefined
          ? {}
          : await this.extensions.itemChanging(tx, before, itemId, change.cantidad, actor);
      const after = await this.repository.applyChange(tx, id, {});
      return {
        after,
        antes: this.itemSnapshot(existing),
        despues: { ...this.itemSnapshot(updated), ...more },
        motivo: null,
        actor,
      };
    });
  }

  /** Voids a line; the audit entry keeps a snapshot of it and the reason. */
  removeItem(
    id: number,
    itemId: number,
    motivo: string | null,
    expectedVersion: number | undefined,
    actor: Actor,
  ) {
    return this.change(id, 'quitar_item', expectedVersion, async (tx, before) => {
      const existing = await this.repository.item(tx, id, itemId);
      if (!existing) throw itemNotFound(id, itemId);
      const more = await this.extensions.itemChanging(tx, before, itemId, 0, actor);
      await this.repository.deleteItem(tx, itemId);
      const after = await this.repository.applyChange(tx, id, {});
      const despues = Object.keys(more).length > 0 ? more : null;
      return { after, antes: this.itemSnapshot(existing), despues, motivo, actor };
    });
  }

  /**
   * Moves quantities of lines to a new open comanda (a whole line moves, a part splits it in
   * two keeping price, note, author and time). The source's total and version change, the new
   * comanda starts at version 1; both get a `dividir` audit entry naming the other.
   */
  split(
    id: number,
    body: SplitComandaBody,
    expectedVersion: number | undefined,
    actor: Actor,
  ): Promise<SplitResult> {
    return this.repository.transaction(async (tx) => {
      const before = await this.lockForChange(tx, id, 'dividir', expectedVersion);
      const lines = new Map(
        (await this.repository.lines(tx, id)).map((l) => [Number(l.id_deta_comanda), l]),
      );
      const problems: SplitProblem[] = [];
      const seen = new Set<number>();
      for (const { id_item, cantidad } of body.lineas) {
        const line = lines.get(id_item);
        if (seen.has(id_item)) problems.push({ id_item, reason: 'is listed more than once' });
        else if (!line) problems.push({ id_item, reason: `is not a line of comanda ${id}` });
        else if (cantidad > Number(line.cantidad))
          problems.push({
            id_item,
            reason: `asks for ${cantidad} of a line of ${Number(line.cantidad)}`,
          });
        seen.add(id_item);
      }
      if (problems.length > 0) throw invalidSplit(id, problems);

      const nuevaId = await this.repository.insert(tx, {
        id_mesa: body.id_mesa !== undefined ? body.id_mesa : before.id_mesa,
        id_usuario: before.id_usuario,
        id_cliente: body.id_cliente ?? null,
      });
      const moved: (ReturnType<ComandasService['itemSnapshot']> & { dividida_de?: number })[] = [];
      const whole: number[] = [];
      for (const { id_item, cantidad } of body.lineas) {
        const line = lines.get(id_item)!;
        if (cantidad === Number(line.cantidad)) {
          whole.push(id_item);
          moved.push(this.itemSnapshot(line));
        } else {
          const part = await this.repository.splitItem(tx, id_item, cantidad, nuevaId);
          await this.extensions.itemSplit(tx, id_item, Number(part.id_deta_comanda), cantidad);
          moved.push({ ...this.itemSnapshot(part), dividida_de: id_item });
        }
      }
      await this.repository.moveItems(tx, whole, nuevaId);
      const after = await this.repository.applyChange(tx, id, {});
      const nueva = await this.repository.refreshTotal(tx, nuevaId);
      await this.repository.audit(tx, {
        id_comanda: id,
        accion: 'dividir',
        id_usuario: actor.id_usuario,
        motivo: null,
        antes: snapshot(before),
        despues: { ...snapshot(after), nueva: nuevaId, lineas: moved },
      });
      await this.repository.audit(tx, {
        id_comanda: nuevaId,
        accion: 'dividir',
        id_usuario: actor.id_usuario,
        motivo: null,
        antes: null,
        despues: {
          ...snapshot(nueva),
          origen: id,
          id_mesa: nueva.id_mesa,
          id_cliente: nueva.id_cliente,
          lineas: moved,
        },
      });
      return { origen: await this.detail(id, tx), nueva: await this.detail(nuevaId, tx) };
    });
  }

  /**
   * Moves every line of other open comandas into this one; each of them ends eliminada with
   * the motivo `unida a <numero_ticket>`. All of them are locked in id order first. Every
   * comanda touched gets a `unir` audit entry and a new version.
   */
  merge(
    id: number,
    body: MergeComandaBody,
    expectedVersion: number | undefined,
    actor: Actor,
  ): Promise<ComandaDetail> {
    return this.repository.transaction(async (tx) => {
      const problems: MergeProblem[] = [];
      const others = [...new Set(body.comandas)].sort((a, b) => a - b);
      if (others.length < body.comandas.length) {
        const twice = others.filter((o) => body.comandas.filter((c) => c === o).length > 1);
        for (const o of twice) problems.push({ id_comanda: o, reason: 'is listed more than once' });
      }
      if (others.includes(id)) problems.push({ id_comanda: id, reason: 'is the target itself' });
      const locked = new Map(
        (await this.repository.lockAll(tx, [id, ...others])).map((c) => [Number(c.id_comanda), c]),
      );
      const target = locked.get(id);
      if (!target) throw comandaNotFound(id);
      for (const o of others)
        if (!locked.has(o)) problems.push({ id_comanda: o, reason: 'does not exist' });
      if (problems.length > 0) throw invalidMerge(id, problems);
      this.checkChange(target, 'unir', expectedVersion);
      for (const o of others) {
        const state = stateOf(locked.get(o)!);
        if (o !== id && state !== 'abierta') throw mergeNotAbierta(o, state);
      }
      for (const c of [target, ...others.map((o) => locked.get(o)!)])
        await this.extensions.checkChange(tx, c, 'unir');

      const moved = await this.repository.moveAllItems(tx, others, id);
      const motivo = `unida a ${target.numero_ticket}`;
      for (const o of others) {
        const source = locked.get(o)!;
        const after = await this.repository.applyChange(tx, o, { eliminada: true });
        await this.repository.audit(tx, {
          id_comanda: o,
          accion: 'unir',
          id_usuario: actor.id_usuario,
          motivo,
          antes: snapshot(source),
          despues: {
            ...snapshot(after),
            unida_a: id,
            lineas: moved
              .filter((line) => line.origen === String(o))
              .map((line) => this.itemSnapshot(line)),
          },
        });
      }
      const after = await this.repository.applyChange(tx, id, {});
      await this.repository.audit(tx, {
        id_comanda: id,
        accion: 'unir',
        id_usuario: actor.id_usuario,
        motivo: null,
        antes: snapshot(target),
        despues: {
          ...snapshot(after),
          comandas: others,
          lineas: moved.map((line) => this.itemSnapshot(line)),
        },
      });
      return this.detail(id, tx);
    });
  }

  /** abrir / cerrar / restaurar / eliminar: the state machine's moves. */
  private transitionTo(
    id: number,
    action: ComandaAction,
    expectedVersion: number | undefined,
    actor: Actor,
    motivo: string | null,
    body: UpdateComandaBody,
  ) {
    return this.change(id, action, expectedVersion, async (tx, before) => {
      const move = transition(stateOf(before), action);
      if (action === 'cerrar' && (await this.repository.countItems(tx, id)) === 0)
        throw comandaEmpty(id);
      await this.extensions.beforeTransition(tx, before, action, body, actor);
      const after = await this.repository.applyChange(tx, id, move);
      await this.extensions.afterTransition(tx, after, action, actor);
      return {
        after,
        antes: snapshot(before),
        despues: snapshot(after),
        motivo,
        actor,
        beforeCommit: () => this.extensions.beforeCommit(tx, after, action, actor),
      };
    });
  }

  /**
   * The frame of every change: lock the row, check the version (If-Match) and the state
   * machine, apply, record the audit event, read the new detail (the answer), then the
   * extensions' last writes (beforeCommit): all in one transaction.
   */
  private async change(
    id: number,
    action: ComandaAction,
    expectedVersion: number | undefined,
    apply: (
      tx: Queryable,
      before: LockedComanda,
    ) => Promise<{
      after: LockedComanda;
      antes: unknown;
      despues: unknown;
      motivo: string | null;
      actor: Actor;
      /** The extensions' last writes (ComandaExtension.beforeCommit), after the answer's read. */
      beforeCommit?: () => Promise<void>;
    }>,
  ): Promise<ComandaDetail> {
    return this.repository.transaction(async (tx) => {
      const before = await this.lockForChange(tx, id, action, expectedVersion);
      const result = await apply(tx, before);
      await this.repository.audit(tx, {
        id_comanda: id,
        accion: action,
        id_usuario: result.actor.id_usuario,
        motivo: result.motivo,
        antes: result.antes,
        despues: result.despues,
      });
      const detail = await this.detail(id, tx);
      await result.beforeCommit?.();
      return detail;
    });
  }

  /** Locks the comanda's row and checks that `action` may change it now. */
  private async lockForChange(
    tx: Queryable,
    id: number,
    action: ComandaAction,
    expectedVersion: number | undefined,
  ): Promise<LockedComanda> {
    const before = await this.repository.lock(tx, id);
    if (!before) throw comandaNotFound(id);
    this.checkChange(before, action, expectedVersion);
    await this.extensions.checkChange(tx, before, action);
    return before;
  }

  /** The version (If-Match) and the state machine, on a locked comanda. */
  private checkChange(
    locked: LockedComanda,
    action: ComandaAction,
    expectedVersion: number | undefined,
  ): void {
    if (expectedVersion !== undefined && expectedVersion !== locked.version) {
      throw new StaleVersionError(locked.version, expectedVersion);
    }
    transition(stateOf(locked), action);
  }

  /**
   * A PUT's fields of an extension are unknown fields while it is off for the tenant; taken, the
   * extensions check the body (a field of theirs with the wrong action).
   */
  private checkExtensionFields(body: UpdateComandaBody): void {
    const taken = this.extensions.bodyFields();
    const sent = body as unknown as Record<string, unknown>;
    const refused = extensionUpdateFields().filter(
      (field) => sent[field] !== undefined && !taken.has(field),
    );
    if (refused.length > 0)
      throw validationFailed(refused.map((field) => `property ${field} should not exist`));
    this.extensions.checkUpdate(body);
  }

  /** Line fields of an extension (`curso`) are unknown fields while it is off for the tenant. */
  private checkItemFields(items: ItemInput[], prefix: string): void {
    const taken = this.extensions.itemFields();
    const refused = items.flatMap((item, n) =>
      ITEM_EXTENSION_FIELDS.filter((f) => item[f] !== undefined && !taken.has(f)).map(
        (f) => `${prefix}${prefix ? `${n}.` : ''}property ${f} should not exist`,
      ),
    );
    if (refused.length > 0) throw validationFailed(refused);
  }

  private async addItems(tx: Queryable, id: number, items: ItemInput[], addedBy: number | null) {
    if (items.length === 0) return [];
    const ids = [...new Set(items.map((item) => item.id_producto))];
    const found = await this.repository.products(tx, ids);
    const missing = ids.filter((pid) => !found.some((p) => p.id_producto === pid));
    if (missing.length) throw productsNotFound(missing);
    const inactive = found.filter((p) => !p.activo).map((p) => p.id_producto);
    if (inactive.length) throw productsInactive(inactive);
    const newItems: NewItem[] = items.map((item) => ({
      id_producto: item.id_producto,
      cantidad: item.cantidad,
      nota: item.nota ?? null,
      id_usuario: item.id_usuario ?? addedBy,
      curso: item.curso ?? null,
    }));
    const inserted = await this.repository.insertItems(tx, id, newItems);
    return inserted.map((row) => this.itemSnapshot(row));
  }

  private itemSnapshot(item: {
    id_deta_comanda: string;
    id_producto: number;
    cantidad: string;
    precio_unitario: string;
    subtotal: string;
    nota: string | null;
  }) {
    return {
      id_item: Number(item.id_deta_comanda),
      id_producto: item.id_producto,
      cantidad: Number(item.cantidad),
      precio_unitario: Number(item.precio_unitario),
      subtotal: Number(item.subtotal),
      nota: item.nota,
    };
  }

  private async detail(id: number, db?: Queryable): Promise<ComandaDetail> {
    const found = await this.repository.detail(id, db);
    if (!found) throw comandaNotFound(id);
    const detail = toDetail(found.row, found.lines, this.timeZone, this.caller.grants);
    const lineFields = await this.extensions.lineFields(id, db);
    if (lineFields.size > 0)
      detail.lineas = detail.lineas.map((line) => ({ ...line, ...lineFields.get(line.id_item) }));
    return { ...detail, ...(await this.extensions.detail(id, db)) };
  }
}
