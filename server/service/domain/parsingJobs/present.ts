import type { ParsedLabReportData, ParsingJob, ReviewReasons } from '../../../contract';
import type { parsingJobs } from '../../db/schema';

export type ParsingJobRow = typeof parsingJobs.$inferSelect;

/**
 * The wire shape of a job: the interface's fields (id and job_id are the same id), plus this
 * service's extensions for the review queue. The list leaves `data` out (it can be large).
 */
export function presentParsingJob(row: ParsingJobRow, opts: { withData: boolean } = { withData: true }): ParsingJob {
  const review = row.review as ParsingJob['review'];
  return {
    id: row.id,
    job_id: row.id,
    status: row.status,
    ...(opts.withData ? { data: (row.data as ParsedLabReportData | null) ?? null } : {}),
    needs_human_review: row.needsHumanReview,
    is_reviewed: row.isReviewed,
    failure_reason: row.failureReason,
    user_id: row.userId,
    stage: row.stage,
    progress: row.progress,
    review_requested: row.reviewRequested,
    review_reasons: (row.reviewReasons as ReviewReasons | null) ?? null,
    review: review ?? null,
    file: { name: row.fileName, content_type: row.contentType, size: row.fileSize },
    stats: (row.stats as ParsingJob['stats']) ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
