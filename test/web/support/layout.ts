import type { Page } from 'playwright-core';
import { screenshot } from './browser';

/** The two screens the page is made for: the floor's tablet and the office's laptop. */
export const VIEWPORTS = [
  { name: '1024x768', width: 1024, height: 768 },
  { name: '1280x800', width: 1280, height: 800 },
] as const;

/** An element whose content does not fit its box. */
export interface Overflow {
  /** A CSS-like path to it, e.g. `main > section.panel > h2`. */
  element: string;
  text: string;
  scrollWidth: number;
  clientWidth: number;
}

/**
 * What the check reads of the page, typed here: the specs compile without the DOM's types
 * (tsconfig.json), and these functions run in the browser, where `globalThis` is the window.
 */
interface BrowserElement {
  tagName: string;
  classList: Iterable<string>;
  parentElement: BrowserElement | null;
  textContent: string | null;
  offsetParent: unknown;
  scrollWidth: number;
  clientWidth: number;
}

interface BrowserWindow {
  document: {
    body: BrowserElement & { querySelectorAll(selector: string): Iterable<BrowserElement> };
  };
  getComputedStyle(element: BrowserElement): {
    display: string;
    overflowX: string;
    position: string;
  };
  requestAnimationFrame(callback: () => void): number;
}

/**
 * The visible elements whose content spills out of their box: `scrollWidth > clientWidth` on
 * an element that lets it show (`overflow: visible`). Elements that scroll or clip on purpose
 * (`auto`, `hidden`, `scroll`, `clip`) and inline boxes (no width of their own) are left out.
 */
export async function overflowing(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const window = globalThis as unknown as BrowserWindow;
    const { document } = window;
    const found: Overflow[] = [];
    const pathOf = (el: BrowserElement): string => {
      const parts: string[] = [];
      for (let e: BrowserElement | null = el; e && e !== document.body; e = e.parentElement) {
        const cls = [...e.classList]
          .slice(0, 2)
          .map((c) => `.${c}`)
          .join('');
        parts.unshift(`${e.tagName.toLowerCase()}${cls}`);
      }
      return parts.join(' > ');
    };
    for (const el of document.body.querySelectorAll('*')) {
      const style = window.getComputedStyle(el);
      if (style.display === 'inline' || style.display === 'none') continue;
      if (style.overflowX !== 'visible') continue;
      if (el.offsetParent === null && style.position !== 'fixed') continue;
      if (el.clientWidth === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        found.push({
          element: pathOf(el),
          text: (el.textContent ?? '').trim().slice(0, 60),
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
        });
    }
    return found;
  });
}

/**
 * For each of VIEWPORTS: resizes the page, lets it lay out, saves a screenshot named
 * `<name>-<width>x<height>` and expects no element to overflow its box.
 */
export async function expectFitsAtEverySize(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    // from the top: a full-page screenshot of a scrolled page draws the sticky header where the
    // scroll left it, over the content
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          (globalThis as unknown as BrowserWindow).requestAnimationFrame(() => resolve()),
        ),
    );
    await screenshot(page, `${name}-${viewport.name}`);
    const spilled = await overflowing(page);
    expect({ screen: name, viewport: viewport.name, spilled }).toEqual({
      screen: name,
      viewport: viewport.name,
      spilled: [],
    });
  }
  if (original) await page.setViewportSize(original);
}
