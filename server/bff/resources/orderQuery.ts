/**
 * react-admin list parameters of `orders` → the service's `GET /v3/orders` query.
 * Kept apart from the routes so the mapping can be read (and tested) on its own.
 */
import { BffError } from '../errors';
import type { ListParams } from '../pagination';
import type { OrdersListQuery } from '../upstream/client';
import { NEEDS_ATTENTION_LOW_STATUSES } from '../../contract';
import { booleanFilter, dateBoundFilter, stringFilter, stringListFilter, uuidFilter } from './filters';

/**
 * Low-level statuses of orders that need someone from lab operations: problems in transit and
 * failures. `filter.needs_attention: true` lists these.
 */
export const NEEDS_ATTENTION_STATUSES = NEEDS_ATTENTION_LOW_STATUSES;

/** react-admin sort field → the service's `order_key`. `id` is the service's natural key (creation time). */
const SORT_KEYS: Record<string, OrdersListQuery['order_key']> = {
  id: 'created_at',
  created_at: 'created_at',
  patient_name: 'patient_name',
  last_status: 'last_status',
};

export interface OrdersListPlan {
  /** The upstream query without page/size; null when the filters can match nothing (no call needed). */
  query: Omit<OrdersListQuery, 'page' | 'size'> | null;
  /** For the audit trail: which filters were used, without free text. */
  auditDetail: Record<string, unknown>;
}

export function planOrdersList(params: ListParams): OrdersListPlan {
  const { filter, sort } = params;
  const orderKey = SORT_KEYS[sort.field];
  if (!orderKey) {
    throw new BffError(400, `Orders can be sorted by created_at, patient_name or last_status only (not by ${sort.field})`);
  }
  let status = stringListFilter(filter, 'status');
  const needsAttention = booleanFilter(filter, 'needs_attention') === true;
  if (needsAttention) {
    const problems: readonly string[] = NEEDS_ATTENTION_STATUSES;
    status = status ? status.filter((s) => problems.includes(s)) : [...problems];
  }
  const orderType = stringListFilter(filter, 'collection_method');
  const userId = uuidFilter(filter, 'user_id');
  const startDate = dateBoundFilter(filter, 'start_date');
  const endDate = dateBoundFilter(filter, 'end_date');
  const search = stringFilter(filter, 'q', 200);
  if (startDate && endDate && startDate > endDate) {
    throw new BffError(400, 'filter.start_date must not be after filter.end_date', { 'filter.start_date': 'must not be after end_date' });
  }
  const auditDetail = {
    range: params.range,
    sort,
    status: status ?? null,
    needs_attention: needsAttention,
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
      order_key: orderKey,
      order_direction: sort.order === 'ASC' ? 'asc' : 'desc',
    },
    auditDetail,
  };
}
