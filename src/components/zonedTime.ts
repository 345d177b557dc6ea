/**
 * Instants shown in a named IANA zone: the patient's (an appointment's `iana_timezone`, an
 * availability answer's `timezone`), never the browser's. A coordinator in New York booking a draw
 * in Los Angeles must read the time the phlebotomist will ring the bell.
 */

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** A cached formatter for the zone; null when the zone is not one this browser knows. */
function formatter(timeZone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat | null {
  const key = `${timeZone ?? ''}|${JSON.stringify(options)}`;
  if (!formatters.has(key)) {
    try {
      formatters.set(key, new Intl.DateTimeFormat(undefined, { ...options, timeZone }));
    } catch {
      formatters.set(key, null);
    }
  }
  return formatters.get(key) ?? null;
}

export const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
export const DAY: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' };
export const DATE_TIME: Intl.DateTimeFormatOptions = { ...DAY, year: 'numeric', ...TIME };

export function isKnownZone(timeZone: string | null | undefined): timeZone is string {
  return typeof timeZone === 'string' && timeZone !== '' && formatter(timeZone, TIME) !== null;
}

const toDate = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** The instant in `timeZone` ('' for an unreadable instant; the raw text for an unknown zone). */
export function formatInZone(iso: string | null | undefined, timeZone: string, options: Intl.DateTimeFormatOptions = DATE_TIME): string {
  const d = iso ? toDate(iso) : null;
  if (!d) return iso ?? '';
  const f = formatter(timeZone, options);
  return f ? f.format(d) : iso ?? '';
}

/** The zone's short name at that instant ("PDT", "CST"; "GMT+1" where the locale has none). */
export function zoneAbbreviation(timeZone: string, at: Date = new Date()): string {
  const f = formatter(timeZone, { timeZoneName: 'short' });
  return f?.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/** The zone's short names over a span of instants, e.g. "PDT/PST" across the end of daylight saving. */
export function zoneAbbreviations(timeZone: string, instants: Date[]): string {
  const names = [...new Set(instants.map((d) => zoneAbbreviation(timeZone, d)))];
  return names.length ? names.join('/') : zoneAbbreviation(timeZone);
}

/** The viewer's own zone (the browser's). */
export function viewerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Whether the viewer's clock reads the same as the zone's at that instant (then one time is enough). */
export function viewerReadsSame(iso: string, timeZone: string): boolean {
  return formatInZone(iso, timeZone, DATE_TIME) === formatInZone(iso, viewerZone(), DATE_TIME);
}

/**
 * A calendar date (`YYYY-MM-DD`, already a day in the patient's zone) as "Wed, Oct 28". Formatted
 * at noon UTC in UTC, so no zone can move it to the day before or after.
 */
export function formatCalendarDate(date: string, options: Intl.DateTimeFormatOptions = DAY): string {
  const d = toDate(`${date}T12:00:00Z`);
  const f = formatter('UTC', options);
  return d && f ? f.format(d) : date;
}
