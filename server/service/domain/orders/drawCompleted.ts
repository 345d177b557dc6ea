import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import { Invalid } from '../errors';
import type { PostOrderAnswer } from './create';
import { scheduleAdvance } from './lifecycle';
import { lockTeamOrder } from './lockOrder';
import { presentOrders } from './present';
import { moveOrder } from './transitions';

type Db = Database<ServiceSchema>;

/** Where an on-site order waits for its draw (the lifecycle does not move it on by itself). */
const AWAITING_DRAW = new Set(['requisition_created', 'requisition_bypassed']);
const DRAWN = 'draw_completed';

/**
 * PATCH /v3/order/:order_id/draw_completed: the sample of an on-site collection order was drawn.
 * From received.requisition_created (or requisition_bypassed) the order moves to
 * sample_with_lab.on_site_collection.draw_completed (row, event, `labtest.order.updated`) and the
 * lifecycle resumes. Idempotent like the lifecycle's steps: an order already at draw_completed is
 * answered as it is, with nothing recorded twice. Other methods and other states are 422.
 */
export async function markDrawCompleted(db: Db, teamId: string, orderId: string): Promise<PostOrderAnswer> {
  return db.transaction(async (tx) => {
    const row = await lockTeamOrder(tx, teamId, orderId);
    if (row.collectionMethod !== 'on_site_collection') {
      throw new Invalid(['path', 'order_id'], `order is a ${row.collectionMethod} order; draw_completed is for on_site_collection orders`, 'value_error.collection_method');
    }
    if (row.lowLevelStatus === DRAWN) {
      const [order] = await presentOrders(tx, [row]);
      return { order: order!, status: 'success', message: 'Draw was already completed' };
    }
    if (row.status !== 'received' || !AWAITING_DRAW.has(row.lowLevelStatus)) {
      const hint = row.lowLevelStatus === 'ordered' ? '; wait for its requisition' : '';
      throw new Invalid(['path', 'order_id'], `order is ${row.status}.${row.collectionMethod}.${row.lowLevelStatus}; a draw can be completed only once its requisition is created${hint}`, 'value_error.order_status');
    }
    const moved = await moveOrder(tx, row, 'sample_with_lab', DRAWN);
    await scheduleAdvance(tx, moved);
    const [order] = await presentOrders(tx, [moved]);
    return { order: order!, status: 'success', message: 'Draw completed' };
  });
}
