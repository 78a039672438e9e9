import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequirePermission } from '../auth/auth.decorators';
import { RequireActionPermission, RequireActionPermissionOf } from '../auth/resource-actions';
import { ApiTag } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { CreateWebhookBody, ListEntregasQuery, UpdateWebhookBody } from './dto/webhook-input.dto';
import { EntregaDto, WebhookConSecretoDto, WebhookDto } from './dto/webhook-output.dto';
import { ENTREGA_ACCIONES, WEBHOOK_ACCIONES, type WebhookAction } from './webhook-actions';
import { WebhooksService } from './webhooks.service';
import { statementTimeout, validationError } from '../common/errors/common.errors';
import {
  emptyChange,
  entregaNotFound,
  unknownEventTypes,
  urlNotAllowed,
  WEBHOOK_VALIDATION_EXAMPLE,
  webhookInactive,
  webhookNotFound,
} from './webhooks.errors';

/** The action a PATCH performs: switching on or off, else editing. */
function patchAction(request: Request): WebhookAction {
  const activo = (request.body as { activo?: unknown } | undefined)?.activo;
  return activo === true ? 'activar' : activo === false ? 'desactivar' : 'editar';
}

/**
 * The tenant's webhook endpoints and their deliveries (docs/webhooks.md). Every route is the
 * administrator's (`webhooks:manage`): where the tenant's changes go and the secret that signs
 * them are not a floor decision.
 */
@ApiTag(
  'webhooks',
  'Outbound webhooks: endpoints, their signing secret (Standard Webhooks), test messages, deliveries and resends',
)
@TenantScoped()
@RequiresFeature('webhooks')
@RequirePermission('webhooks:manage')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: 'The endpoints, oldest first (never their secrets)' })
  @ApiOkResponse({ type: [WebhookDto] })
  @ApiErrors(statementTimeout)
  list() {
    return this.webhooks.list();
  }

  @Post()
  @ApiOperation({
    summary: 'Add an endpoint: answers its signing secret, this once',
    description:
      'The URL is checked where it points (https in production; no private, loopback or link-local address, resolved). The secret (whsec_…) signs every message; store it now.',
  })
  @ApiCreatedResponse({
    type: WebhookConSecretoDto,
    description: 'The endpoint, on, with its secret',
    headers: {
      Location: {
        description: 'The path of the new endpoint',
        schema: { type: 'string', example: '/api/v1/webhooks/3' },
      },
    },
  })
  @ApiErrors(WEBHOOK_VALIDATION_EXAMPLE, urlNotAllowed, unknownEventTypes, statementTimeout)
  @Idempotent()
  async create(@Body() body: CreateWebhookBody, @Res({ passthrough: true }) res: Response) {
    const webhook = await this.webhooks.create(body);
    res.setHeader('Location', `${res.req.baseUrl}${res.req.path}/${webhook.id_webhook}`);
    return webhook;
  }

  @Get(':id')
  @ApiOperation({ summary: 'An endpoint' })
  @ApiOkResponse({ type: WebhookDto })
  @ApiErrors(webhookNotFound, statementTimeout)
  get(@Param('id', ParseIdPipe) id: number) {
    return this.webhooks.get(id);
  }

  @Patch(':id')
  @RequireActionPermissionOf(WEBHOOK_ACCIONES, patchAction, ['editar', 'activar', 'desactivar'])
  @ApiOperation({
    summary: 'Change an endpoint: its URL, events, description, or switch it on or off',
    description:
      'Switching it on clears its failure record and the reason the service switched it off; its pending messages are sent again.',
  })
  @ApiOkResponse({ type: WebhookDto })
  @ApiErrors(
    webhookNotFound,
    WEBHOOK_VALIDATION_EXAMPLE,
    emptyChange,
    urlNotAllowed,
    unknownEventTypes,
    statementTimeout,
  )
  @Idempotent()
  update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateWebhookBody) {
    return this.webhooks.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireActionPermission(WEBHOOK_ACCIONES, 'eliminar')
  @ApiOperation({ summary: 'Remove an endpoint, with its messages and their attempts' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(webhookNotFound, statementTimeout)
  async remove(@Param('id', ParseIdPipe) id: number) {
    await this.webhooks.remove(id);
  }

  @Post(':id/rotar')
  @HttpCode(200)
  @RequireActionPermission(WEBHOOK_ACCIONES, 'rotar')
  @ApiOperation({
    summary: 'A new signing secret; the previous one also signs for 24 hours',
    description:
      'Until secreto_anterior_hasta, webhook-signature carries two signatures (one per secret), so a receiver can switch secrets without losing a message.',
  })
  @ApiOkResponse({ type: WebhookConSecretoDto, description: 'The endpoint with its new secret' })
  @ApiErrors(webhookNotFound, statementTimeout)
  @Idempotent()
  rotate(@Param('id', ParseIdPipe) id: number) {
    return this.webhooks.rotate(id);
  }

  @Post(':id/probar')
  @HttpCode(202)
  @RequireActionPermission(WEBHOOK_ACCIONES, 'probar')
  @ApiOperation({
    summary: 'Send a webhook.prueba message now',
    description: 'Queued like any message: follow it in GET /webhooks/{id}/entregas.',
  })
  @ApiAcceptedResponse({ type: EntregaDto, description: 'The message, queued' })
  @ApiErrors(webhookNotFound, webhookInactive, statementTimeout)
  @Idempotent()
  test(@Param('id', ParseIdPipe) id: number) {
    return this.webhooks.test(id);
  }

  @Get(':id/entregas')
  @ApiOperation({
    summary: 'An endpoint’s messages, newest first, with their attempts',
    description: 'The total count is in X-Total-Count. Messages are kept 30 days.',
  })
  @ApiOkResponse({
    type: [EntregaDto],
    headers: {
      'X-Total-Count': {
        description: 'Messages matching the filter, whatever the page',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors(webhookNotFound, validationError, statementTimeout)
  async entregas(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: ListEntregasQuery,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { items, total } = await this.webhooks.entregas(id, query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post('entregas/:id/reenviar')
  @HttpCode(202)
  @RequireActionPermission(ENTREGA_ACCIONES, 'reenviar')
  @ApiOperation({
    summary: 'Send a message again, now (same webhook-id, its retries from the start)',
  })
  @ApiAcceptedResponse({ type: EntregaDto, description: 'The message, queued again' })
  @ApiErrors(entregaNotFound, webhookInactive, statementTimeout)
  @Idempotent()
  resend(@Param('id', ParseIdPipe) id: number) {
    return this.webhooks.resend(id);
  }
}
