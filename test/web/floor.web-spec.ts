import type { Page } from 'playwright-core';
import { screenshot, WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, type WebServer } from './support/server';

/**
 * The floor and the history in a real browser against the real service: sign in, open a
 * comanda, add lines, see it appear live in a second browser, split it, close it, void one with
 * a reason and find it in the history with its timeline; each screen fits the tablet and the
 * office screen.
 */
describe('the floor and the history', () => {
  let server: WebServer;
  let browser: WebBrowser;

  beforeAll(async () => {
    server = await startServer();
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

  const live = (page: Page) => page.getByRole('status').filter({ hasText: 'en vivo' }).waitFor();

  const addProduct = async (page: Page, search: string, name: RegExp) => {
    await page.getByRole('button', { name: 'Agregar producto' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agregar producto' });
    await dialog.getByLabel('Buscar producto').fill(search);
    await dialog.getByRole('list', { name: 'Productos' }).getByRole('button', { name }).click();
    await dialog.waitFor({ state: 'detached' });
  };

  it('opens a comanda, adds lines, and a second browser sees it live; then split, close, void, history', async () => {
    const waiter = await browser.newPage(server.baseUrl);
    const other = await browser.newPage(server.baseUrl);
    await signIn(waiter);
    await signIn(other);
    await live(waiter);
    await live(other);
    const tables = waiter.getByRole('list', { name: 'Mesas' });
    await tables.getByRole('listitem', { name: 'Mesa 3' }).getByText('Libre').waitFor();
    expect(await waiter.getByText('0 de 3 mesas ocupadas').isVisible()).toBe(true);
    await expectFitsAtEverySize(waiter, 'web-floor-empty');

    // open a comanda at table 1 and order two ceviches and a chicha
    await waiter.getByRole('button', { name: 'Abrir comanda en mesa 1' }).click();
    const panel = waiter.getByRole('region', { name: /^Comanda \d+/ });
    await panel.waitFor();
    await addProduct(waiter, 'cevi', /Ceviche clásico/);
    await panel.getByRole('button', { name: 'Ceviche clásico: una más' }).click();
    await addProduct(waiter, 'chicha', /Chicha morada/);
    await panel
      .getByTestId('total')
      .filter({ hasText: /84[.,]00/ })
      .waitFor();
    const ticket = (await panel.getByRole('heading').first().textContent())!.match(/\d+/)![0];

    // the other browser sees the ticket and its total appear at table 1, without reloading
    const otherTable = other.getByRole('listitem', { name: 'Mesa 1' });
    await otherTable.getByRole('button', { name: new RegExp(`#${ticket}.*84[.,]00`) }).waitFor();
    await other.getByText('1 de 3 mesas ocupadas').waitFor();
    await screenshot(other, 'web-floor-live');

    // split one ceviche off to table 2
    await panel.getByRole('button', { name: 'Dividir' }).click();
    const split = waiter.getByRole('dialog', { name: 'Dividir la cuenta' });
    await split.getByLabel('Cantidad de Ceviche clásico a separar').fill('1');
    await split.getByRole('combobox').selectOption({ label: 'Mesa 2' });
    await screenshot(waiter, 'web-floor-split');
    await split.getByRole('button', { name: 'Separar' }).click();
    await waiter
      .getByRole('status')
      .filter({ hasText: /Nueva comanda \d+/ })
      .waitFor();
    await panel
      .getByTestId('total')
      .filter({ hasText: /46[.,]00/ })
      .waitFor();
    await other
      .getByRole('listitem', { name: 'Mesa 2' })
      .getByRole('button', { name: /38[.,]00/ })
      .waitFor();
    await expectFitsAtEverySize(waiter, 'web-floor-ticket');

    // close the first one: it leaves the floor of both browsers
    await panel.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await panel.getByText('cerrada').first().waitFor();
    await otherTable.getByRole('button', { name: new RegExp(`#${ticket}`) }).waitFor({
      state: 'detached',
    });
    await otherTable.getByText('Libre').waitFor();

    // void the split one with a reason
    await waiter
      .getByRole('listitem', { name: 'Mesa 2' })
      .getByRole('button', { name: /38[.,]00/ })
      .click();
    await panel.getByRole('button', { name: 'Anular' }).click();
    const voidDialog = waiter.getByRole('dialog', { name: 'Anular comanda' });
    await voidDialog.getByLabel('Motivo').fill('cliente se retiró');
    await voidDialog.getByRole('button', { name: 'Anular' }).click();
    await panel.getByText('anulada', { exact: true }).waitFor();
    // a voided comanda can only be restored, by whom the service lets
    expect(await panel.getByRole('button').allTextContents()).toEqual(['Restaurar']);

    // the history: voided ones, and the timeline with the reason
    await waiter.getByRole('link', { name: 'Historial' }).click();
    await waiter.getByLabel('Solo anuladas').check();
    const list = waiter.getByRole('table', { name: 'Comandas' });
    await list.getByRole('row').filter({ hasText: 'anulada' }).first().waitFor();
    await list.getByRole('button').first().click();
    const timeline = waiter.getByRole('region', { name: 'Historial de la comanda' });
    await timeline.getByText('motivo: cliente se retiró').waitFor();
    await timeline.getByText(/dividió la cuenta/).waitFor();
    await expectFitsAtEverySize(waiter, 'web-history');

    browser.expectNoErrors(waiter);
    browser.expectNoErrors(other);
  });

  it('moves a party to another table and merges two tables’ tickets', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signIn(page);
    await live(page);
    const panel = page.getByRole('region', { name: /^Comanda \d+/ });
    const floor = page.getByRole('region', { name: 'Sala' });

    // a ticket at table 3 with a lomo
    await page.getByRole('button', { name: 'Abrir comanda en mesa 3' }).click();
    await panel.waitFor();
    await addProduct(page, 'lomo', /Lomo saltado/);
    await panel
      .getByTestId('total')
      .filter({ hasText: /42[.,]50/ })
      .waitFor();
    const lomo = (await panel.getByRole('heading').first().textContent())!.match(/\d+/)![0];

    // the party moves to table 2: the ticket follows it on the floor
    await panel.getByLabel('Cambiar de mesa').selectOption({ label: 'Mesa 2' });
    await panel.getByText(/Mesa 2 ·/).waitFor();
    await floor
      .getByRole('listitem', { name: 'Mesa 2' })
      .getByRole('button', { name: new RegExp(`#${lomo}`) })
      .waitFor();

    // another ticket at table 1 with a chicha, then table 2's joins it
    await page.getByRole('button', { name: 'Abrir comanda en mesa 1' }).click();
    await panel.getByText(/Mesa 1 ·/).waitFor();
    await addProduct(page, 'chicha', /Chicha morada/);
    await panel
      .getByTestId('total')
      .filter({ hasText: /8[.,]00/ })
      .waitFor();
    await panel.getByRole('button', { name: 'Unir' }).click();
    const merge = page.getByRole('dialog', { name: 'Unir comandas' });
    await merge.getByLabel(new RegExp(`Comanda ${lomo} `)).check();
    await merge.getByRole('button', { name: 'Unir' }).click();
    await panel
      .getByTestId('total')
      .filter({ hasText: /50[.,]50/ })
      .waitFor();
    await floor.getByRole('button', { name: new RegExp(`#${lomo}`) }).waitFor({
      state: 'detached',
    });
    await screenshot(page, 'web-floor-merged');
    browser.expectNoErrors(page);
  });
});
