import { Body, Controller, Injectable, Module, Post } from '@nestjs/common';
import { IsBoolean, IsInt, IsOptional } from 'class-validator';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ConflictError } from '../../src/common/errors/domain-error';
import type { Queryable } from '../../src/database/sql';
import { Idempotent } from '../../src/idempotency/idempotent.decorator';
import { TenancyModule } from '../../src/tenancy/tenancy.module';
import { TenantScoped } from '../../src/tenancy/tenancy.decorators';
import { TenantRepository } from '../../src/tenancy/tenant-repository';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A repository whose queries go through `this.db` (they take no transaction), as most
 * repository methods do, beside one that writes through the transaction it is handed.
 */
@Injectable()
class ProbeRepository extends TenantRepository {
  async addThrough(tx: Queryable, numero: number): Promise<void> {
    await tx.query('INSERT INTO mesas (numero) VALUES ($1)', [numero]);
  }

  async add(numero: number): Promise<void> {
    await this.db.query('INSERT INTO mesas (numero) VALUES ($1)', [numero]);
  }

  async count(numeros: number[]): Promise<number> {
    const [row] = await this.db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM mesas WHERE numero = ANY($1::int[])',
      [numeros],
    );
    return row.n;
  }
}

class ProbeBody {
  @IsInt() numero!: number;
  @IsOptional() @IsBoolean() fallar?: boolean;
}

/**
 * One transaction: a table written through `tx`, then read and written through `this.db`; a
 * refusal at the end rolls it all back. Idempotent, so the same route runs with and without an
 * Idempotency-Key.
 */
@TenantScoped()
@Controller('probe')
class ProbeController {
  constructor(private readonly repository: ProbeRepository) {}

  @Post('mesas')
  @Idempotent()
  add(@Body() body: ProbeBody) {
    return this.repository.transaction(async (tx) => {
      await this.repository.addThrough(tx, body.numero);
      const seen = await this.repository.count([body.numero]);
      await this.repository.add(body.numero + 1);
      if (body.fallar) throw new ConflictError('The probe refuses', 'PROBE_REFUSED');
      return { seen, seenAfter: await this.repository.count([body.numero, body.numero + 1]) };
    });
  }
}

@Module({ imports: [TenancyModule], controllers: [ProbeController], providers: [ProbeRepository] })
class ProbeModule {}

describe('a repository transaction is the request’s: this.db is that transaction', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({}, undefined, [ProbeModule]);
    await t.dbs.createTenant('casa');
  });
  afterAll(() => t.close());

  const post = (body: object, key?: string) => {
    const req = request(t.http).post('/api/v1/probe/mesas').set('X-Tenant-ID', 'casa');
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const mesas = async (numeros: number[]) =>
    (
      await t.dbs.query<{ numero: number }>(
        t.dbs.tenantUrl('casa'),
        'SELECT numero FROM mesas WHERE numero = ANY($1::int[]) ORDER BY numero',
        [numeros],
      )
    ).map((row) => row.numero);

  describe.each([
    ['without an Idempotency-Key', false, 10],
    ['with an Idempotency-Key', true, 20],
  ])('%s', (_, keyed, base) => {
    const key = () => (keyed ? randomUUID() : undefined);

    it('sees the rows the transaction wrote before it commits, and commits what it wrote', async () => {
      const res = await post({ numero: base }, key()).expect(201);
      expect(res.body).toEqual({ seen: 1, seenAfter: 2 });
      expect(await mesas([base, base + 1])).toEqual([base, base + 1]);
    });

    it('rolls back what it wrote with the transaction', async () => {
      const res = await post({ numero: base + 5, fallar: true }, key()).expect(409);
      expect(res.body.code).toBe('PROBE_REFUSED');
      expect(await mesas([base + 5, base + 6])).toEqual([]);
    });
  });
});
