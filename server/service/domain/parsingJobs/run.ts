import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import type { JobContext } from '../../jobs/queue';
import { parsingJobFiles, parsingJobs, type ServiceSchema } from '../../db/schema';
import { parseLabReport } from '../../reader';
import { ReaderPoolClosed } from '../../sandbox/readerPool';
import type { ParseOptions, ParseOutcome } from '../../reader/types';
import { checkReportPatient, patientCheckMessage } from '../biomarkers/patientCheck';
import { recordReportResults } from '../biomarkers/fromReport';
import { emitEvent } from '../../webhooks/outbox';
import { PARSE_MAX_ATTEMPTS, PARSING_JOB_UPDATED } from './create';
import { presentParsingJob } from './present';

type Db = Database<ServiceSchema>;
/** The parser, replaceable in tests that need a slow or crashing one. */
export type Parse = (bytes: Uint8Array, opts: ParseOptions) => Promise<ParseOutcome>;

/** Progress is written at most this often (and on every 5 % step): a row update per OCR word would be a storm. */
const PROGRESS_EVERY_MS = 750;

/**
 * Runs one parse: reads the stored file, parses it, and settles the job in one transaction with
 * its `updated` webhook event: completed, failed with a reason, or waiting for review (status
 * stays `started`, needs_human_review true) when the caller asked for review or any value is
 * doubtful. Runs again from the start after a crash or restart (the job's lease runs out).
 */
export async function runParseJob(
  db: Db,
  payload: Record<string, unknown>,
  ctx: JobContext,
  parse: Parse = parseLabReport,
): Promise<void | { retryAt: Date }> {
  const jobId = String(payload.job_id ?? '');
  const [job] = await db.select().from(parsingJobs).where(eq(parsingJobs.id, jobId));
  if (!job || (job.stage !== 'queued' && job.stage !== 'parsing')) return; // settled already (a replayed job)
  const [file] = await db.select({ bytes: parsingJobFiles.bytes }).from(parsingJobFiles).where(eq(parsingJobFiles.jobId, jobId));
  if (!file) {
    await settle(db, jobId, { ok: false, failureReason: 'the uploaded file is missing' });
    return;
  }

  await db.update(parsingJobs).set({ stage: 'parsing', progress: 0, updatedAt: new Date() }).where(eq(parsingJobs.id, jobId));
  let lastWrite = 0;
  let lastFraction = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const onProgress = (fraction: number) => {
    const now = Date.now();
    if (fraction < 1 && now - lastWrite < PROGRESS_EVERY_MS && fraction - lastFraction < 0.05) return;
    lastWrite = now;
    lastFraction = fraction;
    // Never below what was written before, and never past 0.99 before the job is settled.
    const shown = Math.min(0.99, fraction);
    writing = writing.then(() =>
      db
        .update(parsingJobs)
        .set({ progress: sql`GREATEST(${parsingJobs.progress}, ${shown})`, updatedAt: new Date() })
        .where(eq(parsingJobs.id, jobId))
        .catch(() => undefined),
    );
  };

  let outcome: ParseOutcome;
  try {
    outcome = await parse(new Uint8Array(file.bytes), { onProgress });
  } catch (err) {
    await writing;
    // The service is shutting down: the job runs again after the restart, without counting a try.
    if (err instanceof ReaderPoolClosed) return { retryAt: new Date() };
    // Not a bad file (those resolve as failures): the runner itself broke. Try again, then give up with a reason.
    if (ctx.attempt < PARSE_MAX_ATTEMPTS) throw err;
    outcome = { ok: false, failureReason: `parsing kept failing (${PARSE_MAX_ATTEMPTS} attempts); upload the report again or contact support` };
  }
  await writing;
  await settle(db, jobId, outcome);
}

async function settle(db: Db, jobId: string, outcome: ParseOutcome) {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(parsingJobs).where(eq(parsingJobs.id, jobId)).for('update');
    if (!current || (current.stage !== 'queued' && current.stage !== 'parsing')) return;
    const now = new Date();
    let change;
    if (outcome.ok) {
      // A report not known to be this patient's must not enter their history unseen: one that names
      // someone else, and one that cannot be compared (no orders, no readable name or date of birth).
      const check = await checkReportPatient(tx, current.teamId, current.userId, outcome.data.metadata);
      const doubt = check.status === 'match' ? null : { code: check.status === 'mismatch' ? 'patient_mismatch' : 'patient_unverified', message: patientCheckMessage(check)! };
      const reviewReasons = doubt ? { ...outcome.reviewReasons, report: [...outcome.reviewReasons.report, doubt] } : outcome.reviewReasons;
      const toReview = outcome.needsReview || current.reviewRequested || doubt !== null;
      change = {
        status: toReview ? 'started' : 'completed',
        stage: toReview ? 'awaiting_review' : 'done',
        needsHumanReview: toReview,
        data: outcome.data,
        reviewReasons,
        stats: { pages: outcome.stats.pages, ocr_pages: outcome.stats.ocrPages, mean_ocr_confidence: outcome.stats.meanOcrConfidence },
        failureReason: null,
      };
    } else {
      change = { status: 'failed', stage: 'failed', failureReason: outcome.failureReason };
    }
    const [row] = await tx
      .update(parsingJobs)
      .set({ ...change, progress: 1, updatedAt: now })
      .where(eq(parsingJobs.id, jobId))
      .returning();
    if (row!.stage === 'done') await recordReportResults(tx, row!);
    await emitEvent(tx, row!.teamId, PARSING_JOB_UPDATED, row!.userId, presentParsingJob(row!) as unknown as Record<string, unknown>);
  });
}
