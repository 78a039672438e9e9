import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import { ComandaExtensions, type ComandaExtension } from '../comandas/comanda-extensions';
import { stateOf, transition, type ComandaAction } from '../comandas/comanda-state';
import { comandaNotFound, itemNotFound } from '../comandas/comandas.errors';
import type { LockedComanda } from '../comandas/comandas.repository';
import { ComandasService } from '../comandas/comandas.service';
import type { ComandaDetail } from '../comandas/dto/comanda-output.dto';
import { DomainError } from '../common/errors/domain-error';
import { StaleVersionError } from '../common/http/etag';
import type { Queryable } from '../database/sql';
import { TenantContext } from '../tenancy/tenant-context';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import { envioAllowed, type EnvioAction } from './cocina-actions';
import {
  categoriasNotFound,
  cursoYaDisparado,
  envioNotFound,
  estacionNotFound,
  envioMovido,
  estadoCocinaInvalido,
} from './cocina.errors';
import { toEnvio, toEstacion, toLineFields } from './cocina.mapper';
import { COCINA_EXTENSION } from './comanda-extension';
import { CocinaRepository } from './cocina.repository';
import type { EstacionBody, EstacionPatchBody, ListEnviosQuery } from './dto/cocina-input.dto';
import type { EnvioDto, EnvioResult, EstacionDto } from './dto/cocina-output.dto';

/**
 * A ticket's lines moved to another comanda while its change waited for the comanda's lock (the
 * change is retried on that comanda; after three moves in a row the caller retries).
 */
class EnvioMoved extends DomainError {
  constructor(idEnvio: number) {
    super(envioMovido.options(idEnvio));
  }
}

/** What each ticket action moves a ticket to (for ESTADO_COCINA_INVALIDO). */
/** What a ticket's move did, for each comanda's audit entry. */
interface EnvioMove {
  antes: string;
  lineas: number[];
  comandaOf: Map<number, number>;
  estaciones: unknown;
}

const TARGET: Record<EnvioAction, string> = {
  preparar: 'en_preparacion',
  listo: 'listo',
  recuperar: 'pendiente',
};

/**
 * The kitchen (docs/cocina.md): sends as deltas, courses, routing to stations, cancellations,
 * tickets' bump and recall, and what the comandas' own changes do to the kitchen while the
 * feature `cocina` is on (the hooks of COCINA_EXTENSION: a line's `curso`, cancellations of what
 * was sent, a split line's sent quantity, the lines' kitchen fields in the detail). Every kitchen
 * write is a change of its comanda (ComandasService.changeBy: row lock, If-Match, state machine,
 * version, one audit entry, the live stream).
 */
@Injectable()
export class CocinaService implements ComandaExtension, OnModuleInit {
  constructor(
    private readonly repository: CocinaRepository,
    private readonly comandas: ComandasService,
    private readonly extensions: ComandaExtensions,
    private readonly context: TenantContext,
    private readonly features: TenantFeatures,
    private readonly caller: CallerPermissions,
  ) {}

  onModuleInit(): void {
    this.extensions.register(COCINA_EXTENSION, this);
  }

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  private get on(): boolean {
    return this.features.isOn('cocina', this.context.tenant);
  }

  // ---- stations ----

  async estaciones(): Promise<EstacionDto[]> {
    return (await this.repository.estaciones()).map(toEstacion);
  }

  createEstacion(body: EstacionBody): Promise<EstacionDto> {
    return this.repository.transaction(async (tx) => {
      const id = await this.repository.insertEstacion(tx, body);
      return toEstacion((await this.repository.estacion(id, tx))!);
    });
  }

  updateEstacion(id: number, body: EstacionPatchBody): Promise<EstacionDto> {
    return this.repository.transaction(async (tx) => {
      if (!(await this.repository.updateEstacion(tx, id, body))) throw estacionNotFound(id);
      return toEstacion((await this.repository.estacion(id, tx))!);
    });
  }

  setCategorias(id: number, categorias: number[]): Promise<EstacionDto> {
    return this.repository.transaction(async (tx) => {
      if (!(await this.repository.estacion(id, tx))) throw estacionNotFound(id);
      const missing = await this.repository.missingCategorias(tx, categorias);
      if (missing.length > 0) throw categoriasNotFound(missing);
      await this.repository.setCategorias(tx, id, categorias);
      return toEstacion((await this.repository.estacion(id, tx))!);
    });
  }

  // ---- tickets ----

