import { ConfigError, loadConfig } from '../config';
import { DirLockedError } from '../store/lock';
import { EXIT_CANNOT_START } from '../supervisor';
import { openStore } from '../store/db';
import { buildServiceApp, serviceLoggerRedact } from './app';
import { serviceSchema } from './db/schema';
import { syncProviderCatalogue } from './domain/providers';
import { seedDemoIfEmpty } from './seed/demo';
import { fileURLToPath } from 'node:url';

const migrationsFolder = fileURLToPath(new URL('./db/migrations', import.meta.url));

/** The service process: open and migrate its store, seed the demo team when empty, serve. */
async function main() {
  const config = loadConfig();
  const store = await openStore({
    part: 'service',
    schema: serviceSchema,
    migrationsFolder,
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
  });
  await syncProviderCatalogue(store.db);
  if (config.DEMO_API_KEY) {
    const started = Date.now();
    const seeded = await seedDemoIfEmpty(store.db, { apiKey: config.DEMO_API_KEY });
    if (seeded) console.log(`service: seeded the demo team in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const app = await buildServiceApp({
    db: store.db,
    adminToken: config.SERVICE_ADMIN_TOKEN,
    logger: { level: config.LOG_LEVEL, redact: serviceLoggerRedact },
  });
  await app.listen({ port: config.SERVICE_PORT, host: config.HOST });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await app.close().catch(() => {});
    await store.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err: unknown) => {
  console.error(`service: ${err instanceof Error ? err.message : String(err)}`);
  // Configuration and a locked data directory won't fix themselves: tell the supervisor not to retry.
  const permanent = err instanceof ConfigError || err instanceof DirLockedError || /invalid configuration/.test(String(err));
  process.exit(permanent ? EXIT_CANNOT_START : 1);
});
