import type { Locator, Page } from 'playwright-core';
import {
  DEMO_ADMIN_DOCUMENTO,
  DEMO_ADMIN_PASSWORD,
  DEMO_PINS,
} from '../../src/database/demo/sections/credentials';
import { WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, type WebServer } from './support/server';
import { enterRestaurant, pinPad, SIGN_IN_PROBE, signInWithPin, typePin } from './support/sign-in';

/** The demo staff's PINs by who they are (DEMO_PINS is in the order of the demo's staff). */
const PIN = {
  carmen: DEMO_PINS[0], // admin, cajero
  luis: DEMO_PINS[1], // cajero
  milagros: DEMO_PINS[2], // cajero
  jorge: DEMO_PINS[3], // mozo
};

/** Nobody's PIN in the demo. */
const WRONG_PIN = '2468';

/** What the page keeps in sessionStorage (web/src/api.ts). */
interface SavedSession {
  tenant: string;
  token: string;
  expires_at?: string;
}

/**
 * Staff sign-in on the page (AUTH_MODE=jwt, the demo restaurant and its development
 * credentials): the restaurant, then the PIN pad (touches or the keyboard, the PIN shown as
 * dots), a manager's documento and password, readable refusals, the lockout's wait, "Cambiar
 * de usuario" over the screen of the previous user, "Salir", and a session the service ended
 * bringing back Entrar.
 */
