import type { ComponentChildren } from 'preact';
import { ApiError } from './api';

/** An API error as people read it: its message and code, never a blank screen. */
export function ErrorBanner({ error, onClose }: { error: unknown; onClose?: () => void }) {
  if (!error) return null;
  const text =
    error instanceof ApiError
      ? error.text
      : error instanceof Error
        ? error.message
        : typeof error === 'string'
          ? error
          : JSON.stringify(error);
  return (
    <div class="banner error" role="alert">
      <span>{text}</span>
      {onClose && (
        <button type="button" class="link" onClick={onClose} aria-label="Cerrar aviso">
          ×
        </button>
      )}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="banner info" role="status">
      {children}
    </div>
  );
}

/** A modal dialog: Escape or the backdrop closes it. `variant` is a class of its box (`wide`). */
export function Dialog({
  title,
  onClose,
  children,
  variant,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  variant?: string;
}) {
  return (
    <div
      class="backdrop"
      onClick={(e) => e.target === e.currentTarget && onClose()}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <div
        class={variant ? `dialog ${variant}` : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-label={title}
      >
        <header>
          <h2>{title}</h2>
          <button type="button" class="link" onClick={onClose} aria-label="Cerrar">
            ×
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}
