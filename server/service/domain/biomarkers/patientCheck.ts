import { and, desc, eq } from 'drizzle-orm';
import type { PatientCheck } from '../../../contract';
import { comparePatient, compareReviewedPatient, headerIdentity, normaliseDob, normaliseName, type PatientIdentity } from '../../../contract/patientIdentity';
import type { Database } from '../../../store/db';
import { orders, type ServiceSchema } from '../../db/schema';

type Db = Database<ServiceSchema>;

/** The distinct identities on the patient's orders, newest first. */
export async function knownIdentities(db: Db, teamId: string, userId: string): Promise<PatientIdentity[]> {
  const rows = await db
    .select({ details: orders.patientDetails })
    .from(orders)
    .where(and(eq(orders.teamId, teamId), eq(orders.userId, userId)))
    .orderBy(desc(orders.createdAt))
    .limit(50);
  const seen = new Map<string, PatientIdentity>();
  for (const { details } of rows) {
    const d = details as { first_name?: string; last_name?: string; dob?: string };
    const identity = { first_name: d.first_name ?? null, last_name: d.last_name ?? null, dob: d.dob ?? null };
    const key = `${normaliseName(identity.first_name)}|${normaliseName(identity.last_name)}|${normaliseDob(identity.dob)}`;
    if (!seen.has(key)) seen.set(key, identity);
  }
  return [...seen.values()];
}

type Header = Parameters<typeof headerIdentity>[0];

/**
 * The report's header against the patient's orders. With `corrected` (a reviewer's header), both
 * count: see compareReviewedPatient.
 */
export async function checkReportPatient(db: Db, teamId: string, userId: string, metadata: Header, corrected?: Header): Promise<PatientCheck> {
  const known = await knownIdentities(db, teamId, userId);
  return corrected ? compareReviewedPatient(headerIdentity(metadata), headerIdentity(corrected), known) : comparePatient(headerIdentity(metadata), known);
}

export { mismatchMessage, normaliseDob, patientCheckMessage } from '../../../contract/patientIdentity';
