import { DomainError } from './domain-error';
import { isConnectionError, translatePgError } from './pg-error.translator';

const pgError = (code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`pg error ${code}`), { code, ...extra });

describe('translatePgError', () => {
  it.each([
    ['23503', 'foreign-key violation'],
    ['23001', 'foreign-key violation'],
    ['23505', 'uniqueness violation'],
    ['23514', 'CHECK violation'],
    ['23502', 'missing NOT NULL field'],
  ])('maps constraint SQLSTATE %s to 400 with the detail', (code, message) => {
    const error = translatePgError(pgError(code, { detail: 'Key (nombre)=(x) already exists.' }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      status: 400,
      code,
      message,
      detail: 'Key (nombre)=(x) already exists.',
    });
  });

  it('unwraps TypeORM QueryFailedError.driverError', () => {
    const wrapped = { name: 'QueryFailedError', driverError: pgError('23505', { detail: 'dup' }) };
    expect(translatePgError(wrapped)).toMatchObject({ status: 400, code: '23505' });
  });

  it('maps invalid input to 400, lock conflicts to 409 and cancelled queries to 503', () => {
    expect(translatePgError(pgError('22P02'))).toMatchObject({ status: 400, code: '22P02' });
    expect(translatePgError(pgError('40001'))).toMatchObject({ status: 409, code: '40001' });
    expect(translatePgError(pgError('57014'))).toMatchObject({ status: 503, code: '57014' });
  });

  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [pgError('57P01')],
    [pgError('08006')],
    [new Error('Connection terminated unexpectedly')],
  ])('maps an unreachable database to 503 with Retry-After', (error) => {
    expect(isConnectionError(error)).toBe(true);
    const translated = translatePgError(error);
    expect(translated).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    expect(translated?.headers).toEqual({ 'Retry-After': '5' });
  });

  it('leaves errors that are not PostgreSQL errors alone', () => {
    expect(translatePgError(new TypeError('x is undefined'))).toBeUndefined();
    expect(translatePgError(pgError('XX000'))).toBeUndefined();
    expect(translatePgError('a string')).toBeUndefined();
  });
});
