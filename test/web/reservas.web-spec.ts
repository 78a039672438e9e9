import type { Page } from 'playwright-core';
import { STAFF, tokenFor } from '../support/auth';
import { screenshot, WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, STAFF_PINS, type WebServer } from './support/server';
import { SIGN_IN_PROBE, signInWithPin } from './support/sign-in';

/** Today in the tenants' zone of the tests (TestDatabases: America/Lima), as the page has it. */
function todayInLima(): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Lima',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/**
 * The reservation book in a real browser, with authentication (the buttons are the actions the
 * service lists for each reservation and role): book from the form, a table booked too close
 * refused at its field, change, cancel with a reason, no-show, seat a party (its comanda then
 * shows on the floor); each role sees only its actions; readable at both screen sizes.
 */
describe('the Reservas screen', () => {
  let server: WebServer;
  let browser: WebBrowser;
  let today: string;

  beforeAll(async () => {
    server = await startServer({ auth: true });
    browser = await WebBrowser.launch();
    today = todayInLima();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = (page: Page, role: keyof typeof STAFF_PINS) =>
    signInWithPin(page, server.tenant, STAFF_PINS[role]);

  const openReservas = async (page: Page) => {
    await page
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: 'Reservas' })
      .click();
    await page.getByRole('heading', { name: /^Reservas de hoy/ }).waitFor();
  };

  /** A booking made over the API (by the admin), for the tests that need one ready. */
  const book = async (body: Record<string, unknown>): Promise<{ id_reserva: number }> => {
    const res = await fetch(`${server.baseUrl}/api/v1/reservas`, {
      method: 'POST',
      headers: {
        'X-Tenant-ID': server.tenant,
        Authorization: `Bearer ${tokenFor(server.tenant, STAFF.admin.id)}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ fecha: today, ...body }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id_reserva: number };
  };

  const reservaRow = async (id: number) =>
    (
      await server.dbs.query<{
        estado: string;
        personas: number;
        motivo: string | null;
        id_comanda: number | null;
        version: number;
      }>(
        server.dbs.tenantUrl(server.tenant),
        'SELECT estado, personas, motivo, id_comanda, version FROM reservas WHERE id_reserva = $1',
        [id],
      )
    )[0];

  const idOf = async (nombre: string): Promise<number> =>
    (
      await server.dbs.query<{ id_reserva: number }>(
        server.dbs.tenantUrl(server.tenant),
        'SELECT id_reserva FROM reservas WHERE nombre = $1',
        [nombre],
      )
    )[0].id_reserva;

  it('books, refuses a table booked too close, changes, cancels and marks a no-show', async () => {
    const page = await browser.newPage(server.baseUrl);
    await signIn(page, 'admin');
    await openReservas(page);
    await page.getByText('Ninguna reserva este día.').waitFor();

    // book from the form: today by default, at table 2
    await page.getByRole('button', { name: 'Nueva reserva' }).click();
    let form = page.getByRole('form', { name: 'Nueva reserva' });
    await form.getByLabel('Nombre').fill('Familia Pérez');
    await form.getByLabel('Teléfono').fill('987 654 321');
    await form.getByLabel('Personas').fill('4');
    expect(await form.getByLabel('Día').inputValue()).toBe(today);
    await form.getByLabel('Hora').fill('21:00');
    await form.getByLabel('Mesa').selectOption({ label: 'Mesa 2 · 4 sillas' });
    await form.getByLabel('Notas').fill('cumpleaños, una silla para bebé');
    await form.getByRole('button', { name: 'Reservar' }).click();
    await form.waitFor({ state: 'detached' });
    const perez = page.getByRole('row', { name: /Familia Pérez/ });
    await perez.waitFor();
    expect(await perez.getByRole('cell').allTextContents()).toEqual([
      '21:00',
      'Familia Pérez987 654 321cumpleaños, una silla para bebé',
      '4',
      'Mesa 2',
      expect.stringMatching(/^Pendiente/),
      'SentarModificarNo vinoCancelar',
    ]);
    const idPerez = await idOf('Familia Pérez');
    expect(await reservaRow(idPerez)).toMatchObject({ estado: 'pendiente', personas: 4 });

    // the same table half an hour later: refused at the table's field, then booked without one
    await page.getByRole('button', { name: 'Nueva reserva' }).click();
    form = page.getByRole('form', { name: 'Nueva reserva' });
    await form.getByLabel('Nombre').fill('Ana Torres');
    await form.getByLabel('Personas').fill('2');
    await form.getByLabel('Hora').fill('21:30');
    await form.getByLabel('Mesa').selectOption({ label: 'Mesa 2 · 4 sillas' });
    await form.getByRole('button', { name: 'Reservar' }).click();
    await form.getByText(/La mesa 2 ya está reservada a las 21:00/).waitFor();
    expect(await form.getByLabel('Mesa').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'reservas-mesa-ocupada');
    await form.getByLabel('Mesa').selectOption({ label: 'Sin mesa (se asigna al llegar)' });
    await form.getByRole('button', { name: 'Reservar' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Ana Torres/ }).waitFor();

    // change the party size: If-Match with the version shown
    await page.getByRole('button', { name: 'Modificar: Familia Pérez, 21:00' }).click();
    form = page.getByRole('form', { name: 'Modificar la reserva de Familia Pérez' });
    expect(await form.getByLabel('Nombre').inputValue()).toBe('Familia Pérez');
    await form.getByLabel('Personas').fill('6');
    await form.getByRole('button', { name: 'Guardar cambios' }).click();
    await form.waitFor({ state: 'detached' });
    await perez.getByRole('cell', { name: '6', exact: true }).waitFor();
    expect(await reservaRow(idPerez)).toMatchObject({ personas: 6, version: 2 });

    // cancel with a reason: the row keeps it, and has no buttons any more
    await page.getByRole('button', { name: 'Cancelar: Ana Torres, 21:30' }).click();
    const cancel = page.getByRole('form', { name: 'Cancelar la reserva de Ana Torres' });
    await cancel.getByRole('button', { name: 'Cancelar reserva' }).click();
    await cancel.getByText('Indique el motivo de la cancelación').waitFor();
    await cancel.getByLabel('Motivo').fill('llamó para cancelar');
    await cancel.getByRole('button', { name: 'Cancelar reserva' }).click();
    await cancel.waitFor({ state: 'detached' });
    const ana = page.getByRole('row', { name: /Ana Torres/ });
    await ana.getByText('Cancelada').waitFor();
    await ana.getByText('llamó para cancelar').waitFor();
    expect(await ana.getByRole('button').count()).toBe(0);
    expect(await reservaRow(await idOf('Ana Torres'))).toMatchObject({
      estado: 'cancelada',
      motivo: 'llamó para cancelar',
    });

    // a party that did not come
    const luis = await book({ nombre: 'Luis Rojas', personas: 3, hora: '20:00', id_mesa: 3 });
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await page.getByRole('button', { name: 'No vino: Luis Rojas, 20:00' }).click();
    const noShow = page.getByRole('dialog', { name: 'Luis Rojas no vino' });
    await noShow.getByRole('button', { name: 'Marcar que no vino' }).click();
    await noShow.waitFor({ state: 'detached' });
    const rojas = page.getByRole('row', { name: /Luis Rojas/ });
    await rojas.getByRole('button', { name: /^No vino:/ }).waitFor({ state: 'detached' });
    expect(await rojas.getByRole('button').count()).toBe(0);
    await rojas.getByText('No vino', { exact: true }).waitFor();
    expect(await reservaRow(luis.id_reserva)).toMatchObject({ estado: 'no_show' });

    // the day in time order, with its figures
    const rows = page.getByRole('table').getByRole('row');
    expect((await rows.allTextContents()).slice(1).map((t) => t.slice(0, 5))).toEqual([
      '20:00',
      '21:00',
      '21:30',
    ]);
    await page.getByText(/^3 reservas · 1 por llegar \(6 personas\)/).waitFor();
    await screenshot(page, 'reservas');
    await expectFitsAtEverySize(page, 'reservas');

    // the form at both sizes too
    await page.getByRole('button', { name: 'Modificar: Familia Pérez, 21:00' }).click();
    await page.getByRole('form', { name: 'Modificar la reserva de Familia Pérez' }).waitFor();
    await expectFitsAtEverySize(page, 'reservas-form');
    await page.keyboard.press('Escape');

    // the 409 of the table booked too close is the test's doing: Chromium logs error answers
    browser.expectNoErrors(page, { allow: [/status of 409/, SIGN_IN_PROBE] });
  });

  it('seats a party: its comanda opens at the table and shows on the floor', async () => {
    const { id_reserva } = await book({ nombre: 'Grupo Salazar', personas: 5, hora: '13:00' });
    const page = await browser.newPage(server.baseUrl);
    await signIn(page, 'admin');
    await openReservas(page);

    // booked without a table: the dialog asks for one
    await page.getByRole('button', { name: 'Sentar: Grupo Salazar, 13:00' }).click();
    const seat = page.getByRole('form', { name: 'Sentar a Grupo Salazar' });
    await seat.getByRole('button', { name: 'Sentar y abrir comanda' }).click();
    await seat.getByText('Elija la mesa donde se sienta el grupo').waitFor();
    await seat.getByLabel('Mesa').selectOption({ label: 'Mesa 1 · 4 sillas' });
    await screenshot(page, 'reservas-sentar');
    await seat.getByRole('button', { name: 'Sentar y abrir comanda' }).click();

    // the floor, with the party's comanda at table 1
    await page.getByRole('region', { name: 'Sala' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/sala');
    const { id_comanda } = await reservaRow(id_reserva);
    expect(id_comanda).not.toBeNull();
    const [comanda] = await server.dbs.query<{
      numero_ticket: number;
      id_mesa: number;
      estado: string;
    }>(
      server.dbs.tenantUrl(server.tenant),
      'SELECT numero_ticket, id_mesa, estado FROM comandas WHERE id_comanda = $1',
      [id_comanda],
    );
    expect(comanda).toMatchObject({ id_mesa: 1, estado: 'abierta' });
    // its ticket at table 1 (the floor lists each table with its tickets)
    await page
      .getByRole('region', { name: 'Sala' })
      .getByRole('listitem', { name: 'Mesa 1' })
      .getByRole('button', { name: new RegExp(`^#${comanda.numero_ticket}(?!\\d)`) })
      .waitFor();
    await screenshot(page, 'reservas-sala');

    // back in the book it is sentada, with nothing left to do
    await openReservas(page);
    const row = page.getByRole('row', { name: /Grupo Salazar/ });
    await row.getByText('Sentada').waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });

  it('shows each role only the actions the service lists for it', async () => {
    await book({ nombre: 'Mesa de Carmen', personas: 2, hora: '19:00' });
    const visibleActions = async (role: keyof typeof STAFF_PINS) => {
      const page = await browser.newPage(server.baseUrl);
      await signIn(page, role);
      await openReservas(page);
      const row = page.getByRole('row', { name: /Mesa de Carmen/ });
      await row.waitFor();
      const actions = await row.getByRole('button').allTextContents();
      const canBook = (await page.getByRole('button', { name: 'Nueva reserva' }).count()) > 0;
      browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
      return { actions, canBook };
    };
    // the cashier keeps the book and marks no-shows, but does not seat (a waiter's work)
    expect(await visibleActions('cajero')).toEqual({
      actions: ['Modificar', 'No vino', 'Cancelar'],
      canBook: true,
    });
    // the waiter seats, changes and cancels, but a no-show is the front's call
    expect(await visibleActions('mozo')).toEqual({
      actions: ['Sentar', 'Modificar', 'Cancelar'],
      canBook: true,
    });
    // the kitchen reads the book
    expect(await visibleActions('cocina')).toEqual({ actions: [], canBook: false });
  });

  it('is not offered when reservations are off for the tenant', async () => {
    await server.dbs.query(
      server.dbs.controlUrl,
      `UPDATE tenants SET features = '{"reservas": false}'::jsonb WHERE slug = $1`,
      [server.tenant],
    );
    // the catalog row is cached for TENANT_CACHE_TTL_MS
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const page = await browser.newPage(server.baseUrl);
    await signIn(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Pantallas' });
    expect(await nav.getByRole('link').allTextContents()).not.toContain('Reservas');
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });
});
