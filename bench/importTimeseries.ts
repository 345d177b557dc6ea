import { randomBytes, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { count, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { TIMESERIES_IMPORT_MAX_POINTS } from '../server/contract';
import { repoPath } from '../server/lib/entries';
import { buildServiceApp } from '../server/service/app';
import { mindfulnessMinutes, serviceSchema, users } from '../server/service/db/schema';
import { createTeam } from '../server/service/domain/teams';
import { openStore } from '../server/store/db';

/**
 * Bulk import of wearable timeseries, rows per second: `points` mindfulness sessions of 100 users
 * posted to POST /v2/timeseries/mindfulness_minutes/import (the real route, through `app.inject`:
 * JSON parsing, schema validation, one transaction and one unnest insert per request) in requests
 * of `batch` points, on a fresh in-memory embedded store and, when BENCH_DATABASE_URL is set, on
 * PostgreSQL (in a database of its own, dropped afterwards). Then the same points again: the
 * idempotent re-import, where every point is found already stored.
 *
 *   node --import tsx bench/importTimeseries.ts            # or: npm run bench:import
 *   BENCH_POINTS=20000 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:import
 */

export interface ImportBenchResult {
  store: 'pglite' | 'postgres';
  points: number;
  batch: number;
  seconds: number;
  rowsPerSecond: number;
  reimportSeconds: number;
  reimportRowsPerSecond: number;
}

const USERS = 100;

export async function benchImportTimeseries(opts: { points?: number; batch?: number; databaseUrl?: string } = {}): Promise<ImportBenchResult> {
  const total = opts.points ?? 100_000;
  const batch = Math.min(opts.batch ?? TIMESERIES_IMPORT_MAX_POINTS, TIMESERIES_IMPORT_MAX_POINTS);
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (opts.databaseUrl) {
    const name = `labdesk_bench_${randomBytes(5).toString('hex')}`;
    const admin = async (statement: string) => {
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      await c.connect();
      try {
        await c.query(statement);
      } finally {
        await c.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    dropDatabase = () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const url = new URL(opts.databaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder: repoPath('server/service/db/migrations'), databaseUrl });
  const app = await buildServiceApp({ db: store.db });
  try {
    await app.ready();
    const { teamId, apiKey } = await createTeam(store.db, 'Import bench');
    const ids = Array.from({ length: USERS }, () => randomUUID());
    await store.db.insert(users).values(ids.map((id, i) => ({ id, teamId, clientUserId: `bench-${i}` })));

    // The request bodies, built before the clock starts: what a client sends, not how it builds it.
    const bodies: string[] = [];
    const t0 = Date.UTC(2025, 0, 1);
    for (let from = 0; from < total; from += batch) {
      const points = [];
      for (let i = from; i < Math.min(total, from + batch); i++) {
        const start = t0 + Math.floor(i / USERS) * 3_600_000 + (i % 7) * 60_000;
        points.push({
          user_id: ids[i % USERS],
          provider: ['oura', 'garmin', 'apple_health_kit'][i % 3],
          source_type: 'device',
          start: new Date(start).toISOString(),
          end: new Date(start + 600_000).toISOString(),
          value: 10 + (i % 20),
          timezone_offset: i % 2 ? 3600 : null,
        });
      }
      bodies.push(JSON.stringify({ points }));
    }
    const run = async () => {
      const started = performance.now();
      let imported = 0;
      for (const payload of bodies) {
        const r = await app.inject({ method: 'POST', url: '/v2/timeseries/mindfulness_minutes/import', headers: { 'x-service-api-key': apiKey, 'content-type': 'application/json' }, payload });
        if (r.statusCode !== 200) throw new Error(`import answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
        imported += (r.json() as { imported: number }).imported;
      }
      return { seconds: (performance.now() - started) / 1000, imported };
    };
    const first = await run();
    const again = await run();
    const [{ n } = { n: 0 }] = await store.db.select({ n: count() }).from(mindfulnessMinutes).where(inArray(mindfulnessMinutes.userId, ids));
    if (first.imported !== total || again.imported !== 0 || n !== total) {
      throw new Error(`expected ${total} points stored once; first run ${first.imported}, second ${again.imported}, stored ${n}`);
    }
    await store.db.delete(users).where(eq(users.teamId, teamId));
    return {
      store: store.kind,
      points: total,
      batch,
      seconds: first.seconds,
      rowsPerSecond: total / first.seconds,
      reimportSeconds: again.seconds,
      reimportRowsPerSecond: total / again.seconds,
    };
  } finally {
    await app.close();
    await store.close();
    await dropDatabase();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const points = process.env.BENCH_POINTS ? Number(process.env.BENCH_POINTS) : undefined;
  const batch = process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined;
  const targets = [undefined, ...(process.env.BENCH_DATABASE_URL ? [process.env.BENCH_DATABASE_URL] : [])];
  console.log('store      points  batch  import s   rows/s  re-import s   rows/s');
  for (const databaseUrl of targets) {
    const r = await benchImportTimeseries({ points, batch, databaseUrl });
    console.log(
      `${r.store.padEnd(8)} ${String(r.points).padStart(8)} ${String(r.batch).padStart(6)} ${r.seconds.toFixed(2).padStart(9)} ${Math.round(r.rowsPerSecond).toString().padStart(8)} ${r.reimportSeconds.toFixed(2).padStart(12)} ${Math.round(r.reimportRowsPerSecond).toString().padStart(8)}`,
    );
  }
}
