/**
 * The multi-process service's primary (server/service/cluster.ts) without real processes: worker
 * processes are stand-ins, the store is real (the embedded one, and PostgreSQL with
 * TEST_DATABASE_URL). A worker that exits has its job leases freed at once, and only its own; it
 * is replaced; shutdown stops every worker. The real processes: test/service/cluster.test.ts.
 */
import { EventEmitter } from 'node:events';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, type ServiceSchema } from '../../server/service/db/schema';
import { serviceWorkerCount, ServiceCluster, type WorkerProcess } from '../../server/service/cluster';
import { JOBS_CHANNEL, LEASE_TAG_ENV, leaseOwnerPrefix, processLeasePrefix, releaseLeases, JobWorker } from '../../server/service/jobs/queue';
import type { Database, Store } from '../../server/store/db';
import { openTestStore, storeKinds, type TestDatabase } from './harness';

describe('serviceWorkerCount', () => {
  it('one per core on PostgreSQL unless SERVICE_WORKERS says; always one (with a note when more were asked) on the embedded store', () => {
    const url = 'postgres://x@localhost/db';
    expect(serviceWorkerCount({ DATABASE_URL: url, SERVICE_WORKERS: undefined }, 6)).toEqual({ count: 6 });
    expect(serviceWorkerCount({ DATABASE_URL: url, SERVICE_WORKERS: 3 }, 6)).toEqual({ count: 3 });
    expect(serviceWorkerCount({ DATABASE_URL: url, SERVICE_WORKERS: 1 }, 6)).toEqual({ count: 1 });
    expect(serviceWorkerCount({ DATABASE_URL: undefined, SERVICE_WORKERS: undefined }, 6)).toEqual({ count: 1 });
    expect(serviceWorkerCount({ DATABASE_URL: undefined, SERVICE_WORKERS: 1 }, 6)).toEqual({ count: 1 });
    const pglite = serviceWorkerCount({ DATABASE_URL: undefined, SERVICE_WORKERS: 4 }, 6);
    expect(pglite.count).toBe(1);
    expect(pglite.note).toMatch(/SERVICE_WORKERS=4 ignored: the embedded PGlite store is owned by one process/);
  });

  it('a JobWorker leases under this process`s prefix: its pid, then its tag', () => {
    expect(new JobWorker({} as never, {}).workerId.startsWith(processLeasePrefix)).toBe(true);
    expect(processLeasePrefix).toMatch(new RegExp(`^w-${process.pid}-[0-9a-f]+-$`));
  });
});

