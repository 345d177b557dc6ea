import { describe, expect, it } from 'vitest';
import { notCalculatedReason, notPerformedReason, type PrintedInput } from './missingResults';

const num = (value: number): PrintedInput => ({ value, result: String(value), type: 'numeric' });
const printed = (values: Record<string, PrintedInput>) => (loinc: string) => values[loinc];
const ADULT = { sex: 'female', ageYears: 44 } as const;
const LIPIDS = { '2093-3': num(212), '2085-9': num(47), '2571-8': num(133) };

describe('why a calculated result is not reported', () => {
  it('eGFR under 18: the CKD-EPI 2021 equation is for adults (a demographics failure), whatever the creatinine', () => {
    for (const creatinine of [num(0.6), undefined]) {
      expect(notCalculatedReason('98979-8', { sex: 'male', ageYears: 12 }, printed(creatinine ? { '2160-0': creatinine } : {}))).toEqual({
        type: 'missing_demo_aoe_calc_failure',
        note: 'eGFR is not calculated for patients under 18: the CKD-EPI 2021 equation is for adults.',
      });
    }
  });

  it('an input not resulted, named', () => {
    const { '2085-9': _hdl, ...noHdl } = LIPIDS;
    expect(notCalculatedReason('13457-7', ADULT, printed(noHdl))).toEqual({ type: 'missing_result_calc_failure', note: 'Not calculated: HDL Cholesterol not resulted.' });
    expect(notCalculatedReason('9830-1', ADULT, printed({}))).toEqual({ type: 'missing_result_calc_failure', note: 'Not calculated: Cholesterol, Total and HDL Cholesterol not resulted.' });
    expect(notCalculatedReason('98979-8', ADULT, printed({}))).toEqual({ type: 'missing_result_calc_failure', note: 'Not calculated: Creatinine not resulted.' });
  });

  it('LDL above 400 mg/dL of triglycerides (also beyond the measuring range): Friedewald does not apply', () => {
    const note = 'Triglycerides above 400 mg/dL; LDL not calculated by Friedewald.';
    expect(notCalculatedReason('13457-7', ADULT, printed({ ...LIPIDS, '2571-8': num(401) }))).toEqual({ type: 'missing_result_calc_failure', note });
    expect(notCalculatedReason('13457-7', ADULT, printed({ ...LIPIDS, '2571-8': { value: 1000, result: '>1000', type: 'range' } }))).toEqual({ type: 'missing_result_calc_failure', note });
  });

  it('an input outside its measuring range, named with its printed value', () => {
    expect(notCalculatedReason('751-8', ADULT, printed({ '770-8': num(60), '6690-2': { value: 0.1, result: '<0.1', type: 'range' } }))).toEqual({
      type: 'missing_result_calc_failure',
      note: 'Not calculated: White Blood Cell Count <0.1 outside the measuring range.',
    });
  });
});

describe('a test the order ended before', () => {
  it('is not a failure of the lab or the specimen, and the note says what happened', () => {
    expect(notPerformedReason('cancelled')).toEqual({ type: 'non_failure', note: 'Not resulted: the order was cancelled before this test was performed.' });
    expect(notPerformedReason('failed').note).toBe('Not resulted: the order failed before this test was performed.');
  });
});
