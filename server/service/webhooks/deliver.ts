import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { WEBHOOK_MAX_ATTEMPTS } from '../../contract';
import type { Database } from '../../store/db';
import { announceJobsDue, type JobContext } from '../jobs/queue';
import { jobs, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, webhookOutbox, type ServiceSchema } from '../db/schema';
import { postWebhook, type PostResult } from './http';
import { DEFAULT_TIMEOUT_MS, WEBHOOK_DELIVER_KIND, type WebhookWorkerOptions } from './kinds';
import { nextAttemptAt } from './schedule';
import { webhookHeaders } from './signing';

type Db = Database<ServiceSchema>;
type Delivery = typeof webhookDeliveries.$inferSelect;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A delivery held back by an earlier one of its subject looks again at least this often. */
const ORDER_WAIT_MAX_MS = 10 * 60_000;
const ORDER_WAIT_MIN_MS = 2000;

/** Marks jobs done that no worker holds right now (their deliveries need no more attempts). */
async function retireJobs(db: Db, jobIds: (number | null)[]) {
  const ids = jobIds.filter((id): id is number => id !== null);
  if (ids.length === 0) return;
  await db
    .update(jobs)
    .set({ doneAt: sql`now()`, lastError: 'webhook delivery no longer pending' })
    .where(
      and(
        inArray(jobs.id, ids),
        isNull(jobs.doneAt),
        isNull(jobs.failedAt),
        or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, sql`now()`)),
      ),
    );
}

/** Cancels the endpoint's pending deliveries (it was disabled or gone). */
export async function cancelPendingDeliveries(db: Db, endpointId: string) {
  const cancelled = await db
    .update(webhookDeliveries)
    .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')))
    .returning({ jobId: webhookDeliveries.jobId });
  await retireJobs(db, cancelled.map((c) => c.jobId));
}

export async function disableEndpoint(db: Db, endpointId: string, reason: string) {
  await db
    .update(webhookEndpoints)
    .set({ disabledAt: sql`now()`, disabledReason: reason, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)));
  await cancelPendingDeliveries(db, endpointId);
}

/** The delivery left pending: the next of its subject for the endpoint may go now. */
async function wakeFollowers(db: Db, d: Pick<Delivery, 'endpointId' | 'subject' | 'seq'>) {
  if (d.subject === null) return;
  const followers = db
    .select({ jobId: webhookDeliveries.jobId })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, d.endpointId),
        eq(webhookDeliveries.subject, d.subject),
        eq(webhookDeliveries.status, 'pending'),
        gt(webhookDeliveries.seq, d.seq),
      ),
    );
  await db
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(and(inArray(jobs.id, followers), isNull(jobs.doneAt), isNull(jobs.failedAt)));
  await announceJobsDue(db, WEBHOOK_DELIVER_KIND);
}

/**
 * Before calling the receiver, make sure the job's lease outlasts the call, so a second process
 * cannot take the job over mid-call and send the event twice. False when the lease already ran
 * out and another worker claimed the job (its attempt count moved on).
 */
async function holdLease(db: Db, ctx: JobContext, timeoutMs: number): Promise<boolean> {
  const secs = Math.ceil(timeoutMs / 1000) + 30;
  const held = await db
    .update(jobs)
    .set({ lockedUntil: sql`greatest(${jobs.lockedUntil}, now() + make_interval(secs => ${secs}))` })
    .where(and(eq(jobs.id, ctx.jobId), eq(jobs.attempts, ctx.attempt), isNull(jobs.doneAt), isNull(jobs.failedAt)))
    .returning({ id: jobs.id });
  return held.length > 0;
}

/** Ends a delivery that will make no (more) attempts: status, and the next of its subject woken. */
async function finish(db: Db, d: Delivery, status: 'failed' | 'cancelled') {
  await db
    .update(webhookDeliveries)
    .set({ status, nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.status, 'pending')));
  await wakeFollowers(db, d);
}

/**
 * One delivery attempt (the `webhook.deliver` job): sign the envelope, POST it, record the
 * attempt, then succeed, give up, disable the endpoint (410), or answer when to try again.
 * No transaction is held while the receiver is called.
 */
