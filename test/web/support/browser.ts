import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where the screenshots of a run go (git-ignored, overwritten by the next run). */
export const SCREENSHOTS_DIR = join(__dirname, '..', 'screenshots');

/** Where Debian's `chromium` package (and Ubuntu's older one) put the browser. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * The system Chromium the tests drive: `CHROMIUM_PATH` when set, otherwise the first of
 * CHROMIUM_CANDIDATES that exists. playwright-core downloads no browser of its own.
 */
export function chromiumPath(
  env: NodeJS.ProcessEnv = process.env,
  candidates: string[] = CHROMIUM_CANDIDATES,
): string {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured))
      throw new Error(`CHROMIUM_PATH=${configured}: no such file (docs/testing.md, Browser tests)`);
    return configured;
  }
  const found = candidates.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      `The browser tests need a Chromium and none was found (looked at ${candidates.join(', ')}). ` +
        'Install Debian\'s: "apt-get install -y chromium" (sudo when not root), ' +
        'or set CHROMIUM_PATH to a Chromium binary.',
    );
  return found;
}

export interface ExpectNoErrorsOptions {
  /** Errors the test causes on purpose (e.g. the console line of an expected 404). */
  allow?: RegExp[];
}

/**
 * One headless Chromium per test file. Every page gets a context of its own (1024×768, es-PE,
 * America/Lima, no storage or session shared with another page) and its console errors and
 * uncaught exceptions are recorded.
 */
export class WebBrowser {
  private readonly errorsByPage = new WeakMap<Page, string[]>();

  private constructor(readonly browser: Browser) {}

  static async launch(): Promise<WebBrowser> {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      // the tests run as root (CI containers): Chromium refuses its sandbox there
      args: ['--no-sandbox'],
    });
    return new WebBrowser(browser);
  }

  /** A fresh page; relative URLs (`page.goto('/')`) go to `baseURL`. */
  async newPage(baseURL?: string): Promise<Page> {
    const context = await this.browser.newContext({
      baseURL,
      viewport: { width: 1024, height: 768 },
      // the same on every machine: the tenants' default zone (TestDatabases) and language
      locale: 'es-PE',
      timezoneId: 'America/Lima',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    this.errorsByPage.set(page, errors);
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const { url, lineNumber } = message.location();
      errors.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.stack ?? error.message}`));
    return page;
  }

  /** The console errors and uncaught exceptions of a page so far. */
  errors(page: Page): string[] {
    const errors = this.errorsByPage.get(page);
    if (!errors) throw new Error('not a page of this WebBrowser (use newPage)');
    return [...errors];
  }

  /** Fails the test when the page logged a console error or threw, naming each one. */
  expectNoErrors(page: Page, options: ExpectNoErrorsOptions = {}): void {
    const allow = options.allow ?? [];
    const unexpected = this.errors(page).filter((e) => !allow.some((re) => re.test(e)));
    expect(unexpected).toEqual([]);
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/**
 * Saves a full-page PNG as test/web/screenshots/<name>.png (name: letters, digits, `.`, `_`,
 * `-`; anything else becomes `-`) and returns its path. `fullPage: false` keeps what the screen
 * shows: a dialog over a long page (a full page draws the dialog's backdrop over the first
 * screen only).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
