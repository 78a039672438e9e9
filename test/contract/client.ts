import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { ContractTarget } from './target';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface CallOptions {
  /** A JSON body (object, array), or a raw string sent with `type`. */
  body?: unknown;
  /** Content-Type of the body (supertest's `type`: `form`, `text/plain` ...). */
  type?: string;
  /** More headers (If-Match ...). */
  headers?: Record<string, string>;
  /** Leave out the target's Authorization header (a request without a token). */
  withoutToken?: boolean;
  /** Leave out X-Tenant-ID. */
  withoutTenant?: boolean;
}

/** The motivo of the voids the suite makes when it cleans up. */
export const CLEANUP_MOTIVO = 'contract suite cleanup';

/** `contract-suite <run id>`: the observacion of every comanda the suite creates. */
export function runTag(): string {
  return `contract-suite ${new Date().toISOString().slice(0, 19)}Z-${randomBytes(3).toString('hex')}`;
}

/**
 * The suite's only way to the service: plain HTTP to the target's base URL with its headers.
 * It remembers every comanda it created (any 201 of POST /comandas) so that `cleanup` voids them
 * all, whatever the tests did or where they failed.
 */
export class ContractClient {
  /** Ids of the comandas this client created (or opened by seating a reserva), in order. */
  readonly created = new Set<number>();
  /** Ids of the reservas this client booked, in order. */
  readonly booked = new Set<number>();

  constructor(readonly target: ContractTarget) {}

  /** `path` is under /api/v1 unless it starts with /api/. */
  async call(method: Method, path: string, options: CallOptions = {}): Promise<request.Response> {
    const url = path.startsWith('/api/') ? path : `/api/v1${path}`;
    let req = request(this.target.baseUrl)[method](url);
    for (const [name, value] of Object.entries(this.target.headers)) {
      if (options.withoutToken && name === 'Authorization') continue;
      if (options.withoutTenant && name === 'X-Tenant-ID') continue;
      req = req.set(name, value);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
    if (options.type) req = req.type(options.type);
    if (options.body !== undefined) req = req.send(options.body as object | string);
    const res = await req;
    if (method === 'post') this.remember(url.split('?')[0], res);
    return res;
  }

  /** Notes what a successful POST created, for `cleanup`. */
  private remember(path: string, res: request.Response): void {
    const body = res.body as { id_comanda?: unknown; id_reserva?: unknown } | undefined;
    if (path === '/api/v1/comandas' && res.status === 201 && typeof body?.id_comanda === 'number') {
      this.created.add(body.id_comanda);
    }
    if (path === '/api/v1/reservas' && res.status === 201 && typeof body?.id_reserva === 'number') {
      this.booked.add(body.id_reserva);
    }
    // a split opens a new comanda
    const nueva = (res.body as { nueva?: { id_comanda?: unknown } } | undefined)?.nueva;
    if (
      /^\/api\/v1\/comandas\/\d+\/split$/.test(path) &&
      res.status === 201 &&
      typeof nueva?.id_comanda === 'number'
    ) {
      this.created.add(nueva.id_comanda);
    }
    // seating a reserva opens a comanda on its table
    if (
      /^\/api\/v1\/reservas\/\d+\/sentar$/.test(path) &&
      res.status === 200 &&
      typeof body?.id_comanda === 'number'
    ) {
      this.created.add(body.id_comanda);
    }
  }

  get(path: string, options?: CallOptions) {
    return this.call('get', path, options);
  }

  post(path: string, body?: unknown, options?: CallOptions) {
    return this.call('post', path, { ...options, body });
  }

  put(path: string, body?: unknown, options?: CallOptions) {
    return this.call('put', path, { ...options, body });
  }

  patch(path: string, body?: unknown, options?: CallOptions) {
    return this.call('patch', path, { ...options, body });
  }

  delete(path: string, body?: unknown, options?: CallOptions) {
    return this.call('delete', path, { ...options, body });
  }

  /**
   * Cancels every reserva this client booked that is still pendiente and voids every comanda it
   * created that is not voided yet (DELETE works on open and closed ones), with the motivo
   * `contract suite cleanup`. Throws, listing them, when some could not be undone.
   */
  async cleanup(): Promise<void> {
    const problems: string[] = [];
    for (const id of this.booked) {
      let res: request.Response;
      try {
        res = await this.post(`/reservas/${id}/cancelar`, { motivo: CLEANUP_MOTIVO });
      } catch (error) {
        problems.push(`reserva ${id}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const code = (res.body as { code?: string }).code;
      // 409: it already left pendiente (seated, cancelled, no-show), which is final
      if (res.status !== 200 && !(res.status === 409 && code === 'INVALID_TRANSITION')) {
        problems.push(`reserva ${id}: ${res.status} ${res.text}`);
      }
    }
    for (const id of this.created) {
      let res: request.Response;
      try {
        res = await this.delete(`/comandas/${id}`, { motivo: CLEANUP_MOTIVO });
      } catch (error) {
        problems.push(`comanda ${id}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const body = res.body as { code?: string; eliminada?: boolean; detail?: { estado?: string } };
      const voided = res.status === 200 && body.eliminada === true;
      const alreadyVoided =
        res.status === 409 &&
        body.code === 'INVALID_TRANSITION' &&
        body.detail?.estado === 'eliminada';
      if (!voided && !alreadyVoided) {
        problems.push(`comanda ${id}: ${res.status} ${res.text}`);
      }
    }
    if (problems.length > 0) {
      throw new Error(
        `The contract suite could not undo ${problems.length} thing(s) it created:\n${problems.join('\n')}`,
      );
    }
  }
}

/** Says which request answered what, with its body, when the status is not the expected one. */
export function expectStatus(res: request.Response, status: number): void {
  if (res.status === status) return;
  const req = (res as unknown as { req?: { method?: string; path?: string } }).req;
  throw new Error(
    `${req?.method ?? ''} ${req?.path ?? ''} answered ${res.status}, expected ${status}:\n${res.text}`,
  );
}

/** The error envelope every route answers: `{error, code, detail?, requestId}` + X-Request-Id. */
export function expectError(
  res: request.Response,
  status: number,
  code: string,
  detail?: unknown,
): void {
  expectStatus(res, status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
  expect(res.body).toEqual(
    expect.objectContaining({
      error: expect.any(String),
      code,
      requestId: res.headers['x-request-id'],
    }),
  );
  expect((res.body as { error: string }).error).not.toBe('');
  if (detail !== undefined) expect(res.body.detail).toEqual(detail);
}