  async list(query: ListEnviosQuery): Promise<{ items: EnvioDto[]; total: number }> {
    let estacion: { id_estacion: number; tipo: 'preparacion' | 'expo' } | undefined;
    if (query.estacion !== undefined) {
      estacion = await this.repository.estacion(query.estacion);
      if (!estacion) throw estacionNotFound(query.estacion);
    }
    const { rows, total } = await this.repository.list(
      estacion,
      query.estado ?? 'pendiente',
      query.limit ?? 50,
      query.offset ?? 0,
    );
    const grants = this.caller.grants;
    return { items: rows.map((r) => toEnvio(r, this.timeZone, grants)), total };
  }

  /** Sends the pending lines of the fired courses (course 1 fires at the first send). */
  enviar(id: number, version: number | undefined, actor: Actor): Promise<EnvioResult> {
    return this.send(id, 'enviar', 1, version, actor);
  }

  /** Fires course `curso` (409 when fired already) and sends what is pending. */
  disparar(
    id: number,
    curso: number,
    version: number | undefined,
    actor: Actor,
  ): Promise<EnvioResult> {
    return this.send(id, 'disparar', curso, version, actor);
  }

  private send(
    id: number,
    action: 'enviar' | 'disparar',
    curso: number,
    version: number | undefined,
    actor: Actor,
  ): Promise<EnvioResult> {
    return this.repository.transaction(async (tx) => {
      // nothing new to send: no change at all (no version, no audit entry); the checks of a
      // change still apply (its existence, If-Match, the state machine)
      const locked = await this.repository.lockComanda(tx, id);
      if (!locked) throw comandaNotFound(id);
      if (version !== undefined && version !== locked.version)
        throw new StaleVersionError(locked.version, version);
      transition(stateOf(locked), action);
      if (action === 'enviar' && !(await this.repository.hasPending(tx, id, curso)))
        return { envios: [], version: locked.version };
      let ids: number[] = [];
      const detail = await this.comandas.changeBy(id, action, version, actor, async (inner) => {
        const fired = await this.repository.fire(inner, id, curso, actor.id_usuario);
        if (action === 'disparar' && !fired) throw cursoYaDisparado(id, curso);
        ids = await this.repository.emitir(inner, id, actor.id_usuario, 'enviar');
        const estaciones = await this.repository.estacionesOf(inner, ids);
        return {
          antes: null,
          despues: {
            curso: action === 'disparar' || fired ? curso : undefined,
            envios: ids,
            estaciones,
          },
          motivo: null,
        };
      });
      const envios = await this.repository.envios(tx, ids);
      const grants = this.caller.grants;
      return {
        envios: envios.map((e) => toEnvio(e, this.timeZone, grants)),
        version: detail.version,
      };
    });
  }

  /**
   * A ticket moves: preparar, listo (bump), recuperar (recall). It is a change of every comanda
   * holding its lines (a split can leave one ticket with lines in two): each is locked, in
   * ascending id order like every other multi-comanda change, gets a new version and its own
   * audit entry naming its lines that moved.
   */
  async moveEnvio(idEnvio: number, action: EnvioAction, actor: Actor): Promise<EnvioDto> {
    return this.repository.transaction(async (tx) => {
      // the comandas are read before their locks; a merge or split that moved the lines in
      // between is seen under the locks, and the change is framed again on where they went
      // (nothing is written before that check)
      for (const last of [false, false, true]) {
        const comandas = await this.repository.comandasOfEnvio(idEnvio);
        if (comandas.length === 0) throw envioNotFound(idEnvio);
        try {
          await this.moveEnvioOn(comandas, comandas, idEnvio, action, actor);
          break;
        } catch (error) {
          if (!(error instanceof EnvioMoved) || last) throw error;
        }
      }
      const [row] = await this.repository.envios(tx, [idEnvio]);
      return toEnvio(row, this.timeZone, this.caller.grants);
    });
  }

  /** The move framed on `comandas` (ascending, of `all`): each one's change nests the next one's. */
  private async moveEnvioOn(
    all: number[],
    comandas: number[],
    idEnvio: number,
    action: EnvioAction,
    actor: Actor,
  ): Promise<EnvioMove> {
    const [first, ...rest] = comandas;
    let move: EnvioMove | undefined;
    await this.comandas.changeBy(first, action, undefined, actor, async (inner) => {
      move =
        rest.length > 0
          ? await this.moveEnvioOn(all, rest, idEnvio, action, actor)
          : await this.applyMove(inner, all, idEnvio, action);
      const lineas = move.lineas.filter((id) => move!.comandaOf.get(id) === first);
      return {
        antes: { envios: [idEnvio], estado: move.antes },
        despues: {
          envios: [idEnvio],
          estado: TARGET[action],
          lineas,
          estaciones: move.estaciones,
          // the comandas of the move, each with an entry of its own (two after a split)
          comandas: all,
        },
        motivo: null,
      };
    });
    return move!;
  }

