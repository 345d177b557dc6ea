/**
 * Sign-in throttling, kept in the store (bff.sign_in_throttle) so it survives a restart and holds
 * across every BFF process on one database:
 * - an account that fails `accountLimit` times within `windowMs` is locked for `accountLockMs`,
 *   from every address (guessing one member's password from many machines gains nothing);
 * - an address that fails more than `addressFree` times within the window, on any accounts, is
 *   slowed: the first failure past them locks it for `addressFirstLockMs` (1 s unless set), each
 *   further one for twice as long as the last, up to `addressMaxLockMs` (spraying one password over
 *   many accounts from one machine gets slow fast).
 * Other accounts and addresses are unaffected. Unknown e-mails count like known ones, so the
 * answers do not reveal who has an account.
 */
import { and, gt, inArray, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Database } from '../../store/db';
import { signInThrottle, type BffSchema } from '../db/schema';

type Db = Database<BffSchema>;

export interface ThrottlePolicy {
  windowMs: number;
  accountLimit: number;
  accountLockMs: number;
  addressFree: number;
  /** The first lock of an address past its free attempts (default 1 s); each next one doubles. */
  addressFirstLockMs?: number;
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

/**
 * An address as the throttle counts it: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64, the
 * block one subscriber gets (counting single IPv6 addresses would give each client billions).
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return `address:${ip}`;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return `address:${parsed.toString()}`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `address:${parts.join(':')}::/64`;
}

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

/**
 * Counts one attempt against a key in its window, under the row's lock, and sets the key's lock
 * when `lockFor(failures)` asks for one. Answers the count and the lock that was already running
 * before this attempt (an attempt arriving during a lock is refused, even one that raced past the
 * first check). Call inside a transaction.
 */
async function countOn(tx: Db, key: string, policy: ThrottlePolicy, now: Date, lockFor: (failures: number) => number | null) {
  await tx.insert(signInThrottle).values({ key, failures: 0, windowStartedAt: now }).onConflictDoNothing();
  const [row] = await tx.select().from(signInThrottle).where(sql`${signInThrottle.key} = ${key}`).for('update');
  const fresh = !row || row.windowStartedAt.getTime() < now.getTime() - policy.windowMs;
  const failures = fresh ? 1 : row.failures + 1;
  const running = row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
  const lockMs = running ? null : lockFor(failures);
  await tx
    .update(signInThrottle)
    .set({
      failures,
      ...(fresh && { windowStartedAt: now }),
      ...(lockMs !== null && { lockedUntil: new Date(now.getTime() + lockMs) }),
    })
    .where(sql`${signInThrottle.key} = ${key}`);
  return { failures, running, lockMs };
}

const retryAfter = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/**
 * Counts a sign-in attempt against its account and address before anything is checked, so a burst
 * of parallel attempts cannot slip past a lock while the first ones are still being checked:
 * - `refused`: a lock was running, or the account is over its limit: answer 429, check nothing;
 * - `lock`: this attempt set a lock (the account's last allowed attempt, or an address past its
 *   free attempts); it is checked, and if it fails, that lock is what the member reads.
 * A sign-in that turns out right gives its attempt back (`forgiveAttempt`).
 */
export async function countAttempt(db: Db, email: string, ip: string, policy: ThrottlePolicy, now = new Date()): Promise<{ refused: Lock | null; lock: Lock | null }> {
  const addressMs = (failures: number) => {
    const over = failures - policy.addressFree;
    return over > 0 ? Math.min(policy.addressMaxLockMs, (policy.addressFirstLockMs ?? 1000) * 2 ** Math.min(over - 1, 30)) : null;
  };
  return db.transaction(async (tx) => {
    // Always the account's row first, then the address's: two attempts never wait on each other crosswise.
    const account = await countOn(tx, accountKey(email), policy, now, (n) => (n === policy.accountLimit ? policy.accountLockMs : null));
    const address = await countOn(tx, addressKey(ip), policy, now, addressMs);
    if (account.running) return { refused: { scope: 'account' as const, retryAfterSeconds: retryAfter(account.running, now) }, lock: null };
    if (account.failures > policy.accountLimit) return { refused: { scope: 'account' as const, retryAfterSeconds: Math.ceil(policy.accountLockMs / 1000) }, lock: null };
    if (address.running) return { refused: { scope: 'address' as const, retryAfterSeconds: retryAfter(address.running, now) }, lock: null };
    let lock: Lock | null = null;
    if (account.lockMs !== null) lock = { scope: 'account', retryAfterSeconds: Math.ceil(account.lockMs / 1000) };
    if (address.lockMs !== null && (!lock || address.lockMs / 1000 > lock.retryAfterSeconds)) {
      lock = { scope: 'address', retryAfterSeconds: Math.ceil(address.lockMs / 1000) };
    }
    return { refused: null, lock };
  });
}

/** The attempt was right (or only asked for the second step): its account starts afresh, its address gets the attempt back. */
export async function forgiveAttempt(db: Db, email: string, ip: string) {
  await clearAccount(db, email);
  await db
    .update(signInThrottle)
    .set({ failures: sql`GREATEST(${signInThrottle.failures} - 1, 0)` })
    .where(sql`${signInThrottle.key} = ${addressKey(ip)}`);
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
