import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { orderEvents, orders, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { appointmentFollowsOrder } from '../appointments/followOrder';
import { releaseResults, resultStageOf, type ResultRequest } from '../results/produce';
import { presentOrders, type OrderRow } from './present';
import { orderStatus } from './statuses';

type Db = Database<ServiceSchema>;

/**
 * Moves an order to a new status: the row, its event, its appointment (completed once the sample is
 * drawn, ended with a failed order), its results (partial results and the final report, with the
 * order's interpretation) and the `labtest.order.updated` webhook event are written together. Call
 * inside a transaction. `results` is what the sandbox asks the results to say.
 */
export async function moveOrder(db: Db, order: OrderRow, top: string, low: string, changes: Partial<typeof orders.$inferInsert> = {}, results: ResultRequest = {}) {
  let [updated] = await db
    .update(orders)
    .set({ ...changes, status: top, lowLevelStatus: low, updatedAt: sql`now()` })
    .where(eq(orders.id, order.id))
    .returning();
  const stage = resultStageOf(top, low);
  const released = stage ? await releaseResults(db, updated!, stage, results) : null;
  if (released) {
    [updated] = await db
      .update(orders)
      .set({ interpretation: released.interpretation, hasMissingResults: released.hasMissingResults })
      .where(eq(orders.id, order.id))
      .returning();
  }
  await db.insert(orderEvents).values({ orderId: order.id, status: orderStatus(top, order.collectionMethod, low) });
  await appointmentFollowsOrder(db, order, top, low);
  const [presented] = await presentOrders(db, [updated!]);
  await emitEvent(db, order.teamId, 'labtest.order.updated', order.userId, presented as unknown as Record<string, unknown>);
  return updated!;
}
