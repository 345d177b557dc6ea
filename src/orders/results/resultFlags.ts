/**
 * How a lab result is flagged and worded on screen. Interpretations, result types and failure types
 * are open enums (a newer service may send others): unknown values are shown as they come.
 */
import type { BiomarkerResult, MissingBiomarkerResult } from '../../../server/contract';

export type Flag = { code: 'HH' | 'LL' | 'H' | 'L' | 'A' | 'C'; label: string; severity: 'critical' | 'abnormal' } | null;

/** The lab's flag: HH/LL critical, H/L outside the range, A abnormal without a direction (a reactive screen). */
export function flagOf(r: Pick<BiomarkerResult, 'interpretation' | 'is_above_max_range' | 'is_below_min_range'>): Flag {
  const critical = r.interpretation === 'critical';
  if (r.is_above_max_range) return critical ? { code: 'HH', label: 'Critical high', severity: 'critical' } : { code: 'H', label: 'High', severity: 'abnormal' };
  if (r.is_below_min_range) return critical ? { code: 'LL', label: 'Critical low', severity: 'critical' } : { code: 'L', label: 'Low', severity: 'abnormal' };
  if (critical) return { code: 'C', label: 'Critical', severity: 'critical' };
  if (r.interpretation === 'abnormal') return { code: 'A', label: 'Abnormal', severity: 'abnormal' };
  return null;
}

const FAILURES: Record<string, string> = {
  quantity_not_sufficient_failure: 'Not enough specimen',
  insufficient_volume: 'Not enough specimen',
  collection_process_failure: 'Problem with the collection',
  drop_off_failure: 'Specimen not delivered',
  internal_lab_failure: 'Laboratory error',
  order_entry_failure: 'Order entry problem',
  patient_condition_failure: 'Specimen condition (e.g. hemolysis)',
  missing_result_calc_failure: 'Could not be calculated',
  missing_demo_aoe_calc_failure: 'Not calculable from the patient’s age, sex or answers',
  non_failure: 'Not performed',
  unknown_failure: 'Not reported',
};

export function failureText(m: Pick<MissingBiomarkerResult, 'inferred_failure_type'>): string {
  return FAILURES[m.inferred_failure_type] ?? m.inferred_failure_type.replace(/_/g, ' ');
}

/** Result report statuses in words; others as they come. */
export function reportStatusText(status: string | null | undefined): string {
  if (status === 'final') return 'Final';
  if (status === 'partial') return 'Partial: more results to come';
  return status ? status.replace(/_/g, ' ') : 'Unknown';
}
