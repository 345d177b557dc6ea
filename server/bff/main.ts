import { randomBytes } from 'node:crypto';
import { repoPath } from '../lib/entries';
import { loadConfig } from '../config';
import { runServerProcess } from '../lib/serverProcess';
import { openStore } from '../store/db';
import { buildBffApp, bffLoggerRedact } from './app';
import { ensureFirstAdmin } from './auth/staff';
import { bffSchema } from './db/schema';

const migrationsFolder = repoPath('server/bff/db/migrations');
const distDir = repoPath('dist');

/** The BFF process: its own store, the first admin, the dashboard and /api. */
async function main() {
  const config = loadConfig();
  const serviceBaseUrl = config.SERVICE_BASE_URL ?? `http://127.0.0.1:${config.SERVICE_PORT}`;
  const serviceApiKey = config.SERVICE_API_KEY ?? config.DEMO_API_KEY;
  if (!serviceApiKey) throw new Error('invalid configuration: SERVICE_API_KEY (or DEMO_API_KEY) is required');
  const store = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder, databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  // `npm start` passes the first admin (given or generated and kept in secrets.json); a BFF started
  // on its own with no staff yet generates one and prints it once.
  const adminEmail = config.ADMIN_EMAIL ?? 'admin@labdesk.local';
  const adminPassword = config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  if ((await ensureFirstAdmin(store.db, adminEmail, adminPassword)) && !config.ADMIN_PASSWORD) {
    console.log(`bff: created the first admin ${adminEmail} with password ${adminPassword}`);
  }
  const app = await buildBffApp({
    db: store.db,
    notifications: store.notifications,
    serviceBaseUrl,
    serviceApiKey,
    sessionSecret: config.SESSION_SECRET ?? randomBytes(48).toString('base64url'),
    staticDir: distDir,
    trustProxy: config.TRUST_PROXY,
    logger: { level: config.LOG_LEVEL, redact: bffLoggerRedact },
  });
  await app.listen({ port: config.PORT, host: config.HOST });

  return { app, store };
}

runServerProcess('bff', main);
