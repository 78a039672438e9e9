import type { Locator, Page } from 'playwright-core';
import { addDays, todayIn } from '../../src/common/time';
import { STAFF, tokenFor } from '../support/auth';
import { MENU } from '../support/fixtures';
import { screenshot, WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, STAFF_PINS, type WebServer } from './support/server';
import { SIGN_IN_PROBE, signInWithPin } from './support/sign-in';

/** How the page writes the API's figures (es-PE): S/ 1,234.50, 1,234.5 kg, 30.95 %. */
const format = (min: number, max: number, signDisplay: 'auto' | 'exceptZero' = 'auto') =>
  new Intl.NumberFormat('es-PE', {
    minimumFractionDigits: min,
    maximumFractionDigits: max,
    signDisplay,
  });
const soles = (value: number) => `S/ ${format(2, 2).format(value)}`;
const UNIDAD: Record<string, string> = { kg: 'kg', g: 'g', l: 'l', ml: 'ml', unidad: 'und.' };
const qty = (value: number, unidad?: string) =>
  `${format(0, 4).format(value)}${unidad ? ` ${UNIDAD[unidad]}` : ''}`;
const signed = (value: number, unidad?: string) =>
  `${format(0, 4, 'exceptZero').format(value)}${unidad ? ` ${UNIDAD[unidad]}` : ''}`;
const costo = (value: number) =>
  `S/ ${(value > -1 && value < 1 ? format(2, 4) : format(2, 2)).format(value)}`;
const pct = (value: number | null) => (value === null ? '—' : `${format(2, 2).format(value)} %`);

/** A movement's tipo in words, as the page must say it. */
const TIPO: Record<string, string> = {
  inicial: 'Saldo inicial',
  compra: 'Compra',
  reverso_compra: 'Reverso de compra',
  consumo_venta: 'Consumo de venta',
  reverso_consumo: 'Reverso de consumo',
  merma: 'Merma',
  ajuste_conteo: 'Ajuste de conteo',
};

/** What a movement belongs to, as the page names it: its purchase or its count. */
const documento = (m: { origen: string; id_documento: number | null }) =>
  m.origen === 'compra' || m.origen === 'conteo' ? `${m.origen} N° ${m.id_documento}` : null;

/** The materials of the test (ids in a fresh tenant), with a long name that must wrap well. */
const PESCADO = { id: 1, nombre: 'Pescado (corvina) fresco en filete, sin piel' };
const LIMON = { id: 2, nombre: 'Limón sutil' };
const CEBOLLA = { id: 3, nombre: 'Cebolla roja' };
const AJI = { id: 4, nombre: 'Ají limo' };
const ACEITE = { id: 5, nombre: 'Aceite vegetal' };
const SAL = { id: 6, nombre: 'Sal de Maras' };

interface Saldo {
  id_mat_prima: number;
  nombre: string;
  unidad: string;
  activo: boolean;
  cantidad: number;
  costo_promedio: number;
  valor: number;
  stock_minimo: number | null;
  negativo: boolean;
  bajo_minimo: boolean;
}

interface Movimiento {
  tipo: string;
  origen: string;
  id_documento: number | null;
  fec: string;
  cantidad: number;
  costo_unitario: number;
  valor: number;
  saldo_cantidad: number;
  motivo: string | null;
  usuario: string | null;
}

interface Conteo {
  id_conteo: number;
  estado: string;
  valor_diferencias: number;
  acciones: string[];
  lineas: {
    id_mat_prima: number;
    nombre: string;
    unidad: string;
    contado: number;
    sistema: number;
    diferencia: number;
    costo_promedio: number;
    valor_diferencia: number;
  }[];
}

interface Consumo {
  desde: string;
  hasta: string;
  comandas: number;
  ventas_netas: number;
  costo_teorico: number;
  costo_real: number;
  food_cost_teorico_pct: number | null;
  food_cost_real_pct: number | null;
  materiales: {
    nombre: string;
    unidad: string;
    teorico_cantidad: number;
    teorico_valor: number;
    real_cantidad: number;
    real_valor: number;
    merma_cantidad: number;
    merma_valor: number;
    ajuste_cantidad: number;
    ajuste_valor: number;
    varianza_cantidad: number;
    varianza_valor: number;
  }[];
}

