/**
 * Lost kits: a new order for the same patient and test, placed through the service's own order
 * creation. `reship` sends a new kit under the same lab account; `recreate` lets the service
 * resolve a fresh lab account, and when the original is still open it is replaced with
 * `update_reason: INCORRECT_LAB` (the service cancels it in the same transaction). A final
 * original (a lost kit has failed) cannot be replaced that way, so a plain new order is placed.
 */
import { CreateOrderBody, type Order } from '../../contract';
import { BffError } from '../errors';

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
    // The same diagnosis, payer and consents as the kit it replaces (the service requires insurance
    // details for an insurance-billed order).
    ...(order.icd_codes?.length ? { icd_codes: order.icd_codes } : {}),
    ...(order.health_insurance ? { health_insurance: order.health_insurance } : {}),
    ...(order.consents?.length ? { consents: order.consents } : {}),
  };
  if (action === 'reship') {
    if (order.lab_account_id) body.lab_account_id = order.lab_account_id;
  } else if (!FINAL.includes(order.status ?? '')) {
    body.update_reason = 'INCORRECT_LAB';
    body.original_order_id = order.id;
  }
  // The order as the service answered it is loosely typed (another deployment may leave out a field
  // the create body requires): checked here, so the coordinator gets a clear answer, not the service's 422.
  const checked = CreateOrderBody.safeParse(body);
  if (!checked.success) {
    const fields = [...new Set(checked.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new BffError(409, `This order cannot be ${action === 'reship' ? 'reshipped' : 'recreated'} as it is: its ${fields} ${fields.includes(',') ? 'are' : 'is'} incomplete. Place a new order from the form instead.`);
  }
  return checked.data;
}

/**
 * One replacement per original and action: a double click or a retry gets the first new order
 * back from the service instead of a second kit.
 */
export const replacementKey = (orderId: string, action: KitAction) => `triage-${action}-${orderId.toLowerCase()}`;
