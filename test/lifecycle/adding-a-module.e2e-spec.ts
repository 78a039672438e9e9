import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanEnv } from '../support/processes';
import { testServer } from '../support/test-server';

/**
 * docs/adding-a-module.md's walk-through, followed as a newcomer would: the files of its code
 * blocks marked `file=<path>` are written into a copy of the project, with the registration its
 * `registers=src/modules.ts` block names, and nothing else is changed. The copy must compile,
 * keep the architecture's rules (src/architecture.spec.ts), pass the new module's own e2e
 * tests, and pass the OpenAPI contract sweep (test/common/openapi-contract.e2e-spec.ts) with the
 * module's routes in the document and its sweep among the others.
 */

const ROOT = join(__dirname, '..', '..');
const GUIDE = readFileSync(join(ROOT, 'docs', 'adding-a-module.md'), 'utf8');
/** What a project copy needs besides node_modules (linked). */
const PROJECT = [
  'src',
  'test',
  'drivers',
  'package.json',
  'tsconfig.json',
  'jest.config.js',
  '.env.example',
];

interface Block {
  info: string;
  text: string;
}

function blocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```ts ([^\n]+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    info: m[1].trim(),
    text: m[2],
  }));
}

const walkThrough = blocks(GUIDE);
const files = walkThrough.flatMap(({ info, text }) => {
  const file = /^file=(\S+)$/.exec(info)?.[1];
  return file ? [{ path: file, text }] : [];
});
const registration = walkThrough.filter(({ info }) => info === 'registers=src/modules.ts');

/** src/modules.ts with the walk-through's import and list entry added, and nothing else. */
function registered(modules: string, lines: string): string {
  const [importLine, entry, ...rest] = lines.trim().split('\n');
  expect(rest).toEqual([]);
  expect(importLine).toMatch(/^import \{ (\w+) \} from '\.\/[\w-]+\/[\w-]+\.plugin';$/);
  expect(entry.trim()).toMatch(/^\w+,$/);
  const lastImport = modules.lastIndexOf('\nimport ');
  const afterImports = modules.indexOf('\n', lastImport + 1) + 1;
  const listEnd = modules.indexOf(']);', modules.indexOf('installModules(['));
  return (
    modules.slice(0, afterImports) +
    `${importLine}\n` +
    modules.slice(afterImports, listEnd) +
    `  ${entry.trim()}\n` +
    modules.slice(listEnd)
  );
}

function run(cwd: string, command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the guide to adding a module, followed in a copy of the project', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'comandas-new-module-'));
    for (const entry of PROJECT) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('writes files only in the new module’s folders, plus its one line in src/modules.ts', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    const module = /^src\/([\w-]+)\//.exec(files[0].path)![1];
    expect(
      files
        .map((f) => f.path)
        .filter(
          (path) => !path.startsWith(`src/${module}/`) && !path.startsWith(`test/${module}/`),
        ),
    ).toEqual([]);
    expect(registration).toHaveLength(1);
    for (const { path, text } of files) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      writeFileSync(join(copy, path), text, { flag: 'wx' }); // a new file, never an existing one
    }
    const modules = join(copy, 'src', 'modules.ts');
    writeFileSync(modules, registered(readFileSync(modules, 'utf8'), registration[0].text));
  });

  it(
    'compiles',
    async () => {
      const { code, output } = await run(
        copy,
        process.execPath,
        [join(copy, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'],
        {},
      );
      expect(output).toBe('');
      expect(code).toBe(0);
    },
    5 * 60_000,
  );

  it(
    'keeps the architecture’s rules, passes its own tests and the OpenAPI contract sweep',
    async () => {
      const jest = join(copy, 'node_modules', 'jest', 'bin', 'jest.js');
      const { serverUrl } = testServer();
      const { code, output } = await run(
        copy,
        process.execPath,
        [
          jest,
          '--config',
          'jest.config.js',
          '--runTestsByPath',
          'src/architecture.spec.ts',
          ...files.filter((f) => f.path.endsWith('.e2e-spec.ts')).map((f) => f.path),
          'test/common/openapi-contract.e2e-spec.ts',
        ],
        { TEST_DATABASE_URL: serverUrl },
      );
      expect({ code, failed: output.match(/^\s+● (?!Console$).*$/gm) ?? [] }).toEqual({
        code: 0,
        failed: [],
      });
      expect(output).toMatch(/PASS .*src\/architecture\.spec\.ts/);
      expect(output).toMatch(/PASS .*test\/common\/openapi-contract\.e2e-spec\.ts/);
      for (const { path } of files.filter((f) => f.path.endsWith('.e2e-spec.ts')))
        expect(output).toContain(`PASS e2e ${path}`);
      expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    },
    20 * 60_000,
  );
});
