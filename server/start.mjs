// `npm start`: bundles the supervisor (server/main.ts) with esbuild and runs it on plain Node, as
// the supervisor does for each part (server/build.ts): no TypeScript loader in any process.
// Plain JavaScript, so that it needs no loader itself; the bundle is rebuilt on every start
// (a fraction of a second), so a pull never runs stale code.
import { buildSync } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NODE_BUNDLE } from './esbuildOptions.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = path.join(root, '.build', 'main.mjs');
try {
  buildSync({
    ...NODE_BUNDLE,
    entryPoints: [path.join(root, 'server', 'main.ts')],
    outfile,
    absWorkingDir: root,
  });
} catch {
  console.error('[labdesk] building the server failed (see above)');
  process.exit(1);
}
await import(pathToFileURL(outfile).href);
