/**
 * Types of the lab-report parser. The wire shapes (ResultMetadata, LabReportResult, LoincMatch,
 * ParsedLabReportData) follow wire-facts §7 key for key, so the contract layer can turn them into
 * zod schemas one to one. Everything else (positioned text, rows, review reasons, the outcome) is
 * the parser's own vocabulary.
 */

// ---------------------------------------------------------------------------------------------
// Wire shapes (wire-facts §7)
// ---------------------------------------------------------------------------------------------

export type LabReportResultType = 'numeric' | 'range' | 'comment' | 'boolean' | 'duration' | 'percentage' | 'ratio';

export type Interpretation = 'normal' | 'abnormal' | 'critical' | 'unknown';

export interface LoincMatch {
  loinc_code: string;
  loinc_name: string;
  display_name?: string;
  aliases?: string[];
  /** 0..1; see loinc.ts for how exact, unit-disambiguated and fuzzy matches are scored. */
  confidence_score: number;
}

export interface LabReportResult {
  test_name: string;
  /** Always a string, as printed (without the flag): "6.8", "<0.5", "Negative", "2.50". */
  value: string;
  type?: LabReportResultType;
  units?: string;
  max_reference_range?: number;
  min_reference_range?: number;
  source_panel_name?: string;
  loinc_matches?: LoincMatch[];
  interpretation?: Interpretation;
  is_above_max_range?: boolean;
  is_below_min_range?: boolean;
}

export interface ResultMetadata {
  patient_first_name: string;
  patient_last_name: string;
  dob: string;
  lab_name: string;
  date_reported?: string;
  date_collected?: string;
  specimen_number?: string;
  /** Extension fields (the order results' LabResultsMetadata names where it has one; `gender` as newer wire versions). */
  gender?: 'female' | 'male' | 'other';
  date_received?: string;
  /** The ordering provider as printed ("Dr. Ana Ruiz, MD"). */
  provider?: string;
  lab_address?: string;
  'clia_#'?: string;
}

export interface ParsedLabReportData {
  metadata: ResultMetadata;
  results: LabReportResult[];
}

// ---------------------------------------------------------------------------------------------
// Review reasons
// ---------------------------------------------------------------------------------------------

/** Why a human should look at one result. Open-ended on the wire: consumers must accept new codes. */
export type ResultReviewCode =
  | 'low_ocr_confidence'
  | 'flag_inconsistent'
  | 'unflagged_out_of_range'
  | 'implausible_value'
  | 'decimal_suspect'
  | 'inconsistent_results'
  | 'unparseable_value'
  | 'loinc_missing'
  | 'loinc_ambiguous'
  | 'loinc_low_confidence'
  | 'unexpected_unit'
  | 'missing_unit'
  | 'range_suspect'
  | 'conflicting_columns'
  | 'layout_unknown'
  | 'unverifiable_ocr_value';

/** Why a human should look at the report as a whole. */
export type ReportReviewCode = 'no_results' | 'metadata_incomplete' | 'unread_rows' | 'ocr_used_low_quality';

export interface ReviewReason<C extends string = ResultReviewCode | ReportReviewCode> {
  code: C;
  /** One sentence a reviewer can act on; never contains the patient's name. */
  message: string;
}

export interface ReviewReasons {
  /** Same length and order as `data.results`: the reasons of results[i] are results[i]. */
  results: ReviewReason<ResultReviewCode>[][];
  report: ReviewReason<ReportReviewCode>[];
}

// ---------------------------------------------------------------------------------------------
// The outcome of parseLabReport
// ---------------------------------------------------------------------------------------------

export type ParseStage = 'sniff' | 'extract' | 'ocr' | 'read' | 'match' | 'review' | 'done';

export interface ParseOptions {
  /** Aborting rejects parseLabReport with the signal's reason (so a job runner can retry later). */
  signal?: AbortSignal;
  /** fraction in 0..1, monotonic; stage names the step that is running. */
  onProgress?: (fraction: number, stage: ParseStage) => void;
  /** Overall budget; past it the parse resolves as a failure. Default 5 minutes. */
  timeoutMs?: number;
  /** Called as each page is started (1-based), so a watchdog can hold each page to a time limit. */
  onPage?: (pageNumber: number, pageCount: number) => void;
}

export interface ParseStats {
  pages: number;
  ocrPages: number;
  /** Mean word confidence (0..100) over OCR'd pages; null when nothing was OCR'd. */
  meanOcrConfidence: number | null;
}

export type ParseOutcome =
  | {
      ok: true;
      data: ParsedLabReportData;
      reviewReasons: ReviewReasons;
      needsReview: boolean;
      stats: ParseStats;
    }
  | { ok: false; failureReason: string };

// ---------------------------------------------------------------------------------------------
// Positioned text: what PDF text extraction and OCR both produce, and the table reader consumes
// ---------------------------------------------------------------------------------------------

export type UploadKind = 'pdf' | 'jpeg' | 'png';
export type SniffResult = UploadKind | { rejected: string };

/**
 * A run of text on a page. Coordinates are top-down (y grows downwards, like an image), in the
 * page's own units (PDF points, or pixels for OCR); the reader only uses them relative to the
 * text height, so the unit does not matter.
 */
export interface TextItem {
  text: string;
  x: number;
  /** Top of the text box. */
  y: number;
  /** Where the letters sit: rows are grouped on it (word boxes vary with ascenders, baselines don't). */
  baseline: number;
  width: number;
  /** The font size (em), estimated for OCR words from their line's height. */
  height: number;
  /** 1-based. */
  page: number;
  source: 'text' | 'ocr';
  /** Text layer only: drawn in a bold face (some reports mark abnormal results only so). */
  bold?: boolean;
  /** OCR only: the lowest character confidence in the word, 0..100. */
  confidence?: number;
  /**
   * OCR only: what the engine read, when a decimal point it missed was put back from the page's
   * shading (decimalPoints.ts); `text` then has the point. Metadata is read from this text: a
   * postcode is not a decimal number.
   */
  unrestoredText?: string;
}

export interface PageText {
  page: number;
  width: number;
  height: number;
  source: 'text' | 'ocr';
  items: TextItem[];
  /** OCR only: mean word confidence of the page, 0..100. */
  ocrConfidence?: number;
}

/** Adjacent items of one row that belong together (no column gap between them). */
export interface Cell {
  text: string;
  x: number;
  /** Right edge. */
  x2: number;
  items: TextItem[];
}

/** Items that share a baseline (within tolerance), left to right. */
export interface Row {
  page: number;
  /** Vertical centre. */
  y: number;
  /** Median text height of the row: the yardstick for every tolerance. */
  height: number;
  cells: Cell[];
  /** Cells joined by two spaces; used for metadata and boilerplate detection. */
  text: string;
}
