import { eq } from 'drizzle-orm';
import type { LabReportResult, ParsedLabReportData } from '../../../contract';
import type { Database } from '../../../store/db';
import type { parsingJobs} from '../../db/schema';
import { biomarkerResults, type ServiceSchema } from '../../db/schema';
import { normaliseDob } from './patientCheck';
import { normaliseValue } from './units';

type Db = Database<ServiceSchema>;
type JobRow = typeof parsingJobs.$inferSelect;

/** A LOINC match the reader is this sure of names the analyte in the history; below it the value is kept under its printed name only. */
export const HISTORY_LOINC_CONFIDENCE = 0.8;

const NUMBER = /^([<>]=?|≤|≥)?\s*(-?\d+(?:\.\d+)?)$/;

const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'result';

/** When the sample was taken, read from the report: collected, else reported; else when it was uploaded. */
export function reportObservedAt(metadata: ParsedLabReportData['metadata'] | undefined, fallback: Date): Date {
  for (const printed of [metadata?.date_collected, metadata?.date_reported]) {
    if (!printed) continue;
    if (/^\d{4}-\d{2}-\d{2}T/.test(printed) && !Number.isNaN(Date.parse(printed))) return new Date(printed);
    const date = normaliseDob(printed.replace(/[ T]+\d{1,2}:\d{2}.*$/, '').trim());
    if (!date) continue;
    const time = /(\d{1,2}):(\d{2})\s*(am|pm)?/i.exec(printed);
    const hours = !time ? 12 : time[3] ? (Number(time[1]) % 12) + (time[3].toLowerCase() === 'pm' ? 12 : 0) : Number(time[1]);
    // Reports print local times without a zone: the printed time taken as UTC (noon when none) keeps the day right.
    const at = new Date(`${date}T${String(hours).padStart(2, '0')}:${time?.[2] ?? '00'}:00Z`);
    if (!Number.isNaN(at.getTime())) return at;
  }
  return fallback;
}

function rowOf(job: JobRow, r: LabReportResult, position: number, observedAt: Date, labName: string | null) {
  const match = r.loinc_matches?.find((m) => m.confidence_score >= HISTORY_LOINC_CONFIDENCE);
  const m = NUMBER.exec(r.value.trim());
  const value = m ? Number(m[2]) : null;
  const type = r.type ?? (m ? (m[1] ? 'range' : 'numeric') : 'comment');
  const normal = value !== null && match ? normaliseValue(match.loinc_code, value, r.units ?? null) : null;
  const range =
    r.min_reference_range !== undefined && r.max_reference_range !== undefined
      ? `${r.min_reference_range}-${r.max_reference_range}`
      : r.max_reference_range !== undefined
        ? `<${r.max_reference_range}`
        : r.min_reference_range !== undefined
          ? `>${r.min_reference_range}`
          : null;
  return {
    teamId: job.teamId,
    userId: job.userId,
    source: 'lab_report',
    parsingJobId: job.id,
    position,
    name: r.test_name,
    slug: slugOf(match?.display_name ?? r.test_name),
    loinc: match?.loinc_code ?? null,
    loincSlug: match ? slugOf(match.display_name ?? match.loinc_name) : null,
    result: r.value,
    type,
    unit: r.units ?? null,
    value,
    referenceRange: range,
    minRangeValue: r.min_reference_range ?? null,
    maxRangeValue: r.max_reference_range ?? null,
    isAboveMaxRange: r.is_above_max_range ?? null,
    isBelowMinRange: r.is_below_min_range ?? null,
    interpretation: r.interpretation ?? null,
    notes: null,
    sourceMarkers: r.source_panel_name ? [{ name: r.source_panel_name }] : null,
    performingLaboratory: labName,
    sourceSampleId: null,
    normalizedValue: normal?.value ?? null,
    normalizedUnit: normal?.unit ?? null,
    observedAt,
    reportedAt: null,
  };
}

/**
 * A completed report's results join the patient's history (replacing any earlier copy of the same
 * job's, so a job recorded twice is recorded once). Call inside the transaction that completes it.
 */
export async function recordReportResults(tx: Db, job: JobRow): Promise<number> {
  await tx.delete(biomarkerResults).where(eq(biomarkerResults.parsingJobId, job.id));
  const data = job.data as ParsedLabReportData | null;
  if (!data?.results?.length) return 0;
  const observedAt = reportObservedAt(data.metadata, job.createdAt);
  const rows = data.results.map((r, i) => rowOf(job, r, i, observedAt, data.metadata?.lab_name || null));
  await tx.insert(biomarkerResults).values(rows);
  return rows.length;
}
