import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { SseClient } from '../support/sse-client';
import { startTestApp, type TestApp } from '../support/test-app';

/** Added to the small menu: Bebidas (chicha) goes to a Bar station; a dessert of course 2. */
const SUSPIRO = 5;
const COCINA = 1; // the station every tenant starts with
const BAR = 2;

interface Envio {
  id_envio: number;
  id_comanda: number;
  id_estacion: number;
  curso: number;
  tipo: string;
  estado: string;
  lineas: {
    id_item: number;
    id_producto: number;
    cantidad: number;
    estado_cocina: string | null;
  }[];
  acciones: string[];
}

async function seedKitchen(t: TestApp, slug: string): Promise<TenantApi> {
  await seedMenu(t.dbs, slug);
  await t.dbs.query(
    t.dbs.tenantUrl(slug),
    `INSERT INTO categorias (nombre) VALUES ('Bebidas');
     INSERT INTO categorias (nombre, curso_defecto) VALUES ('Postres', 2);
     UPDATE productos SET id_categoria = 2 WHERE id_producto = 3;
     INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES ('Suspiro', 12, 3, true);`,
  );
  const api = tenantApi(t.http, slug);
  await api.post('/cocina/estaciones', { nombre: 'Bar' }).expect(201);
  await api.put(`/cocina/estaciones/${BAR}/categorias`, { categorias: [2] }).expect(200);
  return api;
}

