import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { addDays, todayIn } from '../../src/common/time';
import { DEMO_PINS } from '../../src/database/demo/sections/credentials';
import { tokenFor } from '../support/auth';
import { SCREENSHOTS_DIR, WebBrowser } from './support/browser';
import { expectFitsAtEverySize } from './support/layout';
import { startServer, type WebServer } from './support/server';
import { SIGN_IN_PROBE, signInWithPin } from './support/sign-in';

/** The demo staff's PINs by role (DEMO_PINS is in the order of the demo's staff). */
const PIN = { admin: DEMO_PINS[0], cajero: DEMO_PINS[1], mozo: DEMO_PINS[3] };

/** How the page writes the API's figures (es-PE): S/ 1,234.50, 30.95 %, 162.5 h. */
const format = (min: number, max: number) =>
  new Intl.NumberFormat('es-PE', { minimumFractionDigits: min, maximumFractionDigits: max });
const soles = (value: number) => `S/ ${format(2, 2).format(value)}`;
const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${format(2, 2).format(value)} %`;
const horas = (value: number) => `${format(1, 2).format(value)} h`;

interface FilaVentas {
  clave: string;
  etiqueta: string;
  comandas: number;
  venta_bruta: number;
  venta_neta: number;
  food_cost?: number | null;
}

interface ReporteVentas {
  desde: string;
  hasta: string;
  filas: FilaVentas[];
  totales: Omit<FilaVentas, 'clave' | 'etiqueta'> & {
    descuentos: number;
    ticket_promedio: number | null;
  };
}

interface ReporteGastos {
  filas: { clave: string; etiqueta: string; ventas: number; gastos: number }[];
}

interface ReporteAsistencia {
  filas: { nombre: string; apellido: string | null; horas: number }[];
}

interface Rango {
  desde: string;
  hasta: string;
}

/** The page's rule for sales over time: one day by hour, up to 62 days by day, then by week. */
function agrupacionTiempo({ desde, hasta }: Rango): 'hora' | 'dia' | 'semana' {
  const days = Math.round((Date.parse(hasta) - Date.parse(desde)) / 86_400_000) + 1;
  if (days <= 1) return 'hora';
  return days <= 62 ? 'dia' : 'semana';
}

const TITULO_TIEMPO = {
  hora: 'Ventas por hora',
  dia: 'Ventas por día',
  semana: 'Ventas por semana',
};

/** ISO day of the week, 1 (Monday) … 7. */
const isoDow = (date: string) => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
};

/** What a CSV file holds: its lines, without the BOM, and whether it had one. */
const csvOf = (bytes: Buffer) => {
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  const text = bytes.subarray(bom ? 3 : 0).toString('utf8');
  return { bom, lines: text.split(/\r\n/).filter((line) => line !== '') };
};

/**
 * The Reportes screen in a real browser on the demo restaurant (a year of comandas, purchases
 * and punches; the figures are never written here: each is compared with the API's answer for
 * the same range, read with the page's own token). Every chart paints its canvas and its table
 * is the API's rows; the presets and the dates change the range; each CSV is the route's;
 * nothing is refused by the Content-Security-Policy and nothing spills out at either size.
 */
describe('the Reportes screen', () => {
  let server: WebServer;
  let browser: WebBrowser;
  let admin: Page;
  let today: string;

  beforeAll(async () => {
    server = await startServer({
      data: 'demo',
      auth: true,
      features: { reportes: true, cobros: true, inventario: true, rpc: true },
      tenantOptions: { name: 'Cevichería Demo' },
    });
    today = todayIn('America/Lima');
    await sellToday();
    browser = await WebBrowser.launch();
  });

  /**
   * One comanda paid and closed now, through the API: the demo's day opens at noon, so this
   * month has sales in the morning of its first day too.
   */
  async function sellToday(): Promise<void> {
    const [{ id }] = await server.dbs.query<{ id: number }>(
      server.dbs.tenantUrl(server.tenant),
      `SELECT min(ur.id_usuario)::int AS id FROM usua_roles ur JOIN roles r USING (id_rol)
        WHERE r.nombre = 'admin'`,
    );
    const call = async (method: string, path: string, body: object) => {
      const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
        method,
        headers: {
          'X-Tenant-ID': server.tenant,
          Authorization: `Bearer ${tokenFor(server.tenant, id)}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const till = await call('POST', '/cajas/1/sesiones', { monto_apertura: 100 });
    expect([201, 409]).toContain(till.status);
    const comanda = await call('POST', '/comandas', {
      id_mesa: 1,
      items: [{ id_producto: 1, cantidad: 1 }],
    });
    expect(comanda.status).toBe(201);
    const closed = await call('PUT', `/comandas/${String(comanda.body.id_comanda)}`, {
      action: 'cerrar',
      pagos: [{ id_metodo_pago: 2, monto: comanda.body.saldo }],
    });
    expect(closed.status).toBe(200);
  }

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = async (pin: string): Promise<Page> => {
    const page = await browser.newPage(server.baseUrl);
    await signInWithPin(page, server.tenant, pin);
    return page;
  };

  const tabs = (page: Page) =>
    page.getByRole('navigation', { name: 'Pantallas' }).getByRole('link').allTextContents();

  /** The page's own token (sessionStorage), for the test's calls of the API. */
  const tokenOf = (page: Page): Promise<string> =>
    page.evaluate(() => {
      const storage = (globalThis as unknown as { sessionStorage: { getItem(k: string): string } })
        .sessionStorage;
      return (JSON.parse(storage.getItem('comandas.session')) as { token: string }).token;
    });

  /** A report as the API answers it to the page's user. */
  const fetchReport = async (
    page: Page,
    path: string,
    query: Record<string, string>,
    accept = 'application/json',
  ): Promise<Response> => {
    const response = await fetch(
      `${server.baseUrl}/api/v1/reportes/${path}?${new URLSearchParams(query).toString()}`,
      {
        headers: {
          'X-Tenant-ID': server.tenant,
          Authorization: `Bearer ${await tokenOf(page)}`,
          Accept: accept,
        },
      },
    );
    expect({ path, query, status: response.status }).toEqual({ path, query, status: 200 });
    return response;
  };
  const report = async <T>(page: Page, path: string, query: Record<string, string>) =>
    (await (await fetchReport(page, path, query)).json()) as T;

  const card = (page: Page, id: string) => page.locator(`figure[data-chart="${id}"]`);

  /** The cells of each body row of a chart's table, as the user reads them. */
  const tableOf = async (figure: Locator): Promise<string[][]> => {
    const details = figure.locator('details.rep-datos');
    if (!(await details.evaluate((d) => (d as unknown as { open: boolean }).open)))
      await details.locator('summary').click();
    const rows: string[][] = [];
    for (const row of await figure.locator('table tbody tr').all())
      rows.push(
        (await row.locator('th, td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
      );
    await details.locator('summary').click();
    return rows;
  };

  /** How many of a chart's canvas pixels are painted (not transparent). */
  const paintedPixels = (figure: Locator): Promise<number> =>
    figure.locator('canvas').evaluate((canvas) => {
      const c = canvas as unknown as {
        width: number;
        height: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      };
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
      return painted;
    });

  /** The range the page shows in its date inputs. */
  const rangeShown = async (page: Page): Promise<Rango> => ({
    desde: await page.getByLabel('Desde').inputValue(),
    hasta: await page.getByLabel('Hasta').inputValue(),
  });

  /** Waits until no card is loading. */
  const loaded = async (page: Page) => {
    await page.locator('.rep-cargando').first().waitFor({ state: 'detached' });
    await page
      .locator('figure[data-chart] canvas, figure[data-chart] .rep-vacio')
      .first()
      .waitFor();
  };

  /** What each chart's table must hold for a range, from the API's answers. */
  const expected = async (page: Page, rango: Rango) => {
    const q = { desde: rango.desde, hasta: rango.hasta };
    const tiempo = agrupacionTiempo(rango);
    const ventas = (agrupar: string) => report<ReporteVentas>(page, 'ventas', { ...q, agrupar });
    const [porTiempo, semana, productos, mozos, metodos, meses, gastos, asistencia] =
      await Promise.all([
        ventas(tiempo),
        ventas('dia_semana_hora'),
        ventas('producto'),
        ventas('mozo'),
        ventas('metodo'),
        ventas('mes'),
        report<ReporteGastos>(page, 'gastos', q),
        report<ReporteAsistencia>(page, 'asistencia', q),
      ]);
    const brutas = (filas: FilaVentas[]) => filas.map((f) => [f.etiqueta, soles(f.venta_bruta)]);
    // the API lists products, waiters and methods by venta_bruta, highest first
    const vendidos = (filas: FilaVentas[]) => filas.filter((f) => f.venta_bruta > 0);
    /** A sales chart's rows, none when its report covers no comanda ("Sin ventas …"). */
    const sales = (r: ReporteVentas, rows: string[][]) => (r.totales.comandas > 0 ? rows : []);
    return {
      tiempo,
      totales: porTiempo.totales,
      tables: {
        tiempo: sales(porTiempo, brutas(porTiempo.filas)),
        semana: sales(semana, brutas(semana.filas)),
        productos: sales(productos, brutas(vendidos(productos.filas).slice(0, 10))),
        mozos: sales(mozos, brutas(mozos.filas.filter((f) => f.comandas > 0))),
        metodos: sales(metodos, brutas(metodos.filas.filter((f) => f.comandas > 0))),
        'food-cost': sales(
          meses,
          meses.filas.map((f) => [f.etiqueta, pct(f.food_cost)]),
        ),
        gastos: gastos.filas.some((f) => f.ventas !== 0 || f.gastos !== 0)
          ? gastos.filas.map((f) => [f.etiqueta, soles(f.ventas), soles(f.gastos)])
          : [],
        asistencia: asistencia.filas.map((f) => [
          f.apellido ? `${f.apellido}, ${f.nombre}` : f.nombre,
          horas(f.horas),
        ]),
      } as Record<string, string[][]>,
      hasSales: porTiempo.totales.comandas > 0,
    };
  };

  /** Every chart of the screen: painted, and its table equal to the API's rows. */
  const expectChartsOf = async (page: Page, rango: Rango) => {
    await loaded(page);
    const want = await expected(page, rango);
    await expect(card(page, 'tiempo').locator('h3').textContent()).resolves.toBe(
      TITULO_TIEMPO[want.tiempo],
    );
    for (const [id, rows] of Object.entries(want.tables)) {
      const figure = card(page, id);
      if (rows.length === 0) {
        await expect(figure.locator('.rep-vacio').isVisible()).resolves.toBe(true);
        continue;
      }
      expect({ id, painted: (await paintedPixels(figure)) > 500 }).toEqual({ id, painted: true });
      expect({ id, rows: await tableOf(figure) }).toEqual({ id, rows });
    }
    return want;
  };

  it('is a tab for the admin and the cashier, not for a waiter', async () => {
    admin = await signIn(PIN.admin);
    expect(await tabs(admin)).toContain('Reportes');
    const cajero = await signIn(PIN.cajero);
    expect(await tabs(cajero)).toContain('Reportes');
    const mozo = await signIn(PIN.mozo);
    expect(await tabs(mozo)).not.toContain('Reportes');
    for (const page of [cajero, mozo]) {
      browser.expectNoErrors(page, { allow: [SIGN_IN_PROBE] });
      await page.context().close();
    }
  });

  it("draws this month's charts, each table the API's rows", async () => {
    // the page's Content-Security-Policy: scripts of its own origin only, no eval
    const csp = (await fetch(`${server.baseUrl}/`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    // and what the browser refuses under it, from here on (the screen's file, its charts)
    await admin.evaluate(() => {
      const window = globalThis as unknown as {
        cspViolations: string[];
        addEventListener(
          type: string,
          listener: (event: { violatedDirective: string }) => void,
        ): void;
      };
      window.cspViolations = [];
      window.addEventListener('securitypolicyviolation', (event) =>
        window.cspViolations.push(event.violatedDirective),
      );
    });
    await admin
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: 'Reportes' })
      .click();
    await admin.getByRole('heading', { name: 'Reportes' }).waitFor();
    // the period opens on this month, in the tenant's calendar
    const mes = { desde: `${today.slice(0, 7)}-01`, hasta: today };
    await expect(rangeShown(admin)).resolves.toEqual(mes);
    await expect(
      admin.getByRole('button', { name: 'Este mes' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    const want = await expectChartsOf(admin, mes);
    // the demo sells every day: this month has sales, and the figures above are the totals
    expect(want.hasSales).toBe(true);
    const figures = (await admin.getByRole('status', { name: 'Totales del periodo' }).innerText())
      .replace(/\s+/g, ' ')
      .trim();
    expect(figures).toContain(`Venta bruta ${soles(want.totales.venta_bruta)}`);
    expect(figures).toContain(`Venta neta ${soles(want.totales.venta_neta)}`);

    await expectFitsAtEverySize(admin, 'web-reportes');
    // every table open: each fits its card, and no name (a product, a waiter, a person) takes
    // more than three lines
    for (const summary of await admin.locator('details.rep-datos > summary').all())
      await summary.click();
    await expectFitsAtEverySize(admin, 'web-reportes-datos');
    for (const width of [1024, 1280]) {
      await admin.setViewportSize({ width, height: 800 });
      const lines = await admin.locator('.rep-tabla tbody th').evaluateAll((cells) =>
        cells.map((cell) => {
          const c = cell as unknown as { offsetHeight: number; textContent: string };
          const style = (
            globalThis as unknown as {
              getComputedStyle(e: unknown): { lineHeight: string; paddingTop: string };
            }
          ).getComputedStyle(cell);
          const padding = 2 * parseFloat(style.paddingTop);
          return {
            name: c.textContent,
            lines: Math.round((c.offsetHeight - padding) / parseFloat(style.lineHeight)),
          };
        }),
      );
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((l) => Number.isFinite(l.lines) && l.lines >= 1)).toBe(true);
      expect({ width, long: lines.filter((l) => l.lines > 3) }).toEqual({ width, long: [] });
    }
    await admin.setViewportSize({ width: 1024, height: 768 });
    for (const summary of await admin.locator('details.rep-datos > summary').all())
      await summary.click();
    await expect(
      admin.evaluate(() => (globalThis as unknown as { cspViolations: string[] }).cspViolations),
    ).resolves.toEqual([]);
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });

  it('changes the range with the presets and the dates', async () => {
    // today: one day, hour by hour
    await admin.getByRole('button', { name: 'Hoy' }).click();
    await expect(rangeShown(admin)).resolves.toEqual({ desde: today, hasta: today });
    await expectChartsOf(admin, { desde: today, hasta: today });

    // this week: from its Monday
    await admin.getByRole('button', { name: 'Esta semana' }).click();
    const semana = { desde: addDays(today, 1 - isoDow(today)), hasta: today };
    await expect(rangeShown(admin)).resolves.toEqual(semana);
    await expectChartsOf(admin, semana);

    // twelve calendar months: week by week
    await admin.getByRole('button', { name: 'Últimos 12 meses' }).click();
    const [y, m] = today.split('-').map(Number);
    const first = new Date(Date.UTC(y, m - 1 - 11, 1)).toISOString().slice(0, 10);
    const doce = { desde: first, hasta: today };
    await expect(rangeShown(admin)).resolves.toEqual(doce);
    const want = await expectChartsOf(admin, doce);
    expect(want.tiempo).toBe('semana');
    await expectFitsAtEverySize(admin, 'web-reportes-12-meses');
    // each chart alone, at the office size
    await admin.setViewportSize({ width: 1280, height: 800 });
    for (const id of Object.keys(want.tables)) {
      await card(admin, id).scrollIntoViewIfNeeded();
      await card(admin, id).screenshot({ path: join(SCREENSHOTS_DIR, `web-reportes-${id}.png`) });
    }
    await admin.setViewportSize({ width: 1024, height: 768 });

    // two dates typed: no preset pressed
    const otro = { desde: addDays(today, -20), hasta: addDays(today, -6) };
    await admin.getByLabel('Desde').fill(otro.desde);
    await admin.getByLabel('Hasta').fill(otro.hasta);
    await admin.getByRole('button', { name: 'Ver', exact: true }).click();
    await expectChartsOf(admin, otro);
    await expect(
      admin.getByRole('group', { name: 'Periodo' }).locator('[aria-pressed="true"]').count(),
    ).resolves.toBe(0);

    // dates the wrong way round are said, and not asked
    await admin.getByLabel('Desde').fill(addDays(today, -1));
    await admin.getByLabel('Hasta').fill(addDays(today, -3));
    await admin.getByText('La fecha desde es posterior a la fecha hasta').waitFor();
    await expect(
      admin.getByRole('button', { name: 'Ver', exact: true }).isDisabled(),
    ).resolves.toBe(true);
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });

  it('says there were no sales instead of drawing empty charts', async () => {
    // a month long before the demo's year of data
    const vacio = { desde: '2020-01-01', hasta: '2020-01-31' };
    await admin.getByLabel('Desde').fill(vacio.desde);
    await admin.getByLabel('Hasta').fill(vacio.hasta);
    await admin.getByRole('button', { name: 'Ver', exact: true }).click();
    await loaded(admin);
    for (const id of ['tiempo', 'semana', 'productos', 'mozos', 'metodos', 'food-cost'])
      await expect(card(admin, id).locator('.rep-vacio').innerText()).resolves.toBe(
        'Sin ventas en este periodo',
      );
    await expect(card(admin, 'tiempo').locator('canvas').count()).resolves.toBe(0);
    await expectFitsAtEverySize(admin, 'web-reportes-vacio');
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });

  it("downloads each chart's CSV, the route's rows with their BOM", async () => {
    await admin.getByRole('button', { name: 'Este mes' }).click();
    await loaded(admin);
    const q = { desde: `${today.slice(0, 7)}-01`, hasta: today };
    const tiempo = agrupacionTiempo(q);
    const routes: Record<string, [string, Record<string, string>]> = {
      tiempo: ['ventas', { ...q, agrupar: tiempo }],
      semana: ['ventas', { ...q, agrupar: 'dia_semana_hora' }],
      productos: ['ventas', { ...q, agrupar: 'producto' }],
      mozos: ['ventas', { ...q, agrupar: 'mozo' }],
      metodos: ['ventas', { ...q, agrupar: 'metodo' }],
      'food-cost': ['ventas', { ...q, agrupar: 'mes' }],
      gastos: ['gastos', q],
      asistencia: ['asistencia', q],
    };
    for (const [id, [path, query]] of Object.entries(routes)) {
      const figure = card(admin, id);
      const [download] = await Promise.all([
        admin.waitForEvent('download'),
        figure.getByRole('button', { name: /^Descargar CSV/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(
        `reporte-${path === 'ventas' ? `ventas-${query.agrupar}` : path}_${q.desde}_${q.hasta}.csv`,
      );
      const saved = csvOf(await readFile(await download.path()));
      const api = csvOf(
        Buffer.from(await (await fetchReport(admin, path, query, 'text/csv')).arrayBuffer()),
      );
      const json = await report<{ filas: unknown[] }>(admin, path, query);
      expect({ id, bom: saved.bom }).toEqual({ id, bom: true });
      expect({ id, lines: saved.lines }).toEqual({ id, lines: api.lines });
      // a header and a line per row of the JSON answer
      expect({ id, rows: saved.lines.length - 1 }).toEqual({ id, rows: json.filas.length });
    }
    browser.expectNoErrors(admin, { allow: [SIGN_IN_PROBE] });
  });
});
