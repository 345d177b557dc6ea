/**
 * Staff members: who may sign in, with which role. Changes that touch access (role, password,
 * disabling) end the member's sessions in the same transaction, and the last active admin can
 * never be demoted or disabled: staff changes take one advisory lock, so two admins demoting each
 * other at once cannot both succeed.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../store/db';
import type { CreateStaff, StaffRecord } from '../api/staff';
import { isUuid } from '../api/list';
import type { Role } from '../api/roles';
import { rolePolicies, sessions, signInThrottle, staff, type BffSchema } from '../db/schema';
import { BffError } from '../errors';
import { hashPassword } from './passwords';
import { passwordProblem } from './passwordPolicy';
import { accountKey } from './throttle';

type Db = Database<BffSchema>;
type StaffRow = typeof staff.$inferSelect;

/** Any number: it only has to be the same in every BFF process (Postgres advisory locks are per database). */
const STAFF_CHANGES_LOCK = 0x1abd_e5c0;

export interface StaffUser {
  id: string;
  email: string;
  name: string;
  role: string;
  mfa_enabled?: boolean;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const staffRecordOf = (row: StaffRow): StaffRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  disabled: row.disabledAt !== null,
  created_at: row.createdAt.toISOString(),
  last_sign_in_at: row.lastSignInAt?.toISOString() ?? null,
  mfa_enabled: row.mfaEnabledAt !== null,
});

function checkPassword(password: string, member: { email: string; name: string }) {
  const problem = passwordProblem(password, member);
  if (problem) throw new BffError(422, `password: ${problem}`, { password: `This password ${problem}` });
}

export async function createStaff(db: Db, input: { email: string; password: string; role: Role; name?: string }, opts: { checkPassword?: boolean } = {}): Promise<StaffRecord> {
  const email = normaliseEmail(input.email);
  const name = input.name?.trim() ?? '';
  if (opts.checkPassword !== false) checkPassword(input.password, { email, name });
  const passwordHash = await hashPassword(input.password);
  const [row] = await db.insert(staff).values({ email, name, role: input.role, passwordHash }).onConflictDoNothing().returning();
  if (!row) throw new BffError(409, 'email: a staff member with this e-mail already exists', { email: 'A staff member with this e-mail already exists' });
  return staffRecordOf(row);
}

/** Creates a member from the dashboard's form (the password rules apply). */
export const addStaff = (db: Db, input: CreateStaff) => createStaff(db, { ...input, role: input.role as Role });

export async function findStaffByEmail(db: Db, email: string) {
  const [row] = await db.select().from(staff).where(eq(staff.email, normaliseEmail(email)));
  return row;
}

export async function findStaff(db: Db, id: string) {
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row;
}

/**
 * How each staff member is named on the pages: their name, else their e-mail, by id. Pages name
 * people, not ids. Ids that are not this console's members (not UUIDs: another console's reviewer)
 * are simply absent.
 */
export async function staffDisplayNames(db: Db, ids: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string' && isUuid(id)))];
  if (!wanted.length) return new Map();
  const rows = await db.select({ id: staff.id, name: staff.name, email: staff.email }).from(staff).where(inArray(staff.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name.trim() || r.email]));
}

export interface StaffQuery {
  q?: string;
  roles?: string[];
  disabled?: boolean;
  sort: { field: string; order: 'ASC' | 'DESC' };
}

const SORTS = {
  id: staff.id,
  email: staff.email,
  name: staff.name,
  role: staff.role,
  created_at: staff.createdAt,
  last_sign_in_at: staff.lastSignInAt,
} as const;

export async function listStaff(db: Db, query: StaffQuery, offset: number, limit: number) {
  const where: SQL[] = [];
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(ilike(staff.email, like), ilike(staff.name, like))!);
  }
  if (query.roles?.length) where.push(inArray(staff.role, query.roles));
  if (query.disabled !== undefined) where.push(query.disabled ? isNotNull(staff.disabledAt) : isNull(staff.disabledAt));
  const cond = where.length ? and(...where) : undefined;
  const column = SORTS[query.sort.field as keyof typeof SORTS] ?? staff.email;
  const order = query.sort.order === 'DESC' ? desc(column) : asc(column);
  const [rows, [total]] = await Promise.all([
    db.select().from(staff).where(cond).orderBy(order, asc(staff.id)).offset(offset).limit(limit),
    db.select({ n: sql<number>`count(*)::int` }).from(staff).where(cond),
  ]);
  return { rows: rows.map(staffRecordOf), total: total?.n ?? 0 };
}

export interface StaffChange {
  name?: string;
  role?: Role;
  disabled?: boolean;
  password?: string;
}

/** What changed, for the audit trail: field names and roles only, never a password. */
export interface StaffChangeResult {
  record: StaffRecord;
  changed: string[];
  sessionsEnded: number;
  previousRole: string;
}

