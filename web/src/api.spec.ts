import { ApiError, createApi, ok } from './api';
import { followComandas, type LiveStatus } from './live';

const ORIGIN = 'http://service.test';

/** A fetch that answers each request with the next of `answers`, and records the requests. */
function fakeFetch(...answers: Response[]) {
  const requests: Request[] = [];
  const fetch = jest.fn(async (input: Request) => {
    requests.push(input);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next;
  });
  return { fetch, requests };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const ended = () =>
  json(401, {
    error: 'The session has ended',
    code: 'UNAUTHENTICATED',
    detail: { reason: 'session_ended' },
  });

describe('the client of a signed-in session', () => {
  afterEach(() => jest.restoreAllMocks());

  it('asks for Spanish on every request: the service words its refusals for the staff', async () => {
    const api = createApi({ tenant: 'demo', token: 'tok' }, { origin: ORIGIN });
    const { fetch, requests } = fakeFetch(
      json(200, {}),
      json(404, { error: 'La comanda 9 no existe', code: 'COMANDA_NOT_FOUND' }),
    );
    await ok(api.GET('/api/v1/me', { fetch }));
    const error = await ok(
      api.PUT('/api/v1/comandas/{id}', {
        params: { path: { id: 9 } },
        body: { action: 'cerrar' },
        fetch,
      }),
    ).catch((e: unknown) => e);
    expect(requests.map((r) => r.headers.get('Accept-Language'))).toEqual(['es', 'es']);
    expect((error as ApiError).text).toBe('La comanda 9 no existe (COMANDA_NOT_FOUND)');
  });

  it('tells the page when the service no longer takes the token; the caller still gets its error', async () => {
    const seen: ApiError[] = [];
    const api = createApi(
      { tenant: 'demo', token: 'tok' },
      { origin: ORIGIN, onUnauthenticated: (e) => seen.push(e) },
    );
    const { fetch } = fakeFetch(ended());
    const error = await ok(api.GET('/api/v1/me', { fetch })).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(seen).toHaveLength(1);
    expect(seen[0].detail).toEqual({ reason: 'session_ended' });
  });

  it('does not for a wrong credential or a refused permission', async () => {
    const seen: ApiError[] = [];
    const api = createApi(
      { tenant: 'demo', token: '' },
      { origin: ORIGIN, onUnauthenticated: (e) => seen.push(e) },
    );
    const { fetch } = fakeFetch(
      json(401, { error: 'no', code: 'INVALID_CREDENTIALS' }),
      json(403, { error: 'no', code: 'FORBIDDEN' }),
    );
    await ok(api.POST('/api/v1/auth/pin', { body: { pin: '2468' }, fetch })).catch(() => null);
    await ok(api.GET('/api/v1/me', { fetch })).catch(() => null);
    expect(seen).toEqual([]);
  });

  it('gives a refusal’s headers with it (Retry-After)', async () => {
    const api = createApi({ tenant: 'demo', token: '' }, { origin: ORIGIN });
    const { fetch } = fakeFetch(
      json(429, { error: 'Too many', code: 'TOO_MANY_ATTEMPTS' }, { 'Retry-After': '840' }),
    );
    const error: unknown = await ok(
      api.POST('/api/v1/auth/pin', { body: { pin: '2468' }, fetch }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).headers?.get('Retry-After')).toBe('840');
  });

  it('keeps no copy of a signed-in user’s answers in the browser’s cache', async () => {
    const { fetch, requests } = fakeFetch(json(200, []), json(200, []));
    await createApi({ tenant: 'demo', token: 'tok' }, { origin: ORIGIN }).GET('/api/v1/mesas', {
      fetch,
    });
    await createApi({ tenant: 'demo', token: '' }, { origin: ORIGIN }).GET('/api/v1/mesas', {
      fetch,
    });
    expect(requests.map((r) => r.cache)).toEqual(['no-store', 'default']);
  });

  it('stops following the live stream when its token is refused, and tells the page', async () => {
    // the client takes the global fetch when it is made
    const fetch = jest.spyOn(globalThis, 'fetch').mockImplementation(async () => ended());
    const statuses: LiveStatus[] = [];
    const refused = await new Promise<ApiError>((resolve) => {
      const api = createApi(
        { tenant: 'demo', token: 'tok' },
        { origin: ORIGIN, onUnauthenticated: resolve },
      );
      followComandas(api, {
        onEvent: () => undefined,
        onReset: () => undefined,
        onStatus: (status) => statuses.push(status),
      });
    });
    // a moment for the stream to read the 401 (a retry would say 'retrying' at once, then wait 1 s)
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refused.code).toBe('UNAUTHENTICATED');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(statuses).toEqual(['connecting']);
  });
});
