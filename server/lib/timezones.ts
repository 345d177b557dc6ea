/**
 * Building an Intl.DateTimeFormat costs ~50 times more than using one, and availability alone asks
 * for thousands of offsets: one formatter per zone and purpose, kept (zones are a bounded set; an
 * invalid zone throws before it is kept).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f;
}

/**
 * Offsets change only at transitions, which since 1970 every zone of the tz database makes on a quarter hour:
 * the offset of a quarter hour is remembered (bounded; dropped whole when full).
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const offsets = new Map<string, number>();
const MAX_OFFSETS = 100_000;

/** UTC offset in seconds (east positive) of an IANA zone at an instant. */
export function zoneOffsetSeconds(zone: string, at: Date): number {
  // Before 1970 some zones still kept local mean time, whose transitions fall on odd seconds.
  if (at.getTime() < 0) return readZoneOffsetSeconds(zone, at);
  const key = `${zone}|${Math.floor(at.getTime() / QUARTER_HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = readZoneOffsetSeconds(zone, at);
    if (offsets.size >= MAX_OFFSETS) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function readZoneOffsetSeconds(zone: string, at: Date): number {
  const part = formatter(`offset|${zone}`, () => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }))
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
  return formatter(`date|${zone}`, () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })).format(at);
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
