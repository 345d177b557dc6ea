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
