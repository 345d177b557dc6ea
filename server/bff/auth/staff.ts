import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { staff, type BffSchema } from '../db/schema';
import { hashPassword } from './passwords';
import type { Role } from '../api/roles';

type Db = Database<BffSchema>;

export interface StaffUser {
  id: string;
  email: string;
  name: string;
  role: string;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function createStaff(db: Db, input: { email: string; password: string; role: Role; name?: string }): Promise<StaffUser> {
  const [row] = await db
    .insert(staff)
    .values({
      email: normaliseEmail(input.email),
      name: input.name ?? '',
      role: input.role,
      passwordHash: await hashPassword(input.password),
    })
    .returning();
  return { id: row!.id, email: row!.email, name: row!.name, role: row!.role };
}

export async function findStaffByEmail(db: Db, email: string) {
  const [row] = await db.select().from(staff).where(eq(staff.email, normaliseEmail(email)));
  return row;
}

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
