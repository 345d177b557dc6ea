import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { safeError } from '../../lib/logging';
import { jobs } from '../db/schema';

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

/** Enqueue inside the caller's transaction, so the job exists exactly when the change that needs it does. */
export async function enqueueJob(db: Db, kind: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}) {
  const [row] = await db
    .insert(jobs)
    .values({ kind, payload, runAt: opts.runAt ?? new Date(), maxAttempts: opts.maxAttempts ?? 10, fairKey: opts.fairKey ?? null })
    .returning({ id: jobs.id });
  return row!.id;
}

interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

export interface JobWorkerOptions {
  pollMs?: number;
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

/** Leases due jobs and runs their handlers; a job whose lease ran out (crashed worker) is picked up again. */
export class JobWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;
  readonly workerId = `w-${process.pid}-${randomBytes(3).toString('hex')}`;

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly opts: JobWorkerOptions = {},
  ) {}

  start() {
    this.stopped = false;
    const tick = async () => {
      if (this.stopped) return;
      this.running = this.runDueOnce().catch((err) => this.opts.onError?.('poll', err));
      await this.running;
      if (!this.stopped) this.timer = setTimeout(tick, this.opts.pollMs ?? 500);
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Claims and runs every job due now (up to the batch size); returns how many ran. */
  async runDueOnce(): Promise<number> {
    const leaseSeconds = Math.ceil((this.opts.leaseMs ?? 60_000) / 1000);
    const { kinds, excludeKinds } = this.opts;
    if (kinds && kinds.length === 0) return 0;
    const onlyKinds = kinds ? sql`AND kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
    const notKinds = excludeKinds?.length ? sql`AND kind NOT IN (${sql.join(excludeKinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
    const claim = sql`UPDATE ${jobs} SET locked_until = now() + make_interval(secs => ${leaseSeconds}), locked_by = ${this.workerId},
        attempts = attempts + 1, claimed_at = now()`;
    const returning = sql`RETURNING id, kind, payload, attempts, max_attempts, run_at`;
    const result = this.opts.fair && kinds
      ? await this.claimFairly(claim, returning, kinds, this.opts.fair.perKey)
      : await this.db.execute(sql`${claim}
      WHERE id IN (
        SELECT id FROM ${jobs}
        WHERE done_at IS NULL AND failed_at IS NULL AND run_at <= now()
          AND (locked_until IS NULL OR locked_until < now()) ${onlyKinds} ${notKinds}
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
