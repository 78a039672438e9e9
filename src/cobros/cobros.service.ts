import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import { ComandaExtensions, type ComandaExtension } from '../comandas/comanda-extensions';
import type { ComandaAction } from '../comandas/comanda-state';
import type { LockedComanda } from '../comandas/comandas.repository';
import { ComandasService } from '../comandas/comandas.service';
import type { UpdateComandaBody } from '../comandas/dto/comanda-input.dto';
import type { ComandaDetail } from '../comandas/dto/comanda-output.dto';
import type { Queryable } from '../database/sql';
import { TenantContext } from '../tenancy/tenant-context';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import {
  cajaRequerida,
  comandaConPagos,
  comandaReembolsada,
  descuentoExcede,
  metodoNotFound,
  motivoRequerido,
  pagoAnulado,
  pagoExcedeSaldo,
  pagoNotFound,
  pagosWithoutCerrar,
  recibidoInsuficiente,
  recibidoSoloEfectivo,
  reembolsoExcedePago,
  reembolsoLineas,
  saldoPendiente,
  sesionCerrada,
  sinSesionAbierta,
  unknownCaja,
} from './cobros.errors';
import { toCuenta, toSimulacion, type CuentaComanda } from './cobros.mapper';
import { BLOCKED_BY_PAYMENTS, COBROS_EXTENSION } from './comanda-extension';
import { CajasRepository } from './cajas.repository';
import { CobrosRepository, type PagoRow } from './cobros.repository';
import type {
  CierreConPagosBody,
  DescuentoBody,
  PagoInput,
  ReembolsoBody,
} from './dto/pago-input.dto';
import type { SimulacionPagoDto } from './dto/simulacion-pago.dto';

/**
 * Payments, voids, refunds and discounts of comandas (docs/cobros.md), and the money rules the
 * comandas' own changes follow while the feature `cobros` is on for the tenant (the hooks of
 * COBROS_EXTENSION: closing needs the bill paid, reopening needs its session open, a paid ticket
 * is not moved or deleted). Each change runs in the comanda's change frame
 * (ComandasService.changeBy: row lock, If-Match, state machine, version, audit entry, stream).
 */
@Injectable()
export class CobrosService implements ComandaExtension, OnModuleInit {
  constructor(
    private readonly repository: CobrosRepository,
    private readonly cajas: CajasRepository,
    private readonly comandas: ComandasService,
    private readonly extensions: ComandaExtensions,
    private readonly context: TenantContext,
    private readonly features: TenantFeatures,
    private readonly caller: CallerPermissions,
  ) {}

  onModuleInit(): void {
    this.extensions.register(COBROS_EXTENSION, this);
  }

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  private get on(): boolean {
    return this.features.isOn('cobros', this.context.tenant);
  }

  // ---- the routes ----

  pay(
    id: number,
    body: PagoInput,
    version: number | undefined,
    actor: Actor,
  ): Promise<ComandaDetail> {
    return this.comandas.changeBy(id, 'pagar', version, actor, async (tx) => {
      const pago = await this.applyPayment(tx, id, body, actor);
      return { antes: null, despues: pago, motivo: null };
    });
  }

  /**
   * What `pay` would do with this body, without doing it: `pay` itself runs, in a transaction of
   * its own that is rolled back at the end, so the payment, its checks, its refusals and the bill
   * after it are the real payment's by construction, and nothing stays (no payment, version,
   * audit entry, outbox message or stream notification: they are that transaction's rows).
   */
  simulatePayment(
    id: number,
    body: PagoInput,
    version: number | undefined,
    actor: Actor,
  ): Promise<SimulacionPagoDto> {
    return this.rolledBack(async (tx) => {
      await this.pay(id, body, version, actor);
      const { cuenta, pagos } = await this.repository.bill(tx, id, this.timeZone);
      // the payment just taken is the comanda's newest: its row is locked until the rollback
      return toSimulacion(pagos.at(-1)!, cuenta);
    });
  }

  voidPayment(
    id: number,
    idPago: number,
    motivo: string | undefined,
    version: number | undefined,
    actor: Actor,
  ): Promise<ComandaDetail> {
    if (!motivo?.trim()) throw motivoRequerido();
    return this.comandas.changeBy(id, 'anular_pago', version, actor, async (tx) => {
      const pago = await this.repository.lockPago(tx, id, idPago);
      if (!pago) throw pagoNotFound(id, idPago);
      if (pago.estado === 'anulado') throw pagoAnulado(idPago);
      const session = await this.cajas.shareSession(tx, Number(pago.id_sesion));
      if (session?.estado !== 'abierta')
        throw sesionCerrada(Number(pago.id_sesion), 'payments-final');
      await this.repository.voidPago(tx, idPago, motivo, actor.id_usuario);
      const [row] = await this.repository.pagos(tx, id, idPago);
      return { antes: snapshotPago(row, 'aplicado'), despues: snapshotPago(row), motivo };
    });
  }

