import type { Page } from 'playwright-core';
import { screenshot, WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, STAFF_PINS, type WebServer } from './support/server';
import { SIGN_IN_PROBE, signInWithPin } from './support/sign-in';

/**
 * The kitchen display and the floor in two browsers, with authentication: a waiter orders and
 * sends; the kitchen (its own PIN) sees the ticket appear live on its station, not on the
 * other one (a drink goes to the Bar), starts it and bumps it; the floor sees the line listo
 * live; the kitchen recalls it; the waiter voids the sent line and the kitchen gets a
 * struck-through cancellation card. Then the service goes away: the board says "Sin conexión
 * desde hh:mm" instead of going quietly stale. Each screen fits 1024×768 and 1280×800.
 */
describe('the Cocina screen', () => {
  let server: WebServer;
  let browser: WebBrowser;

  beforeAll(async () => {
    server = await startServer({ auth: true, features: { cocina: true } });
    // drinks go to the Bar; the lomo is a main, served in course 2
    await server.dbs.query(
      server.dbs.tenantUrl(server.tenant),
      `INSERT INTO categorias (nombre, curso_defecto) VALUES ('Bebidas', 1), ('Fondos', 2);
       UPDATE productos SET id_categoria = 2 WHERE nombre = 'Chicha morada';
       UPDATE productos SET id_categoria = 3 WHERE nombre = 'Lomo saltado';
       INSERT INTO estaciones_cocina (nombre, tipo) VALUES ('Bar', 'preparacion');
       INSERT INTO estacion_categorias (id_categoria, id_estacion)
       SELECT 2, id_estacion FROM estaciones_cocina WHERE nombre = 'Bar'`,
    );
    browser = await WebBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = async (role: keyof typeof STAFF_PINS): Promise<Page> => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, STAFF_PINS[role]);
    return page;
  };

  const goTo = (page: Page, screen: string) =>
    page.getByRole('navigation', { name: 'Pantallas' }).getByRole('link', { name: screen }).click();

  const addProduct = async (page: Page, search: string, name: RegExp) => {
    await page.getByRole('button', { name: 'Agregar producto' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agregar producto' });
    await dialog.getByLabel('Buscar producto').fill(search);
    await dialog.getByRole('list', { name: 'Productos' }).getByRole('button', { name }).click();
    await dialog.waitFor({ state: 'detached' });
  };

  it('follows a ticket from the floor to the kitchen and back, live', async () => {
    const kitchen = await signIn('cocina');
    const floor = await signIn('mozo');
    // the kitchen sees no Sala actions but its own screen; pick the Cocina station
    await goTo(kitchen, 'Cocina');
    const stations = kitchen.getByRole('group', { name: 'Estación' });
    await stations.getByRole('button', { name: 'Cocina' }).click();
    await kitchen.getByText('Sin tickets pendientes en Cocina.').waitFor();
    await kitchen.getByTestId('cocina-live').filter({ hasText: 'En vivo' }).waitFor();

    // the waiter orders two ceviches, a lomo (course 2) and a chicha (the Bar's), and sends
    await floor.getByRole('button', { name: 'Abrir comanda en mesa 1' }).click();
    const panel = floor.getByRole('region', { name: /^Comanda \d+/ });
    await panel.waitFor();
    await addProduct(floor, 'cevi', /Ceviche clásico/);
    await panel.getByRole('button', { name: 'Ceviche clásico: una más' }).click();
    await addProduct(floor, 'lomo', /Lomo saltado/);
    await addProduct(floor, 'chicha', /Chicha morada/);
    await panel
      .getByRole('row', { name: /Chicha morada/ })
      .getByText('pendiente')
      .waitFor();
    const ticket = (await panel.getByRole('heading').first().textContent())!.match(/\d+/)![0];
    await panel.getByRole('button', { name: 'Enviar a cocina' }).click();
    const ceviche = panel.getByRole('row', { name: /Ceviche clásico/ });
    await ceviche.getByText('enviado').waitFor();
    await panel
      .getByRole('row', { name: /Lomo saltado/ })
      .getByText('pendiente')
      .waitFor();
    await panel.getByRole('button', { name: 'Disparar curso 2' }).waitFor();

    // the kitchen's card appears without a reload: the ceviches, not the drink, course 2 held
    const card = kitchen.getByRole('article', { name: `Ticket ${ticket}` });
    await card.getByText('Ceviche clásico').waitFor();
    expect(await card.getByText('Chicha morada').count()).toBe(0);
    await card.getByText('Mesa 1').waitFor();
    await card.getByText('Rosa Quispe').waitFor();
    await card.getByText('En espera: curso 2').waitFor();
    const allDay = kitchen.getByRole('complementary', { name: 'Todo el día' });
    await allDay.getByText('Ceviche clásico').waitFor();
    expect(await allDay.getByRole('listitem').first().innerText()).toMatch(/^2\s+Ceviche clásico/);
    // the kitchen's buttons are the ticket's acciones: start and bump
    expect(await card.getByRole('button').allTextContents()).toEqual(['Empezar', 'Listo']);
    await expectFitsAtEverySize(kitchen, 'web-cocina');
    await expectFitsAtEverySize(floor, 'web-cocina-floor');

    // the station picker: the Bar has the chicha, and the choice is kept on the device
    await stations.getByRole('button', { name: 'Bar' }).click();
    const bar = kitchen.getByRole('article', { name: `Ticket ${ticket}` });
    await bar.getByText('Chicha morada').waitFor();
    expect(await bar.getByText('Ceviche clásico').count()).toBe(0);
    await kitchen.reload();
    await kitchen.getByRole('button', { name: 'Bar', pressed: true }).waitFor();
    await stations.getByRole('button', { name: 'Cocina' }).click();
    await card.getByText('Ceviche clásico').waitFor();

    // start, then bump: the floor sees the ceviches listo, live, and may serve them
    await card.getByRole('button', { name: 'Empezar' }).click();
    await card.getByText('En preparación').waitFor();
    await ceviche.getByText('en preparación').waitFor();
    await card.getByRole('button', { name: 'Listo' }).click();
    await card.waitFor({ state: 'detached' });
    await ceviche.getByText('listo', { exact: true }).waitFor();
    await ceviche.getByRole('button', { name: 'Entregar Ceviche clásico' }).waitFor();
    await kitchen.getByText('Sin tickets pendientes en Cocina.').waitFor();

    // a recall brings the ticket back, and the floor's line is enviado again
    await kitchen.getByRole('button', { name: `Recuperar ticket ${ticket}` }).click();
    await card.getByText('Ceviche clásico').waitFor();
    await ceviche.getByText('enviado').waitFor();

    // the waiter voids the sent ceviches: a cancellation card, its line struck through
    await ceviche.getByRole('button', { name: 'Quitar Ceviche clásico' }).click();
    const quitar = floor.getByRole('dialog', { name: 'Quitar producto' });
    await quitar.getByRole('button', { name: 'Quitar' }).click();
    await quitar.waitFor({ state: 'detached' });
    const anulacion = kitchen.getByTestId('ticket').filter({ hasText: 'ANULACIÓN' });
    await anulacion.waitFor();
    await anulacion.locator('li.struck').filter({ hasText: 'Ceviche clásico' }).waitFor();
    expect(await anulacion.locator('li.struck').first().innerText()).toMatch(/^-2\s+Ceviche/);
    await expectFitsAtEverySize(kitchen, 'web-cocina-anulacion');
    await screenshot(kitchen, 'web-cocina-anulacion');

    browser.expectNoErrors(kitchen, { allow: [SIGN_IN_PROBE] });
    browser.expectNoErrors(floor, { allow: [SIGN_IN_PROBE] });
    const before = browser.errors(kitchen).length;

    // the service goes away: the board says since when it is not live
    server.process.child.kill('SIGTERM');
    await server.process.exited;
    await kitchen.getByTestId('cocina-offline').waitFor();
    expect(await kitchen.getByTestId('cocina-offline').innerText()).toMatch(
      /^Sin conexión desde \d\d:\d\d/,
    );
    // the tickets it had are still there, marked as possibly stale, not wiped
    await kitchen.getByTestId('ticket').first().waitFor();
    await screenshot(kitchen, 'web-cocina-sin-conexion');
    // only the failed reconnections, nothing else, reach the console
    expect(
      browser
        .errors(kitchen)
        .slice(before)
        .filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/.test(e)),
    ).toEqual([]);
  });
});

/**
 * The demo restaurant as provisioned (cocina on, course 1 of its open comandas sent): the
 * kitchen display is not empty, live, and fits both sizes with the demo's long names.
 */
describe('the Cocina screen on the demo restaurant', () => {
  let server: WebServer;
  let browser: WebBrowser;

  beforeAll(async () => {
    server = await startServer({
      data: 'demo',
      tenantOptions: { name: 'Cevichería Demo', features: { cocina: true } },
    });
    browser = await WebBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the open comandas sent to the Cocina station, the Bar and the Expo to pick', async () => {
    const page = await browser.newPage(server.baseUrl);
    await page.goto('/');
    await page.getByLabel('Restaurante').fill(server.tenant);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: 'Cocina' })
      .click();
    const stations = page.getByRole('group', { name: 'Estación' });
    await page.getByTestId('ticket').first().waitFor();
    expect(await stations.getByRole('button').allTextContents()).toEqual(['Cocina', 'Bar', 'Expo']);
    await page.getByTestId('cocina-live').filter({ hasText: 'En vivo' }).waitFor();
    expect(await page.getByTestId('ticket').count()).toBeGreaterThan(5);
    await expectFitsAtEverySize(page, 'web-cocina-demo');
    browser.expectNoErrors(page);
  });
});
