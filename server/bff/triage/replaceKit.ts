/**
 * Lost kits: a new order for the same patient and test, placed through the service's own order
 * creation. `reship` sends a new kit under the same lab account; `recreate` lets the service
 * resolve a fresh lab account, and when the original is still open it is replaced with
 * `update_reason: INCORRECT_LAB` (the service cancels it in the same transaction). A final
 * original (a lost kit has failed) cannot be replaced that way, so a plain new order is placed.
 */
import type { CreateOrderBody, Order } from '../../contract';

export type KitAction = 'reship' | 'recreate';

const FINAL = ['completed', 'cancelled', 'failed'];

export function replacementBody(order: Order, action: KitAction): CreateOrderBody {
  const body: Record<string, unknown> = {
    user_id: order.user_id,
    lab_test_id: order.lab_test.id,
    patient_details: order.patient_details,
    patient_address: order.patient_address,
    ...(order.physician ? { physician: order.physician } : {}),
    ...(order.billing_type ? { billing_type: order.billing_type } : {}),
    ...(order.priority != null ? { priority: order.priority } : {}),
    ...(order.clinical_notes ? { clinical_notes: order.clinical_notes } : {}),
  };
  if (action === 'reship') {
    if (order.lab_account_id) body.lab_account_id = order.lab_account_id;
  } else if (!FINAL.includes(order.status ?? '')) {
    body.update_reason = 'INCORRECT_LAB';
    body.original_order_id = order.id;
  }
  return body as CreateOrderBody;
}

/**
 * One replacement per original and action: a double click or a retry gets the first new order
 * back from the service instead of a second kit.
 */
export const replacementKey = (orderId: string, action: KitAction) => `triage-${action}-${orderId.toLowerCase()}`;
