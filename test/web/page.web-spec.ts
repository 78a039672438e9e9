import { WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, type WebServer } from './support/server';

/**
 * The harness itself: the built page served at `/` by the real service, opened in Chromium,
 * before anyone signs in; without authentication, Entrar asks for the restaurant only.
 */
describe('the back-office page at /', () => {
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

  it('loads in Spanish with the sign-in form, fitting both screens, and no console error', async () => {
    const page = await browser.newPage(server.baseUrl);
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Comandas · back-office');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('#app').count()).toBe(1);

    const tenant = page.getByLabel('Restaurante');
    await tenant.waitFor({ state: 'visible' });
    expect(await tenant.getAttribute('name')).toBe('tenant');
    expect(await page.getByRole('button', { name: 'Entrar' }).isVisible()).toBe(true);

    await expectFitsAtEverySize(page, 'web-sign-in');
    browser.expectNoErrors(page);
  });

  it('without authentication (AUTH_MODE=off), lets in with the restaurant alone', async () => {
    const page = await browser.newPage(server.baseUrl);
    await page.goto('/');
    await page.getByLabel('Restaurante').fill(server.tenant);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
    await page.getByText('Sin autenticación').waitFor();
    // nobody to sign in or switch: no PIN pad, no "Cambiar de usuario"
    expect(await page.getByRole('group', { name: 'Tu PIN' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cambiar de usuario' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Salir' }).click();
    expect(await page.getByLabel('Restaurante').inputValue()).toBe(server.tenant);
    browser.expectNoErrors(page);
  });
});
