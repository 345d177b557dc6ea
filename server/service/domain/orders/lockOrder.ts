import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { orders, type ServiceSchema } from '../../db/schema';
import { NotFound } from '../errors';

type Db = Database<ServiceSchema>;
import type { OrderRow } from './present';

/**
 * The team's order, locked for the rest of the transaction so that two requests moving the same
 * order take turns. Another team's order, or none, is 404 `<what> not found`: the caller cannot
 * tell the two apart.
 */
export async function lockTeamOrder(tx: Db, teamId: string, orderId: string, what = 'Order'): Promise<OrderRow> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.teamId, teamId), eq(orders.id, orderId)))
    .for('update');
  if (!row) throw new NotFound(what);
  return row;
}
