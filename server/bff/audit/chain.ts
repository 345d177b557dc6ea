import { createHash } from 'node:crypto';
import { asc, gt, sql } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { auditEvents, type BffSchema } from '../db/schema';

/**
 * The audit trail as a hash chain: each event carries SHA-256 over its own content and the hash of
 * the event before it. An event edited in the store, removed, or slipped in between no longer
 * matches, and neither does any event after it, so `verifyChain` names the first one broken.
 *
 * Events are chained in the order of their ids. Appending takes a transaction-scoped advisory lock,
 * so BFF processes sharing one PostgreSQL append one batch at a time and ids follow the chain;
 * within a process, events are group-committed (`ChainWriter`).
 */

type Db = Database<BffSchema>;
export type AuditRow = typeof auditEvents.$inferSelect;
export type AuditContent = Omit<AuditRow, 'id' | 'prevHash' | 'hash'>;

/** Any number that is the same in every BFF: the lock guarding the chain's head. */
const CHAIN_LOCK = 0x6c616264; // "labd"

/** JSON with object keys sorted at every level: the store (jsonb) does not keep key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value instanceof Date ? value.toISOString() : (value ?? null));
}

export function eventHash(content: AuditContent, prevHash: string | null): string {
  const fields = [
    content.at,
    content.staffId,
    content.staffEmail,
    content.staffRole,
    content.action,
    content.resource,
    content.recordIds,
    content.patientIds,
    content.detail,
    content.outcome,
    content.statusCode,
    content.ip,
    prevHash,
  ];
  return createHash('sha256').update(canonical(fields)).digest('hex');
}

/** At most this many events go into one transaction (13 parameters each, far under PostgreSQL's 65,535). */
export const MAX_BATCH = 500;

interface Pending {
  content: AuditContent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: events appended while a batch is being written wait for it to finish and then go
 * together, in the order they were appended, as one transaction (one lock, one read of the chain's
 * head, one multi-row insert). A caller's promise settles only after the commit that holds its
 * event, so an answer is never sent before its access is recorded. Under load the lock is taken
 * once per batch instead of once per request; alone, an event is written at once, as before.
 */
class ChainWriter {
  private queue: Pending[] = [];
  private writing = false;
  /** Batches written (a figure for tests and profiles). */
  batches = 0;

  constructor(private readonly db: Db) {}

  append(content: AuditContent): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ content, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await writeBatch(this.db, batch.map((p) => p.content));
          this.batches++;
          for (const p of batch) p.resolve();
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          // One event the store refuses must not fail the others' requests: each alone, in order.
          for (const p of batch) {
            try {
              await writeBatch(this.db, [p.content]);
              p.resolve();
            } catch (one) {
              p.reject(one);
            }
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

/** Appends events to the chain, in this order, in one transaction under the chain's lock. */
async function writeBatch(db: Db, contents: AuditContent[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
    const [last] = await tx
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    let prevHash = last?.hash ?? null;
    const rows = contents.map((content) => {
      const hash = eventHash(content, prevHash);
      const row = { ...content, prevHash, hash };
      prevHash = hash;
      return row;
    });
    // The rows of one VALUES list take their identities in the list's order, so ids follow the
    // chain; checked, and rolled back rather than committed as a chain verify would call broken.
    const ids = (await tx.insert(auditEvents).values(rows).returning({ id: auditEvents.id })).map((r) => r.id);
    if (ids.some((id, i) => i > 0 && id <= ids[i - 1]!)) throw new Error('audit events took identities out of their chain order');
  });
}

const writers = new WeakMap<Db, ChainWriter>();
function writerFor(db: Db): ChainWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new ChainWriter(db);
    writers.set(db, writer);
  }
  return writer;
}

/** Batches written so far to this store by this process. */
export const batchesWritten = (db: Db) => writerFor(db).batches;

/**
 * Appends one event to the chain; settles once the transaction that holds it has committed
 * (batched with the events other requests append meanwhile).
 */
export async function appendEvent(db: Db, content: Omit<AuditContent, 'at'>): Promise<void> {
  // Milliseconds: what the store keeps of `at` is what the hash covers.
  const full: AuditContent = { ...content, at: new Date(Math.floor(Date.now())) };
  await writerFor(db).append(full);
}

export interface ChainCheck {
  ok: boolean;
  /** Events checked (those written before the chain began are not counted). */
  checked: number;
  /** The first event that does not match its content or its predecessor. */
  first_broken_id?: string;
}

const BATCH = 1000;

/** Walks the whole chain in id order, a thousand events at a time. */
export async function verifyChain(db: Db): Promise<ChainCheck> {
  let checked = 0;
  let after = 0;
  let prevHash: string | null | undefined; // undefined: the chain has not begun yet
  for (;;) {
    const rows = await db.select().from(auditEvents).where(gt(auditEvents.id, after)).orderBy(asc(auditEvents.id)).limit(BATCH);
    for (const row of rows) {
      after = row.id;
      if (prevHash === undefined && row.hash === null) continue; // before the chain began
      const expectedPrev = prevHash ?? null;
      const { id: _id, prevHash: storedPrev, hash, ...content } = row;
      if (hash === null || storedPrev !== expectedPrev || eventHash(content, storedPrev) !== hash) {
        return { ok: false, checked, first_broken_id: String(row.id) };
      }
      prevHash = hash;
      checked++;
    }
    if (rows.length < BATCH) return { ok: true, checked };
  }
}
