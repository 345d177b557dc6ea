/**
 * Calendar-date arithmetic on `YYYY-MM-DD` strings.
 *
 * The dates the chart asks for are days in the patient's time zone, not instants, so we never
 * build them from the viewer's local midnight: everything is done on UTC dates, which have no DST.
 */
import type { DateRange } from '../providers/types';

export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;

function toUtc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function fromUtc(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(toUtc(value).getTime()) && fromUtc(toUtc(value)) === value;
}

export function addDays(date: string, days: number): string {
  return fromUtc(new Date(toUtc(date).getTime() + days * DAY_MS));
}

export function addMonths(date: string, months: number): string {
  const d = toUtc(date);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  // Clamp: 31 March minus one month is 28/29 February, not 3 March.
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return fromUtc(d);
}

/** Inclusive number of days from start to end. */
export function daysBetween(start: string, end: string): number {
  return Math.round((toUtc(end).getTime() - toUtc(start).getTime()) / DAY_MS) + 1;
}

/** Today's date in `timeZone` (the patient's), falling back to the viewer's zone if it is unknown. */
export function todayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  const format = (zone?: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  try {
    return format(timeZone ?? undefined);
  } catch {
    return format();
  }
}

export interface RangePreset {
  label: string;
  /** The range ending `today` (inclusive). */
  range(today: string): DateRange;
}

const lastDays = (days: number): RangePreset['range'] => (today) => ({
  start_date: addDays(today, -(days - 1)),
  end_date: today,
});

export const RANGE_PRESETS: RangePreset[] = [
  { label: '7 days', range: lastDays(7) },
  { label: '30 days', range: lastDays(30) },
  { label: '90 days', range: lastDays(90) },
  { label: '6 months', range: (today) => ({ start_date: addDays(addMonths(today, -6), 1), end_date: today }) },
];

export const DEFAULT_PRESET = '30 days';

/** Why the range cannot be asked for, in words for the date picker; null when it is fine. */
export function rangeProblem({ start_date, end_date }: DateRange): string | null {
  if (!isCalendarDate(start_date) || !isCalendarDate(end_date)) return 'Pick both a start and an end date.';
  if (start_date > end_date) return 'The start date must be on or before the end date.';
  if (daysBetween(start_date, end_date) > MAX_RANGE_DAYS) return `Pick a range of at most ${MAX_RANGE_DAYS} days.`;
  return null;
}

/** What the chart shows before the user picks anything: the last 30 days. */
export function defaultRange(today: string): DateRange {
  const preset = RANGE_PRESETS.find((p) => p.label === DEFAULT_PRESET) ?? RANGE_PRESETS[0];
  return preset ? preset.range(today) : { start_date: addDays(today, -29), end_date: today };
}
