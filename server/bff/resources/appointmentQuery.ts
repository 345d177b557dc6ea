/**
 * react-admin list parameters of `appointments` → what to walk, which records to keep and their
 * order. The service cannot filter or sort appointments, so everything but the orders walk's own
 * scope happens here, on the walked records. Kept apart from the routes so it can be read alone.
 */
import type { z } from 'zod';
import type { AppointmentsList, ListParams } from '../api';
import { BffError } from '../errors';
import type { DirectoryEntry, WalkScope } from './appointmentDirectory';

type SortField = 'upcoming' | 'start_at' | 'status' | 'provider' | 'id';
export type AppointmentsListParams = z.output<typeof AppointmentsList>;

export interface AppointmentsListPlan {
  /** What the orders walk may be narrowed by. */
  scope: WalkScope;
  /** One order only: read it directly instead of walking. */
  orderId?: string;
  matches(entry: DirectoryEntry): boolean;
  compare(a: DirectoryEntry, b: DirectoryEntry): number;
  /** For the audit trail: which filters were used (statuses, providers, ids, bounds; no free text). */
  auditDetail: Record<string, unknown>;
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Appointments without a time go last whichever the direction: they are not "earliest" or "latest". */
function byStart(a: DirectoryEntry, b: DirectoryEntry, dir: 1 | -1): number {
  const ta = time(a.record.start_at);
  const tb = time(b.record.start_at);
  const na = Number.isNaN(ta);
  const nb = Number.isNaN(tb);
  if (na || nb) return na === nb ? 0 : na ? 1 : -1;
  return (ta - tb) * dir;
}

/** Where a visit stands from `now`: to come (0), requested with no time yet (1), or past (2). */
function standing(startAt: string | null | undefined, now: number): 0 | 1 | 2 {
  const start = time(startAt);
  if (Number.isNaN(start)) return 1;
  return start >= now ? 0 : 2;
}

/** What is coming first (soonest first), then requested ones, then past visits (latest first). */
function byUpcoming(a: DirectoryEntry, b: DirectoryEntry, now: number): number {
  const [sa, sb] = [standing(a.record.start_at, now), standing(b.record.start_at, now)];
  if (sa !== sb) return sa - sb;
  return sa === 2 ? byStart(a, b, -1) : byStart(a, b, 1);
}

export function planAppointmentsList(params: ListParams<AppointmentsListParams['filter']>, now: number = Date.now()): AppointmentsListPlan {
  const { filter, sort } = params;
  const field = sort.field as SortField;
  const dir = sort.order === 'ASC' ? 1 : -1;

  const { status, provider, start_date: startDate, end_date: endDate, order_id: orderId, user_id: userId, past } = filter;
  if (startDate && endDate && startDate > endDate) {
    throw new BffError(400, 'filter.end_date must not be before filter.start_date', { 'filter.end_date': 'must not be before start_date' });
  }
  const from = startDate ? Date.parse(startDate) : undefined;
  const to = endDate ? Date.parse(endDate) : undefined;

  const matches = ({ record }: DirectoryEntry) => {
    if (status && !status.includes(record.status)) return false;
    if (provider && !provider.includes(record.provider)) return false;
    if (orderId && record.id.toLowerCase() !== orderId) return false;
    if (userId && record.user_id.toLowerCase() !== userId) return false;
    // Past: started before now. To come: the rest (a requested visit, with no time yet, is still ahead).
    if (past !== undefined && (standing(record.start_at, now) === 2) !== past) return false;
    if (from !== undefined || to !== undefined) {
      // A requested appointment has no time yet: it is in no date range.
      const start = time(record.start_at);
      if (Number.isNaN(start)) return false;
      if (from !== undefined && start < from) return false;
      if (to !== undefined && start > to) return false;
    }
    return true;
  };

  const compare = (a: DirectoryEntry, b: DirectoryEntry): number => {
    let c: number;
    switch (field) {
      case 'upcoming':
        c = byUpcoming(a, b, now);
        break;
      case 'start_at':
        c = byStart(a, b, dir);
        break;
      case 'status':
        c = byString(a.record.status, b.record.status) * dir || byStart(a, b, 1);
        break;
      case 'provider':
        c = byString(a.record.provider, b.record.provider) * dir || byStart(a, b, 1);
        break;
      case 'id':
        // `id` is the order id: sorted like the orders' `id`, by the order's creation time.
        c = (time(a.orderCreatedAt) - time(b.orderCreatedAt)) * dir || 0;
        break;
    }
    // Equal keys keep one stable order, so pages never repeat or skip a record.
    return c || byString(a.record.id, b.record.id);
  };

  return {
    // An appointment starts after its order was created, so orders created after the end bound
    // cannot hold one that starts before it: the walk may stop there. The start bound cannot be
    // pushed down (an order may wait long for its appointment).
    scope: { user_id: userId, end_date: endDate },
    orderId,
    matches,
    compare,
    auditDetail: {
      range: params.range,
      sort,
      status: status ?? null,
      provider: provider ?? null,
      start_date: startDate ?? null,
      end_date: endDate ?? null,
      order_id: orderId ?? null,
      user_id: userId ?? null,
      past: past ?? null,
    },
  };
}