  refund(
    id: number,
    body: ReembolsoBody,
    version: number | undefined,
    actor: Actor,
  ): Promise<ComandaDetail> {
    return this.comandas.changeBy(id, 'reembolsar', version, actor, async (tx) => {
      const pago = await this.repository.lockPago(tx, id, body.id_pago);
      if (!pago) throw pagoNotFound(id, body.id_pago);
      if (pago.estado === 'anulado') throw pagoAnulado(body.id_pago);
      const lineas = body.lineas ?? [];
      const bad = await this.repository.badRefundLines(tx, id, lineas);
      if (bad.length > 0)
        throw reembolsoLineas(bad.map((b) => ({ id_item: Number(b.id_item), reason: b.motivo })));
      const fits = await this.repository.refundable(tx, body.id_pago, body.monto);
      if (!fits.cabe) throw reembolsoExcedePago(body.id_pago, fits.disponible);
      const idSesion = await this.sessionFor(tx, body.id_caja, actor);
      const idReembolso = await this.repository.insertRefund(tx, {
        id_pago: body.id_pago,
        id_comanda: id,
        id_sesion: idSesion,
        monto: body.monto,
        motivo: body.motivo,
        id_usuario: actor.id_usuario,
        lineas,
      });
      return {
        antes: null,
        despues: {
          id_reembolso: idReembolso,
          id_pago: body.id_pago,
          monto: body.monto,
          id_sesion: idSesion,
          lineas,
        },
        motivo: body.motivo,
      };
    });
  }

  discount(
    id: number,
    body: DescuentoBody,
    version: number | undefined,
    actor: Actor,
  ): Promise<ComandaDetail> {
    return this.comandas.changeBy(id, 'descontar', version, actor, async (tx) => {
      if (!(await this.repository.discountFits(tx, id, body.tipo, body.valor)))
        throw descuentoExcede();
      const before = await this.repository.cuenta(tx, id, this.timeZone);
      await this.repository.setDiscount(tx, id, body.tipo, body.valor, body.motivo);
      const after = await this.repository.cuenta(tx, id, this.timeZone);
      return {
        antes: {
          descuento: before.descuento,
          tipo: before.descuento_tipo,
          valor: before.descuento_valor,
        },
        despues: {
          descuento: after.descuento,
          tipo: body.tipo,
          valor: body.valor,
          total: after.total,
        },
        motivo: body.motivo,
      };
    });
  }

  // ---- the comandas' changes while cobros is on (ComandaExtension) ----

  bodyFields(): readonly string[] {
    return this.on ? ['pagos'] : [];
  }

  /** `pagos` pays and closes in one step: with cerrar only. */
  checkUpdate(body: UpdateComandaBody & CierreConPagosBody): void {
    if (body.pagos !== undefined && body.action !== 'cerrar') throw pagosWithoutCerrar();
  }

  async checkChange(tx: Queryable, comanda: LockedComanda, action: ComandaAction): Promise<void> {
    if (!BLOCKED_BY_PAYMENTS.has(action) || !this.on) return;
    if (await this.repository.hasAppliedPayments(tx, Number(comanda.id_comanda)))
      throw comandaConPagos(Number(comanda.id_comanda), action);
  }

  /**
   * cerrar: the rates in force are frozen on the comanda first, then the payments sent with it
   * are applied (each audited as pagar), then the bill must be settled: the payments, the check
   * and the bill kept all use the frozen rates, whatever the settings become meanwhile (frozen
   * after the check, a service charge changed in between was kept on a closed comanda that the
   * check had found paid). abrir: the payments' sessions must still be open, and nothing
   * refunded.
   */
  async beforeTransition(
    tx: Queryable,
    comanda: LockedComanda,
    action: ComandaAction,
    body: UpdateComandaBody & CierreConPagosBody,
    actor: Actor,
  ): Promise<void> {
    if (!this.on) return;
    const id = Number(comanda.id_comanda);
    if (action === 'cerrar') {
      await this.repository.freezeRates(tx, id, this.timeZone);
      for (const pago of body.pagos ?? []) {
        const applied = await this.applyPayment(tx, id, pago, actor);
        await this.comandas.recordEvent(tx, {
          id_comanda: id,
          accion: 'pagar',
          id_usuario: actor.id_usuario,
          motivo: null,
          antes: null,
          despues: applied,
        });
      }
      const cuenta = await this.repository.cuenta(tx, id, this.timeZone);
      if (!cuenta.saldado) throw saldoPendiente(cuenta.saldo);
    } else if (action === 'abrir') {
      if (await this.repository.hasRefunds(tx, id)) throw comandaReembolsada(id);
      const closed = (await this.repository.paymentSessions(tx, id)).find(
        (s) => s.estado !== 'abierta',
      );
      if (closed) throw sesionCerrada(Number(closed.id_sesion), 'paid-comanda');
    }
  }