/** `dd/mm/yy hh:mm` of an instant the API sent with the tenant's offset, as the page writes it. */
const when = (iso: string) => {
  const [date, time] = iso.split('T');
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y.slice(-2)} ${time.slice(0, 5)}`;
};

/**
 * The Inventario screen in a real browser, with authentication and every screen on: purchases
 * made through the RPC route and a comanda closed (paid) give the balances, which the page
 * shows as the API has them, with their alerts; a material's ledger, paged and filtered; waste
 * entered by name drops the balance; a count sheet shows the API's differences before it is
 * applied, and applied it sets the balance to what was counted and loses its buttons; the
 * closed period is refused in Spanish; the consumption report's figures are the API's. The
 * kitchen gets the waste form alone, the cashier reads without buttons, the waiter has no tab.
 */
describe('the Inventario screen', () => {
  let server: WebServer;
  let browser: WebBrowser;
  /** The admin's page, through the tests that build on each other. */
  let admin: Page;
  let today: string;
  /** The count applied by the admin. */
  let idConteo: number;

  beforeAll(async () => {
    // every screen on: the admin's header holds its most (eight tabs, the user, two buttons)
    server = await startServer({
      auth: true,
      features: { inventario: true, rpc: true, cobros: true, genericTables: true, reportes: true },
      tenantOptions: { name: 'Cevichería Demo' },
    });
    today = todayIn('America/Lima');
    const url = server.dbs.tenantUrl(server.tenant);
    await server.dbs.query(
      url,
      `INSERT INTO mate_primas (nombre, unidad, stock_minimo, activo) VALUES
         ($1, 'kg', 3, true), ($2, 'kg', 2, true), ($3, 'kg', NULL, true),
         ($4, 'kg', 0.5, true), ($5, 'l', NULL, true), ($6, 'kg', NULL, false)`,
      [PESCADO.nombre, LIMON.nombre, CEBOLLA.nombre, AJI.nombre, ACEITE.nombre, SAL.nombre],
    );
    await server.dbs.query(
      url,
      `INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad) VALUES
         (1, 1, 0.2), (1, 2, 0.1), (1, 3, 0.05), (1, 4, 0.01);
       INSERT INTO proveedores (razon_social) VALUES ('Terminal Pesquero Villa María SAC');`,
    );
    browser = await WebBrowser.launch();

    // the purchases, through the RPC route (the ledger follows their raw-material lines)
    await api('POST', '/rpc/save_compra', {
      id_proveedor: 1,
      detalles: [
        { id_mat_prima: PESCADO.id, cantidad: 10, costo_unitario: 30 },
        { id_mat_prima: LIMON.id, cantidad: 1.5, costo_unitario: 4.2 },
        { id_mat_prima: CEBOLLA.id, cantidad: 5, costo_unitario: 3.1 },
      ],
    });
    await api('POST', '/rpc/save_compra', {
      id_proveedor: 1,
      detalles: [{ id_mat_prima: PESCADO.id, cantidad: 5, costo_unitario: 36 }],
    });
    // a litre of oil at a time, 22 times: more movements than a page holds
    for (let i = 0; i < 22; i += 1)
      await api('POST', '/rpc/save_compra', {
        id_proveedor: 1,
        detalles: [{ id_mat_prima: ACEITE.id, cantidad: 1, costo_unitario: 9.9 }],
      });

    // three ceviches sold and paid: the close consumes their recipe (the chili was never bought)
    await api('POST', '/cajas/1/sesiones', { monto_apertura: 100 });
    const comanda = await api<{ id_comanda: number; total: number }>('POST', '/comandas', {
      id_mesa: 1,
      items: [{ id_producto: MENU.ceviche.id, cantidad: 3 }],
    });
    await api('PUT', `/comandas/${comanda.id_comanda}`, {
      action: 'cerrar',
      pagos: [{ id_metodo_pago: 2, monto: comanda.total }],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A call of the API as `role` (the admin by default), as any client makes it. */
  async function api<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    role: keyof typeof STAFF = 'admin',
  ): Promise<T> {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        'X-Tenant-ID': server.tenant,
        Authorization: `Bearer ${tokenFor(server.tenant, STAFF[role].id)}`,
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // a creation answers 201; the RPC routes and a count's apply or discard 200
    const expected = method === 'POST' && !/\/rpc\/|\/aplicar$|\/descartar$/.test(path) ? 201 : 200;
    expect({ path, status: response.status }).toEqual({ path, status: expected });
    return (await response.json()) as T;
  }

  const saldos = async () =>
    Object.fromEntries(
      (await api<Saldo[]>('GET', '/inventario')).map((s) => [s.id_mat_prima, s]),
    ) as Record<number, Saldo>;

  const signIn = async (role: keyof typeof STAFF_PINS): Promise<Page> => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, STAFF_PINS[role]);
    return page;
  };

  const tabs = (page: Page) =>
    page.getByRole('navigation', { name: 'Pantallas' }).getByRole('link').allTextContents();

  const goTo = async (page: Page, screen: string) => {
    await page
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: screen })
      .click();
  };

  const section = async (page: Page, name: string) => {
    await page
      .getByRole('group', { name: 'Secciones de inventario' })
      .getByRole('button', { name })
      .click();
  };

  /** The cells of each body row of a table, as the user reads them (spaces collapsed). */
  const rowsOf = async (table: Locator, part = 'tbody'): Promise<string[][]> => {
    const rows: string[][] = [];
    for (const row of await table.locator(`${part} tr`).all())
      rows.push(
        (await row.locator('th, td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
      );
    return rows;
  };

  /** A balance's row as the page must show it: the API's figures, formatted. */
  const saldoRow = (s: Saldo): string[] => [
    s.activo ? s.nombre : `${s.nombre} · inactivo`,
    UNIDAD[s.unidad],
    qty(s.cantidad),
    s.stock_minimo === null ? '—' : qty(s.stock_minimo),
    costo(s.costo_promedio),
    soles(s.valor),
    [s.negativo && 'Negativo', s.bajo_minimo && 'Bajo mínimo'].filter(Boolean).join(' ') || '—',
  ];

  /** The stock's value: the balances' values added exactly (ten-thousandths), in céntimos. */
  const valorTotal = (list: Saldo[]) => {
    const sum = list.reduce((acc, s) => acc + Math.round(s.valor * 10_000), 0);
    return soles(Math.round(sum / 100) / 100);
  };

  const existencias = (page: Page) => page.getByRole('table', { name: 'Existencias' });

  it('shows every balance as the API has it, with its alerts, a filter and the stock’s value', async () => {
    admin = await signIn('admin');
    expect(await tabs(admin)).toEqual([
      'Sala',
      'Caja',
      'Reservas',
      'Historial',
      'Inventario',
      'Reportes',
      'Tablas',
      'Asistencia',
    ]);
    await goTo(admin, 'Inventario');
    const table = existencias(admin);
    await table.getByRole('row', { name: PESCADO.nombre }).waitFor();
    const all = await api<Saldo[]>('GET', '/inventario');
    expect(await rowsOf(table)).toEqual(all.map(saldoRow));
    // the chili of the recipe was never bought: below zero; the limes under their minimum
    const byId = Object.fromEntries(all.map((s) => [s.id_mat_prima, s]));
    expect(byId[AJI.id]).toMatchObject({ cantidad: -0.03, negativo: true, bajo_minimo: true });
    expect(byId[LIMON.id]).toMatchObject({ cantidad: 1.2, negativo: false, bajo_minimo: true });
    expect(byId[PESCADO.id]).toMatchObject({ cantidad: 14.4, costo_promedio: 32 });
    await table.getByRole('row', { name: AJI.nombre }).getByText('Negativo').waitFor();
    expect(await admin.getByTestId('valor-total').innerText()).toBe(valorTotal(all));
    await admin.getByText('2 con alertas').waitFor();
    expect(await rowsOf(table, 'tfoot')).toEqual([['Valor del inventario', valorTotal(all), '']]);
    await expectFitsAtEverySize(admin, 'inventario-existencias');

    // by name, whatever the case and the accents
    await admin.getByLabel('Buscar material').fill('LIMON');
    expect(await rowsOf(table)).toEqual([saldoRow(byId[LIMON.id])]);
    // the alerts only
    await admin.getByLabel('Buscar material').fill('');
    await admin.getByLabel('Solo alertas').check();
    expect(await rowsOf(table)).toEqual(
      all.filter((s) => s.negativo || s.bajo_minimo).map(saldoRow),
    );
    expect((await rowsOf(table, 'tfoot'))[0]).toEqual([
      'Valor de los 2 materiales mostrados',
      valorTotal(all.filter((s) => s.negativo || s.bajo_minimo)),
      '',
    ]);
    await admin.getByLabel('Solo alertas').uncheck();
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });

  it('opens a material’s movements: in words, paged, filtered by tipo and dates', async () => {
    await existencias(admin).getByRole('button', { name: ACEITE.nombre }).click();
    const panel = admin.getByRole('region', { name: `Movimientos de ${ACEITE.nombre}` });
    const table = panel.getByRole('table', { name: 'Movimientos' });
    await panel.getByText('22 movimientos').waitFor();
    await panel.getByText('1–20 de 22').waitFor();
    const ledger = await api<Movimiento[]>(
      'GET',
      `/inventario/movimientos?id_mat_prima=${ACEITE.id}&limit=500`,
    );
    const movRow = (m: Movimiento) => [
      when(m.fec),
      [TIPO[m.tipo], [documento(m), m.motivo, m.usuario].filter(Boolean).join(' · ')]
        .filter(Boolean)
        .join(' '),
      signed(m.cantidad),
      costo(m.costo_unitario),
      soles(m.valor),
      qty(m.saldo_cantidad),
    ];
    expect(await rowsOf(table)).toEqual(ledger.slice(0, 20).map(movRow));
    await expectFitsAtEverySize(admin, 'inventario-movimientos');
    await panel.getByRole('button', { name: 'Siguiente' }).click();
    await panel.getByText('21–22 de 22').waitFor();
    expect(await rowsOf(table)).toEqual(ledger.slice(20).map(movRow));

    // the fish: a purchase, another, the sale's consumption, in words
    await panel.getByRole('button', { name: '← Existencias' }).click();
    await existencias(admin).getByRole('button', { name: PESCADO.nombre }).click();
    const fish = admin.getByRole('region', { name: `Movimientos de ${PESCADO.nombre}` });
    const fishTable = fish.getByRole('table', { name: 'Movimientos' });
    await fish.getByText('3 movimientos').waitFor();
    const fishLedger = await api<Movimiento[]>(
      'GET',
      `/inventario/movimientos?id_mat_prima=${PESCADO.id}`,
    );
    expect(fishLedger.map((m) => m.tipo)).toEqual(['consumo_venta', 'compra', 'compra']);
    expect(await rowsOf(fishTable)).toEqual(fishLedger.map(movRow));
    expect(await fishTable.locator('.pill').allInnerTexts()).toEqual([
      'Consumo de venta',
      'Compra',
      'Compra',
    ]);
    await fish.getByLabel('Tipo').selectOption({ label: 'Compra' });
    await fish.getByText('2 movimientos').waitFor();
    await fish.getByLabel('Desde').fill(today);
    await fish.getByLabel('Hasta').fill(today);
    await fish.getByText('2 movimientos').waitFor();
    await fish.getByLabel('Hasta').fill(addDays(today, -1));
    await fish.getByText('0 movimientos').waitFor();
    await fish.getByText('Ningún movimiento con estos filtros.').waitFor();
    await fish.getByRole('button', { name: 'Quitar filtros' }).click();
    await fish.getByText('3 movimientos').waitFor();
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });

  it('records waste of a material picked by name, with its reason, and the balance drops', async () => {
    const before = (await saldos())[PESCADO.id];
    const keys: string[] = [];
    admin.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/v1/inventario/mermas'))
        keys.push(request.headers()['idempotency-key'] ?? '');
    });
    const fish = admin.getByRole('region', { name: `Movimientos de ${PESCADO.nombre}` });
    await admin.getByRole('button', { name: 'Registrar merma' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Registrar merma' });
    // the material shown is the one open; another is picked by its name
    expect(await dialog.getByLabel('Material').inputValue()).toBe(String(PESCADO.id));
    await dialog.getByLabel('Material').selectOption({ label: `${CEBOLLA.nombre} (kg)` });
    await dialog.getByLabel('Material').selectOption({ label: `${PESCADO.nombre} (kg)` });
    await dialog.getByText(`En el libro: ${qty(before.cantidad, 'kg')}`).waitFor();
    await dialog.getByLabel('Cantidad (kg)').fill('0,4');
    // the reason is required: nothing is sent without it
    await dialog.getByRole('button', { name: 'Registrar merma' }).click();
    await dialog.getByText('Indique el motivo').waitFor();
    expect(keys).toEqual([]);
    await dialog.getByLabel('Motivo').fill('se rompió la cadena de frío');
    await screenshot(admin, 'inventario-merma', { fullPage: false });
    await dialog.getByRole('button', { name: 'Registrar merma' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin
      .getByText(`Merma registrada: 0.4 kg de ${PESCADO.nombre} (se rompió la cadena de frío).`)
      .waitFor();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);

    const after = (await saldos())[PESCADO.id];
    expect(after.cantidad).toBe(14);
    expect(after.cantidad).toBeLessThan(before.cantidad);
    // the material's page shows it at once: the new balance and the movement on top
    await fish.getByText('4 movimientos').waitFor();
    const saldo = fish.getByRole('definition').first();
    expect(await saldo.innerText()).toBe(qty(after.cantidad, 'kg'));
    const [top] = await rowsOf(fish.getByRole('table', { name: 'Movimientos' }));
    expect(top.slice(1, 3)).toEqual([
      'Merma se rompió la cadena de frío · Carmen Salazar',
      signed(-0.4),
    ]);
    await fish.getByRole('button', { name: '← Existencias' }).click();
    await existencias(admin).getByRole('row', { name: PESCADO.nombre }).waitFor();
    expect((await rowsOf(existencias(admin))).find((r) => r[0] === PESCADO.nombre)).toEqual(
      saldoRow(after),
    );
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });

  it('creates a count, shows the API’s differences before applying, and applies it', async () => {
    await section(admin, 'Conteos');
    await admin.getByText('Ningún conteo todavía.', { exact: false }).waitFor();
    await admin.getByRole('button', { name: 'Nuevo conteo' }).click();
    const form = admin.getByRole('dialog', { name: 'Nuevo conteo' });
    await form.getByLabel(`Contado de ${PESCADO.nombre}`).fill('13.9');
    await form.getByLabel(`Contado de ${LIMON.nombre}`).fill('1,2');
    await form.getByLabel(`Contado de ${AJI.nombre}`).fill('0');
    await form.getByLabel('Observación').fill('cierre de semana');
    await form.getByText('3 materiales contados').waitFor();
    // the inactive salt is not offered
    expect(await form.getByLabel(`Contado de ${SAL.nombre}`).count()).toBe(0);
    await expectFitsAtEverySize(admin, 'inventario-conteo-nuevo');
    await screenshot(admin, 'inventario-conteo-nuevo-dialog', { fullPage: false });
    await form.getByRole('button', { name: 'Crear borrador' }).click();
    await form.waitFor({ state: 'detached' });

    const [{ id_conteo: id }] = await api<{ id_conteo: number }[]>('GET', '/inventario/conteos');
    idConteo = id;
    const sheet = admin.getByRole('region', { name: `Conteo N° ${id}` });
    await sheet.getByText('Borrador', { exact: true }).waitFor();
    await admin
      .getByText(`Borrador N° ${id} creado: revise las diferencias antes de aplicarlo.`)
      .waitFor();
    /** The sheet's lines and total as the page must show them: the API's figures. */
    const expectSheet = async () => {
      const c = await api<Conteo>('GET', `/inventario/conteos/${id}`);
      const lines = sheet.getByRole('table', { name: 'Líneas del conteo' });
      await lines
        .getByTestId('valor-diferencias')
        .filter({ hasText: soles(c.valor_diferencias) })
        .waitFor();
      expect(await rowsOf(lines)).toEqual(
        c.lineas.map((l) => [
          l.nombre,
          qty(l.contado, l.unidad),
          qty(l.sistema, l.unidad),
          signed(l.diferencia, l.unidad),
          costo(l.costo_promedio),
          soles(l.valor_diferencia),
        ]),
      );
      return c;
    };
    const draft = await expectSheet();
    expect(draft.lineas.find((l) => l.id_mat_prima === PESCADO.id)).toMatchObject({
      contado: 13.9,
      sistema: 14,
      diferencia: -0.1,
      valor_diferencia: -3.2,
    });
    // exactly the buttons of its acciones
    expect(draft.acciones).toEqual(['editar', 'aplicar', 'descartar']);
    expect(await sheet.getByRole('button').allInnerTexts()).toEqual([
      'Editar',
      'Descartar',
      'Aplicar conteo',
    ]);

    // a second look at the limes: 1.1, not 1.2 (PATCH)
    await sheet.getByRole('button', { name: 'Editar' }).click();
    const edit = admin.getByRole('dialog', { name: `Editar el conteo N° ${id}` });
    expect(await edit.getByLabel(`Contado de ${LIMON.nombre}`).inputValue()).toBe('1.2');
    await edit.getByLabel(`Contado de ${LIMON.nombre}`).fill('1.1');
    await edit.getByRole('button', { name: 'Guardar cambios' }).click();
    await edit.waitFor({ state: 'detached' });
    await admin.getByText(`Conteo N° ${id} modificado.`).waitFor();
    const edited = await expectSheet();
    expect(edited.lineas.find((l) => l.id_mat_prima === LIMON.id)).toMatchObject({
      contado: 1.1,
      sistema: 1.2,
      diferencia: -0.1,
    });
    await expectFitsAtEverySize(admin, 'inventario-conteo-borrador');

    // applied: the balances are what was counted, and the sheet has no button left
    await sheet.getByRole('button', { name: 'Aplicar conteo' }).click();
    const confirm = admin.getByRole('dialog', { name: `Aplicar el conteo N° ${id}` });
    await confirm.getByText(soles(edited.valor_diferencias)).waitFor();
    await confirm.getByRole('button', { name: 'Aplicar conteo' }).click();
    await confirm.waitFor({ state: 'detached' });
    await sheet.getByText('Aplicado', { exact: true }).waitFor();
    expect(await sheet.getByRole('button').count()).toBe(0);
    const applied = await expectSheet();
    expect(applied).toMatchObject({ estado: 'aplicado', acciones: [] });
    const after = await saldos();
    expect(after[PESCADO.id].cantidad).toBe(13.9);
    expect(after[LIMON.id].cantidad).toBe(1.1);
    expect(after[AJI.id]).toMatchObject({ cantidad: 0, negativo: false });
    await expectFitsAtEverySize(admin, 'inventario-conteo-aplicado');

    await section(admin, 'Existencias');
    const rows = await rowsOf(existencias(admin));
    for (const m of [PESCADO, LIMON, AJI])
      expect(rows.find((r) => r[0] === m.nombre)).toEqual(saldoRow(after[m.id]));
    expect(rows.find((r) => r[0] === PESCADO.nombre)?.[2]).toBe('13.9');
    // the fish's whole story: two purchases, the sale, the waste, the count's adjustment
    await existencias(admin).getByRole('button', { name: PESCADO.nombre }).click();
    const fish = admin.getByRole('region', { name: `Movimientos de ${PESCADO.nombre}` });
    await fish.getByText('5 movimientos').waitFor();
    expect(await fish.locator('.pill').allInnerTexts()).toEqual([
      'Ajuste de conteo',
      'Merma',
      'Consumo de venta',
      'Compra',
      'Compra',
    ]);
    await fish.getByText(`conteo N° ${id} · Carmen Salazar`).waitFor();
    await expectFitsAtEverySize(admin, 'inventario-movimientos-pescado');
    await fish.getByRole('button', { name: '← Existencias' }).click();

    // a count dated before the one applied: the closed period, said in Spanish
    await section(admin, 'Conteos');
    await admin.getByRole('button', { name: 'Nuevo conteo' }).click();
    const late = admin.getByRole('dialog', { name: 'Nuevo conteo' });
    await late.getByLabel('Corte (vacío: ahora)').fill(`${addDays(today, -1)}T12:00`);
    await late.getByLabel(`Contado de ${CEBOLLA.nombre}`).fill('4');
    await late.getByRole('button', { name: 'Crear borrador' }).click();
    await late
      .getByRole('alert')
      .getByText(
        /^El inventario está cerrado hasta el \d\d\/\d\d\/\d\d \d\d:\d\d por el último conteo aplicado: no se puede registrar nada con fecha anterior \(PERIODO_CERRADO\)$/,
      )
      .waitFor();
    await screenshot(admin, 'inventario-periodo-cerrado', { fullPage: false });
    await late.getByRole('button', { name: 'Cancelar' }).click();
    browser.expectNoErrors(admin, {
      allow: [SIGN_IN_PROBE, /status of 409.*\/api\/v1\/inventario\/conteos\b/],
    });
  });

  it('shows the consumption report with the API’s figures, since the last count and this month', async () => {
    await section(admin, 'Consumo y food cost');
    const report = admin.getByRole('region', { name: 'Consumo y food cost' });
    const period = admin.getByRole('group', { name: 'Periodo' });
    expect(await period.getByRole('button', { pressed: true }).innerText()).toBe(
      'Desde el último conteo',
    );
    /** The figures and the table on screen, against the API's report. */
    const expectReport = async (query: string) => {
      const r = await api<Consumo>('GET', `/inventario/consumo${query}`);
      const kpis = report.getByRole('definition');
      await kpis
        .first()
        .filter({ hasText: soles(r.ventas_netas) })
        .waitFor();
      expect(await kpis.allInnerTexts()).toEqual([
        soles(r.ventas_netas),
        soles(r.costo_teorico),
        soles(r.costo_real),
        pct(r.food_cost_teorico_pct),
        pct(r.food_cost_real_pct),
      ]);
      const pair = (valor: number, cantidad: number, unidad: string) =>
        `${soles(valor)} ${qty(cantidad, unidad)}`;
      expect(await rowsOf(report.getByRole('table', { name: 'Consumo por material' }))).toEqual(
        r.materiales.length === 0
          ? [['Ningún material se movió en este periodo.']]
          : r.materiales.map((m) => [
              m.nombre,
              pair(m.teorico_valor, m.teorico_cantidad, m.unidad),
              pair(m.real_valor, m.real_cantidad, m.unidad),
              pair(m.merma_valor, m.merma_cantidad, m.unidad),
              pair(m.ajuste_valor, m.ajuste_cantidad, m.unidad),
              pair(m.varianza_valor, m.varianza_cantidad, m.unidad),
            ]),
      );
      return r;
    };
    // since the count just applied: nothing moved yet
    const since = await expectReport('');
    expect(since.comandas).toBe(0);

    await period.getByRole('button', { name: 'Este mes' }).click();
    const month = await expectReport(`?desde=${today.slice(0, 7)}-01&hasta=${today}`);
    // whole days: from the first of the month to today
    const [y, m, d] = today.split('-');
    const desde = `01/${m}/${y.slice(-2)}`;
    const hasta = `${d}/${m}/${y.slice(-2)}`;
    await report
      .getByText(`${d === '01' ? `El ${desde}` : `Del ${desde} al ${hasta}`} · 1 comanda cerrada`)
      .waitFor();
    // three ceviches at S/ 38 with IGV 18 %: S/ 96.61 of net sales
    expect(month).toMatchObject({ comandas: 1, ventas_netas: 96.61 });
    const fish = month.materiales.find((m) => m.nombre === PESCADO.nombre);
    expect(fish).toMatchObject({
      teorico_cantidad: 0.6,
      merma_cantidad: 0.4,
      ajuste_cantidad: -0.1,
    });
    await expectFitsAtEverySize(admin, 'inventario-consumo');
    browser.expectNoErrors(admin, {
      allow: [SIGN_IN_PROBE, /status of 409.*\/api\/v1\/inventario\/conteos\b/],
    });
  });

  it('gives the kitchen the waste form alone: no stock, no counts', async () => {
    const cocina = await signIn('cocina');
    expect(await tabs(cocina)).toContain('Inventario');
    await goTo(cocina, 'Inventario');
    const form = cocina.getByRole('form', { name: 'Registrar merma' });
    await form.waitFor();
    expect(await cocina.getByRole('table', { name: 'Existencias' }).count()).toBe(0);
    expect(await cocina.getByRole('group', { name: 'Secciones de inventario' }).count()).toBe(0);
    expect(await cocina.getByRole('button', { name: 'Nuevo conteo' }).count()).toBe(0);
    expect(await cocina.getByRole('button', { name: /Aplicar|Descartar|Editar/ }).count()).toBe(0);
    // the materials by name, the inactive one not offered
    const options = await form.getByLabel('Material').locator('option').allInnerTexts();
    expect(options).toContain(`${LIMON.nombre} (kg)`);
    expect(options).toContain(`${ACEITE.nombre} (l)`);
    expect(options.some((o) => o.startsWith(SAL.nombre))).toBe(false);
    const before = (await saldos())[LIMON.id];
    await form.getByLabel('Material').selectOption({ label: `${LIMON.nombre} (kg)` });
    await form.getByLabel('Cantidad (kg)').fill('0.1');
    await form.getByLabel('Motivo').fill('se secaron');
    await form.getByRole('button', { name: 'Registrar merma' }).click();
    await cocina.getByText(`Merma registrada: 0.1 kg de ${LIMON.nombre} (se secaron).`).waitFor();
    const hechas = cocina.getByRole('table', { name: 'Mermas registradas' });
    expect((await rowsOf(hechas))[0].slice(1)).toEqual([LIMON.nombre, '-0.1 kg', 'se secaron']);
    // the form is ready for the next one
    expect(await form.getByLabel('Motivo').inputValue()).toBe('');
    const after = (await saldos())[LIMON.id];
    expect(after.cantidad).toBe(1);
    expect(after.cantidad).toBeLessThan(before.cantidad);
    await expectFitsAtEverySize(cocina, 'inventario-cocina');
    browser.expectNoErrors(cocina, { allow: [SIGN_IN_PROBE] });
  });

  it('lets the cashier read without a button, and gives the waiter no tab', async () => {
    // a draft of the admin's: the cashier sees it, without its buttons (its acciones are none)
    const draft = await api<Conteo>('POST', '/inventario/conteos', {
      observacion: 'revisión de bebidas',
      lineas: [{ id_mat_prima: ACEITE.id, contado: 21 }],
    });
    expect(
      (await api<Conteo>('GET', `/inventario/conteos/${draft.id_conteo}`, undefined, 'cajero'))
        .acciones,
    ).toEqual([]);
    const cajero = await signIn('cajero');
    await goTo(cajero, 'Inventario');
    await existencias(cajero).getByRole('row', { name: PESCADO.nombre }).waitFor();
    expect(await cajero.getByRole('button', { name: 'Registrar merma' }).count()).toBe(0);
    await section(cajero, 'Conteos');
    const sheet = cajero.getByRole('region', { name: `Conteo N° ${draft.id_conteo}` });
    await sheet.getByText('Borrador', { exact: true }).waitFor();
    expect(await sheet.getByRole('button').count()).toBe(0);
    expect(await cajero.getByRole('button', { name: 'Nuevo conteo' }).count()).toBe(0);
    await cajero.getByRole('button', { name: `Ver el conteo N° ${idConteo}` }).click();
    await cajero
      .getByRole('region', { name: `Conteo N° ${idConteo}` })
      .getByText('Aplicado', { exact: true })
      .waitFor();
    await expectFitsAtEverySize(cajero, 'inventario-cajero-conteos');
    browser.expectNoErrors(cajero, { allow: [SIGN_IN_PROBE] });

    const mozo = await signIn('mozo');
    expect(await tabs(mozo)).not.toContain('Inventario');
    // the screen's address leads nowhere: Sala is shown
    await mozo.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/inventario';
    });
    await mozo.getByRole('region', { name: 'Sala' }).waitFor();
    expect(await mozo.getByRole('table', { name: 'Existencias' }).count()).toBe(0);
    browser.expectNoErrors(mozo, { allow: [SIGN_IN_PROBE] });
  });

  it('is not offered when inventario is off for the tenant', async () => {
    await server.dbs.query(
      server.dbs.controlUrl,
      `UPDATE tenants SET features = features || '{"inventario": false}'::jsonb WHERE slug = $1`,
      [server.tenant],
    );
    // the catalog row is cached for TENANT_CACHE_TTL_MS
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const page = await signIn('admin');
    expect(await tabs(page)).not.toContain('Inventario');
    browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
  });
});
