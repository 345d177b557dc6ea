import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, serviceSchema, type ServiceSchema } from '../../server/service/db/schema';
import { openStore, type Database, type Store } from '../../server/store/db';
import { backoffMs, demandJob, enqueueJob, JobWorker, type JobContext, type JobHandler } from '../../server/service/jobs/queue';
import { migrationsFolder, openTestStore, storeKinds, type TestDatabase } from './harness';

const past = () => new Date(Date.now() - 1000);

describe('backoffMs', () => {
  it('doubles from 2 s with full jitter in the upper half, capped at one hour', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(1, () => 1)).toBe(2000);
    expect(backoffMs(2, () => 0.5)).toBe(3000);
    expect(backoffMs(5, () => 1)).toBe(32_000);
    expect(backoffMs(0, () => 1)).toBe(2000);
    expect(backoffMs(40, () => 1)).toBe(3_600_000);
    expect(backoffMs(40, () => 0)).toBe(1_800_000);
  });
});

describe.each(storeKinds)('JobWorker (%s)', (kind) => {
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

  const jobRow = async (id: number) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
  const enqueue = (kind: string, payload: Record<string, unknown> = {}, opts: { runAt?: Date; maxAttempts?: number } = {}) =>
    enqueueJob(db, kind, payload, { runAt: past(), ...opts });

  it('splits work between workers by kind: a parse worker never takes a booking job, the general one never a parse', async () => {
    const ran: string[] = [];
    const handler: JobHandler = async (_p, ctx) => void ran.push(String(ctx.jobId));
    const handlers = { 'test.parse': handler, 'test.book': handler, 'test.mail': handler };
    const parse = await enqueue('test.parse');
    const book = await enqueue('test.book');
    const mail = await enqueue('test.mail');
    const parseWorker = new JobWorker(db, handlers, { kinds: ['test.parse'] });
    const general = new JobWorker(db, handlers, { excludeKinds: ['test.parse'] });
    const idle = new JobWorker(db, handlers, { kinds: [] });

    expect(await idle.runDueOnce()).toBe(0);
    expect(await parseWorker.runDueOnce()).toBe(1);
    expect(ran).toEqual([String(parse)]);
    expect(await general.runDueOnce()).toBe(2);
    expect(ran.sort()).toEqual([String(parse), String(book), String(mail)].sort());
    for (const id of [parse, book, mail]) expect((await jobRow(id)).doneAt).not.toBeNull();
  });

  it('runs each due job once, with its payload, and leaves jobs not yet due', async () => {
    const seen: { payload: Record<string, unknown>; ctx: JobContext }[] = [];
    const worker = new JobWorker(db, { 'test.echo': async (payload, ctx) => void seen.push({ payload, ctx }) });
    const a = await enqueue('test.echo', { n: 1 });
    const b = await enqueue('test.echo', { n: 2 });
    const later = await enqueue('test.echo', { n: 3 }, { runAt: new Date(Date.now() + 3_600_000) });

    expect(await worker.runDueOnce()).toBe(2);
    expect(seen).toEqual([
      { payload: { n: 1 }, ctx: { jobId: a, attempt: 1 } },
      { payload: { n: 2 }, ctx: { jobId: b, attempt: 1 } },
    ]);
    expect(await worker.runDueOnce()).toBe(0);
    expect(seen).toHaveLength(2);
    for (const id of [a, b]) {
      const row = await jobRow(id);
      expect(row.doneAt).not.toBeNull();
      expect([row.attempts, row.lockedBy, row.lockedUntil, row.failedAt, row.lastError]).toEqual([1, null, null, null, null]);
    }
    const waiting = await jobRow(later);
    expect([waiting.doneAt, waiting.attempts]).toEqual([null, 0]);
  });

  it('retries a failing job with backoff and keeps its last error; fails it for good after max attempts', async () => {
    const errors: string[] = [];
    let calls = 0;
    const worker = new JobWorker(
      db,
      {
        'test.flaky': async () => {
          calls++;
          throw new Error(`boom ${calls}`);
        },
      },
      { onError: (kind, err) => errors.push(`${kind}: ${(err as Error).message}`) },
    );
    const id = await enqueue('test.flaky', {}, { maxAttempts: 3 });

    const before = Date.now();
    expect(await worker.runDueOnce()).toBe(1);
    let row = await jobRow(id);
    expect([row.attempts, row.lastError, row.doneAt, row.failedAt, row.lockedBy]).toEqual([1, 'boom 1', null, null, null]);
    // Attempt 1 backs off 1 to 2 s.
    expect(row.runAt.getTime() - before).toBeGreaterThanOrEqual(900);
    expect(row.runAt.getTime() - Date.now()).toBeLessThanOrEqual(2000);
    expect(await worker.runDueOnce()).toBe(0);

    await db.update(jobs).set({ runAt: past() }).where(eq(jobs.id, id));
    const second = Date.now();
    expect(await worker.runDueOnce()).toBe(1);
    row = await jobRow(id);
    expect([row.attempts, row.lastError]).toEqual([2, 'boom 2']);
    // Attempt 2 backs off 2 to 4 s.
    expect(row.runAt.getTime() - second).toBeGreaterThanOrEqual(1900);
    expect(row.runAt.getTime() - Date.now()).toBeLessThanOrEqual(4000);

    await db.update(jobs).set({ runAt: past() }).where(eq(jobs.id, id));
    expect(await worker.runDueOnce()).toBe(1);
    row = await jobRow(id);
    expect(row.failedAt).not.toBeNull();
    expect([row.attempts, row.lastError, row.doneAt, row.lockedBy]).toEqual([3, 'boom 3', null, null]);
    // A failed job is never claimed again.
    await db.update(jobs).set({ runAt: past() }).where(eq(jobs.id, id));
    expect(await worker.runDueOnce()).toBe(0);
    expect(calls).toBe(3);
    expect(errors).toEqual(['test.flaky: boom 1', 'test.flaky: boom 2', 'test.flaky: boom 3']);
  });

  it('a job that succeeds after failing is done, with the error of the failed attempt kept', async () => {
    let calls = 0;
    const worker = new JobWorker(db, {
      'test.once': async () => {
        if (++calls === 1) throw new Error('first try fails');
      },
    });
    const id = await enqueue('test.once');
    await worker.runDueOnce();
    await db.update(jobs).set({ runAt: past() }).where(eq(jobs.id, id));
    expect(await worker.runDueOnce()).toBe(1);
    const row = await jobRow(id);
    expect(row.doneAt).not.toBeNull();
    expect([row.attempts, row.failedAt, row.lastError]).toEqual([2, null, 'first try fails']);
  });

  it('answers {retryAt}: runs again then, without counting an attempt or an error', async () => {
    const at = new Date(Date.now() + 120_000);
    let calls = 0;
    const worker = new JobWorker(db, {
      'test.wait': async () => {
        calls++;
        return calls === 1 ? { retryAt: at } : undefined;
      },
    });
    const id = await enqueue('test.wait');
    expect(await worker.runDueOnce()).toBe(1);
    let row = await jobRow(id);
    expect(row.runAt.getTime()).toBe(at.getTime());
    expect([row.attempts, row.doneAt, row.failedAt, row.lastError, row.lockedBy, row.lockedUntil]).toEqual([0, null, null, null, null, null]);
    expect(await worker.runDueOnce()).toBe(0);

    await db.update(jobs).set({ runAt: past() }).where(eq(jobs.id, id));
    expect(await worker.runDueOnce()).toBe(1);
    row = await jobRow(id);
    expect(row.doneAt).not.toBeNull();
    expect(row.attempts).toBe(1);
    expect(calls).toBe(2);
  });

  it('fails a job of an unknown kind like any failing job, naming the kind', async () => {
    const errors: string[] = [];
    const worker = new JobWorker(db, {}, { onError: (kind) => errors.push(kind) });
    const retried = await enqueue('test.nobody');
    const once = await enqueue('test.nobody', {}, { maxAttempts: 1 });
    expect(await worker.runDueOnce()).toBe(2);
    expect((await jobRow(retried)).lastError).toBe('no handler for job kind test.nobody');
    expect((await jobRow(retried)).failedAt).toBeNull();
    expect((await jobRow(once)).failedAt).not.toBeNull();
    expect(errors).toEqual(['test.nobody', 'test.nobody']);
  });

  it('claims at most batchSize jobs a round, the oldest due ones', async () => {
    const order: number[] = [];
    const worker = new JobWorker(db, { 'test.n': async (p) => void order.push(p.n as number) }, { batchSize: 3 });
    for (const [n, secondsAgo] of [
      [1, 10],
      [2, 50],
      [3, 30],
      [4, 20],
      [5, 40],
    ]) {
      await enqueue('test.n', { n }, { runAt: new Date(Date.now() - secondsAgo! * 1000) });
    }
    // Which jobs a round claims follows run_at; the order within a round is the store's.
    expect(await worker.runDueOnce()).toBe(3);
    expect([...order].sort()).toEqual([2, 3, 5]);
    expect(await worker.runDueOnce()).toBe(2);
    expect(order.slice(3).sort()).toEqual([1, 4]);
  });

  it('re-runs a job whose lease ran out (its worker hung or died) on another worker, not before', async () => {
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const runs: string[] = [];
    const a = new JobWorker(db, { 'test.lease': async () => (runs.push('a'), hung) }, { leaseMs: 1000 });
    const b = new JobWorker(db, { 'test.lease': async () => void runs.push('b') }, { leaseMs: 1000 });
    const id = await enqueue('test.lease');

    const aRound = a.runDueOnce();
    await expect.poll(() => runs).toEqual(['a']);
    const leased = await jobRow(id);
    expect(leased.lockedBy).toBe(a.workerId);
    expect(leased.lockedUntil!.getTime()).toBeGreaterThan(Date.now() - 500);
    // Still leased: the other worker leaves it alone.
    expect(await b.runDueOnce()).toBe(0);

    await new Promise((r) => setTimeout(r, 1300));
    expect(await b.runDueOnce()).toBe(1);
    expect(runs).toEqual(['a', 'b']);
    const row = await jobRow(id);
    expect(row.doneAt).not.toBeNull();
    expect(row.attempts).toBe(2);

    release();
    expect(await aRound).toBe(1);
  });

  it('picks up a job leased by a worker that is gone (lease in the past), as after a crash', async () => {
    const id = await enqueue('test.crash');
    await db
      .update(jobs)
      .set({ lockedBy: 'w-dead', lockedUntil: sql`now() - interval '5 seconds'`, attempts: 1 })
      .where(eq(jobs.id, id));
    const ctxs: JobContext[] = [];
    const worker = new JobWorker(db, { 'test.crash': async (_p, ctx) => void ctxs.push(ctx) });
    expect(await worker.runDueOnce()).toBe(1);
    expect(ctxs).toEqual([{ jobId: id, attempt: 2 }]);
  });

  it('start() polls until stop(); stop() waits for the running round', async () => {
    const ran: number[] = [];
    const worker = new JobWorker(db, { 'test.poll': async (p) => void ran.push(p.n as number) }, { pollMs: 20 });
    await enqueue('test.poll', { n: 1 });
    worker.start();
    await expect.poll(() => ran).toEqual([1]);
    await enqueue('test.poll', { n: 2 });
    await expect.poll(() => ran).toEqual([1, 2]);
    await worker.stop();
    await enqueue('test.poll', { n: 3 });
    await new Promise((r) => setTimeout(r, 100));
    expect(ran).toEqual([1, 2]);
  });

  it('two workers racing over the same jobs never run one twice', async () => {
    // On PostgreSQL the second worker is another store (its own pool), as another process would be.
    const second = kind === 'postgres' ? await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: database.databaseUrl }) : null;
    try {
      const N = 120;
      const ran = new Map<number, string[]>();
      const handler =
        (name: string): JobHandler =>
        async (p) => {
          ran.set(p.n as number, [...(ran.get(p.n as number) ?? []), name]);
          await new Promise((r) => setTimeout(r, Math.random() * 3));
        };
      for (let n = 0; n < N; n++) await enqueue('test.race', { n });
      const workers = [
        new JobWorker(db, { 'test.race': handler('a') }, { batchSize: 4 }),
        new JobWorker(second?.db ?? db, { 'test.race': handler('b') }, { batchSize: 4 }),
        new JobWorker(second?.db ?? db, { 'test.race': handler('c') }, { batchSize: 4 }),
      ];
      const loop = async (w: JobWorker) => {
        let total = 0;
        for (;;) {
          const n = await w.runDueOnce();
          if (n === 0) return total;
          total += n;
        }
      };
      const totals = await Promise.all(workers.map(loop));
      expect(totals.reduce((a, b) => a + b, 0)).toBe(N);
      expect(ran.size).toBe(N);
      for (const [n, by] of ran) expect(by, `job ${n}`).toHaveLength(1);
      if (kind === 'postgres') {
        // Real concurrency: more than one worker got work.
        expect(totals.filter((t) => t > 0).length).toBeGreaterThan(1);
      }
      const rows = await db.select().from(jobs).orderBy(asc(jobs.id));
      expect(rows.every((r) => r.doneAt !== null && r.attempts === 1)).toBe(true);
    } finally {
      await second?.close();
    }
  });

  describe('fair claiming across teams', () => {
    const KIND = 'test.fair';
    const enqueueFor = (team: string) => enqueueJob(db, KIND, { team }, { runAt: past(), fairKey: team });

    /** A handler whose jobs run until the test lets them finish, recording the order they started in. */
    function heldHandler() {
      const started: string[] = [];
      const release = new Map<number, () => void>();
      const handler: JobHandler = (payload, ctx) =>
        new Promise<void>((resolve) => {
          started.push(String(payload.team));
          release.set(ctx.jobId, resolve);
        });
      const waitStarted = async (n: number) => {
        for (let i = 0; i < 200 && started.length < n; i++) await new Promise((r) => setTimeout(r, 10));
        expect(started.length).toBe(n);
      };
      return { started, release, handler, waitStarted };
    }

    it("a team's backlog never holds up another team: with two workers and one per team, the second team starts at once", async () => {
      const held = heldHandler();
      for (let i = 0; i < 5; i++) await enqueueFor('team-b');
      await enqueueFor('team-a'); // uploaded last, behind team B's five
      const workers = [0, 1].map(() => new JobWorker(db, { [KIND]: held.handler }, { kinds: [KIND], fair: { perKey: 1 } }));

      const first = workers[0]!.runDueOnce();
      await held.waitStarted(1);
      const second = workers[1]!.runDueOnce();
      await held.waitStarted(2);
      expect(held.started).toEqual(['team-b', 'team-a']);
      // Team B is at its cap: a third claim finds nothing it may take.
      expect(await new JobWorker(db, {}, { kinds: [KIND], fair: { perKey: 1 } }).runDueOnce()).toBe(0);

      for (const done of held.release.values()) done();
      expect(await first).toBe(1);
      expect(await second).toBe(1);
      const left = await db.select().from(jobs).where(sql`done_at IS NULL`);
      expect(left.map((j) => j.payload.team)).toEqual(['team-b', 'team-b', 'team-b', 'team-b']);
    });

    it('takes turns: the team served least recently goes next, whatever the order of uploads', async () => {
      const ran: string[] = [];
      const handler: JobHandler = async (payload) => void ran.push(String(payload.team));
      for (let i = 0; i < 3; i++) await enqueueFor('team-b');
      for (let i = 0; i < 3; i++) await enqueueFor('team-c');
      await enqueueFor('team-a');
      const worker = new JobWorker(db, { [KIND]: handler }, { kinds: [KIND], fair: { perKey: 1 } });
      while ((await worker.runDueOnce()) > 0) {
        /* one job a claim */
      }
      // Never-served teams first in upload order, then round-robin by last turn.
      expect(ran).toEqual(['team-b', 'team-c', 'team-a', 'team-b', 'team-c', 'team-b', 'team-c']);
    });

    it('two workers claiming at once never put a team past its cap', async () => {
      const held = heldHandler();
      for (let i = 0; i < 4; i++) await enqueueFor('team-b');
      const workers = [0, 1, 2].map(() => new JobWorker(db, { [KIND]: held.handler }, { kinds: [KIND], fair: { perKey: 1 } }));
      const runs = workers.map((w) => w.runDueOnce());
      await held.waitStarted(1);
      await new Promise((r) => setTimeout(r, 200));
      expect(held.started).toEqual(['team-b']);
      for (const done of held.release.values()) done();
      expect((await Promise.all(runs)).reduce((a, b) => a + b, 0)).toBe(1);
    });
  });

  describe('sleeping until work is due (LISTEN/NOTIFY)', () => {
    /** The store as the worker sees it, counting the statements the worker sends. */
    const counting = () => {
      const counter = { statements: 0 };
      const proxy = new Proxy(db, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (prop === 'execute' || prop === 'transaction') {
            return (...args: unknown[]) => {
              counter.statements++;
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          }
          return value;
        },
      });
      return { db: proxy, counter };
    };

    it('runs a job enqueued while it sleeps at once, and one enqueued for later when it falls due, asking the store nothing in between', async () => {
      const ran: { id: number; at: number }[] = [];
      const { db: watched, counter } = counting();
      const worker = new JobWorker(watched, { 'test.wake': async (_p, ctx) => void ran.push({ id: ctx.jobId, at: Date.now() }) }, {
        notifications: store.notifications,
        idleMs: 60_000,
      });
      worker.start();
      try {
        await expect.poll(() => counter.statements).toBeGreaterThanOrEqual(2); // first look, then asleep
        const asleep = counter.statements;
        await new Promise((r) => setTimeout(r, 1500));
        // A polling worker would have looked three times by now.
        expect(counter.statements).toBe(asleep);

        const now = await enqueueJob(db, 'test.wake', {});
        await expect.poll(() => ran.map((r) => r.id), { timeout: 5000 }).toEqual([now]);

        const dueAt = Date.now() + 1500;
        const later = await enqueueJob(db, 'test.wake', {}, { runAt: new Date(dueAt) });
        await expect.poll(() => ran.map((r) => r.id), { timeout: 10_000 }).toEqual([now, later]);
        expect(ran[1]!.at).toBeGreaterThanOrEqual(dueAt - 50);
      } finally {
        await worker.stop();
      }
    });

    it('pulls an on-demand job forward when asked, and again after a run that was busy when asked', async () => {
      let runs = 0;
      let release = () => {};
      const handler: JobHandler = async () => {
        runs++;
        if (runs === 1) await new Promise<void>((r) => (release = r));
        return { retryAt: new Date(Date.now() + 3_600_000) };
      };
      await enqueue('test.recurring', {}, { runAt: past() });
      const worker = new JobWorker(db, { 'test.recurring': handler }, { notifications: store.notifications, onDemandKinds: ['test.recurring'] });
      worker.start();
      try {
        await expect.poll(() => runs).toBe(1); // running, and holding on
        await db.transaction((tx) => demandJob(tx, 'test.recurring'));
        await new Promise((r) => setTimeout(r, 300));
        release();
        // Its own run rescheduled it an hour ahead, but the demand made while it ran is served after it.
        await expect.poll(() => runs, { timeout: 5000 }).toBe(2);
        await db.transaction((tx) => demandJob(tx, 'test.recurring'));
        await expect.poll(() => runs, { timeout: 5000 }).toBe(3);
        // A demand rolled back is never heard.
        await db.transaction(async (tx) => {
          await demandJob(tx, 'test.recurring');
          tx.rollback();
        }).catch(() => {});
        await new Promise((r) => setTimeout(r, 1000));
        expect(runs).toBe(3);
      } finally {
        await worker.stop();
      }
    });

    it.runIf(kind === 'postgres')('wakes a worker of another process when a job is enqueued there', async () => {
      const other = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: database.databaseUrl });
      const ran: number[] = [];
      const worker = new JobWorker(other.db, { 'test.remote': async (_p, ctx) => void ran.push(ctx.jobId) }, { notifications: other.notifications, idleMs: 60_000 });
      worker.start();
      try {
        await new Promise((r) => setTimeout(r, 500));
        const id = await enqueueJob(db, 'test.remote', {});
        await expect.poll(() => ran, { timeout: 5000 }).toEqual([id]);
      } finally {
        await worker.stop();
        await other.close();
      }
    });
  });
});
