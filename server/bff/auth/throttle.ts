/**
 * Sign-in throttling, kept in the store (bff.sign_in_throttle) so it survives a restart and holds
 * across every BFF process on one database:
 * - an account that fails `accountLimit` times within `windowMs` is locked for `accountLockMs`,
 *   from every address (guessing one member's password from many machines gains nothing);
 * - an address that fails more than `addressFree` times within the window, on any accounts, is
 *   slowed: each further failure locks it for twice as long as the last, up to `addressMaxLockMs`
 *   (spraying one password over many accounts from one machine gets slow fast).
 * Other accounts and addresses are unaffected. Unknown e-mails count like known ones, so the
 * answers do not reveal who has an account.
 */
import { and, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { signInThrottle, type BffSchema } from '../db/schema';

type Db = Database<BffSchema>;

export interface ThrottlePolicy {
  windowMs: number;
  accountLimit: number;
  accountLockMs: number;
  addressFree: number;
  addressMaxLockMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  windowMs: 15 * 60_000,
  accountLimit: 5,
  accountLockMs: 15 * 60_000,
  addressFree: 10,
  addressMaxLockMs: 15 * 60_000,
};

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `address:${ip}`;

export interface Lock {
  scope: 'account' | 'address';
  retryAfterSeconds: number;
}

/** The lock that refuses this attempt before any password is checked, if any (the longer one wins). */
export async function activeLock(db: Db, email: string, ip: string, now = new Date()): Promise<Lock | null> {
  const rows = await db
    .select({ key: signInThrottle.key, lockedUntil: signInThrottle.lockedUntil })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.key, [accountKey(email), addressKey(ip)]), gt(signInThrottle.lockedUntil, now)));
  let lock: Lock | null = null;
  for (const row of rows) {
    const retryAfterSeconds = Math.max(1, Math.ceil((row.lockedUntil!.getTime() - now.getTime()) / 1000));
    if (!lock || retryAfterSeconds > lock.retryAfterSeconds) {
      lock = { scope: row.key.startsWith('account:') ? 'account' : 'address', retryAfterSeconds };
    }
  }
  return lock;
}

/** Counts one failure against a key in its window (atomically, whichever process writes); returns the count. */
async function countFailure(db: Db, key: string, policy: ThrottlePolicy, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const fresh = sql`${signInThrottle.windowStartedAt} < ${windowStart}`;
  const [row] = await db
    .insert(signInThrottle)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        failures: sql`CASE WHEN ${fresh} THEN 1 ELSE ${signInThrottle.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${fresh} THEN ${now} ELSE ${signInThrottle.windowStartedAt} END`,
      },
    })
    .returning({ failures: signInThrottle.failures });
  return row!.failures;
}

async function lockUntil(db: Db, key: string, until: Date) {
  await db.update(signInThrottle).set({ lockedUntil: until }).where(sql`${signInThrottle.key} = ${key}`);
}

/** Records a failed sign-in; returns the lock it caused, if it caused one. */
export async function recordFailure(db: Db, email: string, ip: string, policy: ThrottlePolicy, now = new Date()): Promise<Lock | null> {
  const accountFailures = await countFailure(db, accountKey(email), policy, now);
  const addressFailures = await countFailure(db, addressKey(ip), policy, now);
  let lock: Lock | null = null;
  if (accountFailures >= policy.accountLimit) {
    await lockUntil(db, accountKey(email), new Date(now.getTime() + policy.accountLockMs));
    lock = { scope: 'account', retryAfterSeconds: Math.ceil(policy.accountLockMs / 1000) };
  }
  const over = addressFailures - policy.addressFree;
  if (over > 0) {
    const ms = Math.min(policy.addressMaxLockMs, 1000 * 2 ** Math.min(over - 1, 30));
    await lockUntil(db, addressKey(ip), new Date(now.getTime() + ms));
    if (!lock || ms / 1000 > lock.retryAfterSeconds) lock = { scope: 'address', retryAfterSeconds: Math.ceil(ms / 1000) };
  }
  return lock;
}

/** A successful sign-in clears its account's failures (the address keeps its count: one good account must not launder a spray). */
export async function clearAccount(db: Db, email: string) {
  await db.delete(signInThrottle).where(sql`${signInThrottle.key} = ${accountKey(email)}`);
}

/** Rows whose window and lock are both over carry nothing; the sweep removes them. */
export async function purgeStaleThrottles(db: Db, policy: ThrottlePolicy, now = new Date()) {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  await db
    .delete(signInThrottle)
    .where(sql`${signInThrottle.windowStartedAt} < ${windowStart} AND (${signInThrottle.lockedUntil} IS NULL OR ${signInThrottle.lockedUntil} < ${now})`);
}

export function lockMessage(lock: Lock): string {
  const wait = lock.retryAfterSeconds >= 90 ? `${Math.ceil(lock.retryAfterSeconds / 60)} minutes` : `${lock.retryAfterSeconds} seconds`;
  return lock.scope === 'account'
    ? `Too many failed sign-ins for this account. Try again in ${wait}, or ask an admin to reset your password.`
    : `Too many failed sign-ins from your network. Try again in ${wait}.`;
}
