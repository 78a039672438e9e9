import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';

/** Where `npm run build:web` puts the back-office page (docs/web.md). */
export const WEB_ROOT = join(__dirname, '..', '..', '..', 'web', 'dist');

/** Vite names every built asset after its content: it can be cached for good. */
const ASSET = /[\\/]assets[\\/]/;

/**
 * The back-office page, served at `/` from the built files: `index.html` revalidated on every
 * load (`no-cache`), the hashed files under /assets cached for a year (`immutable`), so a new
 * build is picked up at once and an old one is never re-downloaded. Null when the page was not
 * built (the API works without it). The Content-Security-Policy of every answer (helmet) holds:
 * the build has no inline script or style.
 */
export function webPage(root = WEB_ROOT): RequestHandler | null {
  if (!existsSync(join(root, 'index.html'))) return null;
  return express.static(root, {
    index: 'index.html',
    redirect: false,
    dotfiles: 'ignore',
    setHeaders(res, path) {
      res.setHeader(
        'Cache-Control',
        ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}
