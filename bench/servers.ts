/**
 * The servers bench/http.ts measures, one per child process so that the load generator, the
 * service and the BFF each get their own event loop (as under `npm start`). The first IPC message
 * says which one (`role`):
 *
 *   baseline   a bare node:http server answering a fixed, pre-serialised JSON body
 *   service    the real service on an in-memory PGlite store with the demo team seeded
 *   bff        the real BFF on its own in-memory store with one staff member
 *
 * The child answers `{ ready: ... }` once it listens on 127.0.0.1 (port chosen by the OS), and
 * stops when the IPC channel closes or on SIGTERM.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { buildBffApp } from '../server/bff/app';
import { createStaff } from '../server/bff/auth/staff';
import { bffSchema } from '../server/bff/db/schema';
import { buildServiceApp } from '../server/service/app';
import { mindfulnessMinutes, serviceSchema, users } from '../server/service/db/schema';
import { syncProviderCatalogue } from '../server/service/domain/providers';
import { seedDemoIfEmpty } from '../server/service/seed/demo';
import { openStore } from '../server/store/db';

export interface BaselineSetup {
  role: 'baseline';
  /** The exact bytes to answer every request with. */
  body: string;
}
export interface ServiceSetup {
  role: 'service';
  apiKey: string;
  users: number;
}
export interface BffSetup {
  role: 'bff';
  serviceBaseUrl: string;
  serviceApiKey: string;
  email: string;
  password: string;
}
export type Setup = BaselineSetup | ServiceSetup | BffSetup;

export interface Ready {
  ready: { port: number; seedSeconds?: number; heavyUserId?: string; heavyUserPoints?: number };
}
export interface Failed {
  error: string;
}

type Stop = () => Promise<void>;
interface Started {
  port: number;
  stop: Stop;
  /** What the orchestrator needs besides the port. */
  info?: Omit<Ready['ready'], 'port'>;
}

async function startBaseline(setup: BaselineSetup): Promise<Started> {
  const body = Buffer.from(setup.body, 'utf8');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function startService(setup: ServiceSetup): Promise<Started> {
  const store = await openStore({
    part: 'service',
    schema: serviceSchema,
    migrationsFolder: fileURLToPath(new URL('../server/service/db/migrations', import.meta.url)),
  });
  await syncProviderCatalogue(store.db);
  const started = Date.now();
  await seedDemoIfEmpty(store.db, { apiKey: setup.apiKey, users: setup.users });
  const seedSeconds = (Date.now() - started) / 1000;
  // The user with the most sessions (and no ingestion bounds, so the service serves all of them).
  const [heavy] = await store.db
    .select({ userId: mindfulnessMinutes.userId, points: count() })
    .from(mindfulnessMinutes)
    .innerJoin(users, eq(users.id, mindfulnessMinutes.userId))
    .where(and(isNull(users.ingestionStart), isNull(users.ingestionEnd)))
    .groupBy(mindfulnessMinutes.userId)
    .orderBy(desc(count()))
    .limit(1);
  const app = await buildServiceApp({ db: store.db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as AddressInfo).port,
    info: { seedSeconds, heavyUserId: heavy?.userId, heavyUserPoints: heavy?.points },
    stop: async () => {
      await app.close();
      await store.close();
    },
  };
}

async function startBff(setup: BffSetup): Promise<Started> {
  const store = await openStore({
    part: 'bff',
    schema: bffSchema,
    migrationsFolder: fileURLToPath(new URL('../server/bff/db/migrations', import.meta.url)),
  });
  await createStaff(store.db, { email: setup.email, password: setup.password, role: 'coordinator', name: 'Bench Coordinator' });
  const app = await buildBffApp({
    db: store.db,
    serviceBaseUrl: setup.serviceBaseUrl,
    serviceApiKey: setup.serviceApiKey,
    sessionSecret: 'bench-session-secret-0123456789abcdef0123456789',
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as AddressInfo).port,
    stop: async () => {
      await app.close();
      await store.close();
    },
  };
}

async function start(setup: Setup): Promise<Started> {
  switch (setup.role) {
    case 'baseline':
      return startBaseline(setup);
    case 'service':
      return startService(setup);
    case 'bff':
      return startBff(setup);
  }
}

function main() {
  if (!process.send) {
    console.error('bench/servers.ts is started by bench/http.ts (it needs an IPC channel)');
    process.exit(2);
  }
  const send = (message: Ready | Failed) => process.send?.(message);
  let stop: Stop = async () => {};
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void stop()
      .catch(() => {})
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('disconnect', shutdown);
  process.once('message', (setup: Setup) => {
    start(setup).then(
      (started) => {
        stop = started.stop;
        send({ ready: { ...started.info, port: started.port } });
      },
      (err: unknown) => {
        send({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        process.exit(1);
      },
    );
  });
}

main();