  /** Under every comanda's lock: the check that nothing moved, then the ticket's move. */
  private async applyMove(
    tx: Queryable,
    comandas: number[],
    idEnvio: number,
    action: EnvioAction,
  ): Promise<EnvioMove> {
    const now = await this.repository.comandasOfEnvio(idEnvio, tx);
    if (now.join() !== comandas.join()) throw new EnvioMoved(idEnvio);
    const envio = (await this.repository.lockEnvio(tx, idEnvio))!;
    if (!envioAllowed(envio.estado).includes(action))
      throw estadoCocinaInvalido({ id_envio: idEnvio }, envio.estado, TARGET[action]);
    let lineas: number[];
    if (action === 'preparar') lineas = await this.repository.preparar(tx, idEnvio);
    else if (action === 'listo') lineas = await this.repository.listo(tx, idEnvio);
    else {
      const served = await this.repository.entregada(tx, idEnvio);
      if (served !== undefined)
        throw estadoCocinaInvalido({ id_item: served }, 'entregado', 'enviado');
      lineas = await this.repository.recuperar(tx, idEnvio);
    }
    return {
      antes: envio.estado,
      lineas,
      comandaOf: await this.repository.comandasOfItems(tx, lineas),
      estaciones: await this.repository.estacionesOf(tx, [idEnvio]),
    };
  }

  /** A line served: listo → entregado. */
  entregar(
    id: number,
    idItem: number,
    version: number | undefined,
    actor: Actor,
  ): Promise<ComandaDetail> {
    return this.comandas.changeBy(id, 'entregar', version, actor, async (tx) => {
      const line = await this.repository.lockLinea(tx, id, idItem);
      if (!line) throw itemNotFound(id, idItem);
      if (line.estado_cocina !== 'listo')
        throw estadoCocinaInvalido({ id_item: idItem }, line.estado_cocina, 'entregado');
      await this.repository.entregar(tx, idItem);
      const envios = await this.repository.enviosOfItems(tx, [idItem]);
      const estaciones = await this.repository.estacionesOf(tx, envios);
      return {
        antes: { lineas: [idItem], estado_cocina: 'listo' },
        despues: { lineas: [idItem], estado_cocina: 'entregado', envios, estaciones },
        motivo: null,
      };
    });
  }

  // ---- the comandas' changes while cocina is on (ComandaExtension) ----

  itemFields(): readonly string[] {
    return this.on ? ['curso'] : [];
  }

  /** A sent line lowered or voided: its cancellation reaches the kitchen at once. */
  async itemChanging(
    tx: Queryable,
    comanda: LockedComanda,
    idItem: number,
    cantidad: number,
    actor: Actor,
  ): Promise<Record<string, unknown> | undefined> {
    if (!this.on) return undefined;
    const id = Number(comanda.id_comanda);
    const ids = await this.repository.emitir(
      tx,
      id,
      actor.id_usuario,
      'anular_linea',
      idItem,
      cantidad,
    );
    if (ids.length === 0) return undefined;
    await this.wasted(tx, ids, comanda, actor);
    return { envios: ids, estaciones: await this.repository.estacionesOf(tx, ids) };
  }

  /** A deleted abierta comanda: everything it had sent is cancelled. */
  async afterTransition(
    tx: Queryable,
    after: LockedComanda,
    action: ComandaAction,
    actor: Actor,
  ): Promise<void> {
    if (!this.on || action !== 'eliminar' || after.estado !== 'abierta') return;
    const ids = await this.repository.emitir(
      tx,
      Number(after.id_comanda),
      actor.id_usuario,
      'anular_comanda',
    );
    await this.wasted(tx, ids, after, actor);
  }

  /** The part of a split line takes its share of what was sent (no ticket is written). */
  async itemSplit(tx: Queryable, idOrigen: number, idNueva: number, cantidad: number) {
    if (!this.on) return;
    await this.repository.dividirLinea(tx, idOrigen, idNueva, cantidad);
  }

  async lineFields(id: number, db?: Queryable) {
    if (!this.on) return undefined;
    const rows = await this.repository.lineas(db ?? this.repository.reader, id);
    return new Map(rows.map((r) => [Number(r.id_item), toLineFields(r, this.timeZone)]));
  }

  /** What was sent to be prepared and then cancelled is waste (the stock records it). */
  private async wasted(tx: Queryable, ids: number[], comanda: LockedComanda, actor: Actor) {
    if (ids.length === 0) return;
    const items = await this.repository.cancelled(tx, ids);
    await this.extensions.itemsWasted(
      tx,
      items,
      `anulado en cocina: comanda ${comanda.numero_ticket}`,
      actor,
    );
  }
}
