import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config';
import { runServerProcess } from '../lib/serverProcess';
import { openStore } from '../store/db';
import { buildBffApp, bffLoggerRedact } from './app';
import { ensureFirstAdmin } from './auth/staff';
import { bffSchema } from './db/schema';

const migrationsFolder = fileURLToPath(new URL('./db/migrations', import.meta.url));
const distDir = fileURLToPath(new URL('../../dist', import.meta.url));

/** The BFF process: its own store, the first admin, the dashboard and /api. */
async function main() {
  const config = loadConfig();
  const serviceBaseUrl = config.SERVICE_BASE_URL ?? `http://127.0.0.1:${config.SERVICE_PORT}`;
  const serviceApiKey = config.SERVICE_API_KEY ?? config.DEMO_API_KEY;
  if (!serviceApiKey) throw new Error('invalid configuration: SERVICE_API_KEY (or DEMO_API_KEY) is required');
  const store = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder, databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    await ensureFirstAdmin(store.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  }
  const app = await buildBffApp({
    db: store.db,
    serviceBaseUrl,
    serviceApiKey,
    sessionSecret: config.SESSION_SECRET ?? randomBytes(48).toString('base64url'),
    staticDir: distDir,
    logger: { level: config.LOG_LEVEL, redact: bffLoggerRedact },
  });
  await app.listen({ port: config.PORT, host: config.HOST });

  return { app, store };
}

runServerProcess('bff', main);
