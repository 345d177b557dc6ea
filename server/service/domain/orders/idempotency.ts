import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { idempotencyKeys, type ServiceSchema } from '../../db/schema';
import { Invalid, ServiceError } from '../errors';

type Db = Database<ServiceSchema>;

export const IDEMPOTENCY_KEY_HEADER = 'x-idempotency-key';
export const IDEMPOTENCY_KEY_MAX = 255;
/** An in-flight claim older than this is taken to be abandoned (its request died) and may be taken over. */
export const IN_FLIGHT_TIMEOUT_MS = 2 * 60_000;

/** Operations keys are scoped to (besides the team): the same key may be used once per operation. */
export const ORDER_CREATE_OPERATION = 'order.create';

/** JSON with object keys sorted at every depth and undefined members left out: equal bodies, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 of the canonical JSON of a (validated) request body. */
export function requestDigest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** A key this request holds: the order transaction completes it, a failure releases it. */
export interface IdempotencyClaim {
  teamId: string;
  operation: string;
  key: string;
  /** The claim's created_at, written by this request: it tells this claim from a later takeover. */
  claimedAt: Date;
}

export type ClaimOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; body: unknown };

const keyLoc = ['header', IDEMPOTENCY_KEY_HEADER];

/**
 * Claims `key` for this request in its own short transaction (a single statement), or answers what
 * the key already holds:
 * - no row: an in_flight row is written and this request owns the key;
 * - done, same body: the stored answer (replay);
 * - any row with another body: 422;
 * - in_flight with the same body: 409 while it is younger than IN_FLIGHT_TIMEOUT_MS; older, the
 *   abandoned claim is taken over.
 */
export async function claimIdempotencyKey(db: Db, teamId: string, operation: string, key: string, body: unknown): Promise<ClaimOutcome> {
  const requestHash = requestDigest(body);
  const pk = and(eq(idempotencyKeys.teamId, teamId), eq(idempotencyKeys.operation, operation), eq(idempotencyKeys.key, key));
  // A released claim may vanish between the insert and the read: try again a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    const claimedAt = new Date();
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ teamId, operation, key, requestHash, state: 'in_flight', createdAt: claimedAt })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { kind: 'claimed', claim: { teamId, operation, key, claimedAt } };

    const [row] = await db.select().from(idempotencyKeys).where(pk);
    if (!row) continue;
    if (row.requestHash !== requestHash) {
      throw new Invalid(keyLoc, 'this idempotency key was already used with a different request body; use a new key for a new request', 'value_error.idempotency_key_reused');
    }
    if (row.state === 'done') {
      return { kind: 'replay', status: row.responseStatus ?? 200, body: row.responseBody };
    }
    const cutoff = new Date(Date.now() - IN_FLIGHT_TIMEOUT_MS);
    if (row.createdAt.getTime() > cutoff.getTime()) {
      throw new ServiceError(409, 'A request with this idempotency key is still being processed; retry later to get its answer');
    }
    // Abandoned: take it over, unless another request does so first (the update re-checks the age).
    const takenAt = new Date();
    const taken = await db
      .update(idempotencyKeys)
      .set({ createdAt: takenAt, requestHash })
      .where(and(pk, eq(idempotencyKeys.state, 'in_flight'), lt(idempotencyKeys.createdAt, cutoff)))
      .returning({ key: idempotencyKeys.key });
    if (taken.length > 0) return { kind: 'claimed', claim: { teamId, operation, key, claimedAt: takenAt } };
  }
  throw new ServiceError(409, 'A request with this idempotency key is still being processed; retry later to get its answer');
}

const claimWhere = (c: IdempotencyClaim) =>
  and(
    eq(idempotencyKeys.teamId, c.teamId),
    eq(idempotencyKeys.operation, c.operation),
    eq(idempotencyKeys.key, c.key),
    eq(idempotencyKeys.state, 'in_flight'),
    eq(idempotencyKeys.createdAt, c.claimedAt),
  );

/**
 * Marks the claim done with the answer. Call inside the transaction that makes the change, so the
 * stored answer and the change commit together. A claim another request took over meanwhile
 * (this one ran past IN_FLIGHT_TIMEOUT_MS) answers 409 and the caller's transaction rolls back.
 */
export async function completeIdempotencyKey(tx: Db, claim: IdempotencyClaim, status: number, body: unknown) {
  const done = await tx
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: status, responseBody: body, completedAt: new Date() })
    .where(claimWhere(claim))
    .returning({ key: idempotencyKeys.key });
  if (done.length === 0) {
    throw new ServiceError(409, 'This request took too long and its idempotency key was taken over by a retry');
  }
}

/** Frees the key after a failed request (nothing was written), so a corrected retry with the same key works. */
export async function releaseIdempotencyKey(db: Db, claim: IdempotencyClaim) {
  await db.delete(idempotencyKeys).where(claimWhere(claim));
}
