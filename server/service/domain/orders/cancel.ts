import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import { cancelActiveAppointmentOfOrder } from '../appointments/transitions';
import { Invalid } from '../errors';
import type { PostOrderAnswer } from './create';
import { lockTeamOrder } from './lockOrder';
import { presentOrders } from './present';
import { FINAL_TOPS } from './statuses';
import { moveOrder } from './transitions';

type Db = Database<ServiceSchema>;

/**
 * POST /v3/order/:order_id/cancel: moves the team's order to cancelled.cancelled (row, event and
 * `labtest.order.updated` outbox event together). Another team's order is 404; an order already in a
 * final status (completed, cancelled, failed) is 422 at loc ['path', 'order_id'].
 */
export async function cancelOrder(db: Db, teamId: string, orderId: string): Promise<PostOrderAnswer> {
  return db.transaction(async (tx) => {
    const row = await lockTeamOrder(tx, teamId, orderId);
    if (FINAL_TOPS.has(row.status)) {
      throw new Invalid(
        ['path', 'order_id'],
        `the order is already ${row.status} (${row.lowLevelStatus}); an order that is completed, cancelled or failed cannot be cancelled`,
        'value_error.order_final',
      );
    }
    const updated = await moveOrder(tx, row, 'cancelled', 'cancelled');
    // Its appointment, if any, is cancelled too and gives its slot back.
    await cancelActiveAppointmentOfOrder(tx, row.id, { reason: 'order_cancelled' });
    const [order] = await presentOrders(tx, [updated]);
    return { order: order!, status: 'success', message: 'Order cancelled' };
  });
}
