import { z } from 'zod';
import { DateTime, hasNoNul, NO_NUL_MESSAGE, Uuid } from './common';

/**
 * Lab results of orders (the production service's LabResultsRaw and its parts, wire-facts §11.1)
 * and the biomarker history extension. Enums the production SDK marks non-exhaustive (result type,
 * interpretation, failure type, result status) are open strings here: readers must not match them
 * exhaustively; the lists below are what this service produces.
 */

export const RESULT_TYPES = ['numeric', 'range', 'comment', 'coded_value'] as const;
export type ResultType = (typeof RESULT_TYPES)[number];
export const RESULT_INTERPRETATIONS = ['normal', 'abnormal', 'critical', 'unknown'] as const;
export const RESULT_STATUSES = ['partial', 'final'] as const;
export const FAILURE_TYPES = [
  'quantity_not_sufficient_failure',
  'collection_process_failure',
  'drop_off_failure',
  'internal_lab_failure',
  'order_entry_failure',
  'non_failure',
  'unknown_failure',
  'patient_condition_failure',
  'missing_result_calc_failure',
  'missing_demo_aoe_calc_failure',
  'insufficient_volume',
] as const;

/** The marker (test or panel) a result was ordered under. */
export const ParentBiomarkerData = z.object({
  marker_id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  provider_id: z.string().nullable().optional(),
});

export const BiomarkerResult = z.object({
  name: z.string(),
  slug: z.string().nullable().optional(),
  result: z.string().describe('The value as the lab reports it: "5.4", "<0.5", "Non-Reactive" or a comment'),
  type: z.string().describe(`Result type (non-exhaustive): ${RESULT_TYPES.join(', ')}`),
  unit: z.string().nullable().optional(),
  timestamp: DateTime.nullable().optional().describe('When the sample was collected'),
  notes: z.string().nullable().optional(),
  reference_range: z.string().nullable().optional(),
  min_range_value: z.number().nullable().optional(),
  max_range_value: z.number().nullable().optional(),
  is_above_max_range: z.boolean().nullable().optional(),
  is_below_min_range: z.boolean().nullable().optional(),
  interpretation: z.string().nullable().optional().describe(`Non-exhaustive: ${RESULT_INTERPRETATIONS.join(', ')}`),
  loinc: z.string().nullable().optional(),
  loinc_slug: z.string().nullable().optional(),
  provider_id: z.string().nullable().optional(),
  source_markers: z.array(ParentBiomarkerData).nullable().optional(),
  performing_laboratory: z.string().nullable().optional(),
  source_sample_id: z.string().nullable().optional(),
});
export type BiomarkerResult = z.infer<typeof BiomarkerResult>;

export const MissingBiomarkerResult = z.object({
  name: z.string(),
  slug: z.string(),
  inferred_failure_type: z.string().describe(`Non-exhaustive: ${FAILURE_TYPES.join(', ')}`),
  note: z.string().nullable().optional(),
  loinc: z.string().nullable().optional(),
  loinc_slug: z.string().nullable().optional(),
  provider_id: z.string().nullable().optional(),
  source_markers: z.array(ParentBiomarkerData).nullable().optional(),
});
export type MissingBiomarkerResult = z.infer<typeof MissingBiomarkerResult>;

/** The report header. `clia_#` is the production service's literal key for the CLIA number. */
export const LabResultsMetadata = z.object({
  age: z.string(),
  dob: z.string(),
  'clia_#': z.string().nullable().optional(),
  patient: z.string(),
  provider: z.string().nullable().optional(),
  laboratory: z.string().nullable().optional(),
  date_reported: z.string(),
  date_collected: z.string().nullable().optional(),
  specimen_number: z.string(),
  date_received: z.string().nullable().optional(),
  status: z.string().nullable().optional().describe(`Non-exhaustive: ${RESULT_STATUSES.join(', ')}`),
  interpretation: z.string().nullable().optional(),
  patient_id: z.string().nullable().optional(),
  account_id: z.string().nullable().optional(),
});
export type LabResultsMetadata = z.infer<typeof LabResultsMetadata>;

export const PerformingLaboratory = z.object({
  name: z.string(),
  phone_number: z.string().nullable().optional(),
  medical_director: z.string().nullable().optional(),
  address: z
    .object({ first_line: z.string(), second_line: z.string().nullable().optional(), country: z.string(), zip: z.string(), city: z.string(), state: z.string() })
    .nullable()
    .optional(),
});

export const SampleData = z.object({
  sample_id: z.string().nullable().optional(),
  control_number: z.string().nullable().optional(),
  date_collected: z.string().nullable().optional(),
  date_received: z.string().nullable().optional(),
  date_reported: z.string().nullable().optional(),
  performing_laboratories: z.record(z.string(), PerformingLaboratory).nullable().optional(),
});

