// Building an Intl.DateTimeFormat costs far more than formatting with one: one per zone, kept.
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached(formats: Map<string, Intl.DateTimeFormat>, zone: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = make(); // throws RangeError for an unknown zone, as before; nothing is kept then
    formats.set(zone, format);
  }
  return format;
}

/** UTC offset in seconds (east positive) of an IANA zone at an instant. */
export function zoneOffsetSeconds(zone: string, at: Date): number {
  const part = cached(offsetFormats, zone, () => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }))
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(part ?? '');
  if (!m) return 0;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60);
}

/**
 * The instant at which a zone's clocks show the given wall time (ms since epoch, read as if UTC).
 * In a DST gap the later offset wins; in an overlap, the first occurrence.
 */
export function wallTimeToInstant(zone: string, wallMs: number): Date {
  let guess = wallMs - zoneOffsetSeconds(zone, new Date(wallMs)) * 1000;
  guess = wallMs - zoneOffsetSeconds(zone, new Date(guess)) * 1000;
  return new Date(guess);
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
