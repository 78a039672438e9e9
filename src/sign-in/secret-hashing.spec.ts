import { hashPassword, hashPin, needsRehash, verifySecret } from './secret-hashing';

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
