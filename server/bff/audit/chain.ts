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
 * so BFF processes sharing one PostgreSQL append one at a time and ids follow the chain.
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

/** Appends one event to the chain. */
export async function appendEvent(db: Db, content: Omit<AuditContent, 'at'>): Promise<void> {
  // Milliseconds: what the store keeps of `at` is what the hash covers.
  const full: AuditContent = { ...content, at: new Date(Math.floor(Date.now())) };
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
    const [last] = await tx
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    const prevHash = last?.hash ?? null;
    await tx.insert(auditEvents).values({ ...full, prevHash, hash: eventHash(full, prevHash) });
  });
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
