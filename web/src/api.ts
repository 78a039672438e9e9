/**
 * The page's only way to the service: `openapi-fetch` over the types generated from the
 * service's OpenAPI document (web/src/api/schema.ts, rebuilt by `npm run build`; `npm run lint`
 * fails when it is stale). Paths, parameters, bodies and answers are the document's, so a
 * change of the API that the page does not follow fails the page's type check.
 *
 * One middleware adds what every request carries: the tenant header, the session's token,
 * `Accept-Language: es` (the service then writes its refusals in Spanish, for the staff who read
 * them) and, on a write, an `Idempotency-Key` when the caller did not pass the one of its button
 * press; it also tells the page when the token stopped working (401 UNAUTHENTICATED: expired,
 * signed out, its user's credentials changed). `ok()` turns every refusal into one `ApiError` read
 * from the error envelope.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api/schema';

/** The API's shapes, by the names the OpenAPI document gives them. */
export type Schemas = components['schemas'];
export type ErrorBody = Schemas['ErrorBody'];
export type TenantInfo = Schemas['CurrentTenantDto'];
export type Me = Schemas['MeDto'];
export type ComandaSummary = Schemas['ComandaSummary'];
export type ComandaDetail = Schemas['ComandaDetail'];
export type ComandaItem = Schemas['ComandaItem'];
export type ComandaEvento = Schemas['ComandaEvento'];
export type Producto = Schemas['ProductoDto'];
export type Mesa = Schemas['MesaDto'];
export type Mozo = Schemas['MozoDto'];
export type SignedIn = Schemas['SessionDto'];

export type ApiClient = Client<paths>;

export interface Session {
  tenant: string;
  /** The Bearer token of a sign-in (AUTH_MODE=jwt); empty without authentication. */
  token: string;
  /** When the token expires (the sign-in's `expires_at`); absent without authentication. */
  expires_at?: string;
}

/** A refusal of the service (or no answer at all: status 0, code NETWORK), for people. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: unknown,
    readonly body?: Partial<ErrorBody> & Record<string, unknown>,
    /** The answer's headers (Retry-After ...), when there was an answer. */
    readonly headers?: Headers,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The envelope's message and its code. */
  get text(): string {
    return `${this.message} (${this.code})`;
  }
}

/**
 * The fields of a form a VALIDATION_FAILED names, each with its messages (`detail` lists one
 * message per violation, each starting with its field's name), for the form to show at them.
 */
export function validationFieldErrors<F extends string>(
  detail: unknown,
  fields: readonly F[],
): Partial<Record<F, string>> {
  const messages = Array.isArray(detail) ? detail.map(String) : [];
  const errors: Partial<Record<F, string>> = {};
  for (const message of messages) {
    const field = fields.find((f) => message.startsWith(`${f} `));
    if (field) errors[field] = errors[field] ? `${errors[field]}; ${message}` : message;
  }
  return errors;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One per user action: a retry of the same press sends the same key. */
export function newKey(): string {
  return crypto.randomUUID();
}

/** The headers of one write of a comanda: the version shown and the key of the button press. */
export interface WriteHeaders {
  'If-Match': string;
  'Idempotency-Key': string;
}

/** `If-Match` for the version shown (the ETag the service sent with it). */
export function ifMatch(version: number): string {
  return `"${version}"`;
}

/**
 * The staff read the page in Spanish, and so the service's refusals too: the error envelope's
 * `error` in Spanish (its code and detail are the same in every language).
 */
export const LANGUAGE = 'es';

/** The headers every request of this session carries. */
export function sessionHeaders(session: Session): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Tenant-ID': session.tenant,
    'Accept-Language': LANGUAGE,
  };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  return headers;
}

export interface ApiOptions {
  origin?: string;
  /**
   * Called when the service answers 401 UNAUTHENTICATED to a request of this client: its token
   * no longer works (expired, signed out, revoked). The caller still gets its ApiError.
   */
  onUnauthenticated?: (error: ApiError) => void;
}

/** The typed client of one signed-in session. */
export function createApi(session: Session, options: ApiOptions = {}): ApiClient {
  const { origin = globalThis.location?.origin ?? '', onUnauthenticated } = options;
  const client = createClient<paths>({
    baseUrl: origin,
    // with a token the answers depend on who asks (`acciones`, what /me grants): the service
    // marks them `Vary: Authorization`, and the page keeps no copy at all, so nothing the
    // previous user read can show after "Cambiar de usuario"
    ...(session.token ? { cache: 'no-store' as const } : {}),
  });
  client.use({
    onRequest({ request }) {
      for (const [name, value] of Object.entries(sessionHeaders(session)))
        request.headers.set(name, value);
      if (WRITES.has(request.method) && !request.headers.has('Idempotency-Key'))
        request.headers.set('Idempotency-Key', newKey());
      return request;
    },
    async onResponse({ response }) {
      if (response.status !== 401 || !onUnauthenticated) return undefined;
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      const error = errorOf(response.status, response.statusText, body, response.headers);
      if (error.code === 'UNAUTHENTICATED') onUnauthenticated(error);
      return undefined;
    },
  });
  return client;
}

/** The error envelope of a refused request, whatever its body turned out to be. */
export function errorOf(
  status: number,
  statusText: string,
  body: unknown,
  headers?: Headers,
): ApiError {
  const envelope = (body && typeof body === 'object' ? body : {}) as Partial<ErrorBody> &
    Record<string, unknown>;
  return new ApiError(
    status,
    typeof envelope.code === 'string' ? envelope.code : String(status),
    typeof envelope.error === 'string' ? envelope.error : statusText || `HTTP ${status}`,
    envelope.detail,
    envelope,
    headers,
  );
}

/** Whether a call ended because its signal aborted it (a screen left, an upload cancelled). */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

const NETWORK = () => new ApiError(0, 'NETWORK', 'El servicio no responde: revise la conexión');

/** The answer of a call of the client, with its headers, or the ApiError of its refusal. */
export async function answer<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T; response: Response }> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    if (isAbort(error)) throw error;
    throw NETWORK();
  }
  const { data, error, response } = result;
  if (!response.ok) throw errorOf(response.status, response.statusText, error, response.headers);
  return { data: data as T, response };
}

/** The body of a call of the client, or the ApiError of its refusal. */
export async function ok<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  return (await answer(call)).data;
}

/** Session storage: the token lives as long as the browser tab, never longer. */
const KEY = 'comandas.session';
/** The restaurant last signed in to in this tab: Entrar proposes it after "Salir". */
const TENANT_KEY = 'comandas.restaurante';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) {
    sessionStorage.setItem(KEY, JSON.stringify(session));
    sessionStorage.setItem(TENANT_KEY, session.tenant);
  } else sessionStorage.removeItem(KEY);
}

export function loadTenant(): string | null {
  try {
    return sessionStorage.getItem(TENANT_KEY);
  } catch {
    return null;
  }
}
