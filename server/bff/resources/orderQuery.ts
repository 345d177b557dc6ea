/**
 * react-admin list parameters of `orders` → the service's `GET /v3/orders` query.
 * Kept apart from the routes so the mapping can be read (and tested) on its own.
 */
import type { z } from 'zod';
import { NEEDS_ATTENTION_STATUSES, ORDER_SORT_KEYS, type ListParams, type OrdersList } from '../api';
import { BffError } from '../errors';
import type { OrdersListQuery } from '../upstream/client';

export { NEEDS_ATTENTION_STATUSES };

export type OrdersListParams = z.output<typeof OrdersList>;

export interface OrdersListPlan {
  /** The upstream query without page/size; null when the filters can match nothing (no call needed). */
  query: Omit<OrdersListQuery, 'page' | 'size'> | null;
  /** For the audit trail: which filters were used, without free text. */
  auditDetail: Record<string, unknown>;
}

export function planOrdersList(params: ListParams<OrdersListParams['filter']>): OrdersListPlan {
  const { filter, sort } = params;
  const orderKey = ORDER_SORT_KEYS[sort.field as keyof typeof ORDER_SORT_KEYS];
  let status = filter.status;
  const needsAttention = filter.needs_attention === true;
  // "Needs attention" is also an unacknowledged critical result, unless specific statuses were asked
  // for. A service without that extension ignores it and answers the statuses alone.
  const withCritical = needsAttention && !filter.status;
  if (needsAttention) {
    const problems: readonly string[] = NEEDS_ATTENTION_STATUSES;
    status = status ? status.filter((s) => problems.includes(s)) : [...problems];
  }
  const critical = filter.critical_unacknowledged === true;
  const { collection_method: orderType, user_id: userId, start_date: startDate, end_date: endDate, q: search } = filter;
  if (startDate && endDate && startDate > endDate) {
    throw new BffError(400, 'filter.end_date must not be before filter.start_date', { 'filter.end_date': 'must not be before start_date' });
  }
  const auditDetail = {
    range: params.range,
    sort,
    status: status ?? null,
    needs_attention: needsAttention,
    critical_unacknowledged: critical,
    collection_method: orderType ?? null,
    user_id: userId ?? null,
    start_date: startDate ?? null,
    end_date: endDate ?? null,
    search: Boolean(search),
  };
  if (status && status.length === 0) return { query: null, auditDetail };
  return {
    query: {
      status,
      order_type: orderType,
      user_id: userId,
      start_date: startDate,
      end_date: endDate,
      search_input: search,
      ...(critical ? { critical_acknowledged: false } : {}),
      ...(withCritical ? { include_critical_unacknowledged: true } : {}),
      order_key: orderKey,
      order_direction: sort.order === 'ASC' ? 'asc' : 'desc',
    },
    auditDetail,
  };
}
