import { Grants } from '../../src/auth/grants';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const EFECTIVO = 1;
const SLUG = 'encargo';

/** A member of staff whose role closes comandas but takes no money (added to the roles below). */
const ENCARGADO = { documento: '40000007', role: 'encargado' };

/**
 * Paying and closing in one step (`PUT /comandas/:id` with `pagos`) pays, so it needs the
 * permission of paying (cobros:pay) besides the close's (comandas:close), as docs/security.md
 * says. The built-in roles that close (admin, cajero) also pay; this file gives a role of its
 * own, `encargado`, the close without the payment: the matrix of src/auth/permissions.ts as if
 * it had that row.
 */
describe('pay and close (AUTH_MODE=jwt): closing with pagos needs cobros:pay too', () => {
  let t: TestApp;
  let encargado: number;
  const byRoles = Grants.ofRoles.bind(Grants);

  beforeAll(async () => {
    jest
      .spyOn(Grants, 'ofRoles')
      .mockImplementation((roles) =>
        roles.some((role) => role.trim().toLowerCase() === ENCARGADO.role)
          ? Grants.of(['comandas:read', 'comandas:write', 'comandas:close'])
          : byRoles(roles),
      );
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_COBROS: 'true',
    });
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    await seedStaff(t.dbs, SLUG);
    const url = t.dbs.tenantUrl(SLUG);
    const [elena] = await t.dbs.query<{ id_usuario: number }>(
      url,
      `INSERT INTO usuarios (documento, nombre, apellido, activo)
       VALUES ($1, 'Elena', 'Mamani', true) RETURNING id_usuario`,
      [ENCARGADO.documento],
    );
    encargado = elena.id_usuario;
    await t.dbs.query(
      url,
      `WITH r AS (INSERT INTO roles (nombre) VALUES ($1) RETURNING id_rol)
       INSERT INTO usua_roles (id_usuario, id_rol) SELECT $2, id_rol FROM r`,
      [ENCARGADO.role, encargado],
    );
  });
  afterAll(async () => {
    await t.close();
    jest.restoreAllMocks();
  });

  const as = (id: number) => authedApi(t.http, SLUG, tokenFor(SLUG, id));

  it('refuses it with 403 naming cobros:pay to a role that closes but does not pay', async () => {
    const elena = as(encargado);
    const cajero = as(STAFF.cajero.id);
    await cajero.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(201);
    const created = await elena
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    const id = (created.body as { id_comanda: number }).id_comanda;

    const refused = await elena
      .put(`/comandas/${id}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: EFECTIVO, monto: 38 }],
      })
      .expect(403);
    expect(refused.body).toMatchObject({
      code: 'FORBIDDEN',
      detail: { permission: 'cobros:pay', roles: [ENCARGADO.role] },
    });
    // nothing paid, nothing closed, no new version
    const [row] = await t.dbs.query<{ estado: string; version: number; pagos: number }>(
      t.dbs.tenantUrl(SLUG),
      `SELECT c.estado, c.version, (SELECT count(*)::int FROM pagos p WHERE p.id_comanda = c.id_comanda) AS pagos
         FROM comandas c WHERE c.id_comanda = $1`,
      [id],
    );
    expect(row).toEqual({ estado: 'abierta', version: 1, pagos: 0 });

    // the close alone is theirs: the route lets it through, and the money's rule refuses it
    const unpaid = await elena.put(`/comandas/${id}`, { action: 'cerrar' }).expect(409);
    expect(unpaid.body).toMatchObject({ code: 'SALDO_PENDIENTE' });

    // a role without the close is refused the close first
    const mozo = await as(STAFF.mozo.id)
      .put(`/comandas/${id}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: EFECTIVO, monto: 38 }],
      })
      .expect(403);
    expect(mozo.body).toMatchObject({ detail: { permission: 'comandas:close' } });

    // the cashier holds both: paid and closed in one step
    const closed = await cajero
      .put(`/comandas/${id}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: EFECTIVO, monto: 38 }],
      })
      .expect(200);
    expect(closed.body).toMatchObject({ estado: 'cerrada', estado_pago: 'pagada' });
  });
});
