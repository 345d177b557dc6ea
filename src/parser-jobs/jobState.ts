/**
 * What the pages read off a parser job: whether it is still being read (and so the page keeps
 * asking), whether it waits for a reviewer, and how far it got. `stage` and `status` may gain
 * values, so nothing here matches them exhaustively: an unknown value is simply "not one of these".
 */
import { pollMs } from '../components/polling';
import type { ParserJobRecord } from './types';

/** How often the job page asks again while a report is being read. */
export const JOB_POLL_MS = 1500;
/** How often the list asks again while a job on screen is being read. */
export const LIST_POLL_MS = 3000;

type JobState = Pick<ParserJobRecord, 'status' | 'stage' | 'needs_human_review' | 'is_reviewed'>;

const IN_FLIGHT_STAGES = ['queued', 'parsing'];

/** Still being read: queued or parsing (older answers without `stage`: upload pending, or started without review). */
export function isInFlight(job: JobState | null | undefined): boolean {
  if (!job) return false;
  if (job.stage) return IN_FLIGHT_STAGES.includes(job.stage);
  return job.status === 'upload_pending' || (job.status === 'started' && !job.needs_human_review);
}

/** Waiting for a reviewer: the one state a review can be submitted in. */
export function isAwaitingReview(job: JobState | null | undefined): boolean {
  if (!job || job.is_reviewed || job.status !== 'started' || !job.needs_human_review) return false;
  return job.stage === undefined || job.stage === 'awaiting_review';
}

/** 0–100 for a determinate bar; null when the job does not say. */
export function progressPercent(job: Pick<ParserJobRecord, 'progress'>): number | null {
  const p = job.progress;
  return typeof p === 'number' && Number.isFinite(p) ? Math.round(Math.min(1, Math.max(0, p)) * 100) : null;
}

export const jobPollInterval = (job: ParserJobRecord | null | undefined): number | false => (isInFlight(job) ? pollMs(JOB_POLL_MS) : false);

export const listPollInterval = (jobs: readonly ParserJobRecord[] | null | undefined): number | false =>
  jobs?.some((job) => isInFlight(job)) ? pollMs(LIST_POLL_MS) : false;
