import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { when } from '../format';
import type { WebhookConSecreto } from './webhooks-rules';
import { UrlText } from './webhooks-card';

/** The secret of the last creation or rotation: shown once, until the user says it is kept. */
export interface Secreto {
  webhook: WebhookConSecreto;
  rotated: boolean;
}

/** The secret just created or rotated: shown this once, with a copy button. */
export function SecretPanel({ secreto, onDone }: { secreto: Secreto; onDone: () => void }) {
  const uid = useId();
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<'ok' | 'manual' | null>(null);
  const { webhook, rotated } = secreto;

  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
    input.current?.focus();
    input.current?.select();
    setCopied(null);
  }, [webhook.secreto]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(webhook.secreto);
      setCopied('ok');
    } catch {
      // no clipboard (a page not served over https): the text is selected for Ctrl+C
      input.current?.focus();
      input.current?.select();
      setCopied('manual');
    }
  };

  return (
    <section ref={panel} class="wh-secreto" aria-labelledby={`${uid}-titulo`}>
      <h3 id={`${uid}-titulo`}>
        {rotated ? 'Nuevo secreto de firma' : 'Secreto de firma'} de{' '}
        <UrlText url={webhook.url} max={56} />
      </h3>
      <p class="wh-aviso">
        <strong>Cópielo ahora: no se volverá a mostrar.</strong> El sistema que recibe los mensajes
        lo usa para comprobar que vienen de este restaurante. Si se pierde, genere otro con «Rotar
        secreto».
      </p>
      {rotated && webhook.secreto_anterior_hasta && (
        <p class="wh-nota">
          El secreto anterior sigue firmando hasta el {when(webhook.secreto_anterior_hasta)}:
          cámbielo en el sistema que recibe antes de esa hora.
        </p>
      )}
      <div class="wh-secreto-valor">
        <input
          ref={input}
          id={`${uid}-valor`}
          readOnly
          value={webhook.secreto}
          aria-label="Secreto de firma"
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          {copied === 'ok' ? 'Copiado' : 'Copiar'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Ya lo guardé
        </button>
      </div>
      <p class="wh-copiado" role="status">
        {copied === 'ok'
          ? 'Copiado al portapapeles.'
          : copied === 'manual'
            ? 'Este navegador no deja copiar desde la página: el secreto está seleccionado, cópielo con Ctrl+C.'
            : ''}
      </p>
    </section>
  );
}
