import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { repoPath } from '../server/lib/entries';
import { seededRandom } from '../server/lib/random';
import { openStore } from '../server/store/db';
import { serviceSchema } from '../server/service/db/schema';
import { syncProviderCatalogue } from '../server/service/domain/providers';
import { seedDemoIfEmpty } from '../server/service/seed/demo';
import { seedDemoLabReports } from '../server/service/seed/demoLabReports';
import { seedDemoOrders } from '../server/service/seed/demoOrders';
import { startLabCatalogue } from '../server/service/seed/labCatalogue';

/**
 * Times a full demo seed (what the first `npm start` does in its seeding process: provider
 * catalogue, lab catalogue, the demo team's 300 users and their sessions, orders, lab reports) on a
 * fresh in-memory embedded store, phase by phase.
 *
 *   node --import tsx bench/seed.ts          # prints the phases and the total
 *   import { benchSeed } from './bench/seed' # { totalMs, phases } for a one-command benchmark
 */

export interface SeedBenchResult {
  /** Milliseconds of the seed itself (every phase but opening and migrating the store). */
  totalMs: number;
  /** CPU milliseconds (user + system) of this process over the same phases: the embedded store runs in it, so this is all the seed's work, and far less sensitive to other load on the machine than the wall clock. */
  cpuMs: number;
  /** Opening and migrating the fresh store (not part of totalMs). */
  openMs: number;
  phases: { name: string; ms: number; cpuMs: number }[];
}

export async function benchSeed(opts: { users?: number } = {}): Promise<SeedBenchResult> {
  const t0 = performance.now();
  const store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder: repoPath('server/service/db/migrations') });
  const openMs = performance.now() - t0;
  const phases: { name: string; ms: number; cpuMs: number }[] = [];
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const out = await run();
    const used = process.cpuUsage(cpu);
    phases.push({ name, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 });
    return out;
  };
  try {
    const db = store.db;
    await phase('provider catalogue', () => syncProviderCatalogue(db));
    await phase('lab catalogue', () => startLabCatalogue(db));
    const teamId = await phase('users and sessions', () => seedDemoIfEmpty(db, { apiKey: 'bench-seed-demo-key-0123456789', users: opts.users }));
    if (!teamId) throw new Error('the fresh store was not empty');
    await phase('orders', () => seedDemoOrders(db, teamId, seededRandom(20261121)));
    await phase('lab reports', () => seedDemoLabReports(db, teamId));
  } finally {
    await store.close();
  }
  return { totalMs: phases.reduce((sum, p) => sum + p.ms, 0), cpuMs: phases.reduce((sum, p) => sum + p.cpuMs, 0), openMs, phases };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchSeed({ users: process.env.BENCH_USERS ? Number(process.env.BENCH_USERS) : undefined });
  console.log(`store opened and migrated in ${(result.openMs / 1000).toFixed(2)} s`);
  const row = (name: string, ms: number, cpuMs: number) => console.log(`${name.padEnd(20)} ${(ms / 1000).toFixed(2).padStart(7)} s wall ${(cpuMs / 1000).toFixed(2).padStart(7)} s CPU`);
  for (const p of result.phases) row(p.name, p.ms, p.cpuMs);
  row('demo seed', result.totalMs, result.cpuMs);
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (${os.availableParallelism()} cores)`);
}
