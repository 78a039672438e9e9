import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { screenshot, WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, type WebServer } from './support/server';

/**
 * The switchable screens in a real browser: the generic tables (a row inserted from the form
 * built from /schema, a constraint error shown at its field) and attendance (an export
 * uploaded with a driver, its progress and summary, the people of a range and one person's
 * days). Both readable at the two screen sizes, and hidden when the features are off.
 */
describe('tables and attendance screens', () => {
  let server: WebServer;
  let browser: WebBrowser;
  let work: string;

  beforeAll(async () => {
    server = await startServer({ features: { genericTables: true, rpc: true } });
    browser = await WebBrowser.launch();
    work = await mkdtemp(join(tmpdir(), 'web-attlog-'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const signIn = async (page: Page) => {
    await page.goto('/');
    await page.getByLabel('Restaurante').fill(server.tenant);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
  };

  it('inserts a row from the schema form and shows a constraint error at its field', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signIn(page);
    await page.getByRole('link', { name: 'Tablas' }).click();
    await page.getByLabel('Tabla', { exact: true }).selectOption('mesas');
    const form = page.getByRole('form', { name: 'Nueva fila' });
    await form.getByLabel('numero', { exact: true }).fill('7');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('status').filter({ hasText: /7/ }).first().waitFor();
    const rows = await server.dbs.query<{ numero: number }>(
      server.dbs.tenantUrl(server.tenant),
      'SELECT numero FROM mesas WHERE numero = 7',
    );
    expect(rows).toEqual([{ numero: 7 }]);

    // the same number again: 23505 on uq_mesas_numero, shown at the field
    await form.getByLabel('numero', { exact: true }).fill('7');
    await form.getByRole('button', { name: 'Guardar' }).click();
    const field = form.getByLabel('numero', { exact: true });
    await form.locator('[aria-invalid="true"]').first().waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await form.locator('.field-error').first().waitFor();
    await screenshot(page, 'tables');
    await expectFitsAtEverySize(page, 'tables');
    // the 400 is the test's own doing: Chromium logs every error answer
    browser.expectNoErrors(page, { allow: [/status of 400/] });
  });

  it('uploads a clock export with a driver and shows the summary, then a person’s days', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signIn(page);
    await page.getByRole('link', { name: 'Asistencia' }).click();
    const file = join(work, 'attlog.dat');
    // Rosa (40000001) in and out, an unknown document, a broken line
    await writeFile(
      file,
      [
        '40000001\t2026-03-02 08:00:12\t1\t0\t1\t0',
        '40000001\t2026-03-02 17:02:40\t1\t1\t1\t0',
        '99999999\t2026-03-02 09:00:00\t1\t0\t1\t0',
        'basura',
        '',
      ].join('\n'),
    );
    await page.getByLabel('Driver').selectOption('zkteco-attlog');
    await page.getByLabel('Archivo').setInputFiles(file);
    const upload = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/asistencia/import') && r.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Importar' }).click();
    // sent by the one client, with the session's tenant header
    expect((await upload).headers()['x-tenant-id']).toBe(server.tenant);
    await page.getByText(/Resultado: attlog\.dat/).waitFor();
    await page.getByText(/2 marcaciones nuevas de 4 líneas/).waitFor();
    await page.getByText('99999999').first().waitFor();
    await screenshot(page, 'attendance');

    // the people with punches in the range, picked by name (no document number to type)
    await page.getByLabel('Desde').fill('2026-03-01');
    await page.getByLabel('Hasta').fill('2026-03-03');
    await page.getByRole('button', { name: 'Consultar' }).click();
    const rosa = page.getByRole('row', { name: /Quispe, Rosa/ });
    await rosa.waitFor();
    expect(await rosa.getByRole('cell').allTextContents()).toEqual([
      '40000001',
      '1',
      '9 h 2 min',
      '0',
      'Ver días',
    ]);
    await page.getByRole('button', { name: 'Ver días de Quispe, Rosa' }).click();
    await page.getByRole('heading', { name: /Rosa Quispe · 40000001/ }).waitFor();
    await page
      .getByText(/1 día trabajado/)
      .first()
      .waitFor();
    await screenshot(page, 'attendance-days');
    await expectFitsAtEverySize(page, 'attendance');
    browser.expectNoErrors(page);
  });

  it('hides both screens when the features are off for the tenant', async () => {
    await server.dbs.query(
      server.dbs.controlUrl,
      `UPDATE tenants SET features = '{"genericTables": false, "rpc": false}'::jsonb WHERE slug = $1`,
      [server.tenant],
    );
    // the catalog row is cached for TENANT_CACHE_TTL_MS
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const page = await browser.newPage(server.baseUrl);
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Pantallas' });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Sala',
      'Reservas',
      'Historial',
    ]);
    browser.expectNoErrors(page);
  });
});
