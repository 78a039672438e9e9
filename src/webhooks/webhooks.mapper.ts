import type { Grants } from '../auth/grants';
import { formatInstant, formatInstantOrNull } from '../common/time';
import type { EntregaDto, WebhookConSecretoDto, WebhookDto } from './dto/webhook-output.dto';
import { ENTREGA_ACCIONES, WEBHOOK_ACCIONES } from './webhook-actions';
import type { EntregaRow, WebhookRow, WebhookWithSecretRow } from './webhooks.repository';

/** An endpoint as a caller holding `grants` gets it (never its secret). */
export function toWebhook(row: WebhookRow, timeZone: string, grants: Grants): WebhookDto {
  const estado = row.activo ? 'activo' : 'inactivo';
  return {
    id_webhook: row.id_webhook,
    url: row.url,
    eventos: row.eventos,
    descripcion: row.descripcion,
    activo: row.activo,
    estado,
    motivo_desactivacion: row.motivo_desactivacion,
    fec_desactivacion: formatInstantOrNull(row.fec_desactivacion, timeZone),
    fallando_desde: formatInstantOrNull(row.fallando_desde, timeZone),
    secreto_anterior_hasta: formatInstantOrNull(row.secreto_anterior_hasta, timeZone),
    created_at: formatInstant(row.created_at, timeZone),
    updated_at: formatInstant(row.updated_at, timeZone),
    acciones: WEBHOOK_ACCIONES.permitted(estado, grants),
  };
}

/** The answer of a creation or a rotation: the endpoint and its new secret, this once. */
export function toWebhookWithSecret(
  row: WebhookWithSecretRow,
  timeZone: string,
  grants: Grants,
): WebhookConSecretoDto {
  return { ...toWebhook(row, timeZone, grants), secreto: row.secreto };
}

export function toEntrega(row: EntregaRow, timeZone: string, grants: Grants): EntregaDto {
  return {
    id_entrega: Number(row.id_mensaje),
    id_webhook: row.id_webhook,
    webhook_id: row.webhook_id,
    tipo: row.tipo,
    estado: row.estado,
    intentos: row.intentos,
    proximo_intento:
      row.estado === 'pendiente' ? formatInstant(row.proximo_intento, timeZone) : null,
    ultimo_status: row.ultimo_status,
    ultimo_error: row.ultimo_error,
    fec_creacion: formatInstant(row.fec_creacion, timeZone),
    fec_entrega: formatInstantOrNull(row.fec_entrega, timeZone),
    cuerpo: JSON.parse(row.cuerpo) as Record<string, unknown>,
    historial: row.historial.map((intento) => ({
      fec: formatInstant(new Date(intento.fec), timeZone),
      status: intento.status,
      error: intento.error,
      duracion_ms: intento.duracion_ms,
    })),
    acciones: ENTREGA_ACCIONES.permitted(row.webhook_activo ? 'activo' : 'inactivo', grants),
  };
}