describe('cocina: sends as deltas, courses, stations, cancellations, bump and recall', () => {
  let t: TestApp;
  let api: TenantApi;
  const db = () => t.dbs.tenantUrl('casa');
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    t.dbs.query<T>(db(), text, params);

  /** The lines whose kitchen quantity is not their quantity (fired courses; voided: 0). */
  async function unconserved(): Promise<unknown[]> {
    return sql(`
      SELECT d.id_deta_comanda AS id FROM deta_comandas d
        JOIN cursos_disparados c ON c.id_comanda = d.id_comanda AND c.curso = d.curso
       WHERE d.cantidad <> coalesce((SELECT sum(l.cantidad) FROM envio_lineas l
                                      WHERE l.id_item = d.id_deta_comanda), 0)
      UNION ALL
      SELECT l.id_item FROM envio_lineas l
       WHERE NOT EXISTS (SELECT 1 FROM deta_comandas d WHERE d.id_deta_comanda = l.id_item)
       GROUP BY l.id_item HAVING sum(l.cantidad) <> 0`);
  }
  const ticketCount = async () =>
    Number((await sql<{ n: string }>('SELECT count(*) AS n FROM envios_cocina'))[0].n);

  async function open(items: object[]) {
    const res = await api.post('/comandas', { id_mesa: 1, items }).expect(201);
    return res.body as { id_comanda: number; version: number; lineas: { id_item: number }[] };
  }

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COCINA: 'true', FEATURE_INVENTARIO: 'false' });
    await t.app.listen(0, '127.0.0.1');
    await t.dbs.createTenant('casa');
    await t.dbs.createTenant('otra');
    api = await seedKitchen(t, 'casa');
    await seedKitchen(t, 'otra');
  });
  afterAll(() => t.close());

  it('sends deltas: nuevo, nothing new, adicional, cancellations at once, courses held until fired', async () => {
    const c = await open([
      { id_producto: MENU.ceviche.id, cantidad: 2 },
      { id_producto: MENU.chicha.id, cantidad: 1 },
      { id_producto: SUSPIRO, cantidad: 1 },
    ]);
    const [ceviche, chicha, suspiro] = c.lineas.map((l) => l.id_item);
    const detail = (await api.get(`/comandas/${c.id_comanda}`).expect(200)).body;
    expect(
      detail.lineas.map((l: { curso: number; estado_cocina: string }) => [
        l.curso,
        l.estado_cocina,
      ]),
    ).toEqual([
      [1, 'pendiente'],
      [1, 'pendiente'],
      [2, 'pendiente'],
    ]);

    // the first send: course 1, routed by category (Bar) and the fallback (Cocina)
    const sent = await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200);
    expect(sent.body.version).toBe(c.version + 1);
    const envios = sent.body.envios as Envio[];
    expect(
      envios.map((e) => [
        e.id_estacion,
        e.curso,
        e.tipo,
        e.lineas.map((l) => [l.id_item, l.cantidad]),
      ]),
    ).toEqual([
      [COCINA, 1, 'nuevo', [[ceviche, 2]]],
      [BAR, 1, 'nuevo', [[chicha, 1]]],
    ]);
    expect(envios[0].acciones).toEqual(['preparar', 'listo']);
    expect(await unconserved()).toEqual([]);

    // nothing new: no ticket, no version, no audit entry
    const events = (await api.get(`/comandas/${c.id_comanda}/eventos`)).body.length;
    const again = await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200);
    expect(again.body).toEqual({ envios: [], version: c.version + 1 });
    expect((await api.get(`/comandas/${c.id_comanda}/eventos`)).body).toHaveLength(events);

    // more of a sent line: adicional
    await api.patch(`/comandas/${c.id_comanda}/items/${ceviche}`, { cantidad: 3 }).expect(200);
    const more = (await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    expect(more.map((e) => [e.id_estacion, e.tipo, e.lineas[0].cantidad])).toEqual([
      [COCINA, 'adicional', 1],
    ]);
    expect(await unconserved()).toEqual([]);

    // less than was sent: the cancellation is written at once, to the station it went to
    const before = await ticketCount();
    await api.patch(`/comandas/${c.id_comanda}/items/${ceviche}`, { cantidad: 1 }).expect(200);
    expect(await ticketCount()).toBe(before + 1);
    const [anulacion] = await sql<{ id_estacion: number; tipo: string; cantidad: string }>(
      `SELECT t.id_estacion, t.tipo, l.cantidad FROM envios_cocina t JOIN envio_lineas l USING (id_envio)
        ORDER BY t.id_envio DESC LIMIT 1`,
    );
    expect(anulacion).toEqual({ id_estacion: COCINA, tipo: 'anulacion', cantidad: '-2.000' });
    expect(await unconserved()).toEqual([]);

    // a voided sent line: cancelled to the Bar, its sum is 0
    await api.delete(`/comandas/${c.id_comanda}/items/${chicha}`).expect(200);
    const [bar] = await sql<{ id_estacion: number; tipo: string; cantidad: string }>(
      `SELECT t.id_estacion, t.tipo, l.cantidad FROM envios_cocina t JOIN envio_lineas l USING (id_envio)
        WHERE l.id_item = $1 ORDER BY t.id_envio DESC LIMIT 1`,
      [chicha],
    );
    expect(bar).toEqual({ id_estacion: BAR, tipo: 'anulacion', cantidad: '-1.000' });
    expect(await unconserved()).toEqual([]);
    const quitar = (await api.get(`/comandas/${c.id_comanda}/eventos`)).body.at(-1);
    expect(quitar).toMatchObject({ accion: 'quitar_item', despues: { estaciones: [BAR] } });

    // course 2 was held; firing it sends it; firing it again is 409
    expect(await sql('SELECT 1 FROM envio_lineas WHERE id_item = $1', [suspiro])).toEqual([]);
    const fired = (await api.post(`/comandas/${c.id_comanda}/cursos/2/disparar`).expect(200)).body;
    expect(fired.envios.map((e: Envio) => [e.curso, e.tipo, e.lineas[0].id_item])).toEqual([
      [2, 'nuevo', suspiro],
    ]);
    expect(fired.envios[0].fec_disparo).toEqual(expect.any(String));
    const twice = await api.post(`/comandas/${c.id_comanda}/cursos/2/disparar`).expect(409);
    expect(twice.body.code).toBe('CURSO_YA_DISPARADO');
    expect(await unconserved()).toEqual([]);

    const acciones = (await api.get(`/comandas/${c.id_comanda}/eventos`)).body.map(
      (e: { accion: string }) => e.accion,
    );
    expect(acciones).toEqual([
      'crear',
      'enviar',
      'modificar_item',
      'enviar',
      'modificar_item',
      'quitar_item',
      'disparar',
    ]);
  });

  it('a line added with a curso keeps it; an unfired course is not sent', async () => {
    const c = await open([{ id_producto: MENU.lomo.id, cantidad: 1, curso: 3 }]);
    expect((await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200)).body.envios).toEqual(
      [],
    );
    const bad = await api.post(`/comandas/${c.id_comanda}/items`, {
      id_producto: 1,
      cantidad: 1,
      curso: 10,
    });
    expect(bad.status).toBe(400);
  });

  it('bump, recall and serve follow the line states; anything else is 409', async () => {
    const c = await open([
      { id_producto: MENU.ceviche.id, cantidad: 1 },
      { id_producto: MENU.lomo.id, cantidad: 1 },
    ]);
    const [ceviche] = c.lineas.map((l) => l.id_item);
    const [envio] = (await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];

    const early = await api.post(`/comandas/${c.id_comanda}/items/${ceviche}/entregar`).expect(409);
    expect(early.body).toMatchObject({
      code: 'ESTADO_COCINA_INVALIDO',
      detail: { estado: 'enviado', pedido: 'entregado' },
    });

    const started = (await api.post(`/cocina/envios/${envio.id_envio}/preparar`).expect(200))
      .body as Envio;
    expect(started).toMatchObject({ estado: 'en_preparacion', acciones: ['listo'] });
    expect(started.lineas.map((l) => l.estado_cocina)).toEqual([
      'en_preparacion',
      'en_preparacion',
    ]);
    expect(
      (await api.post(`/cocina/envios/${envio.id_envio}/preparar`).expect(409)).body.code,
    ).toBe('ESTADO_COCINA_INVALIDO');

    const bumped = (await api.post(`/cocina/envios/${envio.id_envio}/listo`).expect(200))
      .body as Envio;
    expect(bumped).toMatchObject({ estado: 'listo', acciones: ['recuperar'] });
    expect(bumped.lineas.map((l) => l.estado_cocina)).toEqual(['listo', 'listo']);

    // recall: pending again, its lines back to enviado
    const recalled = (await api.post(`/cocina/envios/${envio.id_envio}/recuperar`).expect(200))
      .body as Envio;
    expect(recalled.estado).toBe('pendiente');
    expect(recalled.lineas.map((l) => l.estado_cocina)).toEqual(['enviado', 'enviado']);
    await api.post(`/cocina/envios/${envio.id_envio}/listo`).expect(200);

    const served = await api
      .post(`/comandas/${c.id_comanda}/items/${ceviche}/entregar`)
      .expect(200);
    expect(served.body.lineas[0]).toMatchObject({
      estado_cocina: 'entregado',
      fec_entregado: expect.any(String),
    });
    await api.post(`/comandas/${c.id_comanda}/items/${ceviche}/entregar`).expect(409);
    const late = await api.post(`/cocina/envios/${envio.id_envio}/recuperar`).expect(409);
    expect(late.body).toMatchObject({
      code: 'ESTADO_COCINA_INVALIDO',
      detail: { id_item: ceviche, estado: 'entregado' },
    });

    // an adicional takes a listo line back to enviado
    const lomo = c.lineas[1].id_item;
    await api.patch(`/comandas/${c.id_comanda}/items/${lomo}`, { cantidad: 2 }).expect(200);
    await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200);
    const [line] = await sql('SELECT estado_cocina FROM deta_comandas WHERE id_deta_comanda = $1', [
      lomo,
    ]);
    expect(line).toEqual({ estado_cocina: 'enviado' });

    const audit = (await api.get(`/comandas/${c.id_comanda}/eventos`)).body;
    expect(audit.find((e: { accion: string }) => e.accion === 'listo').despues).toMatchObject({
      envios: [envio.id_envio],
      estado: 'listo',
      estaciones: [COCINA],
    });
  });

  it('split, merge and transfer create no ticket and keep the kitchen state and conservation', async () => {
    const a = await open([
      { id_producto: MENU.ceviche.id, cantidad: 3 },
      { id_producto: MENU.lomo.id, cantidad: 1 },
    ]);
    const b = await open([{ id_producto: MENU.ceviche.id, cantidad: 1 }]);
    await api.post(`/comandas/${a.id_comanda}/enviar`).expect(200);
    const [deB] = (await api.post(`/comandas/${b.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    const tickets = await ticketCount();

    const split = await api
      .post(`/comandas/${a.id_comanda}/split`, {
        lineas: [{ id_item: a.lineas[0].id_item, cantidad: 1 }],
        id_mesa: 2,
      })
      .expect(201);
    const part = split.body.nueva.lineas[0];
    expect(part).toMatchObject({
      cantidad: 1,
      curso: 1,
      estado_cocina: 'enviado',
      fec_enviado: expect.any(String),
    });
    expect(await ticketCount()).toBe(tickets);
    expect(await unconserved()).toEqual([]);
    const [sums] = await sql<{ origen: string; parte: string }>(
      `SELECT (SELECT sum(cantidad) FROM envio_lineas WHERE id_item = $1) AS origen,
              (SELECT sum(cantidad) FROM envio_lineas WHERE id_item = $2) AS parte`,
      [a.lineas[0].id_item, part.id_item],
    );
    expect(sums).toEqual({ origen: '2.000', parte: '1.000' });

    await api.post(`/comandas/${a.id_comanda}/merge`, { comandas: [b.id_comanda] }).expect(200);
    await api.put(`/comandas/${a.id_comanda}`, { id_mesa: 3 }).expect(200);
    expect(await ticketCount()).toBe(tickets);
    // a merged comanda's ticket follows its lines: it belongs to the target now, at its table
    const moved = (await api.post(`/cocina/envios/${deB.id_envio}/preparar`).expect(200))
      .body as Envio & { mesa: number };
    expect(moved).toMatchObject({ id_comanda: a.id_comanda, mesa: 3, estado: 'en_preparacion' });
    expect(await unconserved()).toEqual([]);
    // nothing new after all that
    expect((await api.post(`/comandas/${a.id_comanda}/enviar`).expect(200)).body.envios).toEqual(
      [],
    );
  });

  it('a ticket split over two comandas moves as a change of both: versions and audit entries', async () => {
    const a = await open([{ id_producto: MENU.ceviche.id, cantidad: 2 }]);
    const [envio] = (await api.post(`/comandas/${a.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    const split = await api
      .post(`/comandas/${a.id_comanda}/split`, {
        lineas: [{ id_item: a.lineas[0].id_item, cantidad: 1 }],
      })
      .expect(201);
    const nueva = split.body.nueva as { id_comanda: number; version: number };
    const before = (await api.get(`/comandas/${a.id_comanda}`).expect(200)).body.version;

    await api.post(`/cocina/envios/${envio.id_envio}/listo`).expect(200);

    const [origen, parte] = await Promise.all(
      [a.id_comanda, nueva.id_comanda].map(
        async (id) => (await api.get(`/comandas/${id}`).expect(200)).body,
      ),
    );
    expect(origen.version).toBe(before + 1);
    expect(parte.version).toBe(nueva.version + 1);
    expect(origen.lineas[0].estado_cocina).toBe('listo');
    expect(parte.lineas[0].estado_cocina).toBe('listo');
    for (const [id, linea] of [
      [a.id_comanda, origen.lineas[0].id_item],
      [nueva.id_comanda, parte.lineas[0].id_item],
    ]) {
      const events = (await api.get(`/comandas/${id}/eventos`).expect(200)).body as {
        accion: string;
        despues: { envios: number[]; lineas: number[] };
      }[];
      expect(events.at(-1)).toMatchObject({
        accion: 'listo',
        despues: { envios: [envio.id_envio], lineas: [linea] },
      });
    }
    // and back, the same way
    await api.post(`/cocina/envios/${envio.id_envio}/recuperar`).expect(200);
    expect((await api.get(`/comandas/${nueva.id_comanda}`).expect(200)).body.version).toBe(
      nueva.version + 2,
    );
  });

  it('deleting an abierta comanda cancels what it sent', async () => {
    const c = await open([
      { id_producto: MENU.ceviche.id, cantidad: 2 },
      { id_producto: MENU.chicha.id, cantidad: 2 },
    ]);
    await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200);
    await api.delete(`/comandas/${c.id_comanda}`).expect(200);
    const rows = await sql<{ id_estacion: number; cantidad: string }>(
      `SELECT t.id_estacion, l.cantidad FROM envios_cocina t JOIN envio_lineas l USING (id_envio)
        WHERE t.id_comanda = $1 AND t.tipo = 'anulacion' ORDER BY t.id_estacion`,
      [c.id_comanda],
    );
    expect(rows).toEqual([
      { id_estacion: COCINA, cantidad: '-2.000' },
      { id_estacion: BAR, cantidad: '-2.000' },
    ]);
    // the kitchen clears a deleted comanda's cancellation
    const [id] = await sql<{ id_envio: string }>(
      "SELECT id_envio FROM envios_cocina WHERE id_comanda = $1 AND tipo = 'anulacion' LIMIT 1",
      [c.id_comanda],
    );
    await api.post(`/cocina/envios/${id.id_envio}/listo`).expect(200);
    await api.post(`/cocina/envios/${id.id_envio}/preparar`).expect(409);
  });

  it('a station sees its tickets, an expo station every station’s', async () => {
    const expo = (
      await api.post('/cocina/estaciones', { nombre: 'Pase', tipo: 'expo' }).expect(201)
    ).body;
    const all = await api
      .get(`/cocina/envios?estado=todos&estacion=${expo.id_estacion}`)
      .expect(200);
    const bar = await api.get(`/cocina/envios?estado=todos&estacion=${BAR}`).expect(200);
    expect(Number(all.headers['x-total-count'])).toBe(await ticketCount());
    expect(bar.body.every((e: Envio) => e.id_estacion === BAR)).toBe(true);
    expect(bar.body.length).toBeGreaterThan(0);
    expect(Number(bar.headers['x-total-count'])).toBeLessThan(Number(all.headers['x-total-count']));
    await api.get('/cocina/envios?estacion=999').expect(404);
    const patched = await api.patch(`/cocina/estaciones/${expo.id_estacion}`, {
      alerta_amarilla_min: 20,
    });
    expect(patched.status).toBe(400); // roja (15) must stay above amarilla
    await api.patch(`/cocina/estaciones/${expo.id_estacion}`, { activo: false }).expect(200);
    expect(
      (await api.get('/cocina/estaciones').expect(200)).body.map(
        (e: { nombre: string }) => e.nombre,
      ),
    ).toEqual(['Cocina', 'Bar', 'Pase']);
  });

  it('a retried send with its Idempotency-Key answers again; a stale If-Match is 412', async () => {
    const c = await open([{ id_producto: MENU.lomo.id, cantidad: 1 }]);
    const first = await api
      .post(`/comandas/${c.id_comanda}/enviar`)
      .set('Idempotency-Key', 'k-enviar-1')
      .expect(200);
    const again = await api
      .post(`/comandas/${c.id_comanda}/enviar`)
      .set('Idempotency-Key', 'k-enviar-1')
      .expect(200);
    expect(again.body).toEqual(first.body);
    expect(
      await sql('SELECT 1 FROM envios_cocina WHERE id_comanda = $1', [c.id_comanda]),
    ).toHaveLength(1);
    await api
      .patch(`/comandas/${c.id_comanda}/items/${c.lineas[0].id_item}`, { cantidad: 2 })
      .expect(200);
    await api
      .post(`/comandas/${c.id_comanda}/enviar`)
      .set('If-Match', `"${c.version}"`)
      .expect(412);
  });

  it('the stream delivers a send to its station and not to another; Last-Event-ID resumes', async () => {
    const toBar = await SseClient.open(t.http, `/api/v1/cocina/stream?estacion=${BAR}`, {
      'X-Tenant-ID': 'casa',
    });
    const toCocina = await SseClient.open(t.http, `/api/v1/cocina/stream?estacion=${COCINA}`, {
      'X-Tenant-ID': 'casa',
    });
    try {
      expect(toBar.status).toBe(200);
      const drinks = await open([{ id_producto: MENU.chicha.id, cantidad: 1 }]);
      await api.post(`/comandas/${drinks.id_comanda}/enviar`).expect(200);
      const food = await open([{ id_producto: MENU.lomo.id, cantidad: 1 }]);
      const sent = (await api.post(`/comandas/${food.id_comanda}/enviar`).expect(200)).body;
      const cocina = () =>
        toCocina.events.filter((e) => e.event === 'cocina').map((e) => JSON.parse(e.data));
      const bar = () =>
        toBar.events.filter((e) => e.event === 'cocina').map((e) => JSON.parse(e.data));
      await toCocina.until(() => cocina().some((e) => e.id_comanda === food.id_comanda));
      await toBar.until(() => bar().some((e) => e.id_comanda === drinks.id_comanda));
      expect(cocina().map((e) => e.id_comanda)).toEqual([food.id_comanda]);
      expect(cocina()[0]).toMatchObject({
        accion: 'enviar',
        envios: sent.envios.map((e: Envio) => e.id_envio),
      });
      expect(bar().map((e) => e.id_comanda)).toEqual([drinks.id_comanda]);
      // a floor change of a comanda with tickets here reaches this station only
      await api.put(`/comandas/${food.id_comanda}`, { id_mesa: 2 }).expect(200);
      await toCocina.until(() => cocina().some((e) => e.accion === 'transferir'));
      expect(cocina().map((e) => [e.id_comanda, e.accion])).toEqual([
        [food.id_comanda, 'enviar'],
        [food.id_comanda, 'transferir'],
      ]);
      expect(cocina()[1]).toMatchObject({ comanda: { id_mesa: 2 }, envios: [] });

      const firstId = toBar.events.find((e) => e.event === 'cocina')!.id!;
      const resumed = await SseClient.open(t.http, `/api/v1/cocina/stream?estacion=${COCINA}`, {
        'X-Tenant-ID': 'casa',
        'Last-Event-ID': String(Number(firstId) - 1),
      });
      try {
        // the replay from the audit trail: this station's events since, the Bar's left out
        const replayed = () =>
          resumed.events
            .filter((e) => e.event === 'cocina')
            .map((e) => JSON.parse(e.data) as { id_comanda: number; accion: string });
        await resumed.until(() => replayed().length === 2);
        expect(replayed().map((e) => [e.id_comanda, e.accion])).toEqual([
          [food.id_comanda, 'enviar'],
          [food.id_comanda, 'transferir'],
        ]);
      } finally {
        resumed.close();
      }
    } finally {
      toBar.close();
      toCocina.close();
    }
  });

  it('routes by the category’s active station, else the first active one; none: 409 SIN_ESTACION', async () => {
    const parrilla = (await api.post('/cocina/estaciones', { nombre: 'Parrilla' }).expect(201))
      .body as { id_estacion: number };
    await api.put(`/cocina/estaciones/${BAR}/categorias`, { categorias: [2, 1] }).expect(200);
    // a category listed for another station moves there
    const moved = await api
      .put(`/cocina/estaciones/${parrilla.id_estacion}/categorias`, { categorias: [1] })
      .expect(200);
    expect(moved.body.categorias).toEqual([1]);
    const estaciones = (await api.get('/cocina/estaciones').expect(200)).body as {
      id_estacion: number;
      categorias: number[];
    }[];
    expect(estaciones.find((e) => e.id_estacion === BAR)!.categorias).toEqual([2]);
    const bad = await api.put(`/cocina/estaciones/${BAR}/categorias`, { categorias: [99] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'CATEGORIA_NOT_FOUND', detail: { id_categoria: [99] } });

    const first = await open([{ id_producto: MENU.ceviche.id, cantidad: 1 }]);
    const [toParrilla] = (await api.post(`/comandas/${first.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    expect(toParrilla.id_estacion).toBe(parrilla.id_estacion);

    // its station inactive: the first active preparation station
    await api.patch(`/cocina/estaciones/${parrilla.id_estacion}`, { activo: false }).expect(200);
    const second = await open([{ id_producto: MENU.ceviche.id, cantidad: 1 }]);
    const [fallback] = (await api.post(`/comandas/${second.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    expect(fallback.id_estacion).toBe(COCINA);

    // no active preparation station at all: nothing is written
    await api.patch(`/cocina/estaciones/${COCINA}`, { activo: false }).expect(200);
    await api.patch(`/cocina/estaciones/${BAR}`, { activo: false }).expect(200);
    try {
      const third = await open([{ id_producto: MENU.ceviche.id, cantidad: 1 }]);
      const refused = await api.post(`/comandas/${third.id_comanda}/enviar`).expect(409);
      expect(refused.body.code).toBe('SIN_ESTACION');
      expect(
        await sql('SELECT 1 FROM envios_cocina WHERE id_comanda = $1', [third.id_comanda]),
      ).toEqual([]);
      expect((await api.get(`/comandas/${third.id_comanda}`)).body.version).toBe(third.version);
    } finally {
      await api.patch(`/cocina/estaciones/${COCINA}`, { activo: true }).expect(200);
      await api.patch(`/cocina/estaciones/${BAR}`, { activo: true }).expect(200);
      await api
        .put(`/cocina/estaciones/${parrilla.id_estacion}/categorias`, { categorias: [] })
        .expect(200);
    }
  });

  it('tenant B cannot see or move tenant A’s tickets', async () => {
    const c = await open([{ id_producto: MENU.ceviche.id, cantidad: 1 }]);
    const [envio] = (await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    const otra = tenantApi(t.http, 'otra');
    expect((await otra.get('/cocina/envios?estado=todos').expect(200)).body).toEqual([]);
    expect((await otra.post(`/cocina/envios/${envio.id_envio}/listo`).expect(404)).body.code).toBe(
      'ENVIO_NOT_FOUND',
    );
    await otra.post(`/comandas/${c.id_comanda}/enviar`).expect(404);
    const [row] = await sql('SELECT estado FROM envios_cocina WHERE id_envio = $1', [
      envio.id_envio,
    ]);
    expect(row).toEqual({ estado: 'pendiente' });
  });
});

describe('cocina with inventario on: a cancellation of what was sent is waste', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COCINA: 'true', FEATURE_INVENTARIO: 'true' });
    await t.dbs.createTenant('stock');
    await seedMenu(t.dbs, 'stock');
    await t.dbs.query(
      t.dbs.tenantUrl('stock'),
      `INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg'), ('Limón', 'kg');
       INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad) VALUES (1, 1, 0.2), (1, 2, 0.05);`,
    );
  });
  afterAll(() => t.close());

  it('records the recipe × the quantity cancelled as mermas, naming the comanda', async () => {
    const api = tenantApi(t.http, 'stock');
    const c = (
      await api.post('/comandas', { items: [{ id_producto: 1, cantidad: 3 }] }).expect(201)
    ).body;
    const id = c.lineas[0].id_item;
    // a line never sent is no waste
    await api.patch(`/comandas/${c.id_comanda}/items/${id}`, { cantidad: 4 }).expect(200);
    await api.patch(`/comandas/${c.id_comanda}/items/${id}`, { cantidad: 3 }).expect(200);
    expect(await t.dbs.query(t.dbs.tenantUrl('stock'), 'SELECT 1 FROM mermas')).toEqual([]);
    await api.post(`/comandas/${c.id_comanda}/enviar`).expect(200);
    await api.delete(`/comandas/${c.id_comanda}/items/${id}`).expect(200);
    const mermas = await t.dbs.query(
      t.dbs.tenantUrl('stock'),
      `SELECT m.id_mat_prima, m.cantidad, m.motivo, s.cantidad AS stock
         FROM mermas m JOIN stock_saldos s USING (id_mat_prima) ORDER BY m.id_mat_prima`,
    );
    expect(mermas).toEqual([
      {
        id_mat_prima: 1,
        cantidad: '0.6000',
        motivo: `anulado en cocina: comanda ${c.numero_ticket}`,
        stock: '-0.6000',
      },
      {
        id_mat_prima: 2,
        cantidad: '0.1500',
        motivo: `anulado en cocina: comanda ${c.numero_ticket}`,
        stock: '-0.1500',
      },
    ]);
  });
});

