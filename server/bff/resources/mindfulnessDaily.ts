import type { TimeseriesGroup, User } from '../../contract';
import { localDate } from '../../lib/timezones';
import { BffError } from '../errors';
import type { ServiceClient } from '../upstream/client';

export const MAX_CHART_DAYS = 366;
/** A safety stop: a year of a very heavy user is a few dozen pages. */
const MAX_UPSTREAM_PAGES = 200;
const DAY = 86_400_000;

export interface DailyMindfulness {
  user_id: string;
  start_date: string;
  end_date: string;
  time_zone: string;
  providers: { slug: string; name: string }[];
  days: { date: string; total: number; by_provider: Record<string, number> }[];
  sessions: number;
  upstream_pages: number;
}

function daysBetween(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += DAY) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

export function validateChartRange(start: string, end: string) {
  if (start > end) throw new BffError(422, 'The start date must not be after the end date', { end_date: 'must not be before the start date' });
  const days = (Date.parse(end) - Date.parse(start)) / DAY + 1;
  if (days > MAX_CHART_DAYS) {
    throw new BffError(422, `Choose at most ${MAX_CHART_DAYS} days`, { end_date: `at most ${MAX_CHART_DAYS} days after the start date` });
  }
}

/**
 * Minutes per day and provider over a date range, following every upstream cursor page. A session
 * counts on the day it started in the patient's local time: the point's own UTC offset when the
 * source gave one, else the user's fallback time zone, else UTC — the same rule the service uses
 * for date bounds, so each day's sessions are exactly those the service returns for that day.
 */
export async function dailyMindfulness(client: ServiceClient, user: User, start: string, end: string): Promise<DailyMindfulness> {
  validateChartRange(start, end);
  const zone = user.fallback_time_zone?.id ?? 'UTC';
  const byDay = new Map(daysBetween(start, end).map((d) => [d, { date: d, total: 0, by_provider: {} as Record<string, number> }]));
  const seenProviders = new Set<string>();
  let sessions = 0;
  let pages = 0;
  let cursor: string | null = null;
  do {
    if (pages >= MAX_UPSTREAM_PAGES) throw new BffError(422, 'Too much data for one chart; narrow the date range');
    const page = await client.mindfulnessMinutesGrouped(user.user_id, { start_date: start, end_date: end, next_cursor: cursor });
    pages++;
    for (const [slug, groups] of Object.entries(page.groups)) {
      for (const group of groups as TimeseriesGroup[]) {
        for (const point of group.data) {
          const startAt = new Date(point.start);
          const day =
            point.timezone_offset != null
              ? new Date(startAt.getTime() + point.timezone_offset * 1000).toISOString().slice(0, 10)
              : localDate(zone, startAt);
          const bucket = byDay.get(day);
          if (!bucket) continue;
          bucket.by_provider[slug] = (bucket.by_provider[slug] ?? 0) + point.value;
          bucket.total += point.value;
          seenProviders.add(slug);
          sessions++;
        }
      }
    }
    cursor = page.next_cursor ?? page.next ?? null;
  } while (cursor);

  const names = new Map(user.connected_sources.map((s) => [s.provider.slug, s.provider.name]));
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    user_id: user.user_id,
    start_date: start,
    end_date: end,
    time_zone: zone,
    providers: [...seenProviders].sort().map((slug) => ({ slug, name: names.get(slug) ?? slug })),
    days: [...byDay.values()].map((d) => ({
      date: d.date,
      total: round(d.total),
      by_provider: Object.fromEntries(Object.entries(d.by_provider).map(([k, v]) => [k, round(v)])),
    })),
    sessions,
    upstream_pages: pages,
  };
}
