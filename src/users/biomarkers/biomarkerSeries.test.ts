import { describe, expect, it } from 'vitest';
import type { PatientBiomarkerHistory } from '../../../server/bff/api';
import { chartPoints, valueAxis, type Observation } from './biomarkerSeries';

let nextId = 1;
const observation = (o: Partial<Observation>): Observation => ({
  id: nextId++,
  source: 'lab_report',
  order_id: null,
  parsing_job_id: null,
  name: 'Glucose',
  loinc: '2345-7',
  result: '99',
  type: 'numeric',
  value: 99,
  unit: 'mg/dL',
  normalized_value: 99,
  normalized_unit: 'mg/dL',
  reference_range: '70-99',
  min_range_value: 70,
  max_range_value: 99,
  normalized_min_range_value: 70,
  normalized_max_range_value: 99,
  is_above_max_range: false,
  is_below_min_range: false,
  interpretation: 'normal',
  performing_laboratory: null,
  observed_at: '2026-03-01T12:00:00.000Z',
  ...o,
});
const history = (observations: Observation[]): PatientBiomarkerHistory => ({
  user_id: '0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c',
  loinc: '2345-7',
  name: 'Glucose',
  unit: 'mg/dL',
  observations,
});

describe('chartPoints', () => {
  it('charts each value in the history’s unit, converted or as reported', () => {
    const { points, skipped } = chartPoints(
      history([observation({ result: '5.5', value: 5.5, unit: 'mmol/L', normalized_value: 99.09 }), observation({ result: '104', value: 104, normalized_value: 104 })]),
      'UTC',
    );
    expect(points.map((p) => [p.value, p.reported])).toEqual([
      [99.09, '5.5 mmol/L'],
      [104, '104 mg/dL'],
    ]);
    expect(skipped).toEqual([]);
  });

  it('leaves out a range such as "<70" (a bound, not a value), a unit that did not convert and a comment', () => {
    const range = observation({ result: '<70', type: 'range', value: 70, normalized_value: 70 });
    const typedNumeric = observation({ result: '>500', type: 'numeric', value: 500, normalized_value: 500 });
    const mass = observation({ result: '5', value: 5, unit: 'mg', normalized_value: null, normalized_unit: null });
    const comment = observation({ result: 'See note', type: 'comment', value: null, unit: null, normalized_value: null, normalized_unit: null });
    const { points, skipped } = chartPoints(history([range, typedNumeric, mass, comment]), 'UTC');
    expect(points).toEqual([]);
    expect(skipped).toEqual([range, typedNumeric, mass, comment]);
  });

  it('never gives a point that is not a number', () => {
    const { points } = chartPoints(history([observation({ observed_at: 'not a time' }), observation({ value: Number.NaN, normalized_value: Number.NaN })]), 'UTC');
    expect(points).toEqual([]);
  });
});

describe('valueAxis', () => {
  it('spans the values and the reference band with a margin, on round ticks', () => {
    expect(valueAxis([92, 104], { low: 70, high: 99 })).toEqual([60, 110]);
    expect(valueAxis([5], { low: null, high: null })).toEqual([4, 6]);
  });

  it('has no axis without a value to plot, whatever the band', () => {
    expect(valueAxis([], { low: 70, high: 99 })).toBeNull();
    expect(valueAxis([], { low: null, high: null })).toBeNull();
  });
});
