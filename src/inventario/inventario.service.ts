import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import { ComandaExtensions, type ComandaExtension } from '../comandas/comanda-extensions';
import type { ComandaAction } from '../comandas/comanda-state';
import type { LockedComanda } from '../comandas/comandas.repository';
import type { Queryable } from '../database/sql';
import { StoreFunctionHooks } from '../rpc/store-function-hooks';
import { TenantContext } from '../tenancy/tenant-context';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import type {
  ConsumoQuery,
  ConteoBody,
  ConteoEstado,
  ConteoPatchBody,
  ListMovimientosQuery,
  MermaBody,
} from './dto/inventario-input.dto';
import type { ConteoDto, MovimientoStockDto } from './dto/inventario-output.dto';
import {
  conteoNoEditable,
  conteoNotFound,
  corteFuturo,
  materiaNotFound,
  materiaRepetida,
  materiasNotFound,
  periodoCerrado,
  productoNotFound,
} from './inventario.errors';
import {
  toConsumo,
  toConteo,
  toConteoResumen,
  toMovimiento,
  toProductoCosto,
  toSaldo,
} from './inventario.mapper';
import { InventarioRepository } from './inventario.repository';
import { INVENTARIO_EXTENSION } from './comanda-extension';

/** The comanda moves that consume (the comanda is then closed and not deleted) or give back. */
const CONSUMES: ReadonlySet<ComandaAction> = new Set(['cerrar', 'restaurar']);
const GIVES_BACK: ReadonlySet<ComandaAction> = new Set(['abrir', 'eliminar']);

/**
 * Stock from recipes (docs/inventario.md): the ledger's reads, waste and counts, and the
 * effects other modules' changes have on the stock while the feature `inventario` is on for
 * the tenant, in those changes' transactions: a purchase's raw-material lines come in (RPC
 * save_compra / delete_compra), a closed comanda uses its recipes and a reopened or deleted one
 * gives them back (the hooks of INVENTARIO_EXTENSION).
 */
@Injectable()
export class InventarioService implements ComandaExtension, OnModuleInit {
  constructor(
    private readonly repository: InventarioRepository,
    private readonly extensions: ComandaExtensions,
    private readonly storeFunctions: StoreFunctionHooks,
    private readonly context: TenantContext,
    private readonly features: TenantFeatures,
    private readonly caller: CallerPermissions,
  ) {}

  onModuleInit(): void {
    this.extensions.register(INVENTARIO_EXTENSION, this);
    // the movements name who saved or deleted the purchase
    this.storeFunctions.register('save_compra', async ({ result, actor }, tx) => {
      const id = (result as { id_compra?: unknown } | null)?.id_compra;
      if (this.on && typeof id === 'number')
        await this.repository.syncCompra(tx, id, actor.id_usuario);
    });
    this.storeFunctions.register('delete_compra', async ({ args, actor }, tx) => {
      // the function deleted it (an unknown id fails before this): its movements are reversed
      const id = Number(args[0]);
      if (this.on && Number.isSafeInteger(id))
        await this.repository.syncCompra(tx, id, actor.id_usuario);
    });
  }

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  private get on(): boolean {
    return this.features.isOn('inventario', this.context.tenant);
  }

  // ---- the comandas' moves (ComandaExtension) ----

  /**
   * The consumption of a close (or restore) and the reversal of a reopen (or deletion) lock the
   * balance rows of their materials, which every close of the tenant shares: they run last, after
   * the move's audit entry and the answer's read (which shows nothing of the stock), so the next
   * close waits on those rows only for this statement and the commit.
   */
  async beforeCommit(
    tx: Queryable,
    after: LockedComanda,
    action: ComandaAction,
    actor: Actor,
  ): Promise<void> {
    if (!this.on) return;
    const id = Number(after.id_comanda);
    if (CONSUMES.has(action) && after.estado === 'cerrada' && !after.eliminada)
      await this.repository.consume(tx, id, actor.id_usuario);
    else if (GIVES_BACK.has(action)) await this.repository.revert(tx, id, actor.id_usuario);
  }

  /** What the kitchen cancelled after it was sent is waste, from the products' recipes. */
  async itemsWasted(
    tx: Queryable,
    items: readonly { id_producto: number; cantidad: string }[],
    motivo: string,
    actor: Actor,
  ): Promise<void> {
    if (!this.on) return;
    await this.repository.mermasDeProductos(tx, items, motivo, actor.id_usuario);
  }

  // ---- reads ----

  materiales() {
    return this.repository.materiales();
  }

  async saldos() {
    return (await this.repository.saldos()).map((row) => toSaldo(row, this.timeZone));
  }

