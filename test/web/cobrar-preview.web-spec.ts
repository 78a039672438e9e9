import type { Locator, Page, Route } from 'playwright-core';
import { STAFF, tokenFor } from '../support/auth';
import { MENU } from '../support/fixtures';
import { WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, STAFF_PINS, type WebServer } from './support/server';
import { SIGN_IN_PROBE, signInWithPin } from './support/sign-in';

/** The console lines of the refusals the cases cause on purpose (Chromium logs every 4xx). */
const PREVIEW_REFUSED = /status of 40\d.*\/api\/v1\/comandas\/\d+\/pagos\/simulacion\b/;

/** A product with céntimos that cash rounds (S/ 4.75). */
const AGUA = { id: 5 };

interface Simulacion {
  monto: number;
  vuelto: number;
  saldo: number;
  redondeo: number;
  salda: boolean;
}

/**
 * Cobrar asks the service what the payment typed would do (POST …/pagos/simulacion) and shows
 * its answer: the change, the rounding and what remains are the dry run's figure for figure, a
 * refusal is the service's at its field, the screen says while it is asking, an answer for an
 * earlier amount never shows over a later one, and "Cobrar" sends what was typed.
 */
describe('Cobrar: the service’s preview of the payment typed', () => {
  let server: WebServer;
  let browser: WebBrowser;
  let page: Page;
  let cobrar: Locator;
  let idComanda: number;

  /** A call of the API as the cashier (or `as` another role), as any client makes it. */
  const api = async <T>(
    method: string,
    path: string,
    body?: unknown,
    as: keyof typeof STAFF = 'cajero',
  ) => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        'X-Tenant-ID': server.tenant,
        Authorization: `Bearer ${tokenFor(server.tenant, STAFF[as].id)}`,
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  /** What the payment's dry run answers for `body`, asked as any client would. */
  const simulated = async (body: object) =>
    (await api<Simulacion>('POST', `/comandas/${idComanda}/pagos/simulacion`, body)).body;

  /** The dry-run requests the page sends from now on, with their bodies. */
  const asked = (): object[] => {
    const bodies: object[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/pagos/simulacion'))
        bodies.push(request.postDataJSON() as object);
    });
    return bodies;
  };

  beforeAll(async () => {
    server = await startServer({ auth: true, features: { cobros: true } });
    await server.dbs.query(
      server.dbs.tenantUrl(server.tenant),
      "INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES ('Agua mineral', 4.75, 1, true)",
    );
    browser = await WebBrowser.launch();
    page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, STAFF_PINS.cajero);
    expect((await api('POST', '/cajas/1/sesiones', { monto_apertura: 200 })).status).toBe(201);
    // a bill of S/ 85.25: lomo, ceviche and a water
    const comanda = await api<{ id_comanda: number; numero_ticket: number }>(
      'POST',
      '/comandas',
      {
        id_mesa: 1,
        items: [MENU.lomo.id, MENU.ceviche.id, AGUA.id].map((id) => ({
          id_producto: id,
          cantidad: 1,
        })),
      },
      'admin',
    );
    idComanda = comanda.body.id_comanda;
    await page
      .getByRole('listitem', { name: 'Mesa 1' })
      .getByRole('button', { name: new RegExp(`^#${comanda.body.numero_ticket} `) })
      .click();
    await page
      .getByRole('region', { name: `Comanda ${comanda.body.numero_ticket}` })
      .getByRole('button', { name: 'Cobrar' })
      .click();
    cobrar = page.getByRole('dialog', { name: `Cobrar comanda ${comanda.body.numero_ticket}` });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const vuelto = () => cobrar.getByRole('status', { name: 'Vuelto' });

  it('shows the dry run’s change, rounding and balance for the amount proposed and typed', async () => {
    // the cash balance proposed: the service settles the bill with it, rounded in the customer's favour
    const proposed = await simulated({ id_metodo_pago: 1, monto: 85.2 });
    expect(proposed).toMatchObject({ monto: 85.2, redondeo: -0.05, saldo: 0, salda: true });
    await cobrar.getByText('redondeo de S/ 0.05 a favor del cliente').waitFor();
    await cobrar.getByText('Con este pago la cuenta queda pagada.').waitFor();
    await cobrar.getByRole('button', { name: 'Cobrar y cerrar' }).waitFor();
    await expectFitsAtEverySize(page, 'cobrar-propuesto');

    // typed key by key: one question once typing pauses, and the figures of the last amount
    const bodies = asked();
    await cobrar.getByLabel('Monto (a cuenta)').fill('');
    await cobrar.getByLabel('Monto (a cuenta)').pressSequentially('120');
    await vuelto().getByText('S/ 34.80').waitFor();
    expect(await simulated({ id_metodo_pago: 1, monto: 120 })).toMatchObject({
      monto: 85.2,
      vuelto: 34.8,
      salda: true,
    });
    expect(bodies.length).toBeLessThan(3);
    expect(bodies[bodies.length - 1]).toEqual({ id_metodo_pago: 1, monto: 120 });

    // part of it, with a tip and a note: what remains is the service's balance after it
    await cobrar.getByLabel('Monto (a cuenta)').fill('50');
    await cobrar.getByLabel('Propina').fill('5');
    await cobrar.getByLabel('Recibido').fill('100');
    await vuelto().getByText('S/ 45.00').waitFor();
    const part = await simulated({ id_metodo_pago: 1, monto: 50, propina: 5, recibido: 100 });
    await cobrar.getByText(`Después de este pago quedan S/ ${part.saldo.toFixed(2)}.`).waitFor();
    expect(await cobrar.getByRole('button', { name: 'Cobrar', exact: true }).isEnabled()).toBe(
      true,
    );
  });

  it('says while it asks, and never shows an earlier amount’s answer over a later one', async () => {
    // the service slow to answer the first amount only: its answer comes after the second's
    const held: Route[] = [];
    await page.route('**/pagos/simulacion', async (route) => {
      const body = route.request().postDataJSON() as { monto: number };
      if (body.monto === 60) held.push(route);
      else await route.continue();
    });
    await cobrar.getByLabel('Monto (a cuenta)').fill('60');
    await cobrar.getByText('Calculando…').waitFor();
    expect(await vuelto().getAttribute('aria-busy')).toBe('true');
    expect((await vuelto().textContent())?.trim()).toBe('Vuelto…');
    await expectFitsAtEverySize(page, 'cobrar-calculando');
    // 70 of it, with the tip of 5 and the note of 100 typed before
    await cobrar.getByLabel('Monto (a cuenta)').fill('70');
    await vuelto().getByText('S/ 25.00').waitFor();
    // the first answer arrives now, for an amount no longer typed: nothing changes
    for (const route of held) await route.continue().catch(() => undefined);
    await page.waitForTimeout(500);
    expect((await vuelto().textContent())?.trim()).toBe('VueltoS/ 25.00');
    await cobrar.getByText('Después de este pago quedan S/ 15.25.').waitFor();
    await page.unroute('**/pagos/simulacion');
  });

  it('shows the service’s refusal at its field, as the payment would get it', async () => {
    // 50 with a tip of 5, and a note of 52
    await cobrar.getByLabel('Monto (a cuenta)').fill('50');
    await cobrar.getByLabel('Recibido').fill('52');
    await cobrar.getByText('Faltan S/ 3.00').waitFor();
    expect(await cobrar.getByRole('button', { name: 'Cobrar', exact: true }).isDisabled()).toBe(
      true,
    );
    await cobrar.getByRole('radio', { name: 'Tarjeta' }).check();
    await cobrar.getByLabel('Monto', { exact: true }).fill('90');
    await cobrar.getByText('Más que el saldo (S/ 85.25): solo el efectivo da vuelto').waitFor();
    const refused = await api<{ code: string }>('POST', `/comandas/${idComanda}/pagos/simulacion`, {
      id_metodo_pago: 2,
      monto: 90,
      propina: 5,
    });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 409,
      code: 'PAGO_EXCEDE_SALDO',
    });
    expect(await cobrar.getByRole('button', { name: 'Cobrar', exact: true }).isDisabled()).toBe(
      true,
    );
    await expectFitsAtEverySize(page, 'cobrar-rechazado');
  });

  it('sends what was typed when Cobrar is pressed, whether the preview came or not', async () => {
    // the service slow to preview: the cashier does not wait for it
    await page.route('**/pagos/simulacion', () => undefined);
    await cobrar.getByLabel('Monto', { exact: true }).fill('20');
    await cobrar.getByLabel('Propina').fill('');
    await cobrar.getByLabel('Referencia (opcional)').fill('VISA 4821');
    await cobrar.getByText('Calculando…').waitFor();
    const sent = page.waitForRequest(
      (request) =>
        request.method() === 'POST' && request.url().endsWith(`/comandas/${idComanda}/pagos`),
    );
    await cobrar.getByRole('button', { name: 'Cobrar', exact: true }).click();
    expect((await sent).postDataJSON()).toEqual({
      id_metodo_pago: 2,
      monto: 20,
      referencia: 'VISA 4821',
    });
    await cobrar.getByRole('row', { name: 'Pago Tarjeta S/ 20.00' }).waitFor();
    await cobrar.getByTestId('saldo').filter({ hasText: 'S/ 65.25' }).waitFor();
    await page.unroute('**/pagos/simulacion');
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE, PREVIEW_REFUSED] });
  });
});
