import { z } from 'zod';
import { DateTime, hasNoNul, NO_NUL_MESSAGE, Uuid } from './common';

/** Points per page of a grouped timeseries; a heavy user's six months spans several pages. */
export const TIMESERIES_PAGE_SIZE = 200;

const DATE_OR_DATETIME =
  /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export const DateOrDateTime = z
  .string()
  .regex(DATE_OR_DATETIME, 'must be YYYY-MM-DD or an ISO-8601 date-time');

export const GroupedTimeseriesQuery = z.object({
  start_date: DateOrDateTime.describe(
    'YYYY-MM-DD (taken as 00:00:00 local time) or an ISO date-time. See the time rule in the description.',
  ),
  end_date: DateOrDateTime.nullable()
    .optional()
    .describe('YYYY-MM-DD (taken as 23:59:59 local time) or an ISO date-time; absent means no upper bound'),
  provider: z.string().max(64).refine(hasNoNul, NO_NUL_MESSAGE).default('').describe('Provider slug; empty means every provider'),
  next_cursor: z.string().max(2048).nullable().optional().describe('Cursor from the previous page'),
  cursor: z.string().max(2048).nullable().optional().describe('Deprecated alias of next_cursor'),
});
export type GroupedTimeseriesQuery = z.infer<typeof GroupedTimeseriesQuery>;

export const TimeseriesPoint = z.object({
  id: z.number().int().optional().describe('Deprecated'),
  timestamp: DateTime.describe('Deprecated alias of start'),
  start: DateTime.describe('Inclusive'),
  end: DateTime.describe('Exclusive'),
  unit: z.string(),
  value: z.number(),
  timezone_offset: z.number().int().nullable().describe('UTC offset in seconds, east positive; null = unknown'),
  type: z.string().nullable().optional().describe('Always null for this resource'),
});
export type TimeseriesPoint = z.infer<typeof TimeseriesPoint>;

export const TimeseriesSource = z.object({
  provider: z.string(),
  type: z.string().optional().describe('app, device or unknown'),
  app_id: z.string().nullable().optional(),
  device_id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  slug: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
});

export const TimeseriesGroup = z.object({ source: TimeseriesSource, data: z.array(TimeseriesPoint) });
export type TimeseriesGroup = z.infer<typeof TimeseriesGroup>;

export const GroupedTimeseriesResponse = z.object({
  groups: z.record(z.string(), z.array(TimeseriesGroup)),
  next_cursor: z.string().nullable(),
  next: z.string().nullable().optional().describe('Deprecated: same as next_cursor'),
});
export type GroupedTimeseriesResponse = z.infer<typeof GroupedTimeseriesResponse>;

export const TimeseriesParams = z.object({ user_id: Uuid });

/**
 * Bulk import of mindfulness sessions (a Labdesk extension, not part of the production interface):
 * at most this many points per request; a larger file goes in several requests
 * (`npm run import:timeseries` does that).
 */
export const TIMESERIES_IMPORT_MAX_POINTS = 10_000;
/** Request bodies of the import route: 10,000 points of ~200 bytes, with room to spare. */
export const TIMESERIES_IMPORT_BODY_LIMIT = 4 * 1024 * 1024;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const Instant = z
  .string()
  .regex(INSTANT, 'must be an ISO-8601 date-time with Z or an offset')
  .refine((s) => {
    const ms = Date.parse(s);
    return Number.isFinite(ms) && ms >= Date.parse('1900-01-01T00:00:00Z') && ms <= Date.parse('2200-01-01T00:00:00Z');
  }, 'is not a valid date-time (years 1900-2199)');

export const TimeseriesImportPoint = z
  .object({
    user_id: Uuid.describe('A user of the API key’s team'),
    provider: z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a provider slug (a-z, 0-9, _; at most 64 characters)').describe('Provider slug, e.g. oura'),
    source_type: z.string().regex(/^[a-z0-9_]{1,32}$/, 'must be a source type such as app, device or unknown').default('unknown').describe('app, device or unknown (default)'),
    start: Instant.describe('Inclusive'),
    end: Instant.describe('Exclusive; after start'),
    value: z.number().finite().min(0).max(1_000_000).describe('Minutes in a mindful state'),
    timezone_offset: z.number().int().min(-18 * 3600).max(18 * 3600).nullable().default(null).describe('UTC offset in seconds, east positive; null = unknown'),
  })
  .strict()
  .refine((p) => Date.parse(p.end) > Date.parse(p.start), { message: 'end must be after start', path: ['end'] });
export type TimeseriesImportPoint = z.infer<typeof TimeseriesImportPoint>;

export const TimeseriesImportRequest = z.object({
  points: z.array(TimeseriesImportPoint).min(1).max(TIMESERIES_IMPORT_MAX_POINTS),
});
export type TimeseriesImportRequest = z.infer<typeof TimeseriesImportRequest>;

export const TimeseriesImportResponse = z.object({
  received: z.number().int().describe('Points in the request'),
  imported: z.number().int().describe('Points stored by this request'),
  skipped: z.number().int().describe('Points already stored (same user, provider, source type and start), or repeated in the request'),
});
export type TimeseriesImportResponse = z.infer<typeof TimeseriesImportResponse>;
