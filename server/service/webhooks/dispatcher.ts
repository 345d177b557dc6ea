import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ALL_EVENT_TYPES } from '../../contract';
import type { Database } from '../../store/db';
import { enqueueJob } from '../jobs/queue';
import { jobs, webhookDeliveries, webhookEndpoints, webhookOutbox, type ServiceSchema } from '../db/schema';
import {
  DEFAULT_DISPATCH_INTERVAL_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  DELIVER_JOB_MAX_ATTEMPTS,
  DISPATCH_JOB_MAX_ATTEMPTS,
  WEBHOOK_DELIVER_KIND,
  WEBHOOK_DISPATCH_KIND,
  type WebhookWorkerOptions,
} from './kinds';

type Db = Database<ServiceSchema>;

const BATCH = 200;
const MAX_BATCHES_PER_RUN = 10;

/** Does an endpoint's event_types list take this event type? `*` takes all, `family.*` a family. */
export function matchesEventType(patterns: readonly string[], eventType: string): boolean {
  return patterns.some(
    (p) => p === ALL_EVENT_TYPES || p === eventType || (p.endsWith('.*') && eventType.startsWith(p.slice(0, -1))),
  );
}

/** A delivery and the job that makes its attempts, in the caller's transaction. */
export async function enqueueDelivery(tx: Db, deliveryId: string, runAt?: Date): Promise<number> {
  return enqueueJob(tx, WEBHOOK_DELIVER_KIND, { delivery_id: deliveryId }, { maxAttempts: DELIVER_JOB_MAX_ATTEMPTS, runAt });
}

interface OutboxRow {
  id: number | string;
  event_id: string;
  team_id: string;
  event_type: string;
  subject: string | null;
}

interface Target {
  outbox_id: number | string;
  endpoint_id: string;
  event_types: string[] | string;
}

/**
 * Fans undispatched outbox rows out to deliveries, one per matching enabled endpoint of the
 * event's team that existed when the event was recorded, oldest event first. The rows are locked
 * in id order (FOR UPDATE, not SKIP LOCKED): a second dispatcher waits instead of passing an
 * earlier event, so deliveries of one subject are created in emission order. Returns the number
 * of events dispatched.
 */
export async function dispatchOutbox(db: Db): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const n = await db.transaction(async (tx) => {
      const locked = await tx.execute(sql`
        SELECT id, event_id, team_id, event_type, payload->'data'->>'id' AS subject
        FROM ${webhookOutbox} WHERE dispatched_at IS NULL ORDER BY id LIMIT ${BATCH} FOR UPDATE`);
      const rows = (locked as unknown as { rows: OutboxRow[] }).rows.sort((a, b) => Number(a.id) - Number(b.id));
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => Number(r.id));
      // Candidate endpoints per event, compared in the store (created_at at full precision).
      const candidates = await tx.execute(sql`
        SELECT o.id AS outbox_id, e.id AS endpoint_id, e.event_types
        FROM ${webhookOutbox} o JOIN ${webhookEndpoints} e
          ON e.team_id = o.team_id AND e.disabled_at IS NULL AND e.created_at <= o.created_at
        WHERE o.id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
        ORDER BY o.id, e.created_at, e.id`);
      const targets = new Map<number, Target[]>();
      for (const t of (candidates as unknown as { rows: Target[] }).rows) {
        const key = Number(t.outbox_id);
        targets.set(key, [...(targets.get(key) ?? []), t]);
      }
      for (const row of rows) {
        for (const t of targets.get(Number(row.id)) ?? []) {
          const patterns = typeof t.event_types === 'string' ? (JSON.parse(t.event_types) as string[]) : t.event_types;
          if (!matchesEventType(patterns, row.event_type)) continue;
          const id = randomUUID();
          const jobId = await enqueueDelivery(tx, id);
          await tx
            .insert(webhookDeliveries)
            .values({
              id,
              teamId: row.team_id,
              endpointId: t.endpoint_id,
              seq: Number(row.id),
              eventId: row.event_id,
              eventType: row.event_type,
              subject: row.subject,
              status: 'pending',
              nextAttemptAt: sql`now()`,
              jobId,
            })
            .onConflictDoNothing();
        }
      }
      await tx.update(webhookOutbox).set({ dispatchedAt: sql`now()` }).where(inArray(webhookOutbox.id, ids));
      return rows.length;
    });
    total += n;
    if (n < BATCH) break;
  }
  return total;
}

/**
 * Pending deliveries whose job is gone or was given up (store errors, many times over) get a new
 * job, so no delivery stays pending (and holds back its subject) for good. Returns how many.
 */
export async function sweepOrphanedDeliveries(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      SELECT d.id FROM ${webhookDeliveries} d LEFT JOIN ${jobs} j ON j.id = d.job_id
      WHERE d.status = 'pending' AND (j.id IS NULL OR j.done_at IS NOT NULL OR j.failed_at IS NOT NULL)
      ORDER BY d.seq LIMIT 100 FOR UPDATE OF d SKIP LOCKED`);
    const rows = (result as unknown as { rows: { id: string }[] }).rows;
    for (const { id } of rows) {
      const jobId = await enqueueDelivery(tx, id);
      await tx.update(webhookDeliveries).set({ jobId, nextAttemptAt: sql`now()`, updatedAt: sql`now()` }).where(eq(webhookDeliveries.id, id));
    }
    return rows.length;
  });
}

/**
 * Makes sure the one dispatcher job exists (at start-up and when an endpoint is created). An
 * advisory lock makes the check-then-insert safe between processes.
 */
export async function ensureWebhookDispatcher(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('labdesk-webhook-dispatcher'))`);
    const [existing] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, WEBHOOK_DISPATCH_KIND), isNull(jobs.doneAt), isNull(jobs.failedAt)))
      .limit(1);
    if (!existing) await enqueueJob(tx, WEBHOOK_DISPATCH_KIND, {}, { maxAttempts: DISPATCH_JOB_MAX_ATTEMPTS });
  });
}

/** The `webhook.dispatch` job: dispatch new events, now and then sweep, and come back in a second. */
export function dispatchJob(db: Db, opts: WebhookWorkerOptions = {}) {
  let lastSweep = 0;
  return async (): Promise<{ retryAt: Date }> => {
    await dispatchOutbox(db);
    const sweepEvery = opts.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    if (Date.now() - lastSweep >= sweepEvery) {
      lastSweep = Date.now();
      await sweepOrphanedDeliveries(db);
    }
    return { retryAt: new Date(Date.now() + (opts.dispatchIntervalMs ?? DEFAULT_DISPATCH_INTERVAL_MS)) };
  };
}
