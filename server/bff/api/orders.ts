import { z } from 'zod';
import { CreateOrderBody, NEEDS_ATTENTION_LOW_STATUSES, Order } from '../../contract';
import { IDEMPOTENCY_HEADER } from './constants';
import { filter, listQuery } from './list';

/** `orders`: the service's order as is (it carries `id`). */
export const OrderRecord = Order.meta({ id: 'OrderRecord' });
export type OrderRecord = z.infer<typeof OrderRecord>;

/** Low-level statuses that need someone from lab operations (`filter.needs_attention: true`). */
export const NEEDS_ATTENTION_STATUSES = NEEDS_ATTENTION_LOW_STATUSES;

/** react-admin sort field → the service's `order_key` (`id` is creation order). */
export const ORDER_SORT_KEYS = { id: 'created_at', created_at: 'created_at', patient_name: 'patient_name', last_status: 'last_status' } as const;

export const OrdersList = listQuery({
  filter: {
    status: filter.stringList().describe('Low-level statuses (any of)'),
    needs_attention: filter
      .boolean()
      .describe('The triage queue: orders in a low-level status that needs lab operations, minus those resolved for the status they are still in; records carry `triage` and `status_since`'),
    critical_unacknowledged: filter.boolean().describe('Only orders with a critical result nobody has acknowledged yet'),
    collection_method: filter.stringList(),
    user_id: filter.uuid(),
    start_date: filter.dateBound('start').describe('Created at or after (a date is a whole UTC day)'),
    end_date: filter.dateBound('end').describe('Created at or before (a date is a whole UTC day)'),
    q: filter.string(200).describe('Patient name or order id'),
  },
  // time_in_status: the needs-attention queue only (sorted by the BFF; ASC is the shortest time first).
  sort: { id: ['ASC', 'DESC'], created_at: ['ASC', 'DESC'], patient_name: ['ASC', 'DESC'], last_status: ['ASC', 'DESC'], time_in_status: ['ASC', 'DESC'] },
  defaultSort: { field: 'created_at', order: 'DESC' },
});

/**
 * `POST /api/orders`: the service's order body, checked here so the form gets its field errors at
 * once. Fields this contract does not know pass on unchanged (a newer service may take them);
 * react-admin's own `id` is dropped.
 */
export const CreateOrder = CreateOrderBody.loose();
export type CreateOrder = z.input<typeof CreateOrderBody>;

export { IDEMPOTENCY_HEADER } from './constants';
export const IdempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'must be 1 to 200 printable characters')
    .optional(),
});
