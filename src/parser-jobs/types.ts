/**
 * Parser-job shapes as the BFF serves them (docs/bff-api.md, "Lab-report parsing and the review
 * queue"): the service's ParsingJob (server/contract/parser.ts, types only), and the limits the
 * dashboard checks before sending. The limits mirror the contract, which the dashboard may only
 * import types from: keep them in step with it.
 */
import type { LabReportResult, LoincMatch, ParsingJob, ParsingJobReviewBody, ResultMetadata, ReviewReasons } from '../../server/contract';

/** A `parser-jobs` record (the job already carries `id`). List items come without `data`. */
export type ParserJobRecord = ParsingJob;
export type { LabReportResult, LoincMatch, ResultMetadata, ReviewReasons };
export type ReviewReason = ReviewReasons['report'][number];

/** `POST /api/parser-jobs/<id>/review`; the BFF sets `reviewer` itself. */
export type ReviewBody = Omit<ParsingJobReviewBody, 'reviewer'>;

/** `PARSER_MAX_FILE_BYTES`: 10 MB; one byte more is 413. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** `PARSER_REVIEW_NOTES_MAX`. */
export const REVIEW_NOTES_MAX = 1000;
/** Field lengths of LabReportResult (`text(n)` in the contract). */
export const RESULT_LIMITS = { test_name: 300, value: 200, units: 60 } as const;

/** `GET /api/parser-jobs/queue`: the team's parse queue, or `available: false` where the service does not say. */
export type ParserQueueStatus =
  | { available: false }
  | { available: true; queued: number; parsing: number; oldestQueuedAt: string | null; oldestWaitSeconds: number | null; readers: number | null };
