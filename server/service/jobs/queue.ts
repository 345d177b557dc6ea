import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { safeError } from '../../lib/logging';
import type { Notifications } from '../../store/notify';
import { jobs } from '../db/schema';

/**
 * Told, at commit, of every job enqueued (payload: its kind) and of work waiting for an on-demand
 * job (payload `demand:<kind>`, e.g. a webhook event for the dispatcher). Workers sleep until their
 * next job is due and wake on it, instead of polling.
 */
export const JOBS_CHANNEL = 'labdesk_jobs';
const DEMAND = 'demand:';

/** Inside the caller's transaction: an on-demand job (one that reschedules itself) should run now. */
export async function demandJob(db: Db, kind: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${JOBS_CHANNEL}, ${DEMAND + kind})`);
}

// Any drizzle database or transaction over a schema with the jobs table.
type Db = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

export interface JobContext {
  jobId: number;
  attempt: number;
}

/**
 * A handler does the job's work. It may throw (the job is retried with backoff) or answer
 * `{retryAt}` to run again later without counting a failure (e.g. waiting on a provider).
 */
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void | { retryAt: Date }>;

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** Whose work this is (a team), for workers that claim fairly. */
  fairKey?: string;
}

/**
 * Enqueue inside the caller's transaction, so the job exists exactly when the change that needs it
 * does. One statement inserts the job and announces it (as `announceJobsDue` does, delivered at commit).
 */
export async function enqueueJob(db: Db, kind: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<number> {
  // The insert as plain SQL (embedded as is, drizzle would put it in parentheses, as a subquery).
  const insert = db
    .insert(jobs)
    .values({ kind, payload, runAt: opts.runAt ?? new Date(), maxAttempts: opts.maxAttempts ?? 10, fairKey: opts.fairKey ?? null })
    .returning({ id: jobs.id });
  const result = await db.execute(sql`WITH j AS (${insert.getSQL()}) SELECT j.id, pg_notify(${JOBS_CHANNEL}, ${kind}) FROM j`);
  // The id is a bigint: node-postgres answers it as a string, PGlite as a number.
  return Number((result as unknown as { rows: { id: string | number }[] }).rows[0]!.id);
}

/** Inside the caller's transaction, after making jobs of a kind due (or due sooner) other than by enqueueing them. */
export async function announceJobsDue(db: Db, kind: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${JOBS_CHANNEL}, ${kind})`);
}

interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

export interface JobWorkerOptions {
  /**
   * The store's LISTEN/NOTIFY: the worker sleeps until its next job is due (at most `idleMs`) and
   * wakes when one is enqueued. Without it, it polls every `pollMs`.
   */
  notifications?: Notifications;
  /** Without notifications, how often to look for due jobs; with them, how soon to look again when due work could not be claimed (leased elsewhere, a team at its cap). */
  pollMs?: number;
  /** Longest sleep with notifications: a safety net for a notification lost with its connection. */
  idleMs?: number;
  /** Jobs that reschedule themselves and are pulled forward when `demandJob` asks for them. */
  onDemandKinds?: readonly string[];
  leaseMs?: number;
  batchSize?: number;
  /** Only these kinds (e.g. a worker of its own for long parses)... */
  kinds?: readonly string[];
  /** ...or every kind but these, so a minute of OCR never holds up a booking confirmation. */
  excludeKinds?: readonly string[];
  onError?: (kind: string, err: unknown) => void;
  /**
   * Claim fairly across fair keys (teams) instead of by due time alone: the key served least
   * recently goes first, and a key never holds more than `perKey` of these kinds' jobs at once,
   * so one team's backlog cannot starve another's. Needs `kinds`.
   */
  fair?: { perKey: number };
}

/** Exponential backoff with full jitter: 2 s, 4 s, 8 s … capped at one hour. */
export function backoffMs(attempt: number, random = Math.random): number {
  const cap = Math.min(3_600_000, 2000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + random() * (cap / 2));
}

/**
 * What every lease taken by a process's workers starts with (`locked_by`): its pid and a tag of that
 * process alone (pids repeat across the machines and containers that share a store).
 */
export function leaseOwnerPrefix(pid: number, tag: string): string {
  return `w-${pid}-${tag}-`;
}

/** Set by the service's primary process for each worker process it starts, so it knows whose leases to release. */
export const LEASE_TAG_ENV = 'LABDESK_LEASE_TAG';
const LEASE_TAG_RE = /^[0-9a-f]{4,32}$/;

/** This process's lease prefix: the tag its primary gave it, or a random one. */
export const processLeasePrefix = leaseOwnerPrefix(
  process.pid,
  LEASE_TAG_RE.test(process.env[LEASE_TAG_ENV] ?? '') ? process.env[LEASE_TAG_ENV]! : randomBytes(4).toString('hex'),
);

/**
 * Frees the leases of a process that is gone (every `locked_by` starting with its prefix), so its
 * unfinished jobs are claimed again now instead of when the leases run out (ten minutes for a
 * parse), and wakes the workers of those kinds. Returns the number of jobs released, by kind.
 * Only for a process known to have exited: a live one would run the same job beside its new owner.
 */
