/**
 * The needs-attention queue: the service's problem orders, minus those staff resolved for the
 * status they are still in, each with its triage state and when its current status began. The
 * service cannot sort by time in status nor knows about resolutions, so the BFF reads the whole
 * queue (at most QUEUE_MAX orders, in the service's order) and sorts and slices it itself.
 */
import { ORDERS_MAX_SIZE, type Order } from '../../contract';
import type { SortOrder, TriageOrderRecord } from '../api';
import type { Database } from '../../store/db';
import type { BffSchema } from '../db/schema';
import type { OrdersListQuery, ServiceClient } from '../upstream/client';
import { currentStatusStart } from './statusSince';
import { triageStates } from './store';

/** The most orders the queue reads from the service for one list request. */
export const QUEUE_MAX = 1000;

export async function readQueue(
  client: ServiceClient,
  db: Database<BffSchema>,
  query: Omit<OrdersListQuery, 'page' | 'size'>,
  sort: { field: string; order: SortOrder },
): Promise<{ records: TriageOrderRecord[]; upstreamCalls: number }> {
  const orders: Order[] = [];
  let upstreamCalls = 0;
  for (let page = 1; orders.length < QUEUE_MAX; page++) {
    const answer = await client.listOrders({ ...query, page, size: ORDERS_MAX_SIZE });
    upstreamCalls++;
    orders.push(...answer.orders);
    if (answer.orders.length < ORDERS_MAX_SIZE || orders.length >= answer.total) break;
  }
  const withStart = orders.slice(0, QUEUE_MAX).map((o) => ({ order: o, current: currentStatusStart(o.events) }));
  const states = await triageStates(db, withStart.map((o) => ({ id: o.order.id, current: o.current })));
  const records: TriageOrderRecord[] = [];
  for (const { order, current } of withStart) {
    const triage = states.get(order.id) ?? null;
    if (triage && !triage.open) continue;
    records.push({ ...order, triage, status_since: current?.at ?? null });
  }
  if (sort.field === 'time_in_status') sortByTimeInStatus(records, sort.order);
  return { records, upstreamCalls };
}

/** ASC: the shortest time in status first (the latest status change); orders without events last. */
export function sortByTimeInStatus(records: TriageOrderRecord[], order: SortOrder): void {
  const since = (r: TriageOrderRecord) => (r.status_since ? Date.parse(r.status_since) : Number.NaN);
  records.sort((a, b) => {
    const x = since(a);
    const y = since(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    return order === 'ASC' ? y - x : x - y;
  });
}
