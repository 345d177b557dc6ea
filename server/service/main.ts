import cluster from 'node:cluster';
import { loadConfig, type Config } from '../config';
import { safeError } from '../lib/logging';
import { runServerProcess } from '../lib/serverProcess';
import { openStore, type Store } from '../store/db';
import { EXIT_CANNOT_START } from '../supervisor';
import { JobWorker, releaseLeases } from './jobs/queue';
import { ServiceCluster, serviceWorkerCount } from './cluster';
import { buildServiceApp, serviceLoggerRedact } from './app';
import { jobHandlers } from './jobs/handlers';
import { serviceSchema, type ServiceSchema } from './db/schema';
import { demoTeam } from './seed/demo';
import { seedStore } from './seed/seedProcess';
import { fork } from 'node:child_process';
import { nodeEntry, repoPath } from '../lib/entries';
import { ensureWebhookDispatcher } from './webhooks/dispatcher';
import { WEBHOOK_DELIVER_KIND, WEBHOOK_DISPATCH_KIND } from './webhooks/kinds';
import { PARSE_JOB_KIND } from './domain/parsingJobs/create';
import { DEFAULT_READERS, parsePerTeam, ReaderPool } from './sandbox/readerPool';

const migrationsFolder = repoPath('server/service/db/migrations');

type ServiceStore = Store<ServiceSchema>;

const openServiceStore = (config: Config, poolSize?: number) =>
  openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize });

/** What happens once per start, before any process serves: migrate, seed the demo team when empty, sync the catalogue. */
async function prepareStore(config: Config): Promise<ServiceStore> {
  let store = await openServiceStore(config);
  if (config.DEMO_API_KEY && !(await demoTeam(store.db))) {
    // A first start: seed in a process of its own, so its garbage and the store's grown memory go with it.
    await store.close();
    await runSeedProcess();
    store = await openServiceStore(config);
  }
  await seedStore(store.db, config.DEMO_API_KEY); // what is missing only: on a seeded store, the catalogue's sync
  await ensureWebhookDispatcher(store.db);
  return store;
}

/** One serving process: the HTTP app, its background job workers and its reader pool. */
async function serve(config: Config, store: ServiceStore, processes = 1) {
  // Uploaded reports are read in sandboxed reader processes, never on this event loop. Several
  // service processes share the one machine's readers (one per core, at most four), at least one each.
  const readers = new ReaderPool(processes > 1 ? { size: Math.max(1, Math.ceil(DEFAULT_READERS / processes)) } : {});
  const app = await buildServiceApp({
    readers,
    db: store.db,
    notifications: store.notifications,
    adminToken: config.SERVICE_ADMIN_TOKEN,
    logger: { level: config.LOG_LEVEL, redact: serviceLoggerRedact },
    webhookAllowPrivateUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS,
  });
  if (cluster.isWorker && process.env.LABDESK_PROCESS_HEADER === '1') {
    // Tests only: which of the processes sharing the port answered.
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('x-labdesk-pid', String(process.pid));
    });
  }
  // Background work (order lifecycle, …) runs beside the HTTP server and stops before the store closes.
  const handlers = jobHandlers(store.db, { webhooks: { allowPrivateUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS }, parse: readers.parse });
  const onError = (kind: string, err: unknown) =>
    app.log.warn({ kind, err: safeError(err) }, 'background job failed');
  // Each worker sleeps until its next job is due and is woken by the store when one is enqueued
  // (LISTEN/NOTIFY): an idle service asks the store nothing for a minute at a time.
  const { notifications } = store;
  const worker = new JobWorker(store.db, handlers, {
    onError,
    notifications,
    excludeKinds: [WEBHOOK_DELIVER_KIND, PARSE_JOB_KIND],
    onDemandKinds: [WEBHOOK_DISPATCH_KIND],
  });
  // Webhook attempts wait on receivers (up to 10 s each): workers of their own, so a slow receiver
  // never holds up a booking or the order lifecycle, and one hanging receiver not every delivery.
  const webhookWorkers = Array.from({ length: 2 }, () => new JobWorker(store.db, handlers, { onError, notifications, kinds: [WEBHOOK_DELIVER_KIND], batchSize: 5 }));
  // One parse worker per reader, claiming fairly across teams: a team holds at most half of them
  // (of every process's readers: the cap counts leases in the shared job table), so another team's
  // report starts at once beside a backlog. The lease outlasts the reader's own time limit, so a
  // restart picks an interrupted parse up again.
  const parseWorkers = Array.from(
    { length: readers.size },
    () => new JobWorker(store.db, handlers, { onError, notifications, kinds: [PARSE_JOB_KIND], leaseMs: 10 * 60_000, fair: { perKey: parsePerTeam(readers.size * processes) } }),
  );
  app.addHook('onClose', () => readers.close());
  for (const w of [worker, ...webhookWorkers, ...parseWorkers]) {
    w.start();
    app.addHook('onClose', () => w.stop());
  }

  await app.listen({ port: config.SERVICE_PORT, host: config.HOST });

  return { app, store };
}

/**
 * The service process. With one process (always on the embedded store) it prepares its store and
 * serves. With SERVICE_WORKERS > 1 on PostgreSQL this is the cluster's primary: it prepares the
 * store once, keeps it (to free the job leases of a worker that dies) and forks the
 * workers, which share SERVICE_PORT and the job table; see server/service/cluster.ts.
 */
async function main() {
  const config = loadConfig();
  if (cluster.isWorker) return serve(config, await openServiceStore(config), serviceWorkerCount(config).count);
  const { count, note } = serviceWorkerCount(config);
  if (note) console.warn(`service: ${note}`);
  const store = await prepareStore(config);
  if (count === 1) return serve(config, store);

  // The primary keeps the store it prepared, to free the job leases of a worker that dies (its pool
  // lets idle connections go, so an idle primary holds none).
  const workers = new ServiceCluster({
    count,
    fork: (env) => cluster.fork(env),
    releaseLeases: (prefix) => releaseLeases(store.db, prefix),
    log: (message) => console.log(`service: ${message}`),
    onFatal: (message) => {
      console.error(`service: ${message}`);
      process.exit(EXIT_CANNOT_START);
    },
  });
  try {
    await workers.start();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  console.log(`service: ${count} worker processes on ${config.HOST}:${config.SERVICE_PORT} (${workers.pids().join(', ')})`);
  return { app: workers, store };
}

function runSeedProcess(): Promise<void> {
  const { script, execArgv } = nodeEntry('seed');
  const child = fork(script, [], { execArgv, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seeding the demo team failed (exit ${code})`))));
  });
}

runServerProcess('service', main);
