import { useRef } from 'preact/hooks';
import { newKey } from '../api';

/**
 * One Idempotency-Key per intended change: the same key while the request is the same (a retry
 * of the same press gets the first answer), a new one as soon as what is sent changes.
 */
export function useKeyFor(): (request: unknown) => string {
  const last = useRef<{ request: string; key: string } | null>(null);
  return (request) => {
    const text = JSON.stringify(request ?? null);
    if (last.current?.request !== text) last.current = { request: text, key: newKey() };
    return last.current.key;
  };
}
