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

/** The value a point shows, or null when it has no number in the history's unit (a comment, an unconvertible unit). */
export function chartValue(o: Observation, unit: string | null): number | null {
  if (o.normalized_value !== null && o.normalized_unit === unit) return o.normalized_value;
  if (o.value !== null && (o.unit ?? null) === unit) return o.value;
  return null;
}

export function chartPoints(history: PatientBiomarkerHistory, timeZone: string | null): { points: ChartPoint[]; skipped: Observation[] } {
  const points: ChartPoint[] = [];
  const skipped: Observation[] = [];
  for (const o of history.observations) {
    const value = chartValue(o, history.unit);
    if (value === null) {
      skipped.push(o);
      continue;
    }
    points.push({
      at: Date.parse(o.observed_at),
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
