import type { Locator, Page } from 'playwright-core';
import { STAFF, tokenFor } from '../support/auth';
import { MENU } from '../support/fixtures';
import { signedWith, WebhookReceiver } from '../support/webhook-receiver';
import { WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, STAFF_PINS, type WebServer } from './support/server';
import { SIGN_IN_PROBE, signInWithPin } from './support/sign-in';

/** The console errors the tests cause on purpose: a URL the service refuses (400). */
const REFUSED = /status of 400/;

/**
 * The Webhooks screen in a real browser, against a real receiver on 127.0.0.1, with
 * authentication and every screen on (the admin's header at its fullest): an endpoint added from
 * the form with its events picked by checkbox, its secret shown once and copied; a test message
 * that the receiver gets signed with that secret and the deliveries show delivered; a receiver
 * answering 500, the delivery retried and given up with its error, resent once it is fixed;
 * switched off and on, its buttons following its `acciones`; the secret rotated. Then a long
 * URL with every event, the deliveries paged and filtered, an endpoint the service switched off
 * (410) with its reason, an edit refused at its field and saved, a comanda's event delivered
 * with its body, a removal. Each state fits 1024×768 and 1280×800; the other roles have no such
 * screen.
 */
describe('the Webhooks screen', () => {
  let server: WebServer;
  let browser: WebBrowser;
  let receiver: WebhookReceiver;
  const db = () => server.dbs.tenantUrl(server.tenant);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    server = await startServer({
      auth: true,
      // every screen on: the admin's header holds its most tabs
      features: {
        genericTables: true,
        rpc: true,
        cobros: true,
        inventario: true,
        cocina: true,
        reportes: true,
      },
      env: {
        FEATURE_WEBHOOKS: 'true',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_POLL_MS: '500',
        // a failing message: its first attempt, two retries 3 s apart, then given up
        WEBHOOKS_RETRY_DELAYS: '3s,3s',
        WEBHOOKS_TIMEOUT_MS: '2000',
        WEBHOOKS_LEASE_MS: '5000',
      },
    });
    browser = await WebBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  beforeEach(() => {
    receiver.answer(() => 204);
  });

  const signIn = async (role: keyof typeof STAFF_PINS): Promise<Page> => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, STAFF_PINS[role]);
    return page;
  };

  const tabs = (page: Page) =>
    page.getByRole('navigation', { name: 'Pantallas' }).getByRole('link').allTextContents();

  const openWebhooks = async (page: Page) => {
    await page
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
  };

  /** The card of an endpoint, by the URL it shows. */
  const card = (page: Page, url: string | RegExp) =>
    page.getByRole('article', { name: url, exact: typeof url === 'string' });

  /** The buttons of a card, as written. */
  const buttons = (of: Locator) => of.getByRole('button').allTextContents();

  /** A delivery's rows (the row and, open, its detail), by the text of its row. */
  const entrega = (page: Page, text: string | RegExp) =>
    page.locator('tbody.wh-entrega').filter({ hasText: text });

  /** A call of the API as the admin (to prepare what the test does not drive on the page). */
  const adminApi = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        'X-Tenant-ID': server.tenant,
        Authorization: `Bearer ${tokenFor(server.tenant, STAFF.admin.id)}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };

  const endpointRow = async (id: number) =>
    (
      await server.dbs.query<{ url: string; eventos: string[]; activo: boolean }>(
        db(),
        'SELECT url, eventos, activo FROM webhooks WHERE id_webhook = $1',
        [id],
      )
    )[0];

  it('adds an endpoint, tests it, follows a failure and a resend, switches it off and rotates its secret', async () => {
    const page = await signIn('admin');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.baseUrl,
    });
    expect(await tabs(page)).toContain('Webhooks');
    await openWebhooks(page);
    await page.getByText('Todavía no hay webhooks.').waitFor();
    await expectFitsAtEverySize(page, 'webhooks-vacio');

    // the form: what is missing is said at its field before anything is sent
    await page.getByRole('button', { name: 'Nuevo webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Nuevo webhook' });
    await form.getByRole('button', { name: 'Crear webhook' }).click();
    await form.getByText('Indique la dirección que recibe los mensajes (https://…)').waitFor();
    await form.getByText('Elija al menos un evento').waitFor();
    expect(await server.dbs.query(db(), 'SELECT 1 FROM webhooks')).toEqual([]);

    // the events are picked by module: one type of comandas, and every event of payments
    await form.getByLabel('Dirección que recibe los mensajes').fill(receiver.url);
    await form.getByLabel('Descripción (opcional)').fill('Contabilidad: ventas cerradas y pagos');
    const comandas = form.getByRole('group', { name: 'Comandas' });
    const pagos = form.getByRole('group', { name: 'Pagos' });
    await comandas.getByRole('checkbox', { name: 'Cerrada' }).check();
    await pagos.getByRole('checkbox', { name: 'Pago anulado' }).check();
    await pagos.getByRole('checkbox', { name: 'Todos' }).check();
    // "Todos" stands for the module's types: shown checked, not to be picked one by one
    const reembolso = pagos.getByRole('checkbox', { name: 'Reembolso' });
    expect(await reembolso.isChecked()).toBe(true);
    expect(await reembolso.isDisabled()).toBe(true);
    expect(await form.getByText('Elija al menos un evento').count()).toBe(0);
    await expectFitsAtEverySize(page, 'webhooks-form');
    await form.getByRole('button', { name: 'Crear webhook' }).click();
    await form.waitFor({ state: 'detached' });

    // the secret, this once, with its warning and a copy button
    const secretPanel = page.getByRole('region', { name: /^Secreto de firma de/ });
    await secretPanel.getByText('Cópielo ahora: no se volverá a mostrar.').waitFor();
    const secret = await secretPanel.getByLabel('Secreto de firma').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await secretPanel.getByRole('button', { name: 'Copiar' }).click();
    await secretPanel.getByText('Copiado al portapapeles.').waitFor();
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(secret);
    const [created] = await server.dbs.query<{ id_webhook: number }>(
      db(),
      'SELECT id_webhook FROM webhooks',
    );
    expect(await endpointRow(created.id_webhook)).toEqual({
      url: receiver.url,
      eventos: ['comanda.cerrar', 'pago.*'],
      activo: true,
    });

    // the card: its URL, description, events as chips, estado, and the buttons of its acciones
    const endpoint = card(page, receiver.url);
    await endpoint.getByText('Contabilidad: ventas cerradas y pagos').waitFor();
    expect(
      await endpoint.getByRole('list', { name: 'Eventos' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Comandas: cerrada', 'Pagos: todos']);
    await endpoint.getByText('Activo', { exact: true }).waitFor();
    expect(await buttons(endpoint)).toEqual([
      'Entregas',
      'Probar',
      'Editar',
      'Rotar secreto',
      'Desactivar',
      'Eliminar',
    ]);
    const entregas = page.getByRole('region', { name: `Entregas a ${receiver.url}` });
    await entregas
      .getByText('Ningún mensaje todavía: con «Probar» se envía uno de prueba.')
      .waitFor();
    await expectFitsAtEverySize(page, 'webhooks-secreto');

    // kept: the panel goes, and the secret is nowhere on the page again, not even after a reload
    await secretPanel.getByRole('button', { name: 'Ya lo guardé' }).click();
    await secretPanel.waitFor({ state: 'detached' });
    await page.reload();
    await endpoint.waitFor();
    expect(await page.content()).not.toContain(secret);

    // Probar: the receiver gets a webhook.prueba signed with the secret shown; delivered
    await endpoint.getByRole('button', { name: /^Probar/ }).click();
    await receiver.until(() => receiver.received.length >= 1);
    expect(receiver.bodies[0]).toMatchObject({
      type: 'webhook.prueba',
      data: { id_webhook: created.id_webhook },
    });
    expect(signedWith(secret, receiver.received[0])).toBe(true);
    const prueba = entrega(page, 'webhook.prueba');
    await prueba.getByText('Entregado', { exact: true }).waitFor();
    await prueba.getByText('204 OK').waitFor();
    await prueba.getByText('Mensaje de prueba').waitFor();
    // its attempts and the body sent
    await prueba.getByRole('button', { name: 'Detalle' }).click();
    const detalle = prueba.locator('tr.wh-detalle');
    await detalle.getByRole('heading', { name: 'Intentos' }).waitFor();
    expect(await detalle.locator('ol.wh-intentos li').count()).toBe(1);
    expect(await detalle.locator('pre.wh-cuerpo').innerText()).toContain(
      '"type": "webhook.prueba"',
    );
    await expectFitsAtEverySize(page, 'webhooks-entregado');
    await prueba.getByRole('button', { name: 'Ocultar' }).click();
    await detalle.waitFor({ state: 'detached' });

    // the receiver fails: the delivery waits for its retry with its error, then is given up
    receiver.answer(() => 500);
    await endpoint.getByRole('button', { name: /^Probar/ }).click();
    await receiver.until(() => receiver.received.length >= 2);
    // the newest first: this message
    const failing = entregas.locator('tbody.wh-entrega').first();
    await failing.getByText('Pendiente', { exact: true }).waitFor();
    await failing.getByText('HTTP 500').waitFor();
    await failing.getByText(/^reintento \d\d:\d\d$/).waitFor();
    await endpoint.getByText(/^Falla desde el \d\d\/\d\d\/\d\d \d\d:\d\d/).waitFor();
    await expectFitsAtEverySize(page, 'webhooks-reintento');
    await failing.getByText('Fallido', { exact: true }).waitFor({ timeout: 20_000 });
    await failing.getByText('HTTP 500').waitFor();
    expect(await failing.locator('td.num').innerText()).toBe('3');
    await failing.getByRole('button', { name: 'Detalle' }).click();
    expect(await failing.locator('ol.wh-intentos li.error').count()).toBe(3);
    await expectFitsAtEverySize(page, 'webhooks-fallido');

    // fixed, and sent again: the same message (webhook-id), delivered; the warning goes
    receiver.answer(() => 204);
    const before = receiver.received.length;
    await failing.getByRole('button', { name: /^Reenviar webhook\.prueba/ }).click();
    await receiver.until(() => receiver.received.length > before);
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(
      receiver.received.at(-2)!.headers['webhook-id'],
    );
    await failing.getByText('Entregado', { exact: true }).waitFor();
    await failing.getByText('204 OK').first().waitFor();
    // its attempts count again from the resend; its record keeps them all
    expect(await failing.locator('td.num').innerText()).toBe('1');
    expect(await failing.locator('ol.wh-intentos li').count()).toBe(4);
    await endpoint.getByText(/^Falla desde/).waitFor({ state: 'detached' });

    // the estado filter: the delivered ones
    await entregas.getByLabel('Estado').selectOption({ label: 'Entregados' });
    await entregas.getByText(/^2 mensajes entregados · /).waitFor();
    await entregas.getByLabel('Estado').selectOption({ label: 'Pendientes' });
    await entregas.getByText('Ningún mensaje en este estado.').waitFor();
    await entregas.getByLabel('Estado').selectOption({ label: 'Todas' });

    // switched off: Inactivo, no "Probar", "Activar" instead of "Desactivar"
    await endpoint.getByRole('button', { name: /^Desactivar/ }).click();
    await endpoint.getByText('Inactivo', { exact: true }).waitFor();
    await endpoint.getByText('Desactivado: no se le envía nada hasta que se active.').waitFor();
    expect(await buttons(endpoint)).toEqual([
      'Entregas',
      'Editar',
      'Rotar secreto',
      'Activar',
      'Eliminar',
    ]);
    expect((await endpointRow(created.id_webhook)).activo).toBe(false);
    await expectFitsAtEverySize(page, 'webhooks-inactivo');

    // a new secret, asked first, shown once; the previous one still signs for 24 hours
    await endpoint.getByRole('button', { name: /^Rotar secreto/ }).click();
    const rotar = page.getByRole('dialog', { name: 'Rotar el secreto' });
    await rotar.getByText(/El actual sigue firmando durante 24 horas/).waitFor();
    await rotar.getByRole('button', { name: 'Rotar secreto' }).click();
    await rotar.waitFor({ state: 'detached' });
    const rotated = page.getByRole('region', { name: /^Nuevo secreto de firma de/ });
    const secret2 = await rotated.getByLabel('Secreto de firma').inputValue();
    expect(secret2).toMatch(/^whsec_/);
    expect(secret2).not.toBe(secret);
    await rotated.getByText(/^El secreto anterior sigue firmando hasta el /).waitFor();
    await endpoint.getByText(/^El secreto anterior también firma hasta el /).waitFor();
    await expectFitsAtEverySize(page, 'webhooks-rotado');
    await rotated.getByRole('button', { name: 'Ya lo guardé' }).click();

    // on again: a test message is signed with both secrets, each verifies on its own
    await endpoint.getByRole('button', { name: /^Activar/ }).click();
    await endpoint.getByText('Activo', { exact: true }).waitFor();
    const sent = receiver.received.length;
    await endpoint.getByRole('button', { name: /^Probar/ }).click();
    await receiver.until(() => receiver.received.length > sent);
    expect(signedWith(secret2, receiver.received.at(-1)!)).toBe(true);
    expect(signedWith(secret, receiver.received.at(-1)!)).toBe(true);

    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });

  it('fits a long URL and every event, pages and filters deliveries, shows why the service switched one off, edits and deletes', async () => {
    const origin = new URL(receiver.url).origin;
    // an endpoint of this test's own, to edit (the receiver takes any path)
    const erpUrl = `${origin}/erp`;
    const erp = await adminApi('POST', '/webhooks', {
      url: erpUrl,
      eventos: ['comanda.cerrar', 'pago.*'],
      descripcion: 'ERP',
    });
    expect(erp.status).toBe(201);
    const longUrl = `${origin}/integraciones/contabilidad/v2/tenants/cevicheria-del-puerto-de-chorrillos/webhooks/comandas-cerradas-y-pagos?token=8f14e45fceea167a5a36dedd4bea2543`;
    const allTypes = [
      ...['crear', 'abrir', 'cerrar', 'editar', 'eliminar', 'restaurar'].map((a) => `comanda.${a}`),
      ...['agregar_item', 'modificar_item', 'quitar_item', 'dividir', 'unir', 'transferir'].map(
        (a) => `comanda.${a}`,
      ),
      ...['pagar', 'anular_pago', 'reembolsar', 'descontar'].map((a) => `pago.${a}`),
      ...['enviar', 'disparar', 'preparar', 'listo', 'recuperar', 'entregar'].map(
        (a) => `cocina.${a}`,
      ),
      ...['abrir', 'ingreso', 'retiro', 'cerrar'].map((a) => `sesion_caja.${a}`),
      ...['merma', 'conteo_crear', 'conteo_aplicar', 'conteo_descartar'].map(
        (a) => `inventario.${a}`,
      ),
    ];
    const long = await adminApi('POST', '/webhooks', {
      url: longUrl,
      eventos: allTypes,
      descripcion:
        'Sistema contable del grupo (Contabilidad Central S.A.C.), sucursal Chorrillos: recibe cada comanda, pago, movimiento de caja e inventario para la conciliación diaria y el cierre mensual de la sucursal',
    });
    expect(long.status).toBe(201);
    const longId = (long.body as { id_webhook: number }).id_webhook;
    // eleven test messages: two pages of deliveries
    const sent = receiver.received.length;
    for (let i = 0; i < 11; i++)
      expect((await adminApi('POST', `/webhooks/${longId}/probar`)).status).toBe(202);
    await receiver.until(() => receiver.received.length >= sent + 11);

    const page = await signIn('admin');
    await openWebhooks(page);
    const longCard = card(page, /\/…\/webhooks\/comandas-cerradas-y-pagos\?…$/);
    await longCard.waitFor();
    // shortened in the middle, whole on hover
    const shown = longCard.locator('.wh-card-head .wh-url');
    expect(await shown.getAttribute('title')).toBe(longUrl);
    expect(await shown.innerText()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…\//);
    // thirty types: one chip per module
    expect(
      await longCard.getByRole('list', { name: 'Eventos' }).getByRole('listitem').allTextContents(),
    ).toEqual([
      'Comandas: los 12 eventos',
      'Pagos: los 4 eventos',
      'Cocina: los 6 eventos',
      'Caja: los 4 eventos',
      'Inventario: los 4 eventos',
    ]);
    await longCard.getByRole('button', { name: /^Entregas de/ }).click();
    const entregas = page.getByRole('region', { name: /^Entregas a http:\/\/127\.0\.0\.1:\d+\/…/ });
    await entregas.getByText(/^11 mensajes/).waitFor();
    await entregas.getByText('1–10 de 11').waitFor();
    expect(await entregas.locator('tbody.wh-entrega').count()).toBe(10);
    await expectFitsAtEverySize(page, 'webhooks-lista');
    await entregas.getByRole('button', { name: 'Siguiente' }).click();
    await entregas.getByText('11–11 de 11').waitFor();
    expect(await entregas.locator('tbody.wh-entrega').count()).toBe(1);
    await entregas.getByRole('button', { name: 'Anterior' }).click();
    await entregas.getByText('1–10 de 11').waitFor();

    // the receiver is gone (410): the message is given up and the service switches it off
    receiver.answer(() => 410);
    await longCard.getByRole('button', { name: /^Probar/ }).click();
    await longCard
      .getByText(
        /^Desactivado por el servicio el \d\d\/\d\d\/\d\d \d\d:\d\d: el receptor respondió 410 \(la dirección ya no existe\)/,
      )
      .waitFor({ timeout: 20_000 });
    await longCard.getByText('Inactivo', { exact: true }).waitFor();
    expect((await endpointRow(longId)).activo).toBe(false);
    await entregas.getByLabel('Estado').selectOption({ label: 'Fallidos' });
    await entregas.getByText(/^1 mensaje fallido · /).waitFor();
    const gone = entregas.locator('tbody.wh-entrega');
    await gone.getByText('HTTP 410').waitFor();
    expect(await gone.count()).toBe(1);
    await expectFitsAtEverySize(page, 'webhooks-desactivado');
    receiver.answer(() => 204);

    // an edit: the service refuses a host that does not exist at its field; then saved
    const erpCard = card(page, erpUrl);
    await erpCard.getByRole('button', { name: /^Editar/ }).click();
    const form = page.getByRole('dialog', { name: 'Editar webhook' });
    const url = form.getByLabel('Dirección que recibe los mensajes');
    expect(await url.inputValue()).toBe(erpUrl);
    await url.fill('https://erp-contable.invalid/hooks');
    await form
      .getByRole('group', { name: 'Comandas' })
      .getByRole('checkbox', { name: 'Todos' })
      .check();
    await form.getByRole('button', { name: 'Guardar cambios' }).click();
    await form
      .getByText(
        'Dirección no permitida: el servidor erp-contable.invalid no existe (no se encuentra) (WEBHOOK_URL_NOT_ALLOWED)',
      )
      .waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await url.fill(erpUrl);
    await form.getByRole('button', { name: 'Guardar cambios' }).click();
    await form.waitFor({ state: 'detached' });
    expect(
      await erpCard.getByRole('list', { name: 'Eventos' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Comandas: todos', 'Pagos: todos']);
    expect((await endpointRow((erp.body as { id_webhook: number }).id_webhook)).eventos).toEqual([
      'comanda.*',
      'pago.*',
    ]);

    // a comanda opened on the floor: its event goes out as the service sends it, body and all
    const sentBefore = receiver.received.length;
    const opened = await adminApi('POST', '/comandas', {
      id_mesa: MENU.mesas[0],
      items: [{ id_producto: MENU.ceviche.id, cantidad: 2 }],
    });
    expect(opened.status).toBe(201);
    const { id_comanda } = opened.body as { id_comanda: number };
    await receiver.until(() =>
      receiver.bodies.slice(sentBefore).some((b) => b.type === 'comanda.crear'),
    );
    await erpCard.getByRole('button', { name: /^Entregas de/ }).click();
    const erpEntregas = page.getByRole('region', { name: `Entregas a ${erpUrl}` });
    await erpEntregas.getByRole('button', { name: 'Actualizar' }).click();
    const crear = erpEntregas.locator('tbody.wh-entrega').filter({ hasText: 'comanda.crear' });
    await crear.getByText('Comandas: nueva comanda').waitFor();
    await crear.getByText('Entregado', { exact: true }).waitFor();
    await crear.getByRole('button', { name: 'Detalle' }).click();
    expect(await crear.locator('pre.wh-cuerpo').innerText()).toContain(
      `"id_comanda": ${id_comanda}`,
    );
    await expectFitsAtEverySize(page, 'webhooks-comanda');

    // a removal is asked first
    await longCard.getByRole('button', { name: /^Eliminar/ }).click();
    const eliminar = page.getByRole('dialog', { name: 'Eliminar el webhook' });
    await eliminar.getByText(/No se puede deshacer/).waitFor();
    await eliminar.getByRole('button', { name: 'Eliminar' }).click();
    await longCard.waitFor({ state: 'detached' });
    expect(await endpointRow(longId)).toBeUndefined();
    await page.getByText(/^Webhook «Sistema contable del grupo.*» eliminado\.$/).waitFor();

    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE, REFUSED] });
  });

  it('is the admin’s alone: a cashier and a waiter have no such screen', async () => {
    for (const role of ['cajero', 'mozo'] as const) {
      const page = await signIn(role);
      expect(await tabs(page)).not.toContain('Webhooks');
      // its address leads to Sala
      await page.evaluate(() => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = '#/webhooks';
      });
      await page.getByRole('region', { name: 'Sala' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Webhooks', exact: true }).count()).toBe(0);
      browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
    }
  });
});
