import { Inject, Injectable } from '@nestjs/common';
import { CallerPermissions } from '../auth/caller-permissions';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { AppLogger, type Logger } from '../common/logging/logger';
import { TenantContext } from '../tenancy/tenant-context';
import {
  ENTREGAS_LIMIT_DEFAULT,
  type CreateWebhookBody,
  type ListEntregasQuery,
  type UpdateWebhookBody,
} from './dto/webhook-input.dto';
import type { EntregaDto, WebhookConSecretoDto, WebhookDto } from './dto/webhook-output.dto';
import { checkWebhookUrl, WebhookUrlError } from './webhook-address';
import { unknownEvents, urlForLogs } from './webhook-events';
import { newSecret } from './webhook-signature';
import {
  emptyChange,
  entregaNotFound,
  unknownEventTypes,
  urlNotAllowed,
  webhookInactive,
  webhookNotFound,
} from './webhooks.errors';
import { toEntrega, toWebhook, toWebhookWithSecret } from './webhooks.mapper';
import { WebhooksRepository, type WebhookFields } from './webhooks.repository';

/**
 * The endpoints of a tenant (docs/webhooks.md): their URL checked where it points, their event
 * types checked against the catalogue, their secret generated here and shown once. Sending is
 * the dispatcher's (webhook-dispatcher.service.ts).
 */
@Injectable()
export class WebhooksService {
  private readonly logger: Logger;

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly context: TenantContext,
    private readonly caller: CallerPermissions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    logger: AppLogger,
  ) {
    this.logger = logger.child('Webhooks');
  }

  private get timeZone(): string {
    return this.context.tenant.timeZone;
  }

  async list(): Promise<WebhookDto[]> {
    const rows = await this.repository.list();
    const grants = this.caller.grants;
    return rows.map((row) => toWebhook(row, this.timeZone, grants));
  }

  async get(id: number): Promise<WebhookDto> {
    const row = await this.repository.find(id);
    if (!row) throw webhookNotFound(id);
    return toWebhook(row, this.timeZone, this.caller.grants);
  }

  async create(body: CreateWebhookBody): Promise<WebhookConSecretoDto> {
    const url = await this.checkUrl(body.url);
    this.checkEvents(body.eventos);
    const row = await this.repository.insert(
      { url, eventos: body.eventos, descripcion: body.descripcion ?? null },
      newSecret(),
    );
    this.logger.info(
      { tenant: this.context.tenant.slug, webhook: row.id_webhook, url: urlForLogs(row.url) },
      'webhook endpoint created',
    );
    return toWebhookWithSecret(row, this.timeZone, this.caller.grants);
  }

  async update(id: number, body: UpdateWebhookBody): Promise<WebhookDto> {
    const fields: WebhookFields = {};
    if (body.url !== undefined) fields.url = await this.checkUrl(body.url);
    if (body.eventos !== undefined) {
      this.checkEvents(body.eventos);
      fields.eventos = body.eventos;
    }
    if (body.descripcion !== undefined) fields.descripcion = body.descripcion;
    if (body.activo !== undefined) fields.activo = body.activo;
    if (Object.keys(fields).length === 0) throw emptyChange();
    const row = await this.repository.transaction(async (tx) => {
      if (!(await this.repository.lock(tx, id))) throw webhookNotFound(id);
      return this.repository.update(tx, id, fields);
    });
    return toWebhook(row, this.timeZone, this.caller.grants);
  }

  async remove(id: number): Promise<void> {
    await this.repository.transaction(async (tx) => {
      if (!(await this.repository.lock(tx, id))) throw webhookNotFound(id);
      await this.repository.delete(tx, id);
    });
  }

  async rotate(id: number): Promise<WebhookConSecretoDto> {
    const row = await this.repository.transaction(async (tx) => {
      if (!(await this.repository.lock(tx, id))) throw webhookNotFound(id);
      return this.repository.rotate(tx, id, newSecret());
    });
    return toWebhookWithSecret(row, this.timeZone, this.caller.grants);
  }

  async test(id: number): Promise<EntregaDto> {
    const row = await this.repository.transaction(async (tx) => {
      const endpoint = await this.repository.lock(tx, id);
      if (!endpoint) throw webhookNotFound(id);
      if (!endpoint.activo) throw webhookInactive(id);
      return this.repository.enqueueTest(tx, id);
    });
    return toEntrega(row, this.timeZone, this.caller.grants);
  }

  async entregas(
    id: number,
    query: ListEntregasQuery,
  ): Promise<{ items: EntregaDto[]; total: number }> {
    if (!(await this.repository.find(id))) throw webhookNotFound(id);
    const { rows, total } = await this.repository.entregas(
      id,
      { estado: query.estado },
      query.limit ?? ENTREGAS_LIMIT_DEFAULT,
      query.offset ?? 0,
    );
    const grants = this.caller.grants;
    return { items: rows.map((row) => toEntrega(row, this.timeZone, grants)), total };
  }

  async resend(idEntrega: number): Promise<EntregaDto> {
    const row = await this.repository.transaction(async (tx) => {
      const endpoint = await this.repository.lockEndpointOf(tx, idEntrega);
      if (!endpoint) throw entregaNotFound(idEntrega);
      if (!endpoint.activo) throw webhookInactive(endpoint.id_webhook);
      return this.repository.resend(tx, idEntrega);
    });
    return toEntrega(row, this.timeZone, this.caller.grants);
  }

  private async checkUrl(raw: string): Promise<string> {
    try {
      const url = await checkWebhookUrl(raw, {
        production: this.config.NODE_ENV === 'production',
        allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE,
      });
      return url.toString();
    } catch (error) {
      if (error instanceof WebhookUrlError) throw urlNotAllowed(raw, error.reason);
      throw error;
    }
  }

  private checkEvents(eventos: string[]): void {
    const unknown = unknownEvents(eventos);
    if (unknown.length > 0) throw unknownEventTypes(unknown);
  }
}
