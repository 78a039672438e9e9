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

/**
 * Previous / next over a paged list of `total` rows shown `size` at a time from `offset`, with
 * "first–last de total" between the buttons.
 */
export function Pager({
  offset,
  size,
  total,
  onOffset,
}: {
  offset: number;
  size: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  return (
    <div class="pager">
      <button
        type="button"
        class="secondary"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - size))}
      >
        Anterior
      </button>
      <span class="muted">
        {total === 0 ? 0 : offset + 1}–{Math.min(offset + size, total)} de {total}
      </span>
      <button
        type="button"
        class="secondary"
        disabled={offset + size >= total}
        onClick={() => onOffset(offset + size)}
      >
        Siguiente
      </button>
    </div>
  );
}
