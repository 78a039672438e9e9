/**
 * The page's only way to the service: its public HTTP API (docs/api-contract.md), with the
 * tenant header, the session's token, an Idempotency-Key on every write and If-Match where the
 * caller knows the version. Errors become ApiError with the envelope's message and code.
 */

export interface Session {
  tenant: string;
  /** A Bearer token (AUTH_MODE=jwt); empty without authentication. */
  token: string;
}

export interface TenantInfo {
  slug: string;
  name: string;
  status: string;
  timeZone: string;
  features: { genericTables: boolean; rpc: boolean; reservas: boolean };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: unknown,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** For people: the envelope's message and its code. */
  get text(): string {
    return `${this.message} (${this.code})`;
  }
}

export interface Answer<T> {
  body: T;
  status: number;
  headers: Headers;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  body?: unknown;
  /** A multipart body (the attendance upload). */
  form?: FormData;
  /** The version the change expects (sent as If-Match). */
  version?: number;
  /** Sent on writes; made here when not given (one per user action). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const WRITES = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

export function newKey(): string {
  return crypto.randomUUID();
}

export class Api {
  constructor(
    readonly session: Session,
    private readonly base = '/api/v1',
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { 'X-Tenant-ID': this.session.tenant, ...extra };
    if (this.session.token) headers.Authorization = `Bearer ${this.session.token}`;
    return headers;
  }

  async call<T>(method: Method, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers = this.headers();
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.version !== undefined) headers['If-Match'] = `"${options.version}"`;
    if (WRITES.has(method)) headers['Idempotency-Key'] = options.idempotencyKey ?? newKey();
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, { method, headers, body, signal: options.signal });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, 'NETWORK', 'El servicio no responde: revise la conexión');
    }
    const text = await res.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!res.ok) {
      const envelope = (parsed ?? {}) as { error?: string; code?: string; detail?: unknown };
      throw new ApiError(
        res.status,
        envelope.code ?? String(res.status),
        envelope.error ?? res.statusText,
        envelope.detail,
        parsed as Record<string, unknown>,
      );
    }
    return { body: parsed as T, status: res.status, headers: res.headers };
  }

  get<T>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, options).then((a) => a.body);
  }
  post<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, { ...options, body }).then((a) => a.body);
  }
  put<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PUT', path, { ...options, body }).then((a) => a.body);
  }
  patch<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PATCH', path, { ...options, body }).then((a) => a.body);
  }
  delete<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('DELETE', path, { ...options, body }).then((a) => a.body);
  }
}

/** Session storage: the token lives as long as the browser tab, never longer. */
const KEY = 'comandas.session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}
