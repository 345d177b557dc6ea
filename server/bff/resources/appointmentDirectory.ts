/**
 * The team's appointments, as the `appointments` resource lists them. The service has no list of
 * appointments: it keeps one current appointment per order and reads it by order. So the BFF walks
 * the team's at-home phlebotomy orders (newest first, a bounded number) and reads each order's
 * appointment, a few at a time. A walk costs one call per order, so it is kept for a short while
 * and dropped at once when an appointment changes through this BFF.
 */
import { ORDERS_MAX_SIZE, type Appointment, type Order } from '../../contract';
import type { OrdersListQuery, ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { ACTIVE_APPOINTMENT_STATUSES, isUuid, type AppointmentOrderSummary, type AppointmentRecord } from '../api';

/** A summary of the appointment's order, enough for the list (who, and where the order stands). */
export type OrderSummary = AppointmentOrderSummary;
export type { AppointmentRecord };

/** A record and what the list sorts by that the record does not carry. */
export interface DirectoryEntry {
  record: AppointmentRecord;
  /** The order's creation time: the walk's natural order, which the `id` sort follows. */
  orderCreatedAt: string;
}

/** What may be pushed down to the orders walk (each narrows the orders, never the result). */
export interface WalkScope {
  user_id?: string;
  /** Orders created at or before this instant (an appointment starts after its order was created). */
  end_date?: string;
}

export interface Walk {
  entries: DirectoryEntry[];
  ordersWalked: number;
  /** false when the team has more orders than the walk reads (the oldest are left out). */
  complete: boolean;
}

export interface DirectoryOptions {
  /** How long a walk is kept. */
  ttlMs?: number;
  /** At most this many orders are walked (newest first). */
  maxOrders?: number;
  /** Appointment reads in flight at once (the service is shared with every other caller). */
  concurrency?: number;
  /** Walks of different scopes kept at once. */
  maxWalks?: number;
  now?: () => number;
}

export const AT_HOME_PHLEBOTOMY = 'at_home_phlebotomy';
/** Walk-in orders hold visits at patient service centers; the service reads them by order like at-home ones. */
export const WALK_IN_TEST = 'walk_in_test';
/** Active appointments: an order holding one cannot take another. */
export { ACTIVE_APPOINTMENT_STATUSES };

function patientName(order: Order): string | null {
  const d = order.patient_details ?? {};
  const parts = [d.first_name, d.last_name].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.length ? parts.join(' ') : null;
}

export function orderSummary(order: Order): OrderSummary {
  return {
    id: order.id,
    status: order.status ?? null,
    low_level_status: order.low_level_status ?? null,
    patient_name: patientName(order),
    user_id: order.user_id,
  };
}

/** The record of an appointment; without its order (it could not be read) the summary holds what the appointment knows. */
export function toRecord(appointment: Appointment, order: Order | null): AppointmentRecord {
  const { id: appointmentId, ...rest } = appointment;
  return {
    ...rest,
    id: appointment.order_id,
    appointment_id: appointmentId,
    order: order
      ? orderSummary(order)
      : { id: appointment.order_id, status: null, low_level_status: null, patient_name: null, user_id: appointment.user_id },
  };
}

/** Runs `fn` over `items` with at most `limit` calls in flight; answers in input order. */
export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** null for a 404: the order is unknown, another team's, or has no appointment. */
async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 404) return null;
    throw err;
  }
}

interface CachedWalk {
  walk: Promise<Walk>;
  /** Set when the walk finished; until then concurrent lists share the walk in flight. */
  expiresAt: number;
}

export class AppointmentDirectory {
  private readonly walks = new Map<string, CachedWalk>();
  private readonly ttlMs: number;
  private readonly maxOrders: number;
  private readonly concurrency: number;
  private readonly maxWalks: number;
  private readonly now: () => number;

  constructor(
    private readonly client: ServiceClient,
    opts: DirectoryOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 15_000;
    this.maxOrders = opts.maxOrders ?? 2000;
    this.concurrency = opts.concurrency ?? 8;
    this.maxWalks = opts.maxWalks ?? 16;
    this.now = opts.now ?? Date.now;
  }

