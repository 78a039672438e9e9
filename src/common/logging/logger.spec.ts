import { RequestContext } from '../context/request-context';
import { createLogger, errorForLog, logDestination, logFormat, type LogOutput } from './logger';

/** An output that records what is written to it, a terminal or not. */
function output(isTTY: boolean): LogOutput & { lines: string[] } {
  const lines: string[] = [];
  return { isTTY, lines, write: (text: string) => lines.push(text) };
}

describe('the format of the log lines', () => {
  it.each([
    ['auto', true, 'pretty'],
    ['auto', false, 'json'],
    ['json', true, 'json'],
    ['json', false, 'json'],
    ['pretty', true, 'pretty'],
    ['pretty', false, 'pretty'],
  ] as const)('LOG_FORMAT=%s, output a terminal: %s → %s', (setting, isTTY, expected) => {
    expect(logFormat(setting, output(isTTY))).toBe(expected);
  });

  it('leaves JSON to pino (no destination of its own)', () => {
    expect(logDestination('auto', output(false))).toBeUndefined();
    expect(logDestination('json', output(true))).toBeUndefined();
  });

  it('writes a readable line on a terminal, at once (no worker), with its fields', () => {
    const tty = output(true);
    const logger = createLogger('info', logDestination('auto', tty));
    logger.info({ tenant: 'demo', status: 200 }, 'request completed');
    expect(tty.lines).toHaveLength(1);
    const [line] = tty.lines;
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request completed /);
    expect(line).toContain('"tenant":"demo"');
    expect(line.endsWith('\n')).toBe(true);
    expect(() => JSON.parse(line) as unknown).toThrow();
  });

  it('writes the same line as JSON when asked to (LOG_FORMAT=json would too on a pipe)', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.info({ tenant: 'demo' }, 'request completed');
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 30,
      msg: 'request completed',
      tenant: 'demo',
    });
  });
});

describe('the request bindings of the log lines', () => {
  it('adds the request’s bindings to each line, and keeps a line’s own fields off the next ones', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    RequestContext.run({ requestId: 'r-1' }, () => {
      logger.warn({ code: 'TENANT_SCHEMA_OUTDATED', status: 503 }, 'refused');
      RequestContext.assignLog({ tenant: 'demo' });
      logger.info('request completed');
    });
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ requestId: 'r-1', code: 'TENANT_SCHEMA_OUTDATED', status: 503 });
    expect(second).toMatchObject({ requestId: 'r-1', tenant: 'demo', msg: 'request completed' });
    expect(second).not.toHaveProperty('code');
    expect(second).not.toHaveProperty('status');
  });
});

describe('an error in a log line', () => {
  it('keeps what explains a failed statement, never the values it was sent', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const error = Object.assign(new Error('new row violates check constraint "ck_x"'), {
      code: '23514',
      query: 'INSERT INTO clientes (nombre, documento) VALUES ($1, $2)',
      detail: 'Failing row contains (7, Secreto Pérez, 999888777, null).',
      parameters: ['Secreto Pérez', '999888777'],
      driverError: { code: '23505', detail: 'Key (documento)=(999888777) already exists.' },
    });
    logger.error({ err: error }, 'failed');
    const line = lines[0];
    expect(line).not.toContain('Secreto');
    expect(line).not.toContain('999888777');
    const { err } = JSON.parse(line) as { err: Record<string, unknown> };
    expect(err).toMatchObject({
      message: 'new row violates check constraint "ck_x"',
      code: '23514',
      query: 'INSERT INTO clientes (nombre, documento) VALUES ($1, $2)',
      detail: 'Failing row contains (values not logged).',
      driverError: { code: '23505', detail: 'Key (documento)=(values not logged) already exists.' },
    });
    expect(typeof err.stack).toBe('string');
    expect(err).not.toHaveProperty('parameters');
    expect(errorForLog('a text')).toBe('a text');
  });
});