  /** abrir: today's rates apply again (cerrar froze them in beforeTransition). */
  async afterTransition(tx: Queryable, after: LockedComanda, action: ComandaAction): Promise<void> {
    if (!this.on) return;
    if (action === 'abrir') await this.repository.thawRates(tx, Number(after.id_comanda));
  }

  async detail(id: number, db?: Queryable): Promise<CuentaComanda | undefined> {
    if (!this.on) return undefined;
    const { cuenta, pagos } = await this.repository.bill(
      db ?? this.repository.reader,
      id,
      this.timeZone,
    );
    return toCuenta(cuenta, pagos, cuenta.comanda_estado, this.timeZone, this.caller.grants);
  }

  // ---- rules ----

  /**
   * Applies one payment to the locked comanda: the session that takes it, the method, and the
   * amounts worked out in SQL on the bill as it is now. Answers the payment as the audit keeps it.
   */
  private async applyPayment(tx: Queryable, id: number, body: PagoInput, actor: Actor) {
    const metodo = await this.cajas.metodo(tx, body.id_metodo_pago);
    if (!metodo?.activo) throw metodoNotFound(body.id_metodo_pago);
    const cash = metodo.tipo === 'efectivo';
    if (!cash && body.recibido !== undefined) throw recibidoSoloEfectivo();
    const idSesion = await this.sessionFor(tx, body.id_caja, actor);
    const propina = body.propina ?? 0;
    const plan = await this.repository.planPayment(tx, id, this.timeZone, cash, {
      monto: body.monto,
      propina,
      recibido: body.recibido ?? null,
    });
    if (plan.excede) throw pagoExcedeSaldo(plan.saldo);
    if (plan.insuficiente) throw recibidoInsuficiente(plan.recibido!, plan.aplicado, propina);
    const row = await this.repository.insertPago(tx, {
      id_comanda: id,
      id_sesion: idSesion,
      id_metodo_pago: metodo.id_metodo_pago,
      monto: plan.aplicado,
      propina,
      recibido: plan.recibido,
      vuelto: plan.vuelto,
      referencia: body.referencia ?? null,
      id_usuario: actor.id_usuario,
    });
    return snapshotPago(row);
  }

  /**
   * Runs `work` in a transaction of its own and rolls it back, whatever `work` answers: a change
   * that joined the request's transaction would stay with it, so there must be none.
   */
  private async rolledBack<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.context.transaction) throw new Error('A dry run needs a transaction of its own');
    try {
      return await this.repository.transaction<T>(async (tx) => {
        throw new RolledBack(await work(tx));
      });
    } catch (thrown) {
      if (thrown instanceof RolledBack) return thrown.answer as T;
      throw thrown;
    }
  }

  /**
   * The open session that takes the money: of the till named, else the one the caller opened,
   * else the only one open. Taken FOR SHARE, so that its close waits for this change (and this
   * change sees a close that came first).
   */
  private async sessionFor(
    tx: Queryable,
    idCaja: number | undefined,
    actor: Actor,
  ): Promise<number> {
    if (idCaja !== undefined && !(await this.cajas.cajaExists(tx, idCaja)))
      throw unknownCaja(idCaja);
    const candidates = await this.cajas.openSessions(tx, idCaja, actor.id_usuario);
    if (candidates.length === 0) throw sinSesionAbierta(idCaja);
    if (candidates.length > 1 && !candidates[0].propia) throw cajaRequerida();
    const session = await this.cajas.shareSession(tx, Number(candidates[0].id_sesion));
    if (session?.estado !== 'abierta') throw sinSesionAbierta(idCaja);
    return Number(session.id_sesion);
  }
}

/** Ends a dry run's transaction (rolled back as any transaction that throws) with its answer. */
class RolledBack extends Error {
  constructor(readonly answer: unknown) {
    super('rolled back');
  }
}

/** A payment as the audit trail keeps it (the amounts as PostgreSQL computed them). */
function snapshotPago(row: PagoRow, estado: 'aplicado' | 'anulado' = row.estado) {
  return {
    id_pago: Number(row.id_pago),
    id_metodo_pago: row.id_metodo_pago,
    metodo: row.metodo,
    monto: row.monto,
    propina: row.propina,
    recibido: row.recibido,
    vuelto: row.vuelto,
    referencia: row.referencia,
    id_sesion: Number(row.id_sesion),
    estado,
  };
}
