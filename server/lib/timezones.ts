import { sql, type SQL } from 'drizzle-orm';
/**
 * Formatters by zone: building an Intl.DateTimeFormat costs ~0.3 ms (it loads the zone's rules),
 * formatting with one a few microseconds; the demo seed asks for ~300k offsets.
 */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached(cache: Map<string, Intl.DateTimeFormat>, zone: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = cache.get(zone);
  if (!format) {
    format = make(); // throws RangeError for an unknown zone, as before: nothing is cached then
    if (cache.size >= 1000) cache.clear(); // zones come from the data: keep the cache bounded
    cache.set(zone, format);
  }
  return format;
}

/** UTC offset in seconds (east positive) of an IANA zone at an instant, read from the runtime's Intl. */
function readOffset(zone: string, at: Date): number {
  const part = cached(offsetFormats, zone, () => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }))
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(part ?? '');
  if (!m) return 0;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60);
}

const HOUR_MS = 3_600_000;
/** Offsets at whole UTC hours, by zone: reading one from Intl costs ~25 µs, a map lookup far less. */
const hourOffsets = new Map<string, Map<number, number>>();
let hourOffsetCount = 0;

function offsetAtHour(zone: string, hour: number): number {
  let byHour = hourOffsets.get(zone);
  const known = byHour?.get(hour);
  if (known !== undefined) return known;
  const offset = readOffset(zone, new Date(hour * HOUR_MS));
  if (hourOffsetCount >= 500_000) {
    hourOffsets.clear(); // keep the cache bounded (a few MB)
    hourOffsetCount = 0;
    byHour = undefined;
  }
  if (!byHour) hourOffsets.set(zone, (byHour = new Map()));
  byHour.set(hour, offset);
  hourOffsetCount++;
  return offset;
}

/**
 * UTC offset in seconds (east positive) of an IANA zone at an instant. When the offsets at the
 * whole UTC hours around the instant agree, no change of offset falls between them (no zone
 * changes its offset twice within an hour), so the instant has that offset too; otherwise the
 * instant is read exactly.
 */
export function zoneOffsetSeconds(zone: string, at: Date): number {
  const hour = Math.floor(at.getTime() / HOUR_MS);
  if (!Number.isFinite(hour)) return readOffset(zone, at); // an invalid date: Intl's own answer (a RangeError)
  const before = offsetAtHour(zone, hour);
  if (at.getTime() === hour * HOUR_MS) return before;
  return before === offsetAtHour(zone, hour + 1) ? before : readOffset(zone, at);
}

/**
 * The instant at which a zone's clocks show the given wall time (ms since epoch, read as if UTC).
 * In a DST gap the later offset wins; in an overlap, the first occurrence.
 */
export function wallTimeToInstant(zone: string, wallMs: number): Date {
  return wallTimeToInstantWithOffset(zone, wallMs).instant;
}

/** wallTimeToInstant, with the zone's UTC offset (seconds) at that instant: one offset lookup fewer than asking again. */
export function wallTimeToInstantWithOffset(zone: string, wallMs: number): { instant: Date; offsetSeconds: number } {
  const first = zoneOffsetSeconds(zone, new Date(wallMs));
  const second = zoneOffsetSeconds(zone, new Date(wallMs - first * 1000));
  const instant = new Date(wallMs - second * 1000);
  // Unless the two readings differ (near a change of offset), the instant is the one already read.
  return { instant, offsetSeconds: first === second ? second : zoneOffsetSeconds(zone, instant) };
}

/** The calendar date (YYYY-MM-DD) an instant falls on in a zone. */
export function localDate(zone: string, at: Date): string {
  return cached(dateFormats, zone, () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })).format(at);
}

/**
 * The name to give PostgreSQL's AT TIME ZONE for an IANA zone id. PostgreSQL reads a name that is
 * also a time zone abbreviation as that fixed offset, so CET, EET, MET and WET would lose their
 * summer time there; the tz database (2024b) makes them links to these zones.
 */
const ABBREVIATION_LIKE_ZONES: Record<string, string> = {
  CET: 'Europe/Brussels',
  MET: 'Europe/Brussels',
  EET: 'Europe/Athens',
  WET: 'Europe/Lisbon',
};
export function postgresZoneName(zone: string): string {
  return ABBREVIATION_LIKE_ZONES[zone.toUpperCase()] ?? zone;
}

/** `postgresZoneName` in SQL, for a zone id the query reads from a column. */
export function postgresZoneNameSql(zone: SQL): SQL {
  const cases = Object.entries(ABBREVIATION_LIKE_ZONES).map(([abbreviation, name]) => sql`WHEN ${abbreviation} THEN ${name}`);
  return sql`(CASE upper(${zone}) ${sql.join(cases, sql` `)} ELSE ${zone} END)`;
}
