import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { LabAccount } from '../../../contract';
import type { Database } from '../../../store/db';
import { labAccounts, type ServiceSchema } from '../../db/schema';
import { NotFound } from '../errors';
import { refuseNul } from './query';
import { presentLabAccount } from './present';

type Db = Database<ServiceSchema>;
export type LabAccountRow = typeof labAccounts.$inferSelect;

export interface LabAccountFilter {
  lab_account_id?: string;
  status?: string;
}

/**
 * The team's lab accounts, oldest first. Only the team's own accounts are ever visible: another
 * team's `lab_account_id` matches nothing (an empty list, as for an unknown id). `status` is a
 * non-exhaustive enum, so any value is accepted as a filter; it is compared case-insensitively
 * (`PENDING` finds `pending`) and a value no account has simply matches nothing.
 */
export async function listLabAccounts(db: Db, teamId: string, filter: LabAccountFilter): Promise<{ data: LabAccount[] }> {
  const conditions: SQL[] = [eq(labAccounts.teamId, teamId)];
  if (filter.lab_account_id) conditions.push(eq(labAccounts.id, filter.lab_account_id));
  if (filter.status !== undefined) {
    refuseNul(['query', 'status'], filter.status);
    conditions.push(sql`lower(${labAccounts.status}) = lower(${filter.status})`);
  }
  const rows = await db
    .select()
    .from(labAccounts)
    .where(and(...conditions))
    .orderBy(asc(labAccounts.createdAt), asc(labAccounts.id));
  return { data: rows.map(presentLabAccount) };
}

/** One of the team's lab accounts, or undefined (unknown and foreign ids alike). */
export async function findTeamLabAccount(db: Db, teamId: string, id: string): Promise<LabAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(labAccounts)
    .where(and(eq(labAccounts.teamId, teamId), eq(labAccounts.id, id)));
  return row;
}

/** One of the team's lab accounts; 404 "Lab account not found" for an unknown or foreign id. */
export async function requireTeamLabAccount(db: Db, teamId: string, id: string): Promise<LabAccountRow> {
  const row = await findTeamLabAccount(db, teamId, id);
  if (!row) throw new NotFound('Lab account');
  return row;
}
