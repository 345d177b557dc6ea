import { z } from 'zod';
import { DateTime, hasNoNul, NO_NUL_MESSAGE } from './common';

/**
 * Lab-report parsing (beta in the interface): wire shapes of wire-facts §7, plus this service's
 * extensions for the human-review queue (documented as such in the OpenAPI document).
 */

/** 10 MB; one byte more is 413. */
export const PARSER_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const PARSER_LIST_MAX_LIMIT = 100;
export const PARSER_LIST_DEFAULT_LIMIT = 25;
export const PARSER_REVIEW_NOTES_MAX = 1000;

/** upload_pending, started, completed, failed (non-exhaustive: clients must accept new values). */
export const PARSING_JOB_STATUSES = ['upload_pending', 'started', 'completed', 'failed'] as const;
/**
 * Extension: where a job is within `started` (and after). A job waiting for a reviewer stays
 * `started` with `needs_human_review` true, as the interface says: not completed until reviewed.
 */
export const PARSING_JOB_STAGES = ['queued', 'parsing', 'awaiting_review', 'done', 'failed'] as const;

export const LAB_REPORT_RESULT_TYPES = ['numeric', 'range', 'comment', 'boolean', 'duration', 'percentage', 'ratio'] as const;
export const INTERPRETATIONS = ['normal', 'abnormal', 'critical', 'unknown'] as const;

const text = (max: number) => z.string().max(max).refine(hasNoNul, NO_NUL_MESSAGE);

export const LoincMatch = z.object({
  loinc_code: text(20),
  loinc_name: text(300),
  display_name: text(300).optional(),
  aliases: z.array(text(200)).max(50).optional(),
  confidence_score: z.number().min(0).max(1),
});
export type LoincMatch = z.infer<typeof LoincMatch>;

export const LabReportResult = z.object({
  test_name: text(300).min(1, 'must not be empty'),
  value: text(200).describe('Always a string, as printed (without the flag)'),
  type: z.string().max(40).optional().describe('numeric, range, comment, boolean, duration, percentage, ratio (non-exhaustive)'),
  units: text(60).optional(),
  max_reference_range: z.number().optional(),
  min_reference_range: z.number().optional(),
  source_panel_name: text(300).optional(),
  loinc_matches: z.array(LoincMatch).max(20).optional(),
  interpretation: z.string().max(40).optional().describe('normal, abnormal, critical, unknown (non-exhaustive)'),
  is_above_max_range: z.boolean().optional(),
  is_below_min_range: z.boolean().optional(),
});
export type LabReportResult = z.infer<typeof LabReportResult>;

export const ResultMetadata = z.object({
  patient_first_name: text(200),
  patient_last_name: text(200),
  dob: text(40),
  lab_name: text(200),
  date_reported: text(40).optional(),
  date_collected: text(40).optional(),
  specimen_number: text(100).optional(),
  gender: z.enum(['female', 'male', 'other']).optional().describe('Extension (a newer wire field): the patient’s sex as printed on the report'),
  date_received: text(40).optional().describe('Extension: when the lab received the specimen, as printed'),
  provider: text(200).optional().describe('Extension: the ordering provider, as printed'),
  lab_address: text(300).optional().describe('Extension: the reporting lab’s address, as printed'),
  'clia_#': text(20).optional().describe('Extension: the lab’s CLIA number (the order results’ key)'),
});
export type ResultMetadata = z.infer<typeof ResultMetadata>;

export const ParsedLabReportData = z.object({ metadata: ResultMetadata, results: z.array(LabReportResult) });
export type ParsedLabReportData = z.infer<typeof ParsedLabReportData>;

export const ReviewReason = z.object({ code: z.string(), message: z.string() });
export const ReviewReasons = z.object({
  results: z.array(z.array(ReviewReason)).describe('Same length and order as data.results'),
  report: z.array(ReviewReason),
});
export type ReviewReasons = z.infer<typeof ReviewReasons>;

const Identity = z.object({ first_name: z.string().nullable(), last_name: z.string().nullable(), dob: z.string().nullable() });
const PatientCheckStatus = z.enum(['match', 'mismatch', 'unknown']);
/** Whether the report names the patient it is filed under (match, mismatch, or unknown when either side is missing). */
export const PatientCheck = z.object({
  status: PatientCheckStatus.describe('On a header changed in review, the worse of the header as read and as corrected'),
  report: Identity.describe('The report’s header (as corrected, once a review changed it)'),
  patient: z.array(Identity).describe('The distinct names and dates of birth on the patient’s orders, newest first'),
  differences: z.array(z.string()).describe('What differs, in words: name, date of birth'),
  extracted: z
    .object({ status: PatientCheckStatus, report: Identity, differences: z.array(z.string()) })
    .optional()
    .describe('When a review changed the name or date of birth: the verdict on the header as the reader read it'),
  removed: z.array(z.string()).optional().describe('What the reader read and the review left blank or unreadable: first name, last name, date of birth'),
});
export type PatientCheck = z.infer<typeof PatientCheck>;

