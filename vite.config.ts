import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { preloadChunks } from './scripts/preloadChunks.ts';
import { precompress } from './scripts/precompress.ts';

// The dashboard is served by the BFF in production; in `npm run dev:ui` Vite proxies /api to it.
export default defineConfig({
  // .br and .gz beside every file worth it, which the BFF sends by Accept-Encoding (server/bff/app.ts).
  // views-common downloads beside the first page's files rather than after the shell has run.
  plugins: [react(), preloadChunks(['views-common']), precompress()],
  // A polyfill of what every supported browser has, pulled into the first page by node-polyglot.
  // And react-admin's page-title editor, which Labdesk never shows (src/shims/PageTitleConfigurable.tsx).
  resolve: {
    alias: [
      { find: 'object.entries', replacement: fileURLToPath(new URL('./src/shims/object-entries.cjs', import.meta.url)) },
      { find: /^\.\/PageTitleConfigurable\.js$/, replacement: fileURLToPath(new URL('./src/shims/PageTitleConfigurable.tsx', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist',
    // Every browser the dashboard supports knows <link rel="modulepreload">: no polyfill in the first download.
    modulePreload: { polyfill: false },
    // No source maps in the build: the BFF serves none, and the sources stay on the server side.
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        // What the first page needs (everything statically imported from src/main.tsx) in two files:
        // the libraries, which change only when a dependency does (so a browser keeps its cached copy
        // across releases), and the app's own shell. Without these groups Rolldown spreads the first
        // page over a dozen shared chunks, each mixing first-page modules with ones only a lazy view
        // uses. Views, the review workspace, pdf.js and recharts are split by their dynamic imports
        // (components/lazyView.ts) and load when first opened. Budget: 250 KB gzip (docs/performance.md).
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
            { name: 'app', tags: ['$initial'] },
            // What five or more lazy views share (react-admin's list, form and dialog parts, MUI inputs,
            // Labdesk's own fields) in one file, rather than Rolldown's ~35 files of 1-15 KB for the
            // users list alone: over HTTP/1.1 Chromium opens six connections per host, so those files
            // took six round trips and the list's own API request queued behind them. pdf.js and the
            // charts stay apart, loaded only by the views that draw them.
            { name: 'views-common', test: /[\\/](node_modules|src)[\\/](?!pdfjs-dist|recharts|d3-|victory)/, minShareCount: 5 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? 3000}` } },
});