describe('cocina switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COCINA: 'false' });
    await t.dbs.createTenant('casa');
    await seedMenu(t.dbs, 'casa');
  });
  afterAll(() => t.close());

  it('its routes are 404 like unknown ones, curso is an unknown field, the detail is unchanged', async () => {
    const api = tenantApi(t.http, 'casa');
    const c = (
      await api.post('/comandas', { items: [{ id_producto: 1, cantidad: 1 }] }).expect(201)
    ).body;
    expect(Object.keys(c.lineas[0])).not.toContain('curso');
    expect(c.acciones).not.toContain('enviar');
    const unknown = await api.get('/nada').expect(404);
    for (const res of [
      await api.post(`/comandas/${c.id_comanda}/enviar`),
      await api.get('/cocina/estaciones'),
      await api.get('/cocina/envios'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(unknown.body.code);
    }
    const refused = await api
      .post(`/comandas/${c.id_comanda}/items`, { id_producto: 1, cantidad: 1, curso: 2 })
      .expect(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: ['property curso should not exist'],
    });
    const created = await api
      .post('/comandas', { items: [{ id_producto: 1, cantidad: 1, curso: 2 }] })
      .expect(400);
    expect(created.body.detail).toEqual(['items.0.property curso should not exist']);
  });
});

describe('cocina with AUTH_MODE=jwt: the floor sends and serves, the kitchen bumps', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      FEATURE_COCINA: 'true',
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
    });
    await t.dbs.createTenant('roles');
    await seedMenu(t.dbs, 'roles');
    await seedStaff(t.dbs, 'roles');
  });
  afterAll(() => t.close());
  const as = (who: keyof typeof STAFF) =>
    authedApi(t.http, 'roles', tokenFor('roles', STAFF[who].id));

  it('each role does what the matrix gives it', async () => {
    const c = (
      await as('mozo')
        .post('/comandas', { items: [{ id_producto: 1, cantidad: 1 }] })
        .expect(201)
    ).body;
    expect(c.acciones).toContain('enviar');
    await as('cocina').post(`/comandas/${c.id_comanda}/enviar`).expect(403);
    const [envio] = (await as('mozo').post(`/comandas/${c.id_comanda}/enviar`).expect(200)).body
      .envios as Envio[];
    expect(envio.acciones).toEqual([]);
    await as('mozo').post(`/cocina/envios/${envio.id_envio}/listo`).expect(403);
    const seen = (await as('cocina').get('/cocina/envios').expect(200)).body as Envio[];
    expect(seen[0].acciones).toEqual(['preparar', 'listo']);
    await as('cocina').post(`/cocina/envios/${envio.id_envio}/listo`).expect(200);
    await as('cocina').post('/cocina/estaciones', { nombre: 'Bar' }).expect(403);
    await as('admin').post('/cocina/estaciones', { nombre: 'Bar' }).expect(201);
    await as('cajero')
      .post(`/comandas/${c.id_comanda}/items/${c.lineas[0].id_item}/entregar`)
      .expect(200);
  });
});
