/** Parser-job shapes and limits: the BFF's contract (server/bff/api/parserJobs.ts). */
export {
  MAX_FILE_BYTES,
  RESULT_LIMITS,
  REVIEW_NOTES_MAX,
  type LabReportResult,
  type LoincMatch,
  type ParserJobRecord,
  type ParserQueueStatus,
  type ResultMetadata,
  type ReviewBody,
  type ReviewReason,
  type ReviewReasons,
} from '../../server/bff/api';
