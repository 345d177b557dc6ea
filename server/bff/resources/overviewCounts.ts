/**
 * The overview's queues, each counted over the service's HTTP API with bounded work: orders needing
 * attention are the triage queue's (read whole, at most QUEUE_MAX); the queues without a total
 * (parser jobs, webhook deliveries: cursors; appointments: one read per order) are walked up to
 * OVERVIEW_WALK_CAP and then reported as capped ("500+") rather than walked to the end.
 */
import { DELIVERIES_MAX_LIMIT, PARSER_LIST_MAX_LIMIT } from '../../contract';
import { localDate, wallTimeToInstant } from '../../lib/timezones';
import { NEEDS_ATTENTION_STATUSES, OVERVIEW_WALK_CAP, type AppointmentsUpcoming, type FailedWebhookDeliveries, type OrdersNeedingAttention, type OverviewCount, type ReportsAwaitingReview } from '../api';
import type { Database } from '../../store/db';
import type { BffSchema } from '../db/schema';
import { readQueue } from '../triage/queue';
import type { ServiceClient } from '../upstream/client';
import type { AppointmentDirectory } from './appointmentDirectory';

const DAY_MS = 86_400_000;

/**
 * Orders needing attention, by low-level status: the triage queue itself (server/bff/triage/queue.ts),
 * so an order staff resolved for the status it is still in is not counted, and the count says what
 * the queue it links to will list.
 */
export async function ordersNeedingAttention(client: ServiceClient, db: Database<BffSchema>): Promise<OrdersNeedingAttention> {
  const { records } = await readQueue(client, db, { status: [...NEEDS_ATTENTION_STATUSES] }, { field: 'id', order: 'ASC' });
  const counts = new Map<string, number>();
  for (const order of records) counts.set(order.low_level_status ?? '', (counts.get(order.low_level_status ?? '') ?? 0) + 1);
  const byReason = NEEDS_ATTENTION_STATUSES.map((reason) => ({ reason, count: counts.get(reason) ?? 0 }));
  return { count: records.length, by_reason: byReason.filter((r) => r.count > 0) };
}

/** null when the service cannot filter by unacknowledged critical results (it would count every order). */
export async function criticalUnacknowledged(client: ServiceClient): Promise<OverviewCount | null> {
  if (!(await client.knowsCriticalFilter())) return null;
  const answer = await client.listOrders({ critical_acknowledged: false, page: 1, size: 1 });
  return { count: answer.total, capped: false };
}

/** The review queue (the parser-jobs list's `queue` filter) and the upload time of its longest-waiting report. */
export async function reportsAwaitingReview(client: ServiceClient): Promise<ReportsAwaitingReview> {
  let count = 0;
  let oldest: string | null = null;
  let cursor: string | undefined;
  do {
    const limit = Math.min(PARSER_LIST_MAX_LIMIT, OVERVIEW_WALK_CAP - count);
    const page = await client.listParsingJobs({ stage: 'awaiting_review', is_reviewed: false, order: 'asc', limit, next_cursor: cursor });
    // Read oldest first, so the first page holds the longest wait; the minimum still holds should arrival and upload time disagree.
    for (const { created_at: at } of page.data) if (at && (oldest === null || at < oldest)) oldest = at;
    count += page.data.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor && count < OVERVIEW_WALK_CAP);
  return { count, capped: cursor !== undefined, oldest_created_at: oldest };
}

/** Failed deliveries over every endpoint of the team, walked until the cap, with the endpoints they failed on. */
export async function failedWebhookDeliveries(client: ServiceClient): Promise<FailedWebhookDeliveries> {
  const endpoints = await client.listWebhookEndpoints();
  const failedOn: FailedWebhookDeliveries['endpoints'] = [];
  let count = 0;
  for (const endpoint of endpoints.data) {
    const before = count;
    let cursor: string | undefined;
    do {
      const limit = Math.min(DELIVERIES_MAX_LIMIT, OVERVIEW_WALK_CAP - count);
      const page = await client.listWebhookDeliveries(endpoint.id, { status: 'failed', limit, cursor });
      count += page.data.length;
      cursor = page.next_cursor ?? undefined;
    } while (cursor && count < OVERVIEW_WALK_CAP);
    if (count > before) failedOn.push({ id: endpoint.id, count: count - before });
    if (count >= OVERVIEW_WALK_CAP) return { count, capped: cursor !== undefined || endpoint !== endpoints.data.at(-1), endpoints: failedOn };
  }
  return { count, capped: false, endpoints: failedOn };
}

/** A calendar day of a zone: its date and its first and last millisecond. */
export interface ZoneDay {
  date: string;
  from: Date;
  to: Date;
}

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
/** Midnight of a date in a zone (a zone that skips midnight for summer time starts the day at the first minute it has). */
const midnight = (zone: string, date: string) => wallTimeToInstant(zone, Date.parse(`${date}T00:00:00Z`));

/** Today and tomorrow in `zone` at `now`. */
export function todayAndTomorrow(zone: string, now: Date): [ZoneDay, ZoneDay] {
  const today = localDate(zone, now);
  const tomorrow = nextDate(today);
  const after = nextDate(tomorrow);
  const starts = [midnight(zone, today), midnight(zone, tomorrow), midnight(zone, after)] as const;
  return [
    { date: today, from: starts[0], to: new Date(starts[1].getTime() - 1) },
    { date: tomorrow, from: starts[1], to: new Date(starts[2].getTime() - 1) },
  ];
}

/** Appointment statuses that no longer hold a visit: not counted among the day's appointments. */
const GONE = new Set(['cancelled']);
/** A request (or an asynchronous booking) the provider has not answered: it waits for a time. */
const WAITING = 'pending';

export interface AppointmentCounts {
  waiting: OverviewCount;
  upcoming: AppointmentsUpcoming;
}

/** Appointment requests waiting and the day's appointments, from one bounded walk of the at-home orders. */
export async function appointmentCounts(directory: AppointmentDirectory, zone: string, now: Date): Promise<AppointmentCounts> {
  const walk = await directory.walk({});
  const capped = !walk.complete;
  const days = todayAndTomorrow(zone, now);
  const on = (day: ZoneDay) =>
    walk.entries.filter(({ record }) => {
      if (GONE.has(record.status) || !record.start_at) return false;
      const start = Date.parse(record.start_at);
      return start >= day.from.getTime() && start <= day.to.getTime();
    }).length;
  const dayCount = (day: ZoneDay) => ({ count: on(day), capped, date: day.date, from: day.from.toISOString(), to: day.to.toISOString() });
  return {
    waiting: { count: walk.entries.filter((e) => e.record.status === WAITING).length, capped },
    upcoming: { today: dayCount(days[0]), tomorrow: dayCount(days[1]) },
  };
}
