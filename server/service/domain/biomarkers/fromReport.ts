import { eq } from 'drizzle-orm';
import { isIanaTimeZone } from '../../../contract/common';
import type { LabReportResult, LoincMatch, ParsedLabReportData } from '../../../contract';
import { readPrintedWallTime } from '../../../contract/printedDate';
import { wallTimeToInstant } from '../../../lib/timezones';
import type { Database } from '../../../store/db';
import type { parsingJobs } from '../../db/schema';
import { biomarkerResults, users, type ServiceSchema } from '../../db/schema';
import { ANALYTE_CODE_OF_PROPERTY } from '../../reader/loincTable';
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

// ---------------------------------------------------------------------------------------------
// LOINC codes.

/**
 * The LOINC code a reader's text stands for, or null when it is none: digits, a hyphen and the
 * check digit of LOINC's mod 10 algorithm (Luhn's: from the right, every other digit doubled,
 * starting with the last; the digits of the results summed; the check digit takes the sum to a
 * multiple of 10). OCR slips (2345-8 for 2345-7, a transposed 2354-7) fail the check, so they do
 * not file a value under another analyte. Leading zeros change no check digit and are dropped.
 */
export function loincCode(raw: string): string | null {
  const m = /^0*(\d{1,7})-(\d)$/.exec(raw.replace(/\s+/g, ''));
  if (!m) return null;
  const [number, check] = [m[1]!, Number(m[2])];
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    const digit = Number(number[number.length - 1 - i]);
    const weighted = i % 2 === 0 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return (10 - (sum % 10)) % 10 === check ? `${number}-${check}` : null;
}

/**
 * The match that names the analyte: the reader's most confident one (the first of equals), when it
 * reaches HISTORY_LOINC_CONFIDENCE and its code is a LOINC code. When the most confident code is
 * not one, the value goes under its printed name rather than under the reader's second guess,
 * which is a different analyte.
 */
export function chooseLoincMatch(matches: readonly LoincMatch[] | undefined): LoincMatch | null {
  let best: LoincMatch | null = null;
  for (const m of matches ?? []) if (m.confidence_score >= HISTORY_LOINC_CONFIDENCE && (!best || m.confidence_score > best.confidence_score)) best = m;
  const code = best && loincCode(best.loinc_code);
  return best && code ? { ...best, loinc_code: code } : null;
}

// ---------------------------------------------------------------------------------------------
// Printed dates and times.

/**
 * A date (and time) printed on a report as an instant. Printed without an offset it is the
 * patient's local time (`timeZone`, their fallback zone; UTC when they have none), and a date alone
 * is local noon, so that the date shown in the patient's zone is the date printed. Null when the
 * text is not one of the forms labs print, or not a day of the calendar.
 *
 * The date and time forms are the ones the reader finds (contract/printedDate.ts); the zone
 * arithmetic is `wallTimeToInstant` (server/lib/timezones.ts) over the runtime's Intl.
 */
export function readPrintedTime(printed: string, timeZone: string | null): Date | null {
  const t = readPrintedWallTime(printed);
  if (!t) return null;
  const offset = t.offset?.toUpperCase();
  if (offset === 'Z' || offset === 'UTC' || offset === 'GMT') return new Date(t.wall);
  if (offset) {
    const o = /^([+-])(\d{2}):?(\d{2})$/.exec(offset)!;
    return new Date(t.wall - (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) * 60_000);
  }
  return timeZone ? wallTimeToInstant(timeZone, t.wall) : new Date(t.wall);
}

/** When the sample was taken, read from the report in the patient's zone: collected, else reported; else when it was uploaded. */
export function reportObservedAt(metadata: ParsedLabReportData['metadata'] | undefined, fallback: Date, timeZone: string | null): Date {
  for (const printed of [metadata?.date_collected, metadata?.date_reported]) {
    const at = printed ? readPrintedTime(printed, timeZone) : null;
    if (at) return at;
  }
  return fallback;
}

// ---------------------------------------------------------------------------------------------

function rowOf(job: JobRow, r: LabReportResult, position: number, observedAt: Date, labName: string | null) {
  const chosen = chooseLoincMatch(r.loinc_matches);
  // One analyte, one history: glucose in mmol/L (15074-8) is filed and converted as glucose (2345-7).
  const match = chosen && { ...chosen, loinc_code: ANALYTE_CODE_OF_PROPERTY.get(chosen.loinc_code) ?? chosen.loinc_code };
  const m = NUMBER.exec(r.value.trim());
  const value = m ? Number(m[2]) : null;
  // "<0.3" is a bound, not a value, whatever type the reader gave it: the history must not compare it.
  const type = m?.[1] ? 'range' : (r.type ?? (m ? 'numeric' : 'comment'));
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
  const [patient] = await tx.select({ zone: users.fallbackTimeZone }).from(users).where(eq(users.id, job.userId));
  const zone = patient?.zone && isIanaTimeZone(patient.zone) ? patient.zone : null;
  const observedAt = reportObservedAt(data.metadata, job.createdAt, zone);
  const rows = data.results.map((r, i) => rowOf(job, r, i, observedAt, data.metadata?.lab_name || null));
  await tx.insert(biomarkerResults).values(rows);
  return rows.length;
}
