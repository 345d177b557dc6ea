import { eq } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { labTests, type ServiceSchema } from '../../db/schema';
import { orderUsAddress } from '../appointments/address';
import { Invalid } from '../errors';
import type { OrderRow } from '../orders/present';
import { FINAL_TOPS } from '../orders/statuses';
import { pscLab } from './catalogue';

type Db = Database<ServiceSchema>;
const orderLoc = ['path', 'order_id'];

/** The lab that runs the order's test (its centers are the ones the patient may walk into). */
export async function labOfOrder(db: Db, order: OrderRow) {
  const [test] = await db.select({ labId: labTests.labId }).from(labTests).where(eq(labTests.id, order.labTestId));
  const lab = test ? pscLab(test.labId) : undefined;
  if (!lab) throw new Invalid(orderLoc, "the order's lab has no patient service centers", 'value_error.lab');
  return lab;
}

/** The order's patient ZIP code (orders carry `zip`). */
export const orderZip = (order: OrderRow) => orderUsAddress(order).zip_code;

/** Only walk-in orders take a visit at a center, and only while the sample is still to be drawn. */
export function assertWalkInOrder(order: OrderRow) {
  if (order.collectionMethod !== 'walk_in_test') {
    throw new Invalid(orderLoc, `order is a ${order.collectionMethod} order; patient service center visits are for walk_in_test orders`, 'value_error.collection_method');
  }
  if (FINAL_TOPS.has(order.status)) throw new Invalid(orderLoc, `order is ${order.status}; it cannot take a visit`, 'value_error.order_status');
  if (order.status === 'sample_with_lab') throw new Invalid(orderLoc, "the order's sample was already collected", 'value_error.order_status');
}
