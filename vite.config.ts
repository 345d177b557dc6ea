import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard is served by the BFF in production; in `npm run dev:ui` Vite proxies /api to it.
export default defineConfig({
  plugins: [react()],
  // No source maps in the build: the BFF serves none, and the sources stay on the server side.
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? 3000}` } },
});
