import { z } from 'zod';
import { ParsingJob, ParsingJobReviewBody } from '../../contract';
import { filter, listQuery } from './list';

export {
  PARSER_MAX_FILE_BYTES as MAX_FILE_BYTES,
  PARSER_REVIEW_NOTES_MAX as REVIEW_NOTES_MAX,
  type LabReportResult,
  type LoincMatch,
  type ResultMetadata,
  type ReviewReasons,
} from '../../contract';

/** Field lengths of a result (`text(n)` in the service's contract). */
export const RESULT_LIMITS = { test_name: 300, value: 200, units: 60 } as const;

/**
 * `parser-jobs`: the service's job as is (it carries `id`); list items come without `data`. The BFF
 * sends the reviewer as the staff member's id (names change, ids do not) and adds their name on a
 * single job, when it knows them, as `reviewer_name`.
 */
export const ParserJobRecord = ParsingJob.extend({
  reviewer_name: z.string().nullable().optional().describe("The reviewing staff member's name or e-mail, when the reviewer is a member of this console"),
}).meta({ id: 'ParserJobRecord' });
export type ParserJobRecord = z.infer<typeof ParserJobRecord>;
export type ReviewReason = ParserJobRecord extends { review_reasons?: infer R } ? (NonNullable<R> extends { report: (infer X)[] } ? X : never) : never;

export const ParserJobsList = listQuery({
  filter: {
    status: filter.stringList(10, 40),
    stage: filter.string(40),
    needs_human_review: filter.boolean(),
    is_reviewed: filter.boolean(),
    user_id: filter.uuid(),
    queue: filter.boolean().describe('The review queue: awaiting review, not reviewed; oldest first unless sorted'),
  },
  // Both are the arrival order (the service's keyset).
  sort: { id: ['ASC', 'DESC'], created_at: ['ASC', 'DESC'] },
  defaultSort: { field: 'created_at', order: 'DESC' },
});

/** `POST /api/parser-jobs/:id/review`: the reviewer is whoever is signed in. */
export const ReviewParserJob = ParsingJobReviewBody.omit({ reviewer: true });
export type ReviewBody = z.input<typeof ReviewParserJob>;

/** `GET /api/parser-jobs/queue`: the team's parse queue, or `available: false` where the service does not say. */
export const ParserQueueStatus = z
  .discriminatedUnion('available', [
    z.object({ available: z.literal(false) }),
    z.object({
      available: z.literal(true),
      queued: z.number().int(),
      parsing: z.number().int(),
      oldestQueuedAt: z.string().nullable(),
      oldestWaitSeconds: z.number().nullable(),
      readers: z.number().int().nullable(),
    }),
  ])
  .meta({ id: 'ParserQueueStatus' });
export type ParserQueueStatus = z.infer<typeof ParserQueueStatus>;
