import type { Locator, Page } from 'playwright-core';
import { STAFF, tokenFor } from '../support/auth';
import { MENU } from '../support/fixtures';
import { WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, STAFF_PINS, type WebServer } from './support/server';
import { enterRestaurant, SIGN_IN_PROBE, signInWithPin, typePin } from './support/sign-in';

type Role = 'admin' | 'cajero' | 'mozo' | 'cocina';

/** The controls the page draws for each action the service may list in `acciones`. */
const CONTROLS: Record<string, (producto: string) => string[]> = {
  agregar_item: () => ['Agregar producto'],
  modificar_item: (p) => [`${p}: una menos`, `${p}: una más`],
  quitar_item: (p) => [`Quitar ${p}`],
  transferir: () => ['Cambiar de mesa'],
  editar: () => ['Editar'],
  dividir: () => ['Dividir'],
  unir: () => ['Unir'],
  cerrar: () => ['Cerrar'],
  abrir: () => ['Reabrir'],
  eliminar: () => ['Anular'],
  restaurar: () => ['Restaurar'],
};

/**
 * With AUTH_MODE=jwt: the page asks who is there after the restaurant (the PIN pad), and shows
 * each role exactly the controls of the actions the service lists for it in `acciones`.
 */
describe('the page with authentication', () => {
  let server: WebServer;
  let browser: WebBrowser;

  beforeAll(async () => {
    server = await startServer({ auth: true });
    browser = await WebBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A call of the API as `role`, as the page makes it. */
  const api = async <T>(role: Role, method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        'X-Tenant-ID': server.tenant,
        Authorization: `Bearer ${tokenFor(server.tenant, STAFF[role].id)}`,
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  };

  const signInAs = async (role: Role): Promise<Page> => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, STAFF_PINS[role]);
    return page;
  };

  /** The names of the buttons and pickers a comanda's panel offers. */
  const controlsOf = async (panel: Locator): Promise<string[]> => {
    const names: string[] = [];
    for (const control of [
      ...(await panel.getByRole('button').all()),
      ...(await panel.getByRole('combobox').all()),
    ])
      names.push((await control.getAttribute('aria-label')) ?? (await control.innerText()).trim());
    return names.sort();
  };

  const expected = (acciones: string[], producto: string) =>
    acciones.flatMap((accion) => CONTROLS[accion](producto)).sort();

  it('asks for a PIN after the restaurant, and signs its owner in', async () => {
    const page = await browser.newPage(server.baseUrl);
    await enterRestaurant(page, server.tenant);
    // no token to paste: the service gives it for the PIN
    expect(await page.locator('textarea, input[name="token"]').count()).toBe(0);
    await typePin(page, STAFF_PINS.mozo);
    await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
    await page.getByText('Rosa · mozo').waitFor();
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });

  it('shows each role, on the floor, exactly the buttons the service lists for it', async () => {
    const { id_comanda, numero_ticket } = await api<{ id_comanda: number; numero_ticket: number }>(
      'admin',
      'POST',
      '/comandas',
      { id_mesa: MENU.mesas[1], items: [{ id_producto: MENU.ceviche.id, cantidad: 2 }] },
    );
    const seen: Partial<Record<Role, string[]>> = {};
    for (const role of ['admin', 'cajero', 'mozo', 'cocina'] as const) {
      const { acciones } = await api<{ acciones: string[] }>(
        role,
        'GET',
        `/comandas/${id_comanda}`,
      );
      const page = await signInAs(role);
      await page
        .getByRole('listitem', { name: 'Mesa 2' })
        .getByRole('button', { name: new RegExp(`^#${numero_ticket} `) })
        .click();
      const panel = page.getByRole('region', { name: `Comanda ${numero_ticket}` });
      await panel.getByRole('table', { name: 'Líneas' }).waitFor();
      seen[role] = await controlsOf(panel);
      expect({ role, controls: seen[role] }).toEqual({
        role,
        controls: expected(acciones, 'Ceviche clásico'),
      });
      // opening a comanda is not an action on one: the page asks GET /me (comandas:write)
      expect(await page.getByRole('button', { name: 'Abrir comanda para llevar' }).count()).toBe(
        role === 'admin' || role === 'mozo' ? 1 : 0,
      );
      browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
    }
    // what the role matrix means on the floor: a waiter neither closes nor voids, the
    // kitchen changes nothing, the admin does everything
    expect(seen.mozo).toEqual(expect.arrayContaining(['Agregar producto', 'Dividir']));
    expect(seen.mozo).not.toEqual(expect.arrayContaining(['Cerrar']));
    expect(seen.mozo).not.toEqual(expect.arrayContaining(['Anular']));
    expect(seen.cajero).toEqual(expect.arrayContaining(['Cerrar']));
    expect(seen.cajero).not.toEqual(expect.arrayContaining(['Agregar producto']));
    expect(seen.cocina).toEqual([]);
    expect(seen.admin).toEqual(expect.arrayContaining(['Agregar producto', 'Cerrar', 'Anular']));
  });

  it('shows each role, in the history, exactly the buttons for a closed comanda', async () => {
    const { id_comanda, numero_ticket } = await api<{ id_comanda: number; numero_ticket: number }>(
      'admin',
      'POST',
      '/comandas',
      { id_mesa: MENU.mesas[2], items: [{ id_producto: MENU.lomo.id, cantidad: 1 }] },
    );
    await api('admin', 'PUT', `/comandas/${id_comanda}`, { action: 'cerrar' });
    const seen: Partial<Record<Role, string[]>> = {};
    for (const role of ['admin', 'cajero', 'mozo', 'cocina'] as const) {
      const { acciones } = await api<{ acciones: string[] }>(
        role,
        'GET',
        `/comandas/${id_comanda}`,
      );
      const page = await signInAs(role);
      await page.getByRole('link', { name: 'Historial' }).click();
      await page
        .getByRole('table', { name: 'Comandas' })
        .getByRole('button', { name: `#${numero_ticket}` })
        .click();
      const panel = page.getByRole('region', { name: `Comanda ${numero_ticket}` });
      await panel
        .getByRole('region', { name: 'Historial de la comanda' })
        .getByText(/cerró/)
        .waitFor();
      seen[role] = await controlsOf(panel);
      expect({ role, controls: seen[role] }).toEqual({
        role,
        controls: expected(acciones, 'Lomo saltado'),
      });
      if (role === 'cajero') await expectFitsAtEverySize(page, 'web-history-cajero');
      browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
    }
    // the cashier reopens a closed bill, only the admin voids it
    expect(seen.cajero).toEqual(['Reabrir']);
    expect(seen.admin).toEqual(['Anular', 'Reabrir']);
    expect(seen.mozo).toEqual([]);
    expect(seen.cocina).toEqual([]);
  });
});
