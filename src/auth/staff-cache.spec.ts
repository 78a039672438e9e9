import { StaffCache } from './staff-cache';
import type { StaffSessions } from './staff.repository';

const member = (id: number, roles: string[] = ['mozo']): StaffSessions => ({
  revocadas: [],
  tokens_desde: null,
  id_usuario: id,
  documento: String(40000000 + id),
  nombre: `User ${id}`,
  activo: true,
  roles,
});

describe('StaffCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000));

  it('answers from the cache within the TTL, then reads again', async () => {
    const cache = new StaffCache(5_000, 100, clock);
    const load = jest.fn().mockResolvedValueOnce(member(1)).mockResolvedValueOnce(member(1, []));
    expect((await cache.get('alfa', 1, load))?.roles).toEqual(['mozo']);
    now += 4_999;
    expect((await cache.get('alfa', 1, load))?.roles).toEqual(['mozo']);
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    expect((await cache.get('alfa', 1, load))?.roles).toEqual([]);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps tenants apart: the same user id is another person in another tenant', async () => {
    const cache = new StaffCache(5_000, 100, clock);
    await cache.get('alfa', 1, () => Promise.resolve(member(1, ['admin'])));
    const beta = await cache.get('beta', 1, () => Promise.resolve(member(1, ['cocina'])));
    expect(beta?.roles).toEqual(['cocina']);
  });

  it('caches an unknown user too, and never with TTL 0', async () => {
    const cache = new StaffCache(5_000, 100, clock);
    const load = jest.fn().mockResolvedValue(undefined);
    await cache.get('alfa', 9, load);
    await cache.get('alfa', 9, load);
    expect(load).toHaveBeenCalledTimes(1);
    const uncached = new StaffCache(0, 100, clock);
    await uncached.get('alfa', 9, load);
    await uncached.get('alfa', 9, load);
    expect(load).toHaveBeenCalledTimes(3);
    expect(uncached.size).toBe(0);
  });

  it('drops the oldest entry past its size', async () => {
    const cache = new StaffCache(5_000, 2, clock);
    for (const id of [1, 2, 3]) await cache.get('alfa', id, () => Promise.resolve(member(id)));
    expect(cache.size).toBe(2);
    const load = jest.fn().mockResolvedValue(member(1));
    await cache.get('alfa', 1, load); // 1 was evicted
    await cache.get('alfa', 3, load); // 3 is still there
    expect(load).toHaveBeenCalledTimes(1);
  });
});
