import { isTenantSlug, tenantDatabaseName } from './tenant-slug';

describe('tenant slug', () => {
  it.each(['demo', 'acme-norte', 'la_mar_2', 'ab', `a${'b'.repeat(62)}`])('accepts %s', (slug) => {
    expect(isTenantSlug(slug)).toBe(true);
  });

  it.each([
    '',
    'a',
    'Demo',
    '1demo',
    '-demo',
    'de mo',
    'demo;drop',
    'démo',
    `a${'b'.repeat(63)}`,
    'demo\n',
  ])('refuses %j', (slug) => {
    expect(isTenantSlug(slug)).toBe(false);
  });

  it('keeps the slug verbatim in the database name, so a-b and a_b never collide', () => {
    expect(tenantDatabaseName('comandas_', 'a-b')).toBe('comandas_a-b');
    expect(tenantDatabaseName('comandas_', 'a_b')).toBe('comandas_a_b');
  });
});
