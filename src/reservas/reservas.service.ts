import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import { ComandasService } from '../comandas/comandas.service';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { StaleVersionError } from '../common/http/etag';
import { todayIn } from '../common/time';
import type { Queryable } from '../database/sql';
import { TenantContext } from '../tenancy/tenant-context';
import {
  EDITABLE_FIELDS,
  type CreateReservaBody,
  type EditableField,
  type SentarReservaBody,
  type UpdateReservaBody,
} from './dto/reserva-input.dto';
import type { ReservaDto } from './dto/reserva-output.dto';
import { LIST_LIMIT_DEFAULT, type ListReservasQuery } from './dto/list-reservas.query';
import {
  emptyChange,
  mesaAlreadyBooked,
  mesaRequired,
  reservaInThePast,
  reservaNotFound,
} from './reservas.errors';
import { toReserva } from './reservas.mapper';
import { ReservasRepository, type LockedReserva, type ReservaFields } from './reservas.repository';
import { transition, type ReservaAction } from './reservas-state';

/** The fields a body sends (present, even when null), and nothing else. */
function pickFields(body: Partial<Record<EditableField, unknown>>): ReservaFields {
  const fields: ReservaFields = {};
  for (const name of EDITABLE_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
  return fields;
}

/**
 * The business rules of reservations (docs/reservas.md). Every change runs in one transaction
 * that first locks the reservation's row, so concurrent changes are serialized; the state
 * machine (reservas-state.ts) decides what is allowed. Booking a table also locks the table's
 * row while it checks the table rule, so two bookings of one table cannot both pass it.
 */
@Injectable()
export class ReservasService {
  constructor(
    private readonly repository: ReservasRepository,
    private readonly context: TenantContext,
    private readonly comandas: ComandasService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly caller: CallerPermissions,
  ) {}

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  async list(query: ListReservasQuery): Promise<{ items: ReservaDto[]; total: number }> {
    const { rows, total } = await this.repository.list(
      {
        fecha: query.fecha ?? todayIn(this.timeZone),
        estado: query.estado,
        id_mesa: query.id_mesa,
      },
      query.limit ?? LIST_LIMIT_DEFAULT,
      query.offset ?? 0,
    );
    const grants = this.caller.grants;
    return { items: rows.map((row) => toReserva(row, this.timeZone, grants)), total };
  }

  get(id: number): Promise<ReservaDto> {
    return this.detail(id);
  }

  async create(body: CreateReservaBody, actor: Actor): Promise<ReservaDto> {
    const fields = pickFields(body);
    this.checkNotPast(body.fecha);
    return this.repository.transaction(async (tx) => {
      if (body.id_mesa != null) await this.checkTable(tx, body.id_mesa, body.fecha, body.hora, 0);
      const id = await this.repository.insert(tx, fields, actor.id_usuario);
      return this.detail(id, tx);
    });
  }

  /** A partial change of a pendiente reservation. */
  update(
    id: number,
    body: UpdateReservaBody,
    expectedVersion: number | undefined,
  ): Promise<ReservaDto> {
    const fields = pickFields(body);
    if (Object.keys(fields).length === 0) throw emptyChange();
    if (body.fecha !== undefined) this.checkNotPast(body.fecha);
    return this.change(id, 'editar', expectedVersion, async (tx, before) => {
      const mesa = body.id_mesa !== undefined ? body.id_mesa : before.id_mesa;
      const moved = ['id_mesa', 'fecha', 'hora'].some((name) => Object.hasOwn(fields, name));
      if (mesa !== null && moved) {
        await this.checkTable(tx, mesa, body.fecha ?? before.fecha, body.hora ?? before.hora, id);
      }
      await this.repository.update(tx, id, fields);
    });
  }

  /**
   * pendiente → sentada: opens a comanda on the table (the body's, else the reservation's) in
   * the same transaction, so that either both happen or neither does.
   */
  seat(
    id: number,
    body: SentarReservaBody,
    expectedVersion: number | undefined,
    actor: Actor,
  ): Promise<ReservaDto> {
    return this.change(id, 'sentar', expectedVersion, async (tx, before) => {
      const mesa = body.id_mesa ?? before.id_mesa;
      if (mesa === null) throw mesaRequired(id);
      const comanda = await this.comandas.create(
        {
          id_mesa: mesa,
          id_usuario: body.id_usuario,
          id_cliente: before.id_cliente,
          observacion: `Reserva ${id}: ${before.nombre}, ${before.personas} personas`,
        },
        actor,
        tx,
      );
      await this.repository.close(tx, id, {
        estado: 'sentada',
        actor: actor.id_usuario,
        id_mesa: mesa,
        id_comanda: comanda.id_comanda,
      });
    });
  }

  cancel(
    id: number,
    motivo: string,
    expectedVersion: number | undefined,
    actor: Actor,
  ): Promise<ReservaDto> {
    return this.change(id, 'cancelar', expectedVersion, (tx) =>
      this.repository.close(tx, id, { estado: 'cancelada', actor: actor.id_usuario, motivo }),
    );
  }

  noShow(id: number, expectedVersion: number | undefined, actor: Actor): Promise<ReservaDto> {
    return this.change(id, 'no_show', expectedVersion, (tx) =>
      this.repository.close(tx, id, { estado: 'no_show', actor: actor.id_usuario }),
    );
  }

  /**
   * The frame of every change: lock the row, check the version (If-Match) and the state
   * machine, apply, answer the reservation as changed: all in one transaction.
   */
  private change(
    id: number,
    action: ReservaAction,
    expectedVersion: number | undefined,
    apply: (tx: EntityManager, before: LockedReserva) => Promise<void>,
  ): Promise<ReservaDto> {
    return this.repository.transaction(async (tx) => {
      const before = await this.repository.lock(tx, id);
      if (!before) throw reservaNotFound(id);
      if (expectedVersion !== undefined && expectedVersion !== before.version) {
        throw new StaleVersionError(before.version, expectedVersion);
      }
      transition(before.estado, action);
      await apply(tx, before);
      return this.detail(id, tx);
    });
  }

  /** A reservation is never booked (or moved) to a day before today in the tenant's zone. */
  private checkNotPast(fecha: string): void {
    const today = todayIn(this.timeZone);
    if (fecha < today) throw reservaInThePast(fecha, today);
  }

  /**
   * The table rule: no other pendiente reservation of the table starts less than
   * RESERVAS_WINDOW_MINUTES before or after this one. The table's row stays locked until the
   * transaction ends, so a concurrent booking of the same table waits and then sees this one.
   */
  private async checkTable(
    tx: Queryable,
    idMesa: number,
    fecha: string,
    hora: string,
    except: number,
  ): Promise<void> {
    const minutes = this.config.RESERVAS_WINDOW_MINUTES;
    if (minutes === 0) return;
    // an unknown table: nothing to check, the write fails on its foreign key (400)
    if (!(await this.repository.lockMesa(tx, idMesa))) return;
    const other = await this.repository.conflicting(tx, {
      id_mesa: idMesa,
      fecha,
      hora,
      minutes,
      except,
    });
    if (other) throw mesaAlreadyBooked(idMesa, other, minutes);
  }

  private async detail(id: number, db?: Queryable): Promise<ReservaDto> {
    const row = await this.repository.find(id, db);
    if (!row) throw reservaNotFound(id);
    return toReserva(row, this.timeZone, this.caller.grants);
  }
}
