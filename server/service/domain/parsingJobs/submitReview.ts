import { and, eq } from 'drizzle-orm';
import type { LabReportResult, ParsedLabReportData, ParsingJobReviewBody, PatientCheck } from '../../../contract';
import type { Database } from '../../../store/db';
import { parsingJobs, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { recordReportResults } from '../biomarkers/fromReport';
import { checkReportPatient, patientCheckMessage } from '../biomarkers/patientCheck';
import { Invalid, NotFound, ServiceError } from '../errors';
import { PARSING_JOB_UPDATED } from './create';
import { presentParsingJob } from './present';

/**
 * Extension: a reviewer's verdict. Approve stores the corrected report (or the extracted one)
 * and completes the job; reject fails it with the reviewer's notes as the reason. Either way
 * `is_reviewed` becomes true and an `updated` event goes out. A job is reviewed once (409 after).
 */
export async function reviewParsingJob(db: Database<ServiceSchema>, teamId: string, jobId: string, body: ParsingJobReviewBody) {
  if (body.decision === 'approve' && body.results?.length === 0) {
    throw new Invalid(['body', 'results'], 'an approved report needs at least one result (reject it instead)', 'value_error.results');
  }
  return db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(parsingJobs)
      .where(and(eq(parsingJobs.id, jobId), eq(parsingJobs.teamId, teamId)))
      .for('update');
    if (!job) throw new NotFound('Parsing job');
    if (job.isReviewed) throw new ServiceError(409, 'This job has been reviewed already');
    if (job.stage === 'queued' || job.stage === 'parsing') throw new ServiceError(409, 'This job is still being parsed; review it once it is waiting for review');
    if (job.stage === 'failed') throw new ServiceError(409, 'This job failed; there is nothing to review');

    const extracted = job.data as ParsedLabReportData;
    const reviewed_at = new Date();
    let confirmed: PatientCheck['status'] = 'match';
    if (body.decision === 'approve') {
      // The header as read counts as much as the reviewer's: correcting (or blanking) the name is no way around the check.
      const check = await checkReportPatient(tx, teamId, job.userId, extracted.metadata, body.metadata ?? extracted.metadata);
      if (check.status !== 'match' && !body.confirm_patient_mismatch) {
        const mismatch = check.status === 'mismatch';
        const then = mismatch ? 'To file it under this patient anyway, approve again with confirm_patient_mismatch: true.' : 'Once checked, approve again with confirm_patient_mismatch: true.';
        throw new Invalid(['body', 'confirm_patient_mismatch'], `${patientCheckMessage(check)} ${then}`, mismatch ? 'value_error.patient_mismatch' : 'value_error.patient_unverified');
      }
      confirmed = check.status;
    }
    const review = {
      decision: body.decision,
      reviewer: body.reviewer ?? null,
      notes: body.notes ?? null,
      reviewed_at: reviewed_at.toISOString(),
      ...(confirmed === 'mismatch' ? { patient_mismatch_confirmed: true } : {}),
      ...(confirmed === 'unknown' ? { patient_identity_confirmed: true } : {}),
      // `data` takes the corrected header: the one read stays here, for whoever checks the review later.
      ...(body.decision === 'approve' ? { extracted_metadata: extracted.metadata } : {}),
    };
    const change =
      body.decision === 'approve'
        ? {
            status: 'completed',
            stage: 'done',
            data: {
              metadata: body.metadata ?? extracted.metadata,
              results: body.results ? body.results.map(withRangeFlags) : extracted.results,
            },
          }
        : {
            status: 'failed',
            stage: 'failed',
            failureReason: body.notes ? `Rejected in review: ${body.notes}` : 'Rejected in review',
          };
    const [row] = await tx
      .update(parsingJobs)
      .set({ ...change, isReviewed: true, review, updatedAt: reviewed_at })
      .where(eq(parsingJobs.id, job.id))
      .returning();
    if (row!.stage === 'done') await recordReportResults(tx, row!);
    const present = presentParsingJob(row!);
    await emitEvent(tx, teamId, PARSING_JOB_UPDATED, row!.userId, present as unknown as Record<string, unknown>);
    return present;
  });
}

const NUMBER = /^([<>]=?|≤|≥)?\s*(-?\d+(?:\.\d+)?)$/;

/**
 * A corrected value and range decide the range flags again (a reviewer fixing 45 to 4.5 must not
 * leave "above range" behind). The interpretation follows them unless the reviewer marked it
 * critical; values that are not numbers keep what the reviewer sent.
 */
export function withRangeFlags(result: LabReportResult): LabReportResult {
  const m = NUMBER.exec(result.value.trim());
  if (!m) return result;
  const n = Number(m[2]);
  const cmp = m[1] ?? '';
  const { min_reference_range: min, max_reference_range: max } = result;
  // "<5" is below 5 but not known to be below a min of 3; only a bound the value is certainly past counts.
  const above = max !== undefined && (cmp.startsWith('<') || cmp === '≤' ? false : cmp ? n >= max : n > max);
  const below = min !== undefined && (cmp.startsWith('>') || cmp === '≥' ? false : cmp ? n <= min : n < min);
  const known = min !== undefined || max !== undefined;
  const interpretation =
    result.interpretation === 'critical' ? 'critical' : known ? (above || below ? 'abnormal' : 'normal') : (result.interpretation ?? 'unknown');
  return {
    ...result,
    ...(max !== undefined ? { is_above_max_range: above } : {}),
    ...(min !== undefined ? { is_below_min_range: below } : {}),
    interpretation,
  };
}
