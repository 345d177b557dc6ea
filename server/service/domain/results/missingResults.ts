import type { FAILURE_TYPES } from '../../../contract';
import { ANALYTE_PROFILES, EGFR_MIN_AGE, FRIEDEWALD_MAX_TRIGLYCERIDES, type Patient } from './analytes';
import type { SimulatedValue } from './simulateValues';

/**
 * Why a result the order expected is not on the report: the SDK's FailureType and a note that names
 * the real cause, as a lab's "not reported" line does ("Triglycerides above 400 mg/dL; LDL not
 * calculated by Friedewald."), never a catch-all a reader cannot act on.
 */

/** The SDK's FailureType (3.1.551); the wire keeps it open, the simulated lab uses only these. */
export type FailureType = (typeof FAILURE_TYPES)[number];

export interface MissingReason {
  type: FailureType;
  note: string;
}

const EGFR = '98979-8';
const LDL = '13457-7';
const TRIGLYCERIDES = '2571-8';

const labelOf = (loinc: string) => ANALYTE_PROFILES[loinc]?.label ?? loinc;
const listOf = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** An input as the report prints it (undefined: not resulted). */
export type PrintedInput = Pick<SimulatedValue, 'value' | 'result' | 'type'>;

/**
 * Why a calculated result was not calculated, from its inputs as printed (`printed` answers
 * undefined for an input that was not resulted) and the patient.
 */
export function notCalculatedReason(loinc: string, patient: Patient, printed: (input: string) => PrintedInput | undefined): MissingReason {
  const inputs = ANALYTE_PROFILES[loinc]?.calculatedFrom ?? [];
  if (loinc === EGFR && patient.ageYears < EGFR_MIN_AGE) {
    // The calculation needs a demographic the equation does not cover: the SDK's demographics failure.
    return {
      type: 'missing_demo_aoe_calc_failure',
      note: `eGFR is not calculated for patients under ${EGFR_MIN_AGE}: the CKD-EPI 2021 equation is for adults.`,
    };
  }
  const absent = inputs.filter((i) => printed(i) === undefined);
  if (absent.length) return { type: 'missing_result_calc_failure', note: `Not calculated: ${listOf(absent.map(labelOf))} not resulted.` };
  const tg = loinc === LDL ? printed(TRIGLYCERIDES) : undefined;
  if (tg && tg.value !== null && (tg.value > FRIEDEWALD_MAX_TRIGLYCERIDES || tg.result.startsWith('>'))) {
    return { type: 'missing_result_calc_failure', note: `Triglycerides above ${FRIEDEWALD_MAX_TRIGLYCERIDES} mg/dL; LDL not calculated by Friedewald.` };
  }
  const outside = inputs.filter((i) => printed(i)!.type === 'range');
  if (outside.length) {
    const which = outside.map((i) => `${labelOf(i)} ${printed(i)!.result}`);
    return { type: 'missing_result_calc_failure', note: `Not calculated: ${listOf(which)} outside the measuring range.` };
  }
  return { type: 'missing_result_calc_failure', note: `Not calculated from the reported ${listOf(inputs.map(labelOf))}.` };
}

/** The note of a test the lab never performed because the order ended first (cancelled, or failed). */
export function notPerformedReason(top: string): MissingReason {
  const why = top === 'cancelled' ? 'the order was cancelled' : 'the order failed';
  // Not a failure of the lab or the specimen: the test was simply never run.
  return { type: 'non_failure', note: `Not resulted: ${why} before this test was performed.` };
}
