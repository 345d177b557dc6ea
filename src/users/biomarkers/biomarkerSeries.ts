/**
 * A biomarker history as chart points: each value in the analyte's one unit where it converts (else
 * as reported, when the history has a single unit), with its time in the patient's zone and its source.
 */
import type { PatientBiomarkerHistory } from '../../../server/bff/api';

export type Observation = PatientBiomarkerHistory['observations'][number];

export interface ChartPoint {
  at: number;
  value: number;
  source: string;
  /** As reported: "5.4 mmol/L". */
  reported: string;
  when: string;
  interpretation: string | null;
  id: number;
}

export function formatIn(iso: string, timeZone: string | null): string {
  const d = new Date(iso);
  // dateStyle cannot be combined with timeZoneName: the fields are spelled out.
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}),
  });
}

/** A printed "<0.3" or ">90": a bound of the measuring range, not a value to plot. */
const BOUND = /^\s*(?:[<>]=?|≤|≥)/;

/**
 * The value a point shows, or null when it has no number in the history's unit: a comment, a range
 * such as "<0.3" (which has a bound, not a value: it is listed under the chart), a unit that did not
 * convert.
 */
export function chartValue(o: Observation, unit: string | null): number | null {
  if (o.type === 'range' || o.type === 'comment' || BOUND.test(o.result)) return null;
  const value = o.normalized_value !== null && o.normalized_unit === unit ? o.normalized_value : o.value !== null && (o.unit ?? null) === unit ? o.value : null;
  return value !== null && Number.isFinite(value) ? value : null;
}

export function chartPoints(history: PatientBiomarkerHistory, timeZone: string | null): { points: ChartPoint[]; skipped: Observation[] } {
  const points: ChartPoint[] = [];
  const skipped: Observation[] = [];
  for (const o of history.observations) {
    const value = chartValue(o, history.unit);
    const at = Date.parse(o.observed_at);
    if (value === null || !Number.isFinite(at)) {
      skipped.push(o);
      continue;
    }
    points.push({
      at,
      value,
      source: o.source,
      reported: `${o.result}${o.unit ? ` ${o.unit}` : ''}`,
      when: formatIn(o.observed_at, timeZone),
      interpretation: o.interpretation,
      id: o.id,
    });
  }
  return { points, skipped };
}

/**
 * The value axis: the values and the reference band with a margin, rounded to a step of the data's
 * size so that its ticks read 60, 80, 100 rather than 59.9, 74.9. Null without a value: a band
 * alone is no chart, and an empty axis would be NaN to NaN.
 */
export function valueAxis(values: number[], band: { low: number | null; high: number | null }): [number, number] | null {
  if (values.length === 0) return null;
  const lo = Math.min(...values, band.low ?? Infinity);
  const hi = Math.max(...values, band.high ?? -Infinity);
  const pad = (hi - lo) * 0.15 || Math.abs(hi) * 0.1 || 1;
  const step = 10 ** Math.floor(Math.log10(hi - lo + 2 * pad || 1));
  return [Math.max(0, Math.floor((lo - pad) / step) * step), Math.ceil((hi + pad) / step) * step];
}

/** The reference band to draw: the latest value's range in the history's unit. */
export function referenceBand(history: PatientBiomarkerHistory): { low: number | null; high: number | null } {
  for (const o of [...history.observations].reverse()) {
    const converted = o.normalized_unit === history.unit;
    const low = converted ? o.normalized_min_range_value : o.unit === history.unit ? o.min_range_value : null;
    const high = converted ? o.normalized_max_range_value : o.unit === history.unit ? o.max_range_value : null;
    if (low !== null || high !== null) return { low, high };
  }
  return { low: null, high: null };
}

export const SOURCE_LABELS: Record<string, string> = { order: 'Lab order', lab_report: 'Uploaded report' };
export const sourceLabel = (source: string) => SOURCE_LABELS[source] ?? source.replace(/_/g, ' ');
