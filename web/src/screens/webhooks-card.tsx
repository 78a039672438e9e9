import { useId } from 'preact/hooks';
import { when } from '../format';
import {
  buttonsOf,
  chipsOf,
  hace,
  motivoDesactivacion,
  shortUrl,
  type Accion,
  type Webhook,
} from './webhooks-rules';

/** A URL shortened for a line of text, whole on hover. */
export function UrlText({ url, max = 64 }: { url: string; max?: number }) {
  return (
    <span class="wh-url" title={url}>
      {shortUrl(url, max)}
    </span>
  );
}

export function WebhookCard({
  webhook: w,
  selected,
  pending,
  onSelect,
  onAction,
}: {
  webhook: Webhook;
  selected: boolean;
  pending: string | null;
  onSelect: () => void;
  onAction: (accion: Accion) => void;
}) {
  const uid = useId();
  const chips = chipsOf(w.eventos);
  const buttons = buttonsOf(w.acciones);
  const short = shortUrl(w.url, 80);
  const busy = (accion: Accion) => pending === `${w.id_webhook}:${accion}`;
  const apagadoPorServicio = w.estado === 'inactivo' && w.motivo_desactivacion;
  const anteriorVigente =
    w.secreto_anterior_hasta !== null && Date.parse(w.secreto_anterior_hasta) > Date.now();
  return (
    <article
      class={selected ? 'wh-card selected' : 'wh-card'}
      aria-labelledby={`${uid}-url`}
      data-estado={w.estado}
    >
      <div class="wh-card-head">
        <span id={`${uid}-url`} class="wh-url" title={w.url}>
          {short}
        </span>
        <span class={`pill wh-${w.estado}`}>{w.estado === 'activo' ? 'Activo' : 'Inactivo'}</span>
      </div>
      {w.descripcion && (
        <p class="wh-desc" title={w.descripcion}>
          {w.descripcion}
        </p>
      )}
      <ul class="wh-chips" aria-label="Eventos">
        {chips.map((c) => (
          <li key={c.label} class="wh-chip" title={c.title}>
            {c.label}
          </li>
        ))}
      </ul>
      {apagadoPorServicio && (
        <p class="wh-alerta danger">
          Desactivado por el servicio{w.fec_desactivacion && ` el ${when(w.fec_desactivacion)}`}:{' '}
          {motivoDesactivacion(w.motivo_desactivacion ?? '')}. Revise el sistema que recibe y
          actívelo de nuevo.
        </p>
      )}
      {w.estado === 'inactivo' && !apagadoPorServicio && (
        <p class="wh-alerta">Desactivado: no se le envía nada hasta que se active.</p>
      )}
      {w.estado === 'activo' && w.fallando_desde && (
        <p class="wh-alerta warn">
          Falla desde el {when(w.fallando_desde)} ({hace(w.fallando_desde, Date.now())}): se
          reintenta; tras 5 días sin entregar nada se desactiva solo.
        </p>
      )}
      {anteriorVigente && (
        <p class="wh-nota">
          El secreto anterior también firma hasta el {when(w.secreto_anterior_hasta)}.
        </p>
      )}
      <div class="wh-card-actions">
        <button
          type="button"
          class={selected ? 'small' : 'secondary small'}
          aria-pressed={selected}
          aria-label={`Entregas de ${short}`}
          onClick={onSelect}
        >
          Entregas
        </button>
        {buttons.map((b) => (
          <button
            key={b.accion}
            type="button"
            class={
              b.accion === 'eliminar'
                ? 'secondary small wh-eliminar'
                : b.accion === 'desactivar' || b.accion === 'activar'
                  ? 'secondary small push'
                  : 'secondary small'
            }
            disabled={pending !== null}
            aria-label={`${b.label}: ${short}`}
            onClick={() => onAction(b.accion)}
          >
            {busy(b.accion) ? '…' : b.label}
          </button>
        ))}
      </div>
    </article>
  );
}
