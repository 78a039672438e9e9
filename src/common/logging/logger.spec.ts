import { RequestContext } from '../context/request-context';
import { createLogger, logDestination, logFormat, type LogOutput } from './logger';

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
