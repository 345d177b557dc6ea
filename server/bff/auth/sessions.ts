import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { rolePolicies, sessions, staff, type BffSchema } from '../db/schema';
import type { StaffUser } from './staff';

type Db = Database<BffSchema>;

export interface SessionPolicy {
  /** A session unused for this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however active. */
  absoluteMs: number;
}
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ActiveSession {
  user: StaffUser;
  csrfToken: string;
  tokenHash: string;
  /** The role requires two-factor and the member has not set it up: only enrolment is allowed. */
  mfaEnrolmentRequired: boolean;
}

export async function startSession(db: Db, staffId: string): Promise<{ token: string; csrfToken: string }> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.insert(sessions).values({ tokenHash: hashToken(token), staffId, csrfToken, createdAt: now, lastSeenAt: now });
  return { token, csrfToken };
}

/** What a request needs of its session: the row, its member and the member's role policy. */
export interface SessionRow {
  staffId: string;
  email: string;
  name: string;
  role: string;
  mfaEnabledAt: Date | null;
  mfaRequired: boolean | null;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The session of a token hash, if its member is not disabled (expired or not). */
export async function readSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select({
      staffId: staff.id,
      email: staff.email,
      name: staff.name,
      role: staff.role,
      mfaEnabledAt: staff.mfaEnabledAt,
      mfaRequired: rolePolicies.mfaRequired,
      csrfToken: sessions.csrfToken,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(staff, and(eq(staff.id, sessions.staffId), isNull(staff.disabledAt)))
    .leftJoin(rolePolicies, eq(rolePolicies.role, staff.role))
    .where(eq(sessions.tokenHash, tokenHash));
  return row;
}

export const sessionExpired = (row: Pick<SessionRow, 'createdAt' | 'lastSeenAt'>, policy: SessionPolicy, now: Date) =>
  now.getTime() - row.lastSeenAt.getTime() > policy.idleMs || now.getTime() - row.createdAt.getTime() > policy.absoluteMs;

/**
 * Whether a request at `now` moves the idle timer on: at most once a minute (or a tenth of the idle
 * timeout, when that is shorter), so reads stay cheap and a session in use never ends for want of a write.
 */
export const slideDue = (lastSeenAt: Date, policy: SessionPolicy, now: Date) => now.getTime() - lastSeenAt.getTime() > Math.min(60_000, policy.idleMs / 10);

export function activeSessionOf(row: SessionRow, tokenHash: string): ActiveSession {
  const mfaEnabled = row.mfaEnabledAt !== null;
  return {
    user: { id: row.staffId, email: row.email, name: row.name, role: row.role, mfa_enabled: mfaEnabled },
    csrfToken: row.csrfToken,
    tokenHash,
    mfaEnrolmentRequired: (row.mfaRequired ?? false) && !mfaEnabled,
  };
}

export const tokenHashOf = hashToken;

/**
 * The live session for a cookie token, sliding its idle timer, straight from the store (the
 * request path goes through `LiveSessions`, which caches). Expired sessions are deleted when seen;
 * `purgeExpiredSessions` sweeps the rest.
 */
export async function touchSession(db: Db, token: string, policy: SessionPolicy, now = new Date(), slide = true): Promise<ActiveSession | null> {
  const tokenHash = hashToken(token);
  const row = await readSession(db, tokenHash);
  if (!row) return null;
  if (sessionExpired(row, policy, now)) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  if (slide && slideDue(row.lastSeenAt, policy, now)) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return activeSessionOf(row, tokenHash);
}

export async function endSession(db: Db, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function purgeExpiredSessions(db: Db, policy: SessionPolicy, now = new Date()) {
  await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
        lt(sessions.createdAt, new Date(now.getTime() - policy.absoluteMs)),
      ),
    );
}
