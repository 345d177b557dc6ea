import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { resolveSecrets } from './secrets';
import { Supervisor, type ChildSpec } from './supervisor';
import { buildServer } from './build';
import { childEnvs } from './childEnv';
import { ownerOnlyFiles } from './lib/serverProcess';
import { nodeEntry } from './lib/entries';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** `npm start` builds the dashboard when it is missing (a fresh clone) or older than its sources (after a pull). */
function ensureDashboardBuilt() {
  const built = path.join(root, 'dist', 'index.html');
  if (fs.existsSync(built)) {
    const sources = Math.max(
      newestSourceMtime(path.join(root, 'src')),
      newestSourceMtime(path.join(root, 'public')),
      fs.statSync(path.join(root, 'index.html')).mtimeMs,
    );
    if (sources <= fs.statSync(built).mtimeMs) return;
  }
  console.log('[labdesk] building the dashboard…');
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the dashboard failed (see above)');
}

async function main() {
  ownerOnlyFiles(); // the embedded stores and secrets.json; the parts inherit it
  const config = loadConfig();
  const { secrets, generated, file } = resolveSecrets(config);
  ensureDashboardBuilt();
  buildServer(); // the parts run from bundles on plain Node (see server/lib/entries.ts)

  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  const serviceUrl = config.SERVICE_BASE_URL ?? `http://${host}:${config.SERVICE_PORT}`;
  const dashboardUrl = `http://${host}:${config.PORT}`;
  const envs = childEnvs(config, secrets, serviceUrl);
  const specs: ChildSpec[] = [];
  if (envs.service) {
    specs.push({ name: 'service', ...nodeEntry('service', true), env: envs.service, healthUrl: `${serviceUrl}/healthz` });
  }
  specs.push({ name: 'bff', ...nodeEntry('bff', true), env: envs.bff, healthUrl: `${dashboardUrl}/healthz` });

  const supervisor = new Supervisor((message) => {
    console.error(`[labdesk] ${message}`);
    void supervisor.stop().then(() => process.exit(1));
  });
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    console.log('[labdesk] stopping…');
    void supervisor.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  for (const spec of specs) supervisor.start(spec);
  await Promise.all(specs.map((s) => supervisor.waitHealthy(s, 240_000)));

  const origin = (key: keyof typeof secrets) => (generated.includes(key) ? ` (generated; kept in ${file})` : '');
  console.log(
    [
      '',
      'Labdesk is running',
      `  Dashboard   ${dashboardUrl}`,
      `              sign in as ${secrets.ADMIN_EMAIL} / ${config.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : secrets.ADMIN_PASSWORD}${origin('ADMIN_PASSWORD')}`,
      `  Service     ${serviceUrl}   (API docs ${serviceUrl}/docs)`,
      config.SERVICE_BASE_URL
        ? '              remote service; its API key comes from SERVICE_API_KEY'
        : `  Demo team   x-service-api-key: ${config.DEMO_API_KEY ? '(DEMO_API_KEY)' : secrets.DEMO_API_KEY}${origin('DEMO_API_KEY')}`,
      `  Store       ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`}`,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`[labdesk] ${err.message}`);
  else console.error(`[labdesk] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