export const LabResultsRaw = z.object({
  metadata: LabResultsMetadata,
  results: z.array(BiomarkerResult),
  missing_results: z.array(MissingBiomarkerResult).nullable().optional(),
  sample_information: z.record(z.string(), SampleData).nullable().optional(),
});
export type LabResultsRaw = z.infer<typeof LabResultsRaw>;

/** `labtest.result.critical` data (the SDK's ClientFacingCriticalResult). */
export const CriticalResult = z.object({
  order_id: z.string(),
  sample_id: z.string(),
  status: z.string().describe('The result report status when the critical value arrived: partial or final'),
  interpretation: z.string(),
  team_id: z.string(),
  user_id: z.string(),
  created_at: DateTime,
  updated_at: DateTime,
});

/**
 * Extension, `labtest.result.partial` data (only for teams that enable partial-results webhooks):
 * a partial result set arrived. It carries counts, not values: receivers fetch
 * `GET /v3/order/{order_id}/result`, which applies their own access rules to health data.
 */
export const PartialResultsEvent = z.object({
  order_id: z.string(),
  sample_id: z.string().nullable(),
  status: z.literal('partial'),
  interpretation: z.string(),
  results_count: z.number().int(),
  pending_count: z.number().int().describe('Expected results not reported yet'),
  team_id: z.string(),
  user_id: z.string(),
  created_at: DateTime,
  updated_at: DateTime,
});

/** Extension: acknowledging an order's critical result (who, as the caller names them, and a note). */
export const AcknowledgeCriticalBody = z.object({
  acknowledged_by: z.string().trim().min(1, 'must not be empty').max(200).refine(hasNoNul, NO_NUL_MESSAGE),
  note: z.string().max(1000).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional(),
});
export const CriticalAcknowledgement = z.object({
  order_id: Uuid,
  acknowledged_at: DateTime,
  acknowledged_by: z.string(),
  note: z.string().nullable(),
});
export type CriticalAcknowledgement = z.infer<typeof CriticalAcknowledgement>;

/** Extension: a team's own settings. */
export const TeamSettings = z.object({
  partial_results_webhooks: z.boolean().describe('Announce each partial result set with `labtest.result.partial`; off by default'),
});
export const TeamSettingsPatch = TeamSettings.partial().strict();

// ---------------------------------------------------------------------------------------------
// Biomarker history (extension)

export const BIOMARKER_SOURCES = ['order', 'lab_report'] as const;

/** One value of an analyte in a patient's history. */
export const BiomarkerObservation = z.object({
  id: z.number().int(),
  source: z.string().describe(`Non-exhaustive: ${BIOMARKER_SOURCES.join(', ')}`),
  order_id: Uuid.nullable(),
  parsing_job_id: Uuid.nullable(),
  name: z.string(),
  loinc: z.string().nullable(),
  result: z.string(),
  type: z.string(),
  value: z.number().nullable(),
  unit: z.string().nullable(),
  normalized_value: z.number().nullable().describe('The value in the analyte’s unit (`unit` of the history), when UCUM can convert it'),
  normalized_unit: z.string().nullable(),
  reference_range: z.string().nullable(),
  min_range_value: z.number().nullable(),
  max_range_value: z.number().nullable(),
  normalized_min_range_value: z.number().nullable(),
  normalized_max_range_value: z.number().nullable(),
  is_above_max_range: z.boolean().nullable(),
  is_below_min_range: z.boolean().nullable(),
  interpretation: z.string().nullable(),
  performing_laboratory: z.string().nullable(),
  observed_at: DateTime,
});
export type BiomarkerObservation = z.infer<typeof BiomarkerObservation>;

/** The latest value of each analyte and where it is heading. */
export const BiomarkerSummary = z.object({
  loinc: z.string().nullable(),
  slug: z.string(),
  name: z.string(),
  unit: z.string().nullable().describe('The one unit of this analyte’s history'),
  count: z.number().int(),
  latest: BiomarkerObservation,
  previous_value: z.number().nullable().describe('The normalised value before the latest, for the trend; null when there is none or it cannot be compared (another unit that does not convert, a range such as "<0.3", a comment)'),
  trend: z.enum(['up', 'down', 'flat']).nullable(),
});
export const BiomarkerSummaries = z.object({ user_id: Uuid, biomarkers: z.array(BiomarkerSummary) });
export const BiomarkerHistory = z.object({
  user_id: Uuid,
  loinc: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  observations: z.array(BiomarkerObservation),
});
export const BiomarkerParams = z.object({ user_id: Uuid, loinc: z.string().regex(/^\d{1,7}-\d$/, 'must be a LOINC code such as 2345-7') });
