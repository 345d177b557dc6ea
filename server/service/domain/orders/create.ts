import type { z } from 'zod';
import type { CreateOrderBody, PostOrderResponse } from '../../../contract';
import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import { Invalid } from '../errors';
import { claimIdempotencyKey, completeIdempotencyKey, ORDER_CREATE_OPERATION, releaseIdempotencyKey, type IdempotencyClaim } from './idempotency';
import { placeOrder, type NewOrder } from './place';
import type { OrderRow } from './present';
import { FINAL_TOPS } from './statuses';
import { moveOrder } from './transitions';
import { lockTeamOrder } from './lockOrder';

export { ORDER_ADVANCE_DELAY_MS, ORDER_ADVANCE_JOB } from './place';

type Db = Database<ServiceSchema>;
export type PostOrderAnswer = z.infer<typeof PostOrderResponse>;

const originalLoc = ['body', 'original_order_id'];

/**
 * The order an INCORRECT_LAB order replaces, locked: the team's (else 404), the same user's, and
 * not in a final status (else 422).
 */
async function lockOriginal(tx: Db, teamId: string, body: CreateOrderBody): Promise<OrderRow> {
  const original = await lockTeamOrder(tx, teamId, body.original_order_id!, 'Original order');
  if (original.userId !== body.user_id) {
    throw new Invalid(originalLoc, 'the original order belongs to another user; a replacement order must be for the same user', 'value_error.original_order_user');
  }
  if (FINAL_TOPS.has(original.status)) {
    throw new Invalid(
      originalLoc,
      `the original order is ${original.status} (${original.lowLevelStatus}); only an order that is not completed, cancelled or failed can be replaced`,
      'value_error.original_order_final',
    );
  }
  return original;
}

export function newOrderFromCreateBody(body: CreateOrderBody): NewOrder {
  return {
    userId: body.user_id,
    labTestId: body.lab_test_id,
    orderSet: body.order_set,
    collectionMethod: body.collection_method,
    billingType: body.billing_type,
    labAccountId: body.lab_account_id,
    patientDetails: body.patient_details,
    patientAddress: body.patient_address,
    physician: body.physician,
    healthInsurance: body.health_insurance,
    icdCodes: body.icd_codes,
    consents: body.consents,
    aoeAnswers: body.aoe_answers,
    priority: body.priority,
    activateBy: body.activate_by,
    passthrough: body.passthrough,
    clinicalNotes: body.clinical_notes,
    updateReason: body.update_reason,
    originalOrderId: body.original_order_id,
  };
}

/**
 * POST /v3/order/create (and /v3/order), in one transaction: with update_reason INCORRECT_LAB the
 * original order is cancelled and its lab account excluded; then the order is placed; with an
 * idempotency claim the key is marked done with this answer, so answer and order commit together.
 */
export async function createOrder(db: Db, teamId: string, body: CreateOrderBody, claim?: IdempotencyClaim): Promise<PostOrderAnswer> {
  return db.transaction(async (tx) => {
    let original: OrderRow | undefined;
    if (body.update_reason === 'INCORRECT_LAB') {
      original = await lockOriginal(tx, teamId, body);
      await moveOrder(tx, original, 'cancelled', 'cancelled');
    }
    const placed = await placeOrder(tx, teamId, newOrderFromCreateBody(body), {
      origin: 'created',
      use: 'create',
      excludeAccountId: original?.labAccountId,
    });
    const answer: PostOrderAnswer = {
      order: placed.order,
      status: 'success',
      message: original ? `Order created; order ${original.id} was cancelled (INCORRECT_LAB)` : 'Order created',
    };
    if (claim) await completeIdempotencyKey(tx, claim, 200, answer);
    return answer;
  });
}

/**
 * Order creation as the API offers it: with an idempotency key, the same key and body answer the
 * first answer again (status included) instead of creating another order; a failure frees the key
 * so a corrected retry may use it. Without a key, simply creates the order.
 */
export async function createOrderOnce(
  db: Db,
  teamId: string,
  body: CreateOrderBody,
  idempotencyKey: string | undefined,
): Promise<{ status: number; body: unknown }> {
  if (!idempotencyKey) return { status: 200, body: await createOrder(db, teamId, body) };
  const outcome = await claimIdempotencyKey(db, teamId, ORDER_CREATE_OPERATION, idempotencyKey, body);
  if (outcome.kind === 'replay') return { status: outcome.status, body: outcome.body };
  try {
    return { status: 200, body: await createOrder(db, teamId, body, outcome.claim) };
  } catch (err) {
    await releaseIdempotencyKey(db, outcome.claim);
    throw err;
  }
}
