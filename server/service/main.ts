import { loadConfig } from '../config';
import { runServerProcess } from '../lib/serverProcess';
import { openStore } from '../store/db';
import { JobWorker } from '../store/jobs';
import { buildServiceApp, serviceLoggerRedact } from './app';
import { jobHandlers } from './jobs/handlers';
import { serviceSchema } from './db/schema';
import { syncProviderCatalogue } from './domain/providers';
import { demoTeam, seedDemoIfEmpty } from './seed/demo';
import { seedDemoOrders } from './seed/demoOrders';
import { seededRandom } from '../lib/random';
import { startLabCatalogue } from './seed/labCatalogue';
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
  await startLabCatalogue(store.db); // the lab catalogue, and the demo team's lab accounts when it exists
  if (config.DEMO_API_KEY) {
    const started = Date.now();
    const seeded = await seedDemoIfEmpty(store.db, { apiKey: config.DEMO_API_KEY });
    if (seeded) console.log(`service: seeded the demo team in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const demoTeamId = await demoTeam(store.db);
    if (demoTeamId) await seedDemoOrders(store.db, demoTeamId, seededRandom(20261121)); // once: only when the team has no orders
  }
  const app = await buildServiceApp({
    db: store.db,
    adminToken: config.SERVICE_ADMIN_TOKEN,
    logger: { level: config.LOG_LEVEL, redact: serviceLoggerRedact },
  });
  // Background work (order lifecycle, …) runs beside the HTTP server and stops before the store closes.
  const worker = new JobWorker(store.db, jobHandlers(store.db), {
    onError: (kind, err) => app.log.warn({ kind, err: err instanceof Error ? err.message : String(err) }, 'background job failed'),
  });
  worker.start();
  app.addHook('onClose', () => worker.stop());

  await app.listen({ port: config.SERVICE_PORT, host: config.HOST });

  return { app, store };
}

runServerProcess('service', main);
