import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { QueryToken, RequirePermission } from '../../auth/auth.decorators';
import { LongRunning } from '../../common/decorators';
import { invalidLastEventId, validationError } from '../../common/errors/common.errors';
import { ApiErrors } from '../../common/http/openapi-errors';
import { TenantScoped } from '../../tenancy/tenancy.decorators';
import { tooManyStreams, tooManyStreamsShare } from '../comandas.errors';
import { ComandaStreamEvent } from '../dto/comanda-output.dto';
import { ComandaEventHub } from './comanda-event-hub.service';
import { SseStream } from './sse-stream';
import { StreamComandasQuery } from './stream-comandas.query';

/** The stream's timings: a comment every 15 s keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/** What a client that stops reading may leave waiting in its socket before it is cut. */
const MAX_BUFFERED_BYTES = 1_048_576;
/** The reconnection delay EventSource is told to use. */
const RETRY_MS = 2_000;

/** Reads a Last-Event-ID header: a non-negative integer, or 400. */
function lastEventIdOf(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (!/^\d{1,15}$/.test(header.trim())) throw invalidLastEventId(header);
  return Number(header.trim());
}

/**
 * GET /api/v1/comandas/stream: the tenant's comanda changes as Server-Sent Events
 * (docs/comandas.md, "Live updates"). Declared before ComandasController so that `stream` is
 * never read as a comanda id.
 */
@ApiTags('comandas')
@ApiExtraModels(ComandaStreamEvent)
@TenantScoped()
@RequirePermission('comandas:read')
@Controller('comandas')
export class ComandaStreamController {
  constructor(private readonly hub: ComandaEventHub) {}

  @Get('stream')
  @LongRunning()
  @QueryToken()
  @ApiOperation({
    summary: 'Live changes of comandas (Server-Sent Events)',
    description:
      'One `event: comanda` per audit entry, `id:` = the entry id, `data:` = the entry (accion, actor, ' +
      'time) and the comanda summary, whose `acciones` are what the subscriber may do to it now ' +
      '(as in GET /comandas); a comment heartbeat every 15 s. Last-Event-ID (or lastEventId) ' +
      'replays what came after it, up to 1,000 entries or 24 hours; beyond, `event: reset` (reload ' +
      'the list). 503 TOO_MANY_STREAMS past SSE_MAX_CLIENTS on this instance, 429 past the ' +
      "tenant's (SSE_MAX_PER_TENANT) or the user's (SSE_MAX_PER_USER) share of it. With a token, " +
      'the stream lasts as long as its session: a sign-out, a deactivation, a change of credentials ' +
      'or the expiry end it with an `event: end` ({reason, error}).',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The last event id received: the stream resumes after it',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  })
  @ApiResponse({
    status: 200,
    description:
      'The stream (text/event-stream), open until the client or the service ends it. The schema ' +
      'is the one of the `data:` of each `event: comanda` (a ComandaStreamEvent).',
    // OpenAPI 3.0 has no schema for the items of a stream (3.2's itemSchema): the schema given
    // is the one of each event's `data:`, as the description says
    content: { 'text/event-stream': { schema: { $ref: getSchemaPath(ComandaStreamEvent) } } },
  })
  @ApiErrors(validationError, invalidLastEventId, tooManyStreams, tooManyStreamsShare)
  async stream(
    @Query() query: StreamComandasQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const after = lastEventIdOf(lastEventId) ?? query.lastEventId;
    this.hub.admit();
    const stream = new SseStream(res, {
      heartbeatMs: HEARTBEAT_MS,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      retryMs: RETRY_MS,
    });
    // the feed and the replay may fail (503) before anything is sent
    await this.hub.subscribe(stream, { id_mesa: query.id_mesa, estado: query.estado, after }, () =>
      stream.open(),
    );
  }
}
