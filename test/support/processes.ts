import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import '../../src/modules';
import { configVariableNames } from '../../src/common/config/app-config';

/** Built entry points (npm test builds them first, see the pretest script). */
export const MAIN_JS = join(__dirname, '..', '..', 'dist', 'main.js');
export const TENANT_CLI_JS = join(__dirname, '..', '..', 'dist', 'cli', 'tenant.cli.js');
export const TOKEN_CLI_JS = join(__dirname, '..', '..', 'dist', 'cli', 'token.cli.js');
export const STAFF_CLI_JS = join(__dirname, '..', '..', 'dist', 'cli', 'staff.cli.js');
/** The TypeORM CLI and the DataSource file it is given (`npm run typeorm`). */
export const TYPEORM_CLI_JS = require.resolve('typeorm/cli.js');
export const ORMCONFIG_JS = join(__dirname, '..', '..', 'dist', 'ormconfig.js');

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of this process without any of the service's own variables. */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of configVariableNames()) delete base[name];
  // the tests read a process's output as a pipe would: no colours, even where the terminal
  // libraries turn them on for a CI run (CI=true)
  delete base.FORCE_COLOR;
  return { ...base, NO_COLOR: '1', ...env };
}

/** Runs a script to its end; `input`, when given, is its standard input (then closed). */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  input?: string,
) {
  return new Promise<ProcessResult>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: cleanEnv(env), stdio: 'pipe' });
    // a child that exits without reading its input is not an error of the run
    child.stdin.on('error', () => undefined);
    if (input !== undefined) child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${script} ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A long-running process whose output can be awaited. */
export class RunningProcess {
  private static readonly running = new Set<RunningProcess>();
  stdout = '';
  stderr = '';
  readonly exited: Promise<ProcessResult>;
  readonly child: ChildProcess;

  constructor(script: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, [script], { env: cleanEnv(env), stdio: 'pipe' });
    this.child.stdout!.on('data', (c: Buffer) => (this.stdout += c.toString()));
    this.child.stderr!.on('data', (c: Buffer) => (this.stderr += c.toString()));
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code, signal) => {
        RunningProcess.running.delete(this);
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      }),
    );
    RunningProcess.running.add(this);
  }

  /** Stops every process a failed test left running (SIGTERM, so PostgreSQL stops too). */
  static async stopAll(): Promise<void> {
    await Promise.all(
      [...RunningProcess.running].map((p) => {
        p.child.kill('SIGTERM');
        return p.exited;
      }),
    );
  }

  /** Resolves when stdout contains `text`; rejects if the process exits or time runs out. */
  async waitForOutput(text: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (!this.stdout.includes(text)) {
      if (exited)
        throw new Error(
          `process exited before printing "${text}":\n${this.stdout}\n${this.stderr}`,
        );
      if (Date.now() > deadline)
        throw new Error(`no "${text}" after ${timeoutMs} ms:\n${this.stdout}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
