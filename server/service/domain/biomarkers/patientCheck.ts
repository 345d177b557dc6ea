import { and, desc, eq } from 'drizzle-orm';
import type { PatientCheck } from '../../../contract';
import { comparePatient, normaliseDob, normaliseName, type PatientIdentity } from '../../../contract/patientIdentity';
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

export async function checkReportPatient(db: Db, teamId: string, userId: string, metadata: { patient_first_name?: string; patient_last_name?: string; dob?: string } | null | undefined): Promise<PatientCheck> {
  const report = { first_name: metadata?.patient_first_name || null, last_name: metadata?.patient_last_name || null, dob: metadata?.dob || null };
  return comparePatient(report, await knownIdentities(db, teamId, userId));
}

export { mismatchMessage, normaliseDob } from '../../../contract/patientIdentity';