describe('signing in on the page', () => {
  let server: WebServer;
  let browser: WebBrowser;

  beforeAll(async () => {
    server = await startServer({
      data: 'demo',
      auth: true,
      // every screen on: the header holds its most (nine tabs, the user, two buttons)
      features: {
        genericTables: true,
        rpc: true,
        cobros: true,
        inventario: true,
        cocina: true,
        reportes: true,
      },
      tenantOptions: { name: 'Cevichería Demo' },
    });
    browser = await WebBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const who = (page: Page) => page.getByRole('banner').locator('.who');

  /** The session the page saved for its tab. */
  const savedSession = (page: Page): Promise<SavedSession | null> =>
    page.evaluate(() => {
      const storage = (globalThis as unknown as { sessionStorage: { getItem(k: string): string } })
        .sessionStorage;
      const raw = storage.getItem('comandas.session');
      return raw ? (JSON.parse(raw) as SavedSession) : null;
    });

  /** A call of the API with a token, as any client makes it. */
  const call = (method: string, path: string, token: string) =>
    fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'X-Tenant-ID': server.tenant, Authorization: `Bearer ${token}` },
    });

  /** The names of the buttons of a comanda's panel. */
  const buttonsOf = async (panel: Locator): Promise<string[]> => {
    const names: string[] = [];
    for (const button of await panel.getByRole('button').all())
      names.push((await button.getAttribute('aria-label')) ?? (await button.innerText()).trim());
    return names;
  };

  it('asks for the restaurant, then a PIN on big keys, shown as dots; the keyboard types too', async () => {
    const page = await browser.newPage(server.baseUrl);
    await enterRestaurant(page, server.tenant);
    const pad = pinPad(page);
    const dots = page.getByRole('status').filter({ has: page.locator('.dot') });
    expect(await dots.getAttribute('aria-label')).toBe('PIN vacío');
    // no token to paste any more
    expect(await page.locator('textarea, input[name="token"]').count()).toBe(0);

    // ten digits, backspace and OK, each a touch target of at least 56 px
    const keys = await pad.getByRole('button').all();
    expect(await Promise.all(keys.map((k) => k.innerText()))).toEqual(
      expect.arrayContaining(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'OK']),
    );
    expect(keys).toHaveLength(12);
    for (const key of keys) {
      const box = await key.boundingBox();
      expect(box && Math.min(box.width, box.height)).toBeGreaterThanOrEqual(56);
    }
    expect(await pad.getByRole('button', { name: 'OK' }).isDisabled()).toBe(true);

    // two digits on the keyboard: two dots, and never the digits themselves
    await page.keyboard.type(PIN.jorge.slice(0, 2));
    expect(await dots.getAttribute('aria-label')).toBe('PIN: 2 dígitos');
    expect(await page.locator('.dot.on').count()).toBe(2);
    expect(await page.locator('body').innerText()).not.toContain(PIN.jorge.slice(0, 2));
    await expectFitsAtEverySize(page, 'web-sign-in-pin');

    // a wrong key taken back, the rest on the pad
    await page.keyboard.press('9');
    await pad.getByRole('button', { name: 'Borrar' }).click();
    expect(await dots.getAttribute('aria-label')).toBe('PIN: 2 dígitos');
    for (const digit of PIN.jorge.slice(2))
      await pad.getByRole('button', { name: digit, exact: true }).click();
    await page.keyboard.press('Enter');

    await page.getByRole('region', { name: 'Sala' }).waitFor();
    await who(page).filter({ hasText: 'Jorge Luis · mozo' }).waitFor();
    const saved = await savedSession(page);
    expect(saved).toMatchObject({ tenant: server.tenant, token: expect.any(String) });
    expect(Date.parse(saved!.expires_at!)).toBeGreaterThan(Date.now());
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });

  it('says "PIN incorrecto" for a wrong PIN and stays on the pad, empty', async () => {
    const page = await browser.newPage(server.baseUrl);
    await enterRestaurant(page, server.tenant);
    await typePin(page, WRONG_PIN);
    await page.getByRole('alert').filter({ hasText: 'PIN incorrecto' }).waitFor();
    await pinPad(page).waitFor();
    expect(await page.locator('.dot.on').count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Pantallas' }).count()).toBe(0);

    // the next key clears the message; the right PIN goes in
    await pinPad(page).getByRole('button', { name: PIN.milagros[0], exact: true }).click();
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await pinPad(page).getByRole('button', { name: 'Borrar' }).click();
    await typePin(page, PIN.milagros);
    await who(page).filter({ hasText: 'Milagros' }).waitFor();
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE, /status of 401.*\/auth\/pin/] });
  });

  it('lets a manager sign in with documento and password, and go back to the PIN pad', async () => {
    const page = await browser.newPage(server.baseUrl);
    await enterRestaurant(page, server.tenant);
    await page.getByRole('button', { name: 'Entrar con contraseña' }).click();
    const form = page.getByRole('form', { name: 'Entrar con contraseña' });
    await form.getByLabel('Documento').fill(DEMO_ADMIN_DOCUMENTO);
    await form.getByLabel('Contraseña').fill('no-es-la-clave');
    await expectFitsAtEverySize(page, 'web-sign-in-password');

    await form.getByRole('button', { name: 'Entrar' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'Documento o contraseña incorrectos' })
      .waitFor();
    expect(await form.getByLabel('Contraseña').inputValue()).toBe('');

    await form.getByRole('button', { name: 'Volver al PIN' }).click();
    await pinPad(page).waitFor();
    await page.getByRole('button', { name: 'Entrar con contraseña' }).click();
    await form.getByLabel('Documento').fill(DEMO_ADMIN_DOCUMENTO);
    await form.getByLabel('Contraseña').fill(DEMO_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Entrar' }).click();
    await who(page).filter({ hasText: 'Carmen Rosa · admin, cajero' }).waitFor();
    await page.getByRole('region', { name: 'Sala' }).waitFor();
    await expectFitsAtEverySize(page, 'web-sign-in-signed-in');
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE, /status of 401.*\/auth\/login/] });
  });

  it('after too many wrong passwords, says how many minutes to wait (Retry-After)', async () => {
    const page = await browser.newPage(server.baseUrl);
    await enterRestaurant(page, server.tenant);
    await page.getByRole('button', { name: 'Entrar con contraseña' }).click();
    const form = page.getByRole('form', { name: 'Entrar con contraseña' });
    // an account nobody has: its failures count all the same, and lock only it
    let status = 0;
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      await form.getByLabel('Documento').fill('10000001');
      await form.getByLabel('Contraseña').fill(`intento-${attempt}-equivocado`);
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/login'));
      await form.getByRole('button', { name: 'Entrar' }).click();
      status = (await answered).status();
    }
    expect(status).toBe(429);
    await form
      .getByRole('alert')
      .filter({ hasText: /^Demasiados intentos/ })
      .waitFor();
    const message = await form.getByRole('alert').innerText();
    expect(message).toMatch(/^Demasiados intentos: vuelve a intentar en (\d+) min$/);
    const minutes = Number(/en (\d+) min/.exec(message)![1]);
    expect(minutes).toBeGreaterThanOrEqual(1);
    expect(minutes).toBeLessThanOrEqual(15);
    browser.expectNoErrors(page, {
      allow: [SIGN_IN_PROBE, /status of 401.*\/auth\/login/, /status of 429.*\/auth\/login/],
    });
  });

  it('"Cambiar de usuario" signs the waiter out and the cashier in over the same screen', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, PIN.jorge);
    await who(page).filter({ hasText: 'Jorge Luis · mozo' }).waitFor();

    // the waiter picks a ticket on the floor
    const ticket = page.getByRole('list', { name: 'Mesas' }).getByRole('button', {
      name: /^#\d+ S\//,
    });
    const numero = /^#(\d+)/.exec((await ticket.first().innerText()).trim())![1];
    await ticket.first().click();
    const panel = page.getByRole('region', { name: `Comanda ${numero}` });
    await panel.getByRole('table', { name: 'Líneas' }).waitFor();
    const asWaiter = await buttonsOf(panel);
    expect(asWaiter).toContain('Agregar producto');
    expect(asWaiter).not.toContain('Cerrar');
    const waiterToken = (await savedSession(page))!.token;

    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'));
    await page.getByRole('button', { name: 'Cambiar de usuario' }).click();
    expect((await loggedOut).status()).toBe(204);
    const dialog = page.getByRole('dialog', { name: 'Cambiar de usuario' });
    await dialog.getByRole('group', { name: 'Tu PIN' }).waitFor();
    await dialog.getByText('Jorge Luis salió').waitFor();
    // the waiter's session ended at the service
    const ended = await call('GET', '/me', waiterToken);
    expect(ended.status).toBe(401);
    expect(await ended.json()).toMatchObject({ detail: { reason: 'session_ended' } });
    await expectFitsAtEverySize(page, 'web-sign-in-switch');

    await typePin(page, PIN.luis);
    await dialog.waitFor({ state: 'detached' });
    await who(page).filter({ hasText: 'Luis Alberto · cajero' }).waitFor();
    // the same screen, the same ticket, now with what the cashier may do to it
    expect(await page.getByRole('link', { name: 'Sala' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await panel.getByRole('button', { name: 'Cerrar' }).waitFor();
    const asCashier = await buttonsOf(panel);
    expect(asCashier).not.toContain('Agregar producto');
    expect(await page.getByRole('button', { name: 'Abrir comanda para llevar' }).count()).toBe(0);
    expect((await savedSession(page))!.token).not.toBe(waiterToken);
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });

  it('brings back Entrar, the restaurant filled in, when the service ended the session', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, PIN.milagros);
    await page.getByRole('region', { name: 'Sala' }).waitFor();

    // signed out elsewhere (as a change of credentials or the expiry would): the token is dead
    const { token } = (await savedSession(page))!;
    expect((await call('POST', '/auth/logout', token)).status).toBe(204);

    // the next request of the page is refused: Entrar again, saying why. The page goes to
    // the history by its address, not by a click on its tab: the live stream's or the floor's
    // own next request may already have been refused, and the tab be gone with the screen.
    await page.evaluate("location.hash = '#/historial'");
    await page
      .getByRole('status')
      .filter({ hasText: 'Tu sesión terminó: vuelve a entrar' })
      .waitFor();
    expect(await page.getByLabel('Restaurante').inputValue()).toBe(server.tenant);
    expect(await savedSession(page)).toBeNull();
    await expectFitsAtEverySize(page, 'web-sign-in-ended');

    await page.getByRole('button', { name: 'Entrar' }).click();
    await typePin(page, PIN.milagros);
    await who(page).filter({ hasText: 'Milagros' }).waitFor();
    browser.expectNoErrors(page, { allow: [/status of 401/] });
  });

  it('"Salir" signs out at the service and leaves Entrar with the restaurant', async () => {
    const page = await browser.newPage(server.baseUrl);
    // the floor's first load answered before "Salir": a request still in flight when the
    // token is revoked is refused, which is not what this test is about
    const floorLoaded = page.waitForResponse((r) =>
      r.url().includes('/api/v1/comandas?estado=abierta'),
    );
    await signInWithPin(page, server.tenant, PIN.carmen);
    expect((await floorLoaded).status()).toBe(200);
    const { token } = (await savedSession(page))!;
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'));
    await page.getByRole('button', { name: 'Salir' }).click();
    expect((await loggedOut).status()).toBe(204);
    expect(await page.getByLabel('Restaurante').inputValue()).toBe(server.tenant);
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await savedSession(page)).toBeNull();
    expect((await call('GET', '/me', token)).status).toBe(401);
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });
});
