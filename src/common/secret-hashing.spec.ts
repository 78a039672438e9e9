import { hashPassword, hashPin, needsRehash, Slots, verifySecret } from './secret-hashing';

const CHEAP = { logN: 10, r: 8, p: 1 };

describe('secret hashing (scrypt)', () => {
  it('verifies the secret it hashed and nothing else; the hash holds no trace of it', async () => {
    const stored = await hashPassword('ají de gallina', CHEAP);
    expect(stored).toMatch(/^scrypt\$10\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('gallina');
    await expect(verifySecret('ají de gallina', stored)).resolves.toBe(true);
    await expect(verifySecret('aji de gallina', stored)).resolves.toBe(false);
    // a new salt each time
    expect(await hashPassword('ají de gallina', CHEAP)).not.toBe(stored);
  });

  it('gives a PIN the same hash within a tenant and another one in another tenant', async () => {
    const salt = Buffer.alloc(16, 7);
    const other = Buffer.alloc(16, 8);
    expect(await hashPin('4827', salt, CHEAP)).toBe(await hashPin('4827', salt, CHEAP));
    expect(await hashPin('4827', salt, CHEAP)).not.toBe(await hashPin('4827', other, CHEAP));
    await expect(verifySecret('4827', await hashPin('4827', salt, CHEAP))).resolves.toBe(true);
  });

  it('answers false, after a hash, without a stored hash or with a broken one', async () => {
    await expect(verifySecret('anything', undefined)).resolves.toBe(false);
    await expect(verifySecret('anything', null)).resolves.toBe(false);
    await expect(verifySecret('anything', 'scrypt$99$8$1$AAAA$BBBB')).resolves.toBe(false);
    await expect(verifySecret('anything', 'plain')).resolves.toBe(false);
  });

  it('asks for a re-hash of hashes made at a lower cost', async () => {
    expect(needsRehash(await hashPassword('ají de gallina', CHEAP))).toBe(true);
    expect(needsRehash(await hashPassword('ají de gallina'))).toBe(false);
  });
});

describe('Slots (the hashes running at once)', () => {
  it('runs at most `limit` at a time, the others in the order they came, and all of them', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const work = (i: number) =>
      slots.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return i;
      });
    expect(await Promise.all([0, 1, 2, 3, 4, 5, 6].map(work))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('frees the slot of work that fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow(
      'scrypt failed',
    );
    await expect(slots.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
