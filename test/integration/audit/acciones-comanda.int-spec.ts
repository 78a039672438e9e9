import { Client } from 'pg';
import { comandaActions } from '../../../src/comandas/comanda-state';
import { comandaExtensions } from '../../../src/modules';
import { ComandasModule } from '../../../src/comandas/comandas.module';
import { TestDatabases } from '../../support/test-databases';

/**
 * The actions the comandas' audit trail takes (tenant migration 1765500000500): the rows of
 * acciones_comanda, which comanda_eventos.accion references. A module adds its own by inserting
 * rows, without rewriting a constraint of the comandas.
 */
describe('acciones_comanda (tenant migration, called with SQL)', () => {
  let dbs: TestDatabases;
  let client: Client;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('acciones');
    client = new Client({ connectionString: dbs.tenantUrl('acciones') });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await dbs.drop();
  });

  const insertEvent = (accion: string) =>
    client.query(
      `INSERT INTO comanda_eventos (id_comanda, accion)
       SELECT id_comanda, $1 FROM comandas ORDER BY id_comanda LIMIT 1`,
      [accion],
    );

  it('holds every action of the application, crear and the comanda’s own by the comandas', async () => {
    ComandasModule.extendWith(comandaExtensions());
    const { rows } = await client.query<{ accion: string; modulo: string }>(
      'SELECT accion, modulo FROM acciones_comanda ORDER BY accion',
    );
    expect(rows.map((r) => r.accion)).toEqual(['crear', ...comandaActions()].sort());
    expect(rows.filter((r) => r.modulo === 'cobros').map((r) => r.accion)).toEqual([
      'anular_pago',
      'descontar',
      'pagar',
      'reembolsar',
    ]);
    const modules = [...new Set(rows.map((r) => r.modulo))].sort();
    expect(modules).toEqual(['cobros', 'cocina', 'comandas']);
  });

  it('refuses an audit entry whose action is no row, and takes it once a module adds the row', async () => {
    await client.query('INSERT INTO comandas DEFAULT VALUES');
    await expect(insertEvent('propinar')).rejects.toMatchObject({
      code: '23503',
      constraint: 'fk_comanda_eventos_accion',
    });
    await client.query(
      "INSERT INTO acciones_comanda (accion, modulo) VALUES ('propinar', 'propinas')",
    );
    await insertEvent('propinar');
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM comanda_eventos WHERE accion = 'propinar'",
    );
    expect(rows).toEqual([{ n: 1 }]);
    // a name that is not an action's is refused by the table itself
    await expect(
      client.query("INSERT INTO acciones_comanda (accion, modulo) VALUES ('Pagar Todo', 'x')"),
    ).rejects.toMatchObject({ code: '23514', constraint: 'ck_acciones_comanda_accion' });
  });
});
