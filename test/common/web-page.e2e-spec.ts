import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { WEB_ROOT } from '../../src/common/http/web-page';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The back-office page at / (npm test builds it first: pretest runs build:web): index.html is
 * revalidated every time, the hashed assets are cached for good, the Content-Security-Policy
 * allows no inline script, and the API around it is unchanged.
 */
describe('the back-office page', () => {
  let t: TestApp;

  beforeAll(async () => {
    expect(existsSync(join(WEB_ROOT, 'index.html'))).toBe(true);
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('serves index.html at / with no-cache and a CSP without inline script', async () => {
    const res = await request(t.http).get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.text).toContain('<html lang="es">');
    // no inline script: every script is a file of the build
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('serves the hashed assets with a year of immutable cache', async () => {
    const html = readFileSync(join(WEB_ROOT, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2); // the script and the stylesheet
    for (const asset of assets) {
      const res = await request(t.http).get(asset).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('leaves the API and the unknown paths as they were', async () => {
    const missing = await request(t.http).get('/no-such-page.html').expect(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
    const api = await request(t.http).get('/api/v1/comandas').expect(400);
    expect(api.body.code).toBe('TENANT_REQUIRED');
    await request(t.http).post('/').expect(404);
  });
});
