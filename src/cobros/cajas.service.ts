import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import type { Queryable } from '../database/sql';
import { TenantContext } from '../tenancy/tenant-context';
import {
  cajaNotFound,
  comandasAbiertasConPagos,
  contadoInvalido,
  diferenciaSobreTolerancia,
  sesionCerrada,
  sesionNotFound,
  sesionYaAbierta,
} from './cobros.errors';
import { toAjustes, toCaja, toMetodo, toMovimiento, toReporte, toSesion } from './cobros.mapper';
import { CajasRepository } from './cajas.repository';
import type {
  AbrirSesionBody,
  AjustesBody,
  CerrarSesionBody,
  ListSesionesQuery,
  MovimientoBody,
} from './dto/caja-input.dto';
import type {
  AjustesDto,
  CajaDto,
  MetodoPagoDto,
  MovimientoDto,
  ReporteCajaDto,
  SesionCajaDto,
} from './dto/caja-output.dto';

/**
 * Tills and their sessions (docs/cobros.md): opening with a float, cash movements, the X while
 * open and the Z at the close, and the tenant's money settings. A session's changes take its
 * row (movements FOR SHARE, the close FOR UPDATE after the till's row, which numbers the Z), so
 * a close sees every payment and movement that came before it and none comes after.
 */
@Injectable()
export class CajasService {
  constructor(
    private readonly repository: CajasRepository,
    private readonly context: TenantContext,
    private readonly caller: CallerPermissions,
  ) {}

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  async metodos(): Promise<MetodoPagoDto[]> {
    return (await this.repository.metodos()).map(toMetodo);
  }

  async cajas(): Promise<CajaDto[]> {
    const grants = this.caller.grants;
    return (await this.repository.cajas()).map((row) => toCaja(row, this.timeZone, grants));
  }

  openSession(idCaja: number, body: AbrirSesionBody, actor: Actor): Promise<ReporteCajaDto> {
    return this.repository.transaction(async (tx) => {
      const caja = await this.repository.lockCaja(tx, idCaja);
      if (!caja?.activa) throw cajaNotFound(idCaja);
      const [open] = await this.repository.openSessions(tx, idCaja, actor.id_usuario);
      if (open) throw sesionYaAbierta(idCaja, Number(open.id_sesion));
      const id = await this.repository.openSession(
        tx,
        idCaja,
        body.monto_apertura,
        actor.id_usuario,
      );
      await this.repository.sessionEvent(tx, id, 'abrir', actor.id_usuario, {
        id_caja: idCaja,
        monto_apertura: body.monto_apertura,
      });
      return this.report(id, tx);
    });
  }

  async sessions(query: ListSesionesQuery): Promise<{ items: SesionCajaDto[]; total: number }> {
    const { rows, total } = await this.repository.sessions(
      { ...query, timeZone: this.timeZone },
      query.limit ?? 50,
      query.offset ?? 0,
    );
    const grants = this.caller.grants;
    return { items: rows.map((row) => toSesion(row, this.timeZone, grants)), total };
  }

  /** The X of an open session (figures so far; nothing is written) or the Z of a closed one. */
  async report(id: number, db?: Queryable): Promise<ReporteCajaDto> {
    const source = db ?? this.repository.reader;
    const sesion = await this.repository.session(id, source);
    if (!sesion) throw sesionNotFound(id);
    // one after the other: `source` may be a transaction, one connection
    const { metodos, totales } = await this.repository.figures(source, id);
    const movimientos = await this.repository.movements(source, id);
    return toReporte(
      sesion,
      metodos,
      totales,
      movimientos,
      new Date(),
      this.timeZone,
      this.caller.grants,
    );
  }

  movement(id: number, body: MovimientoBody, actor: Actor): Promise<MovimientoDto> {
    return this.repository.transaction(async (tx) => {
      const session = await this.repository.shareSession(tx, id);
      if (!session) throw sesionNotFound(id);
      if (session.estado !== 'abierta') throw sesionCerrada(id, 'movements');
      const row = await this.repository.movement(
        tx,
        id,
        body.tipo,
        body.monto,
        body.motivo,
        actor.id_usuario,
      );
      await this.repository.sessionEvent(tx, id, body.tipo, actor.id_usuario, {
        id_movimiento: Number(row.id_movimiento),
        monto: row.monto,
        motivo: row.motivo,
      });
      return toMovimiento(row, this.timeZone);
    });
  }

  /**
   * The close: the count per method against what was expected, differences recorded (beyond the
   * tolerance only with caja:approve-difference), the till's next Z number, the session closed
   * for good. Refused while a comanda paid in it is still abierta.
   */
  close(id: number, body: CerrarSesionBody, actor: Actor): Promise<ReporteCajaDto> {
    return this.repository.transaction(async (tx) => {
      const idCaja = (await this.repository.session(id, tx))?.id_caja;
      if (idCaja === undefined) throw sesionNotFound(id);
      await this.repository.lockCaja(tx, idCaja);
      const session = await this.repository.lockSession(tx, id);
      if (session!.estado !== 'abierta') throw sesionCerrada(id, 'closed');

      const open = await this.repository.openComandasPaidIn(tx, id);
      if (open.length > 0) throw comandasAbiertasConPagos(id, open);

      const problems: string[] = [];
      const seen = new Set<number>();
      for (const c of body.contado) {
        if (seen.has(c.id_metodo_pago))
          problems.push(`contado lists method ${c.id_metodo_pago} twice`);
        seen.add(c.id_metodo_pago);
      }
      const plan = await this.repository.plannedClose(tx, id, body.contado, body.conteo);
      for (const m of plan) {
        if (m.desconocido)
          problems.push(`contado names method ${m.id_metodo_pago}, which does not exist`);
        else if (m.cuenta_en_caja && m.contado === null)
          problems.push(
            `contado must give the cash method ${m.id_metodo_pago}, or conteo its denominations`,
          );
        else if (
          m.cuenta_en_caja &&
          m.conteo_total !== null &&
          seen.has(m.id_metodo_pago) &&
          !m.conteo_coincide
        )
          problems.push(
            `the cash counted for method ${m.id_metodo_pago} (${m.contado}) is not the sum of conteo (${m.conteo_total})`,
          );
      }
      if (problems.length > 0) throw contadoInvalido(problems);
      if (
        plan.some((m) => m.fuera_de_tolerancia) &&
        !this.caller.grants.has('caja:approve-difference')
      ) {
        throw diferenciaSobreTolerancia((await this.repository.ajustes(tx)).tolerancia_cierre);
      }

      const counted = plan.map((m) => ({
        id_metodo_pago: m.id_metodo_pago,
        esperado: m.esperado,
        contado: m.contado!,
      }));
      const numeroZ = await this.repository.close(
        tx,
        id,
        idCaja,
        counted,
        body.conteo,
        body.nota,
        actor.id_usuario,
      );
      await this.repository.sessionEvent(tx, id, 'cerrar', actor.id_usuario, {
        numero_z: numeroZ,
        contado: counted,
        nota: body.nota ?? null,
      });
      return this.report(id, tx);
    });
  }

  async ajustes(): Promise<AjustesDto> {
    return toAjustes(await this.repository.ajustes());
  }

  saveAjustes(body: AjustesBody): Promise<AjustesDto> {
    return this.repository.transaction(async (tx) => {
      await this.repository.saveAjustes(tx, body);
      return toAjustes(await this.repository.ajustes(tx));
    });
  }
}