export async function releaseLeases(db: Db, ownerPrefix: string): Promise<Record<string, number>> {
  if (!/^w-\d+-[0-9a-z]+-$/i.test(ownerPrefix)) throw new Error('not a lease owner prefix');
  const result = await db.execute(sql`WITH released AS (
      UPDATE ${jobs} SET locked_until = NULL, locked_by = NULL
      WHERE left(locked_by, ${ownerPrefix.length}) = ${ownerPrefix} AND done_at IS NULL AND failed_at IS NULL
      RETURNING kind)
    SELECT kind, count(*) AS n, pg_notify(${JOBS_CHANNEL}, kind) AS notified FROM released GROUP BY kind`);
  const rows = (result as unknown as { rows: { kind: string; n: string | number }[] }).rows;
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
}

/** Leases due jobs and runs their handlers; a job whose lease ran out (crashed worker) is picked up again. */
export class JobWorker {
  private running: Promise<unknown> | null = null;
  private stopped = true;
  readonly workerId = `${processLeasePrefix}${randomBytes(3).toString('hex')}`;

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly opts: JobWorkerOptions = {},
  ) {}

  start() {
    this.stopped = false;
    this.loop = this.runLoop().catch((err) => this.opts.onError?.('poll', err));
  }

  async stop() {
    this.stopped = true;
    this.wakeUp();
    await this.loop;
  }

  private loop: Promise<unknown> | null = null;
  private wake: (() => void) | null = null;
  private woken = false;
  private readonly demanded = new Set<string>();

  private wakeUp() {
    this.woken = true;
    this.wake?.();
  }

  private handles(kind: string): boolean {
    return this.opts.kinds ? this.opts.kinds.includes(kind) : !this.opts.excludeKinds?.includes(kind);
  }

  private onNotice(payload: string) {
    if (payload === '') return this.wakeUp(); // the channel was re-made: anything may have happened
    const demand = payload.startsWith(DEMAND) ? payload.slice(DEMAND.length) : null;
    if (demand !== null) {
      if (this.opts.onDemandKinds?.includes(demand) && this.handles(demand)) {
        this.demanded.add(demand);
        this.wakeUp();
      }
    } else if (this.handles(payload)) {
      this.wakeUp();
    }
  }

  private async runLoop() {
    const { notifications } = this.opts;
    const unlisten = notifications ? await notifications.listen(JOBS_CHANNEL, (p) => this.onNotice(p)) : undefined;
    try {
      while (!this.stopped) {
        this.woken = false;
        let ran = 0;
        this.running = (async () => {
          await this.pullDemandedForward();
          ran = await this.runDueOnce();
        })().catch((err) => this.opts.onError?.('poll', err));
        await this.running;
        if (this.stopped) break;
        if (ran > 0) continue;
        const waitMs = notifications ? await this.untilNextDue().catch(() => this.opts.pollMs ?? 500) : (this.opts.pollMs ?? 500);
        await this.sleep(waitMs);
      }
    } finally {
      unlisten?.();
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** A demanded on-demand job runs now, unless it is running (the demand stays for after its run). */
  private async pullDemandedForward() {
    for (const kind of [...this.demanded]) {
      const result = await this.db.execute(sql`WITH live AS (
          SELECT id, locked_until IS NOT NULL AND locked_until >= now() AS leased FROM ${jobs}
          WHERE kind = ${kind} AND done_at IS NULL AND failed_at IS NULL),
        pulled AS (UPDATE ${jobs} SET run_at = now() WHERE id IN (SELECT id FROM live WHERE NOT leased) RETURNING id)
        SELECT (SELECT count(*) FROM live WHERE leased) AS leased, (SELECT count(*) FROM pulled) AS pulled`);
      const row = (result as unknown as { rows: { leased: string | number }[] }).rows[0];
      if (Number(row?.leased ?? 0) === 0) this.demanded.delete(kind);
    }
  }

  /** Milliseconds until this worker's next job is due (or its lease runs out), between pollMs and idleMs. */
  private async untilNextDue(): Promise<number> {
    const pollMs = this.opts.pollMs ?? 500;
    const idleMs = this.opts.idleMs ?? 60_000;
    if (this.demanded.size > 0) return pollMs; // a demanded job is still running
    const result = await this.db.execute(sql`SELECT extract(epoch FROM (min(greatest(run_at, coalesce(locked_until, run_at))) - now())) * 1000 AS ms
      FROM ${jobs} WHERE done_at IS NULL AND failed_at IS NULL ${this.kindFilter()}`);
    const ms = (result as unknown as { rows: { ms: string | number | null }[] }).rows[0]?.ms;
    if (ms === null || ms === undefined) return idleMs;
    // Due now but not claimed: leased by a live worker elsewhere or held back by fairness; look again soon.
    return Math.min(idleMs, Math.max(pollMs, Math.ceil(Number(ms))));
  }

  private kindFilter(): SQL {
    const { kinds, excludeKinds } = this.opts;
    if (kinds) return kinds.length ? sql`AND kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})` : sql`AND false`;
    return excludeKinds?.length ? sql`AND kind NOT IN (${sql.join(excludeKinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
  }

  /** Claims and runs every job due now (up to the batch size); returns how many ran. */
  async runDueOnce(): Promise<number> {
    const leaseSeconds = Math.ceil((this.opts.leaseMs ?? 60_000) / 1000);
    const { kinds } = this.opts;
    if (kinds && kinds.length === 0) return 0;
    const claim = sql`UPDATE ${jobs} SET locked_until = now() + make_interval(secs => ${leaseSeconds}), locked_by = ${this.workerId},
        attempts = attempts + 1, claimed_at = now()`;
    const returning = sql`RETURNING id, kind, payload, attempts, max_attempts, run_at`;
    const result = this.opts.fair && kinds
      ? await this.claimFairly(claim, returning, kinds, this.opts.fair.perKey)
      : await this.db.execute(sql`${claim}
      WHERE id IN (
        SELECT id FROM ${jobs}
        WHERE done_at IS NULL AND failed_at IS NULL AND run_at <= now()
          AND (locked_until IS NULL OR locked_until < now()) ${this.kindFilter()}
        ORDER BY run_at, id
        LIMIT ${this.opts.batchSize ?? 10}
        FOR UPDATE SKIP LOCKED)
      ${returning}`);
    // RETURNING comes back in no particular order: run the batch by due time.
    const due = (job: { run_at: string | Date }) => new Date(job.run_at).getTime();
    const claimed = (result as unknown as { rows: (ClaimedJob & { run_at: string | Date })[] }).rows.sort(
      (a, b) => due(a) - due(b) || Number(a.id) - Number(b.id),
    );
    for (const job of claimed) await this.runOne(job);
    return claimed.length;
  }

  /**
   * Round-robin across fair keys: among due jobs whose key holds fewer than `perKey` live leases,
   * the key whose last claim is oldest (or never) goes first. Claims are serialised by an advisory
   * lock: with SKIP LOCKED alone, two workers claiming at once could both see a key below its cap.
   */
  private claimFairly(claim: SQL, returning: SQL, kinds: readonly string[], perKey: number) {
    const inKinds = (alias: SQL) => sql`${alias}.kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})`;
    const j = sql.raw('j');
    const r = sql.raw('r');
    const s = sql.raw('s');
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`labdesk-fair-claim:${kinds.join(',')}`}))`);
      return tx.execute(sql`${claim}
        WHERE id IN (
          SELECT j.id FROM ${jobs} j
          WHERE j.done_at IS NULL AND j.failed_at IS NULL AND j.run_at <= now()
            AND (j.locked_until IS NULL OR j.locked_until < now()) AND ${inKinds(j)}
            AND (SELECT count(*) FROM ${jobs} r WHERE ${inKinds(r)} AND r.fair_key IS NOT DISTINCT FROM j.fair_key
                   AND r.done_at IS NULL AND r.failed_at IS NULL AND r.locked_until >= now()) < ${perKey}
          ORDER BY (SELECT max(s.claimed_at) FROM ${jobs} s WHERE ${inKinds(s)} AND s.fair_key IS NOT DISTINCT FROM j.fair_key
                      AND s.claimed_at > now() - interval '1 day') NULLS FIRST, j.run_at, j.id
          LIMIT 1
          FOR UPDATE OF j SKIP LOCKED)
        ${returning}`);
    });
  }

  private async runOne(job: ClaimedJob) {
    const handler = this.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const outcome = await handler(job.payload, { jobId: Number(job.id), attempt: job.attempts });
      if (outcome && 'retryAt' in outcome) {
        await this.db.execute(sql`UPDATE ${jobs} SET run_at = ${outcome.retryAt.toISOString()}::timestamptz,
          attempts = attempts - 1, locked_until = NULL, locked_by = NULL WHERE id = ${job.id}`);
      } else {
        await this.db.execute(sql`UPDATE ${jobs} SET done_at = now(), locked_until = NULL, locked_by = NULL WHERE id = ${job.id}`);
      }
    } catch (err) {
      this.opts.onError?.(job.kind, err);
      // Kept for operators, without values (a failed query's parameters are patient data).
      const message = safeError(err).message.slice(0, 500);
      if (job.attempts >= job.max_attempts) {
        await this.db.execute(sql`UPDATE ${jobs} SET failed_at = now(), last_error = ${message}, locked_until = NULL,
          locked_by = NULL WHERE id = ${job.id}`);
      } else {
        const retryAt = new Date(Date.now() + backoffMs(job.attempts));
        await this.db.execute(sql`UPDATE ${jobs} SET run_at = ${retryAt.toISOString()}::timestamptz, last_error = ${message},
          locked_until = NULL, locked_by = NULL WHERE id = ${job.id}`);
      }
    }
  }
}
