import type { Locator, Page } from 'playwright-core';
import { WebBrowser } from './support/browser';
import { crowdTheFloor, type BusyFloor } from './support/busy-floor';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, type WebServer } from './support/server';

/**
 * The demo restaurant at a busy lunch: twelve tables, several tickets at one, take-away
 * orders, a bill over a thousand soles, long notes and a waiter with a long name. The floor,
 * a crowded ticket and the history must read well and fit the tablet and the office screen.
 */
describe('a busy floor: the demo restaurant at lunch', () => {
  let server: WebServer;
  let browser: WebBrowser;
  let busy: BusyFloor;

  beforeAll(async () => {
    server = await startServer({ data: 'demo', tenantOptions: { name: 'Cevichería Demo' } });
    busy = await crowdTheFloor(server);
    browser = await WebBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = async (page: Page) => {
    await page.goto('/');
    await page.getByLabel('Restaurante').fill(server.tenant);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
  };

  /** The cells of one column of a list's body rows. */
  const column = async (page: Page, table: Locator, index: number): Promise<Locator[]> => {
    const rows = await table
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .all();
    return rows.map((row) => row.getByRole('cell').nth(index));
  };

  it('shows every table at a glance: free, or its total, time open and tickets', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signIn(page);
    await page.getByRole('status').filter({ hasText: 'en vivo' }).waitFor();
    const tables = page.getByRole('list', { name: 'Mesas' });
    const crowded = tables.getByRole('listitem', { name: `Mesa ${busy.crowded.numero}` });
    for (const ticket of busy.crowded.tickets)
      await crowded.getByRole('button', { name: new RegExp(`^#${ticket} S/`) }).waitFor();
    await crowded.getByText(`${busy.crowded.tickets.length} cuentas`).waitFor();
    expect(await tables.getByRole('listitem').count()).toBe(12);
    await page.getByText(/\d+ de 12 mesas ocupadas/).waitFor();
    const takeAway = page.getByRole('region', { name: 'Para llevar' });
    expect(
      await takeAway.getByRole('button', { name: /^#\d+ S\// }).count(),
    ).toBeGreaterThanOrEqual(3);
    await expectFitsAtEverySize(page, 'web-floor-busy');

    // the ticket with the most lines, its long notes and its waiter's long name
    await crowded.getByRole('button', { name: new RegExp(`^#${busy.longest} S/`) }).click();
    const panel = page.getByRole('region', { name: `Comanda ${busy.longest}` });
    await panel.getByText(busy.mozo.nombre).waitFor();
    // a header and its eight lines
    expect(await panel.getByRole('table', { name: 'Líneas' }).getByRole('row').count()).toBe(9);
    await expectFitsAtEverySize(page, 'web-floor-busy-ticket');
    browser.expectNoErrors(page);
  });

  it('filters the history by a waiter’s name, and shows a voided comanda’s timeline', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signIn(page);
    await page.getByRole('link', { name: 'Historial' }).click();
    const list = page.getByRole('table', { name: 'Comandas' });
    // a year of the demo's tickets, thousands grouped
    await page
      .getByRole('status')
      .filter({ hasText: /^\d{2}[.,\s\u00a0]\d{3} comandas$/ })
      .waitFor();
    expect(await column(page, list, 0)).toHaveLength(25);

    // the waiters are offered by name; choosing one lists only theirs
    const filtered = page.waitForResponse((r) =>
      r.url().includes(`id_usuario=${busy.mozo.id_usuario}`),
    );
    await page.getByLabel('Mozo').selectOption({ label: busy.mozo.nombre });
    await filtered;
    await page.getByRole('status').filter({ hasText: '4 comandas' }).waitFor();
    for (const cell of await column(page, list, 3)) {
      expect(await cell.textContent()).toBe(busy.mozo.nombre);
      expect(await cell.getAttribute('title')).toBe(busy.mozo.nombre);
    }
    await expectFitsAtEverySize(page, 'web-history-waiter');

    // a voided comanda of the demo: who opened, closed and voided it, and why
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await page.getByLabel('Solo anuladas').check();
    await page
      .getByRole('status')
      .filter({ hasText: /^\d{3} comandas$/ })
      .waitFor();
    await list.getByRole('button').first().click();
    const timeline = page.getByRole('region', { name: 'Historial de la comanda' });
    await timeline.getByText(/anuló la comanda/).waitFor();
    await timeline.getByText(/motivo: /).waitFor();
    await expectFitsAtEverySize(page, 'web-history-busy');
    browser.expectNoErrors(page);
  });
});
