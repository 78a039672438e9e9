import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { QueryToken, RequirePermission } from '../auth/auth.decorators';
import type { Grants } from '../auth/grants';
import { withAcciones } from '../comandas/comanda.mapper';
import type { ComandaAction } from '../comandas/comanda-state';
import { ComandaEventHub } from '../comandas/stream/comanda-event-hub.service';
import { SseStream, sseFrame } from '../comandas/stream/sse-stream';
import type { FeedEvent } from '../comandas/stream/tenant-feed';
import { ApiTag, LongRunning } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { estacionNotFound } from './cocina.errors';
import { CocinaRepository } from './cocina.repository';
import { CocinaStreamQuery } from './dto/cocina-input.dto';
import { invalidLastEventId, validationError } from '../common/errors/common.errors';
import { tooManyStreams, tooManyStreamsShare } from '../comandas/comandas.errors';

/** The kitchen's own actions: their entries name the tickets and stations they touched. */
const COCINA_ACTIONS: ReadonlySet<string> = new Set<ComandaAction>([
  'enviar',
  'disparar',
  'preparar',
  'listo',
  'recuperar',
  'entregar',
]);
/** Changes of a comanda that matter to a kitchen once it has tickets. */
const FLOOR_ACTIONS: ReadonlySet<string> = new Set<ComandaAction>([
  'transferir',
  'dividir',
  'unir',
  'quitar_item',
  'modificar_item',
  'eliminar',
]);

function idsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

function lastEventIdOf(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (!/^\d{1,15}$/.test(header.trim())) throw invalidLastEventId(header);
  return Number(header.trim());
}

/**
 * GET /api/v1/cocina/stream: the comanda changes that concern the kitchen, over the comandas'
 * live feed (the same pipeline: after-commit delivery from the audit trail, Last-Event-ID
 * resume, heartbeats) with the kitchen's filter: a preparation station sees the kitchen actions
 * that touched its tickets and the floor's changes of comandas it has tickets of; an expo
 * station (or no station) every kitchen event.
 */
@ApiTag('cocina', 'The kitchen (feature cocina).')
@TenantScoped()
@RequiresFeature('cocina')
@RequirePermission('cocina:read')
@Controller('cocina')
export class CocinaStreamController {
  constructor(
    private readonly hub: ComandaEventHub,
    private readonly repository: CocinaRepository,
  ) {}

  @Get('stream')
  @LongRunning()
  @QueryToken()
  @ApiOperation({
    summary: 'Live kitchen events of a station (Server-Sent Events)',
    description:
      'One `event: cocina` per audit entry that concerns the station: the kitchen actions (enviar, ' +
      'disparar, preparar, listo, recuperar, entregar) touching its tickets, and transferir, dividir, ' +
      'unir, quitar_item, modificar_item, eliminar of comandas it has tickets of. `data:` is the ' +
      'comanda stream’s event with `envios` (the ticket ids it changed; refetch them) and `estaciones`. ' +
      'Last-Event-ID resumes; a heartbeat every 15 s. The shares and the end of a session are those ' +
      'of the comanda stream.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The last event id received: the stream resumes after it',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  })
  @ApiResponse({
    status: 200,
    description: 'The stream (text/event-stream), open until the client or the service ends it',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(
    validationError,
    invalidLastEventId,
    tooManyStreams,
    tooManyStreamsShare,
    estacionNotFound,
  )
  async stream(
    @Query() query: CocinaStreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const after = lastEventIdOf(lastEventId) ?? query.lastEventId;
    let mine: number | undefined;
    if (query.estacion !== undefined) {
      const estacion = await this.repository.estacion(query.estacion);
      if (!estacion) throw estacionNotFound(query.estacion);
      if (estacion.tipo === 'preparacion') mine = estacion.id_estacion;
    }
    // the comandas this station has tickets of (kept up to date from the events it receives)
    const known = new Set(await this.repository.comandasOfEstacion(mine));
    const filter = (event: FeedEvent): boolean => {
      const accion = event.data.accion;
      const despues = event.despues ?? {};
      const id = event.data.id_comanda;
      const touches = mine === undefined || idsOf(despues.estaciones).includes(mine);
      let relevant: boolean;
      if (COCINA_ACTIONS.has(accion)) relevant = touches;
      else if (FLOOR_ACTIONS.has(accion))
        relevant =
          (idsOf(despues.envios).length > 0 && touches) ||
          (mine === undefined ? idsOf(despues.envios).length > 0 || known.has(id) : known.has(id));
      else relevant = false;
      if (relevant) {
        known.add(id);
        for (const other of [despues.nueva, despues.unida_a])
          if (typeof other === 'number') known.add(other);
      }
      return relevant;
    };
    const frame = (event: FeedEvent, grants: Grants): string =>
      sseFrame(
        'cocina',
        {
          ...withAcciones(event.data, grants),
          envios: idsOf(event.despues?.envios),
          estaciones: idsOf(event.despues?.estaciones),
        },
        event.id,
      );
    this.hub.admit();
    const stream = new SseStream(res, {
      heartbeatMs: 15_000,
      maxBufferedBytes: 1_048_576,
      retryMs: 2_000,
    });
    await this.hub.subscribe(stream, { after, filter, frame }, () => stream.open());
  }
}