export async function runDeliveryJob(
  db: Db,
  payload: Record<string, unknown>,
  opts: WebhookWorkerOptions = {},
  ctx?: JobContext,
): Promise<void | { retryAt: Date }> {
  const now = opts.now ?? (() => new Date());
  const deliveryId = String(payload.delivery_id ?? '');
  if (!UUID_RE.test(deliveryId)) return;
  const [row] = await db
    .select({
      d: webhookDeliveries,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      disabledAt: webhookEndpoints.disabledAt,
      envelope: webhookOutbox.payload,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookOutbox, eq(webhookOutbox.id, webhookDeliveries.seq))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.d.status !== 'pending') return; // deleted, cancelled, or done
  const d = row.d;
  if (row.disabledAt) return db.transaction((tx) => finish(tx, d, 'cancelled'));
  if (d.attemptCount >= WEBHOOK_MAX_ATTEMPTS) return db.transaction((tx) => finish(tx, d, 'failed'));

  // Per-subject order: an earlier event about the same subject still pending holds this one back.
  if (d.subject !== null) {
    const [blocker] = await db
      .select({ nextAttemptAt: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, d.endpointId),
          eq(webhookDeliveries.subject, d.subject),
          eq(webhookDeliveries.status, 'pending'),
          lt(webhookDeliveries.seq, d.seq),
        ),
      )
      .orderBy(asc(webhookDeliveries.seq))
      .limit(1);
    if (blocker) {
      // It wakes this one when it is done; until then look again after its next attempt.
      const t = now().getTime();
      const due = blocker.nextAttemptAt ? blocker.nextAttemptAt.getTime() + 1000 : t;
      return { retryAt: new Date(Math.min(Math.max(due, t + ORDER_WAIT_MIN_MS), t + ORDER_WAIT_MAX_MS)) };
    }
  }

  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (ctx && !(await holdLease(db, ctx, timeoutMs))) return; // another worker took the job over: it sends
  const at = now();
  const body = JSON.stringify(row.envelope);
  const result = await postWebhook(row.url, webhookHeaders(row.secret, d.eventId, at, body), body, {
    timeoutMs,
    allowPrivate: opts.allowPrivateUrls ?? false,
  });
  return recordAttempt(db, d, at, result, opts);
}

async function recordAttempt(db: Db, d: Delivery, at: Date, result: PostResult, opts: WebhookWorkerOptions): Promise<void | { retryAt: Date }> {
  const now = opts.now ?? (() => new Date());
  return db.transaction(async (tx) => {
    // It may have been cancelled (endpoint disabled) or deleted while the receiver was called.
    const [current] = await tx
      .select({ status: webhookDeliveries.status, attemptCount: webhookDeliveries.attemptCount })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, d.id))
      .for('update');
    if (!current) return;
    await tx.insert(webhookDeliveryAttempts).values({
      deliveryId: d.id,
      attemptedAt: at,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
    });
    const attempt = current.attemptCount + 1;
    const recorded = { attemptCount: attempt, lastAttemptAt: at, lastStatusCode: result.statusCode, lastError: result.error, updatedAt: sql`now()` };
    const update = (set: Partial<typeof webhookDeliveries.$inferInsert>) =>
      tx
        .update(webhookDeliveries)
        .set({ ...recorded, ...set })
        .where(eq(webhookDeliveries.id, d.id));
    if (current.status !== 'pending') {
      await update({});
      return;
    }
    const code = result.statusCode;
    if (code !== null && code >= 200 && code < 300) {
      await update({ status: 'succeeded', deliveredAt: at, nextAttemptAt: null });
      await wakeFollowers(tx, d);
      return;
    }
    if (code === 410) {
      // Gone: the receiver asks for no more deliveries. The endpoint is disabled and its pending deliveries stop.
      await update({ status: 'failed', nextAttemptAt: null });
      await disableEndpoint(tx, d.endpointId, 'gone: the receiver answered 410');
      return;
    }
    const next = nextAttemptAt(attempt, now(), result.retryAfter, opts.random);
    if (!next) {
      await update({ status: 'failed', nextAttemptAt: null });
      await wakeFollowers(tx, d);
      return;
    }
    await update({ nextAttemptAt: next });
    return { retryAt: next };
  });
}