export async function updateStaff(db: Db, id: string, change: StaffChange): Promise<StaffChangeResult> {
  const current = await findStaff(db, id);
  if (!current) throw new BffError(404, 'Staff member not found');
  // Hash outside the transaction: scrypt takes ~100 ms and must not hold the lock.
  if (change.password !== undefined) checkPassword(change.password, { email: current.email, name: change.name ?? current.name });
  const passwordHash = change.password !== undefined ? await hashPassword(change.password) : undefined;

  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${STAFF_CHANGES_LOCK})`);
    const [row] = await tx.select().from(staff).where(eq(staff.id, id));
    if (!row) throw new BffError(404, 'Staff member not found');
    const set: Partial<typeof staff.$inferInsert> = {};
    const changed: string[] = [];
    if (change.name !== undefined && change.name !== row.name) {
      set.name = change.name;
      changed.push('name');
    }
    if (change.role !== undefined && change.role !== row.role) {
      set.role = change.role;
      changed.push('role');
    }
    if (change.disabled !== undefined && change.disabled !== (row.disabledAt !== null)) {
      set.disabledAt = change.disabled ? new Date() : null;
      changed.push(change.disabled ? 'disabled' : 'enabled');
    }
    if (passwordHash) {
      set.passwordHash = passwordHash;
      changed.push('password');
    }
    const losesAdmin = row.role === 'admin' && row.disabledAt === null && (set.role !== undefined || (set.disabledAt ?? null) !== null);
    if (losesAdmin) {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(staff)
        .where(and(eq(staff.role, 'admin'), isNull(staff.disabledAt)));
      if (n <= 1) {
        const field = set.role !== undefined ? 'role' : 'disabled';
        throw new BffError(
          422,
          `${field}: the last active admin cannot be ${field === 'role' ? 'demoted' : 'disabled'}; make someone else an admin first`,
          { [field]: 'The last active admin cannot be ' + (field === 'role' ? 'demoted' : 'disabled') + '; make someone else an admin first' },
          'last_admin',
        );
      }
    }
    let updated = row;
    if (changed.length) [updated] = await tx.update(staff).set(set).where(eq(staff.id, id)).returning() as [StaffRow];
    // Whatever the member could do under the old role or password ends now, in every tab.
    const endsAccess = changed.some((c) => c === 'role' || c === 'password' || c === 'disabled');
    const ended = endsAccess ? await tx.delete(sessions).where(eq(sessions.staffId, id)).returning({ t: sessions.tokenHash }) : [];
    // A new password or re-enabling is how an admin lets a locked-out member back in at once.
    if (changed.includes('password') || changed.includes('enabled')) await tx.delete(signInThrottle).where(eq(signInThrottle.key, accountKey(row.email)));
    return { record: staffRecordOf(updated), changed, sessionsEnded: ended.length, previousRole: row.role };
  });
}

/** Ends a member's two-factor enrolment (a lost phone); their sessions end too. */
export async function resetMfa(db: Db, id: string): Promise<{ record: StaffRecord; sessionsEnded: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(staff)
      .set({ mfaSecret: null, mfaEnabledAt: null, mfaPendingSecret: null, mfaLastStep: null })
      .where(eq(staff.id, id))
      .returning();
    if (!row) throw new BffError(404, 'Staff member not found');
    const ended = await tx.delete(sessions).where(eq(sessions.staffId, id)).returning({ t: sessions.tokenHash });
    return { record: staffRecordOf(row), sessionsEnded: ended.length };
  });
}

export async function noteSignIn(db: Db, id: string) {
  await db.update(staff).set({ lastSignInAt: new Date() }).where(eq(staff.id, id));
}

/**
 * Takes a TOTP time step for a member, once: true when this call moved their last used step
 * forward, false when a concurrent sign-in (or an earlier one) already used this step or a later
 * one. One conditional UPDATE, so two requests racing with the same code cannot both win.
 */
export async function claimMfaStep(db: Db, id: string, step: number): Promise<boolean> {
  const rows = await db
    .update(staff)
    .set({ mfaLastStep: step })
    .where(and(eq(staff.id, id), or(isNull(staff.mfaLastStep), sql`${staff.mfaLastStep} < ${step}`)))
    .returning({ id: staff.id });
  return rows.length > 0;
}

// -- Role policies -----------------------------------------------------------------------------

export async function roleRequiresMfa(db: Db, role: string): Promise<boolean> {
  const [row] = await db.select({ required: rolePolicies.mfaRequired }).from(rolePolicies).where(eq(rolePolicies.role, role));
  return row?.required ?? false;
}

export async function listRolePolicies(db: Db, roles: readonly string[]) {
  const rows = await db.select().from(rolePolicies);
  const byRole = new Map(rows.map((r) => [r.role, r.mfaRequired]));
  return roles.map((role) => ({ id: role, role, mfa_required: byRole.get(role) ?? false }));
}

export async function setRolePolicy(db: Db, role: string, mfaRequired: boolean) {
  await db
    .insert(rolePolicies)
    .values({ role, mfaRequired, updatedAt: new Date() })
    .onConflictDoUpdate({ target: rolePolicies.role, set: { mfaRequired, updatedAt: new Date() } });
  return { id: role, role, mfa_required: mfaRequired };
}

// -- The first admin -----------------------------------------------------------------------------

/** The first admin, from ADMIN_EMAIL/ADMIN_PASSWORD, when the staff table is empty. */
export async function ensureFirstAdmin(db: Db, email: string, password: string): Promise<boolean> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(staff);
  if (n > 0) return false;
  const passwordHash = await hashPassword(password);
  const rows = await db
    .insert(staff)
    .values({ email: normaliseEmail(email), name: 'Administrator', role: 'admin', passwordHash })
    .onConflictDoNothing()
    .returning({ id: staff.id });
  return rows.length > 0;
}

export async function staffCount(db: Db) {
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(staff);
  return n;
}
