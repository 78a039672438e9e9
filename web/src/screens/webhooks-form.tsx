import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { Dialog, ErrorBanner } from '../components';
import {
  DESCRIPCION_MAX,
  fieldErrorsOf,
  isChecked,
  isCovered,
  MODULOS,
  refusalText,
  toggleEvento,
  URL_MAX,
  type Draft,
  type Field,
} from './webhooks-rules';

/** A refusal as the banner shows it: the module's own codes in Spanish. */
export function spanish(err: unknown): unknown {
  return (err instanceof ApiError && refusalText(err)) || err;
}

/** Runs a dialog's request once: the button disabled meanwhile, a refusal shown in it. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(spanish(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

export function ConfirmDialog({
  title,
  confirmLabel,
  busyLabel,
  danger = false,
  onClose,
  onConfirm,
  children,
}: {
  title: string;
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  children: ComponentChildren;
}) {
  const { busy, error, setError, run } = useSubmit();
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorBanner error={error} onClose={() => setError(null)} />
      <div class="actions">
        <button
          type="button"
          class={danger ? 'danger' : undefined}
          disabled={busy}
          autoFocus
          onClick={() => void run(onConfirm)}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onClose}>
          Volver
        </button>
      </div>
    </Dialog>
  );
}

export function WebhookForm({
  title,
  initial,
  submitLabel,
  onClose,
  onSubmit,
}: {
  title: string;
  initial: Draft;
  submitLabel: string;
  onClose: () => void;
  /** Sends the draft; answers the problems of its fields (none: it was sent). */
  onSubmit: (draft: Draft) => Promise<Partial<Record<Field, string>>>;
}) {
  const uid = useId();
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, error, setError, run } = useSubmit();
  const idOf = (field: Field) => `${uid}-${field}`;

  const set = <K extends Field>(field: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const focusFirst = (problems: Partial<Record<Field, string>>) => {
    const first = (['url', 'descripcion', 'eventos'] as Field[]).find((f) => problems[f]);
    if (first) document.getElementById(idOf(first))?.focus();
  };

  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      try {
        const problems = await onSubmit(draft);
        setErrors(problems);
        focusFirst(problems);
      } catch (err) {
        const at = err instanceof ApiError ? fieldErrorsOf(err) : {};
        if (Object.keys(at).length === 0) throw err;
        setErrors(at);
        focusFirst(at);
      }
    });
  };

  const described = (name: Field) => ({
    id: idOf(name),
    'aria-invalid': errors[name] ? ('true' as const) : undefined,
    'aria-describedby': errors[name] ? `${idOf(name)}-error` : undefined,
  });
  const fieldError = (name: Field) =>
    errors[name] && (
      <span id={`${idOf(name)}-error`} class="field-error">
        {errors[name]}
      </span>
    );

  return (
    <Dialog title={title} onClose={onClose} variant="wide">
      <form class="wh-form" aria-label={title} onSubmit={submit} noValidate>
        <div class="field">
          <label for={idOf('url')}>Dirección que recibe los mensajes</label>
          <input
            {...described('url')}
            type="url"
            inputMode="url"
            value={draft.url}
            maxLength={URL_MAX}
            autoComplete="off"
            spellcheck={false}
            autoFocus
            placeholder="https://erp.ejemplo.com/webhooks/comandas"
            onInput={(e) => set('url', e.currentTarget.value)}
          />
          {fieldError('url')}
        </div>
        <div class="field">
          <label for={idOf('descripcion')}>Descripción (opcional)</label>
          <input
            {...described('descripcion')}
            value={draft.descripcion}
            maxLength={DESCRIPCION_MAX}
            autoComplete="off"
            placeholder="Contabilidad: ventas cerradas"
            onInput={(e) => set('descripcion', e.currentTarget.value)}
          />
          {fieldError('descripcion')}
        </div>
        <fieldset
          class="wh-eventos"
          id={idOf('eventos')}
          tabIndex={-1}
          aria-invalid={errors.eventos ? 'true' : undefined}
          aria-describedby={errors.eventos ? `${idOf('eventos')}-error` : `${uid}-eventos-hint`}
        >
          <legend>Eventos que se envían</legend>
          <p id={`${uid}-eventos-hint`} class="hint">
            «Todos» incluye también los eventos que el servicio agregue más adelante.
          </p>
          {fieldError('eventos')}
          <div class="wh-modulos">
            {MODULOS.map((m) => {
              const todos = draft.eventos.includes(m.todos);
              return (
                <fieldset key={m.modulo} class={`wh-modulo wh-modulo-${m.modulo}`}>
                  <legend>{m.label}</legend>
                  <label class="wh-check todos" title={m.todos}>
                    <input
                      type="checkbox"
                      checked={todos}
                      onChange={(e) =>
                        set(
                          'eventos',
                          toggleEvento(draft.eventos, m.todos, e.currentTarget.checked),
                        )
                      }
                    />
                    <span>Todos</span>
                  </label>
                  <div class="wh-checks">
                    {m.eventos.map((ev) => (
                      <label key={ev.evento} class="wh-check" title={ev.evento}>
                        <input
                          type="checkbox"
                          checked={isChecked(draft.eventos, ev.evento)}
                          disabled={isCovered(draft.eventos, ev.evento)}
                          onChange={(e) =>
                            set(
                              'eventos',
                              toggleEvento(draft.eventos, ev.evento, e.currentTarget.checked),
                            )
                          }
                        />
                        <span>{ev.label}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              );
            })}
          </div>
        </fieldset>
        <ErrorBanner error={error} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Guardando…' : submitLabel}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={onClose}>
            Volver
          </button>
        </div>
      </form>
    </Dialog>
  );
}
