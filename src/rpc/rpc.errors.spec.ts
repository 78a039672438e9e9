import { RpcFailedError } from './rpc.errors';

describe('RpcFailedError', () => {
  const pgError = Object.assign(new Error('division by zero'), {
    code: '22012',
    detail: 'd',
    where: 'PL/pgSQL function report_tickets(integer,text) line 3',
  });

  it('adds the diagnostics the operation names, with the SQLSTATE as code', () => {
    const error = new RpcFailedError('report_tickets', pgError, 'message-detail-where-code');
    expect(error).toMatchObject({ status: 500, code: '22012', message: 'report_tickets failed' });
    expect(error.extra).toEqual({
      message: 'division by zero',
      detail: 'd',
      where: 'PL/pgSQL function report_tickets(integer,text) line 3',
      code: '22012',
    });
  });

  it('keeps the envelope code a string when the failure has no SQLSTATE', () => {
    const error = new RpcFailedError(
      'save_compra',
      new TypeError('boom'),
      'message-detail-where-code',
    );
    expect(error.code).toBe('RPC_FAILED');
    expect(error.extra?.code).toBe('RPC_FAILED');
    const gastos = new RpcFailedError('report_gastos', {}, 'message-detail-code');
    expect(gastos.extra).toEqual({ message: null, detail: null, code: 'RPC_FAILED' });
  });

  it('adds nothing for the other operations', () => {
    const error = new RpcFailedError('get_producto', pgError, 'none');
    expect(error).toMatchObject({ code: 'RPC_FAILED', extra: undefined });
  });
});