export const ParsingJob = z.object({
  id: z.string(),
  job_id: z.string(),
  status: z.string().describe('upload_pending, started, completed, failed (non-exhaustive)'),
  data: ParsedLabReportData.nullable().optional(),
  needs_human_review: z.boolean(),
  is_reviewed: z.boolean(),
  failure_reason: z.string().nullable().optional().describe('Why the job failed (this service; absent from SDK 3.1.551)'),
  // --- extensions of this service ---
  user_id: z.string().optional(),
  stage: z.string().optional().describe(`Extension: ${PARSING_JOB_STAGES.join(', ')} (non-exhaustive)`),
  progress: z.number().min(0).max(1).optional().describe('Extension: 0..1 while parsing'),
  review_requested: z.boolean().optional().describe('Extension: the caller asked for a human review'),
  review_reasons: ReviewReasons.nullable().optional().describe('Extension: why each doubtful value was sent to review'),
  review: z
    .object({
      decision: z.string(),
      reviewer: z.string().nullable(),
      notes: z.string().nullable(),
      reviewed_at: DateTime,
      patient_mismatch_confirmed: z.boolean().optional().describe('The reviewer approved over a patient mismatch'),
      patient_identity_confirmed: z
        .boolean()
        .optional()
        .describe('The reviewer confirmed the report is this patient’s where it could not be compared (no orders, a name or date of birth unreadable or removed in review)'),
      extracted_metadata: ResultMetadata.optional().describe('On an approval: the header as the reader read it (`data` then holds the corrected one)'),
    })
    .nullable()
    .optional()
    .describe('Extension: the human review, once submitted'),
  file: z.object({ name: z.string(), content_type: z.string(), size: z.number().int() }).optional().describe('Extension: the uploaded file'),
  stats: z
    .object({ pages: z.number().int(), ocr_pages: z.number().int(), mean_ocr_confidence: z.number().nullable() })
    .nullable()
    .optional(),
  patient_check: PatientCheck.optional().describe('Extension, on a single job: the report’s name and date of birth against the patient’s orders'),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
});
export type ParsingJob = z.infer<typeof ParsingJob>;

export const ParsingJobParams = z.object({ job_id: z.uuid() });

const boolText = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true');

export const ParsingJobsQuery = z.object({
  status: z
    .union([z.enum(PARSING_JOB_STATUSES), z.array(z.enum(PARSING_JOB_STATUSES)).max(10)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]))
    .describe('Repeatable'),
  needs_human_review: boolText.optional(),
  is_reviewed: boolText.optional(),
  stage: z.enum(PARSING_JOB_STAGES).optional(),
  user_id: z.uuid().optional(),
  order: z.enum(['asc', 'desc']).default('desc').describe('By creation time; the review queue reads oldest first (asc)'),
  limit: z.coerce.number().int().min(1).max(PARSER_LIST_MAX_LIMIT).default(PARSER_LIST_DEFAULT_LIMIT),
  next_cursor: z.string().max(2000).optional(),
});
export type ParsingJobsQuery = z.infer<typeof ParsingJobsQuery>;

export const ParsingJobsResponse = z.object({
  data: z.array(ParsingJob).describe('Jobs without `data` (fetch one job for its results)'),
  next_cursor: z.string().nullable(),
});
export type ParsingJobsResponse = z.infer<typeof ParsingJobsResponse>;

export const ParsingJobReviewBody = z.object({
  decision: z.enum(['approve', 'reject']),
  metadata: ResultMetadata.optional().describe('Corrected metadata; default: as extracted'),
  results: z.array(LabReportResult).max(500).optional().describe('The corrected results, all of them; default: as extracted'),
  notes: text(PARSER_REVIEW_NOTES_MAX).nullable().optional(),
  reviewer: text(200).nullable().optional().describe('Who reviewed (e.g. the staff member id); kept with the review'),
  confirm_patient_mismatch: z
    .boolean()
    .optional()
    .describe(
      'Approve a report whose name or date of birth differs from the patient’s orders (422 `value_error.patient_mismatch` without it), or that could not be compared with them: no orders, a name or date of birth unreadable or removed in review (422 `value_error.patient_unverified`); recorded with the review',
    ),
});
export type ParsingJobReviewBody = z.infer<typeof ParsingJobReviewBody>;

/** The parse queue as a team sees it (an extension): how much of its work waits, and for how long. */
export const ParserQueue = z.object({
  queued: z.number().int().describe("The team's jobs waiting for a reader"),
  parsing: z.number().int().describe("The team's jobs being read now"),
  oldest_queued_at: DateTime.nullable().describe('When the longest-waiting job was uploaded'),
  oldest_wait_seconds: z.number().nullable(),
  readers: z.number().int().nullable().describe('Reader processes the service runs (null where it does not say)'),
});
export type ParserQueue = z.infer<typeof ParserQueue>;

/** The operator's view of parsing across teams and of the service's memory. */
export const ServiceMetrics = z.object({
  parse_queue: z.object({
    queued: z.number().int(),
    parsing: z.number().int(),
    oldest_wait_seconds: z.number().nullable(),
    teams_waiting: z.number().int(),
  }),
  readers: z
    .object({
      size: z.number().int(),
      running: z.number().int(),
      busy: z.number().int(),
      peak_reader_bytes: z.number().int(),
      parsed: z.number().int(),
      stopped_for_memory: z.number().int(),
      stopped_for_time: z.number().int(),
      crashed: z.number().int(),
    })
    .nullable(),
  memory: z.object({
    rss_bytes: z.number().int(),
    heap_used_bytes: z.number().int().describe("The service's JavaScript heap"),
    external_bytes: z.number().int().describe('Outside the heap: the embedded store (WebAssembly) and buffers'),
    readers_rss_bytes: z.number().int(),
  }),
});
export type ServiceMetrics = z.infer<typeof ServiceMetrics>;
