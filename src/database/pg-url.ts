/** Helpers for PostgreSQL connection URLs. */

export const DEFAULT_CONTROL_DATABASE = 'comandas_control';

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** The database named by a URL ('' when it names none). */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/** The URL without its password, for logs and listings. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * The URL with its host:port replaced when `map` (`from:port=to:port,...`) names it: a pooler's
 * address swapped for the server's own, for a session connection (LISTEN).
 */
export function directUrl(url: string, map: string | undefined): string {
  if (!map) return url;
  const parsed = new URL(url);
  const port = parsed.port || '5432';
  for (const pair of map.split(',')) {
    const [from, to] = pair.split('=');
    if (from === `${parsed.hostname}:${port}`) {
      const [host, toPort] = to.split(':');
      parsed.hostname = host;
      parsed.port = toPort;
      return parsed.toString();
    }
  }
  return url;
}