  /** Drops every kept walk: the next list reads the service again (after a change made here). */
  invalidate() {
    this.walks.clear();
  }

  /** The appointments of the team's at-home phlebotomy and walk-in orders in scope (kept for `ttlMs`). */
  walk(scope: WalkScope): Promise<Walk> {
    const key = JSON.stringify([scope.user_id ?? null, scope.end_date ?? null]);
    const cached = this.walks.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.walk;
    if (cached) this.walks.delete(key);
    while (this.walks.size >= this.maxWalks) this.walks.delete(this.walks.keys().next().value!);

    const entry: CachedWalk = { walk: this.readAll(scope), expiresAt: Infinity };
    this.walks.set(key, entry);
    entry.walk.then(
      () => {
        entry.expiresAt = this.now() + this.ttlMs;
      },
      () => {
        // A failed walk is not kept: the next list tries again.
        if (this.walks.get(key) === entry) this.walks.delete(key);
      },
    );
    return entry.walk;
  }

  /** One order's current appointment with its order summary, read now (never from a walk); null when there is none. */
  async readOne(orderId: string): Promise<DirectoryEntry | null> {
    if (!isUuid(orderId)) return null;
    const [order, appointment] = await Promise.all([orNull(this.client.getOrder(orderId)), orNull(this.client.getOrderAppointment(orderId))]);
    if (!order || !appointment) return null;
    return { record: toRecord(appointment, order), orderCreatedAt: order.created_at };
  }

  /** Several orders' appointments (getMany); orders without one are left out. */
  async readMany(orderIds: readonly string[]): Promise<DirectoryEntry[]> {
    // Two calls per order: half as many orders in flight keeps `concurrency` calls at once.
    const found = await mapPool(orderIds, Math.max(1, Math.floor(this.concurrency / 2)), (id) => this.readOne(id));
    return found.filter((e): e is DirectoryEntry => e !== null);
  }

  /** The record of an appointment the service just answered, with a fresh summary of its order. */
  async recordFor(appointment: Appointment): Promise<AppointmentRecord> {
    let order: Order | null = null;
    try {
      order = await this.client.getOrder(appointment.order_id);
    } catch {
      // The change was made; a summary that could not be read must not turn it into an error.
    }
    return toRecord(appointment, order);
  }

  private async readAll(scope: WalkScope): Promise<Walk> {
    const orders: Order[] = [];
    const seen = new Set<string>();
    let complete = false;
    let dropped = false;
    const query: Omit<OrdersListQuery, 'page' | 'size'> = {
      order_type: [AT_HOME_PHLEBOTOMY, WALK_IN_TEST],
      user_id: scope.user_id,
      end_date: scope.end_date,
      order_key: 'created_at',
      order_direction: 'desc',
    };
    for (let page = 1; orders.length < this.maxOrders; page++) {
      const answer = await this.client.listOrders({ ...query, page, size: ORDERS_MAX_SIZE });
      for (const o of answer.orders) {
        // An order placed during the walk shifts the pages by one: its neighbour shows up twice.
        if (seen.has(o.id)) continue;
        if (orders.length >= this.maxOrders) {
          dropped = true;
          continue;
        }
        seen.add(o.id);
        orders.push(o);
      }
      if (answer.orders.length < ORDERS_MAX_SIZE || page * ORDERS_MAX_SIZE >= answer.total) {
        // The end of the list; stopping at `maxOrders` before it leaves complete = false.
        complete = !dropped;
        break;
      }
    }
    const appointments = await mapPool(orders, this.concurrency, (o) => orNull(this.client.getOrderAppointment(o.id)));
    const entries: DirectoryEntry[] = [];
    orders.forEach((order, i) => {
      const a = appointments[i];
      if (a) entries.push({ record: toRecord(a, order), orderCreatedAt: order.created_at });
    });
    return { entries, ordersWalked: orders.length, complete };
  }
}
