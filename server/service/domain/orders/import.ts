import type { ImportOrderBody } from '../../../contract';
import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import type { PostOrderAnswer } from './create';
import { placeOrder } from './place';

type Db = Database<ServiceSchema>;

/**
 * POST /v3/order/import: an order whose sample was collected elsewhere (sample_id given). Resolved
 * like a created order, except that lab accounts in PENDING status are accepted (suspended ones are
 * not); the order's origin is "imported".
 */
export async function importOrder(db: Db, teamId: string, body: ImportOrderBody): Promise<PostOrderAnswer> {
  return db.transaction(async (tx) => {
    const placed = await placeOrder(
      tx,
      teamId,
      {
        userId: body.user_id,
        orderSet: body.order_set,
        collectionMethod: body.collection_method,
        billingType: body.billing_type,
        labAccountId: body.lab_account_id,
        patientDetails: body.patient_details,
        patientAddress: body.patient_address,
        physician: body.physician,
        sampleId: body.sample_id,
      },
      { origin: 'imported', use: 'import' },
    );
    return { order: placed.order, status: 'success', message: 'Order imported' };
  });
}
