import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The back-office page (docs/web.md): built into web/dist, which the service serves at `/`
 * (hashed files under /assets cached for a year, index.html revalidated every time).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // no inline script or style: the Content-Security-Policy stays script-src 'self'
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
