import { z } from 'zod';

/** One validation problem, in the production service's shape (FastAPI style). */
export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** 422: `detail` is a list of issues. 404/401/409: `detail` is a sentence. 400: an object. */
export const ErrorBody = z.object({
  detail: z.union([z.string(), z.array(ValidationIssue), z.record(z.string(), z.unknown())]),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const errorResponses = {
  401: ErrorBody.describe('Missing or invalid x-service-api-key'),
  404: ErrorBody.describe('Unknown id, or an id that belongs to another team'),
  422: ErrorBody.describe('Invalid input: detail lists each problem with its location'),
} as const;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** PostgreSQL text cannot hold NUL characters: refuse them at the edge instead of failing in the store. */
export const hasNoNul = (s: string) => !s.includes('\u0000');
export const NO_NUL_MESSAGE = 'must not contain NUL characters';

/** YYYY-MM-DD that exists (2023-02-30 does not) in years 0001-9999 (PostgreSQL has no year 0000). */
export function isCalendarDate(s: string): boolean {
  if (!DATE_RE.test(s) || s.startsWith('0000')) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A calendar date YYYY-MM-DD that actually exists (2023-02-30 is refused). */
export const CalendarDate = z
  .string()
  .regex(DATE_RE, 'must be a date in the format YYYY-MM-DD')
  .refine(isCalendarDate, 'is not a real calendar date');

/** Date-times on the wire always carry `Z` or an offset. */
export const DateTime = z.string().describe('ISO-8601 date-time with Z or an offset');

/**
 * Ids ICU (so Intl) accepts that are not in the IANA tz database: Java-era three-letter ids,
 * SystemV/..., and names the tz database dropped. PostgreSQL refuses them ("AGT") or reads them as
 * fixed-offset abbreviations ("PST", "CST", "IST" mean other things there).
 */
const ICU_ONLY_ZONES = new Set(
  [
    'ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT', 'IET', 'IST', 'JST', 'MIT',
    'NET', 'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST', 'US/Pacific-New', 'Canada/East-Saskatchewan',
  ].map((z) => z.toLowerCase()),
);

/**
 * An IANA tz database identifier (Area/Location, Etc/..., or a legacy name such as EST5EDT)
 * that this runtime's tz database knows. Offsets like "+02:00" and abbreviations are refused.
 */
export function isIanaTimeZone(id: string): boolean {
  if (KNOWN_ZONES.has(id)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(id)) return false;
  const lower = id.toLowerCase();
  if (ICU_ONLY_ZONES.has(lower) || lower.startsWith('systemv/')) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: id });
  } catch {
    return false;
  }
  // Valid ids are a bounded set (the tz database's, in their spellings): asking Intl once each is enough.
  if (KNOWN_ZONES.size < 10_000) KNOWN_ZONES.add(id);
  return true;
}
const KNOWN_ZONES = new Set<string>();
export const IanaTimeZone = z
  .string()
  .max(64)
  .refine(isIanaTimeZone, 'must be a valid IANA time zone identifier such as America/New_York');

export const Uuid = z.uuid();