/** A stand-in for a cluster worker: exits when told to (SIGTERM), or when the test kills it. */
class FakeWorker extends EventEmitter implements WorkerProcess {
  readonly signals: string[] = [];
  exited = false;
  readonly process: WorkerProcess['process'];
  constructor(
    pid: number,
    readonly env: Record<string, string>,
    /** Ignores SIGTERM (a worker stuck closing): only SIGKILL ends it. */
    stubborn = false,
  ) {
    super();
    this.process = {
      pid,
      kill: (signal: NodeJS.Signals = 'SIGTERM') => {
        this.signals.push(signal);
        if (signal === 'SIGKILL' || !stubborn) setImmediate(() => this.exit(signal === 'SIGKILL' ? null : 0, signal === 'SIGKILL' ? 'SIGKILL' : null));
        return true;
      },
    };
    setImmediate(() => this.emit('listening'));
  }
  exit(code: number | null, signal: string | null) {
    if (this.exited) return;
    this.exited = true;
    this.emit('exit', code, signal);
  }
  get prefix() {
    return leaseOwnerPrefix(this.process.pid!, this.env[LEASE_TAG_ENV]!);
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T> | T, limitMs = 30_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${limitMs / 1000} s for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(storeKinds)('the primary frees a dead worker`s job leases (%s)', (kind) => {
  let store: Store<ServiceSchema>;
  let database: TestDatabase;
  let db: Database<ServiceSchema>;

  beforeAll(async () => {
    ({ store, database } = await openTestStore(kind));
    db = store.db;
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await db.delete(jobs);
  });

  const inAnHour = () => new Date(Date.now() + 3_600_000);
  /** A job leased by `owner` for an hour (a parse's lease is ten minutes), or settled already. */
  async function leased(owner: string, jobKind = 'test.kind', settled: 'done' | 'failed' | null = null): Promise<number> {
    const [row] = await db
      .insert(jobs)
      .values({
        kind: jobKind,
        payload: {},
        runAt: new Date(Date.now() - 1000),
        attempts: 1,
        lockedBy: owner,
        lockedUntil: inAnHour(),
        doneAt: settled === 'done' ? new Date() : null,
        failedAt: settled === 'failed' ? new Date() : null,
      })
      .returning({ id: jobs.id });
    return row!.id;
  }
  const owners = async (ids: number[]) => {
    const rows = await db.select({ id: jobs.id, lockedBy: jobs.lockedBy, lockedUntil: jobs.lockedUntil }).from(jobs).where(inArray(jobs.id, ids));
    return Object.fromEntries(rows.map((r) => [r.id, r.lockedBy]));
  };

  it('releaseLeases frees exactly the unfinished jobs whose owner starts with the prefix, and wakes their kinds', async () => {
    const dead = leaseOwnerPrefix(12, 'abc123');
    const mine = [await leased(`${dead}aaaaaa`, 'k.one'), await leased(`${dead}bbbbbb`, 'k.one'), await leased(`${dead}cccccc`, 'k.two')];
    const others = [
      await leased(`${leaseOwnerPrefix(123, 'abc123')}aaaaaa`, 'k.one'), // another pid that starts with the same digits
      await leased(`${leaseOwnerPrefix(12, 'abc1234')}aaaaaa`, 'k.one'), // the same pid on another machine
      await leased('w-dead', 'k.one'),
    ];
    const settled = [await leased(`${dead}dddddd`, 'k.one', 'done'), await leased(`${dead}eeeeee`, 'k.one', 'failed')];
    const heard: string[] = [];
    const unlisten = await store.notifications.listen(JOBS_CHANNEL, (p) => heard.push(p));
    try {
      expect(await releaseLeases(db, dead)).toEqual({ 'k.one': 2, 'k.two': 1 });
      const after = await owners([...mine, ...others, ...settled]);
      for (const id of mine) expect(after[id]).toBeNull();
      for (const id of [...others, ...settled]) expect(after[id]).not.toBeNull();
      const [row] = await db.select().from(jobs).where(eq(jobs.id, mine[0]!));
      expect([row!.lockedUntil, row!.attempts, row!.doneAt, row!.failedAt]).toEqual([null, 1, null, null]);
      await waitFor('the released kinds announced', () => heard.includes('k.one') && heard.includes('k.two'));
      // A released job is claimed at once (no waiting for the hour-long lease).
      const ran: number[] = [];
      const w = new JobWorker(db, { 'k.one': async (_p, ctx) => void ran.push(ctx.jobId), 'k.two': async (_p, ctx) => void ran.push(ctx.jobId) });
      await w.runDueOnce();
      expect(ran.sort()).toEqual([...mine].sort());
      // Again: nothing left of that owner.
      expect(await releaseLeases(db, dead)).toEqual({});
    } finally {
      unlisten();
    }
    await expect(releaseLeases(db, "w-1-x' OR true --")).rejects.toThrow(/not a lease owner prefix/);
  });

  it('a worker that dies has its leases (only its) freed and is replaced; shutdown stops every worker', async () => {
    const forked: FakeWorker[] = [];
    const logs: string[] = [];
    const cluster = new ServiceCluster({
      count: 2,
      fork: (env) => {
        const w = new FakeWorker(50_000 + forked.length, env, forked.length === 1);
        forked.push(w);
        return w;
      },
      releaseLeases: (prefix) => releaseLeases(db, prefix),
      log: (m) => logs.push(m),
      firstDelayMs: 10,
      stopTimeoutMs: 200,
    });
    await cluster.start();
    expect(forked).toHaveLength(2);
    const [a, b] = forked as [FakeWorker, FakeWorker];
    expect(a.env[LEASE_TAG_ENV]).toMatch(/^[0-9a-f]{12}$/);
    expect(a.env[LEASE_TAG_ENV]).not.toBe(b.env[LEASE_TAG_ENV]);
    const ofA = [await leased(`${a.prefix}000001`, 'appointment.confirm'), await leased(`${a.prefix}000002`, 'parse')];
    const ofB = [await leased(`${b.prefix}000001`, 'parse')];

    a.exit(null, 'SIGKILL');
    await waitFor('worker a`s leases released', async () => Object.values(await owners(ofA)).every((o) => o === null));
    expect(await owners(ofB)).toEqual({ [ofB[0]!]: `${b.prefix}000001` });
    await waitFor('a replacement forked', () => forked.length === 3);
    await waitFor('a log line of the release', () => logs.some((l) => /released the job leases of service worker 50000: 1 appointment\.confirm, 1 parse|1 parse, 1 appointment\.confirm/.test(l)));
    expect(logs.some((l) => /service worker 50000 exited \(SIGKILL\); starting another in 10 ms/.test(l))).toBe(true);
    expect(cluster.pids().sort()).toEqual([50_001, 50_002]);

    // b ignores SIGTERM: it is killed after the stop timeout, and its leases are freed before close resolves.
    await cluster.close();
    expect(forked[2]!.signals).toEqual(['SIGTERM']);
    expect(b.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(a.signals).toEqual([]);
    expect(await owners(ofB)).toEqual({ [ofB[0]!]: null });
    expect(forked).toHaveLength(3); // no replacement during shutdown
  });

  it('workers crashing again and again are replaced later and later', async () => {
    const forked: FakeWorker[] = [];
    const logs: string[] = [];
    const cluster = new ServiceCluster({
      count: 1,
      fork: (env) => {
        const w = new FakeWorker(60_000 + forked.length, env);
        forked.push(w);
        return w;
      },
      releaseLeases: (prefix) => releaseLeases(db, prefix),
      log: (m) => logs.push(m),
      firstDelayMs: 5,
      maxDelayMs: 40,
    });
    await cluster.start();
    for (let i = 0; i < 5; i++) {
      forked.at(-1)!.exit(1, null);
      await waitFor(`replacement ${i + 1}`, () => forked.length === i + 2);
    }
    const delays = logs.filter((l) => l.includes('starting another')).map((l) => Number(/in (\d+) ms/.exec(l)![1]));
    expect(delays).toEqual([5, 10, 20, 40, 40]);
    await cluster.close();
  });
});