  async movimientos(query: ListMovimientosQuery) {
    const { rows, total } = await this.repository.movimientos(
      {
        id_mat_prima: query.id_mat_prima,
        tipo: query.tipo,
        desde: query.desde,
        hasta: query.hasta,
      },
      this.timeZone,
      query.limit ?? 50,
      query.offset ?? 0,
    );
    return { items: rows.map((row) => toMovimiento(row, this.timeZone)), total };
  }

  async consumo(query: ConsumoQuery) {
    const { totales, materiales } = await this.repository.consumo(
      query.desde ?? null,
      query.hasta ?? null,
      this.timeZone,
    );
    return toConsumo(totales, materiales, this.timeZone);
  }

  async productoCosto(id: number) {
    const found = await this.repository.productoCosto(id, this.timeZone);
    if (!found) throw productoNotFound(id);
    return toProductoCosto(found.producto, found.ingredientes);
  }

  // ---- waste ----

  merma(body: MermaBody, actor: Actor): Promise<MovimientoStockDto> {
    return this.repository.transaction(async (tx) => {
      if (!(await this.repository.materialExists(tx, body.id_mat_prima)))
        throw materiaNotFound(body.id_mat_prima);
      const id = await this.repository.merma(tx, body, this.timeZone, actor.id_usuario);
      return toMovimiento((await this.repository.movimiento(tx, id))!, this.timeZone);
    });
  }

  // ---- counts ----

  async conteos(estado: ConteoEstado | undefined, limit: number, offset: number) {
    const { rows, total } = await this.repository.conteos(estado, limit, offset);
    const grants = this.caller.grants;
    return { items: rows.map((row) => toConteoResumen(row, this.timeZone, grants)), total };
  }

  conteo(id: number): Promise<ConteoDto> {
    return this.readConteo(id);
  }

  createConteo(body: ConteoBody, actor: Actor): Promise<ConteoDto> {
    return this.repository.transaction(async (tx) => {
      await this.checkLineas(
        tx,
        body.lineas.map((l) => l.id_mat_prima),
      );
      const cut = await this.repository.cutOff(tx, body.fec_corte ?? null, this.timeZone);
      if (cut.futuro) throw corteFuturo();
      if (cut.antes) throw periodoCerrado(cut.cerrado_hasta);
      const id = await this.repository.createConteo(
        tx,
        cut.corte,
        body.observacion ?? null,
        body.lineas,
        actor.id_usuario,
      );
      return this.readConteo(id, tx);
    });
  }

  updateConteo(id: number, body: ConteoPatchBody): Promise<ConteoDto> {
    return this.repository.transaction(async (tx) => {
      await this.lockDraft(tx, id);
      const lineas = body.lineas ?? [];
      await this.checkLineas(
        tx,
        lineas.map((l) => l.id_mat_prima),
      );
      await this.repository.setLineas(
        tx,
        id,
        lineas.flatMap((l) =>
          l.contado === null ? [] : [{ id_mat_prima: l.id_mat_prima, contado: l.contado }],
        ),
      );
      await this.repository.removeLineas(
        tx,
        id,
        lineas.filter((l) => l.contado === null).map((l) => l.id_mat_prima),
      );
      await this.repository.touchConteo(tx, id, body.observacion);
      return this.readConteo(id, tx);
    });
  }

  applyConteo(id: number, actor: Actor): Promise<ConteoDto> {
    return this.repository.transaction(async (tx) => {
      await this.lockDraft(tx, id);
      await this.repository.apply(tx, id, actor.id_usuario);
      return this.readConteo(id, tx);
    });
  }

  discardConteo(id: number): Promise<ConteoDto> {
    return this.repository.transaction(async (tx) => {
      await this.lockDraft(tx, id);
      await this.repository.discard(tx, id);
      return this.readConteo(id, tx);
    });
  }

  private async lockDraft(tx: Queryable, id: number): Promise<void> {
    const locked = await this.repository.lockConteo(tx, id);
    if (!locked) throw conteoNotFound(id);
    if (locked.estado !== 'borrador') throw conteoNoEditable(id, locked.estado);
  }

  /** Each material once, and every one of them known. */
  private async checkLineas(tx: Queryable, ids: number[]): Promise<void> {
    const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (repeated.length > 0) throw materiaRepetida(repeated);
    const unknown = await this.repository.unknownMaterials(tx, ids);
    if (unknown.length > 0) throw materiasNotFound(unknown);
  }

  private async readConteo(id: number, db?: Queryable): Promise<ConteoDto> {
    const row = await this.repository.conteo(id, db);
    if (!row) throw conteoNotFound(id);
    const lineas = await this.repository.conteoLineas(id, db);
    return toConteo(
      row,
      lineas,
      lineas[0]?.valor_diferencias ?? '0',
      this.timeZone,
      this.caller.grants,
    );
  }
}
