import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AcknowledgeCriticalBody, CriticalAcknowledgement } from '../../../contract';
import type { Database } from '../../../store/db';
import { orderResults, type ServiceSchema } from '../../db/schema';
import { ServiceError } from '../errors';
import { findResults } from './presentResults';

type Db = Database<ServiceSchema>;
type Acknowledgement = z.infer<typeof CriticalAcknowledgement>;

const present = (orderId: string, at: Date, by: string, note: string | null): Acknowledgement => ({
  order_id: orderId,
  acknowledged_at: at.toISOString(),
  acknowledged_by: by,
  note,
});

/**
 * Extension: someone has acted on the order's critical value. The first acknowledgement stands (a
 * second one answers the first, so two coordinators clicking at once see who was first); an order
 * without a critical result is 409.
 */
export async function acknowledgeCritical(db: Db, teamId: string, orderId: string, body: z.infer<typeof AcknowledgeCriticalBody>): Promise<{ created: boolean; acknowledgement: Acknowledgement }> {
  return db.transaction(async (tx) => {
    const { row } = await findResults(tx, teamId, orderId);
    const [locked] = await tx.select().from(orderResults).where(eq(orderResults.orderId, row.orderId)).for('update');
    if (!locked || !locked.criticalNotifiedAt) throw new ServiceError(409, 'This order has no critical result to acknowledge');
    if (locked.criticalAcknowledgedAt) {
      return { created: false, acknowledgement: present(orderId, locked.criticalAcknowledgedAt, locked.criticalAcknowledgedBy ?? '', locked.criticalAcknowledgementNote) };
    }
    const at = new Date();
    await tx
      .update(orderResults)
      .set({ criticalAcknowledgedAt: at, criticalAcknowledgedBy: body.acknowledged_by, criticalAcknowledgementNote: body.note ?? null })
      .where(eq(orderResults.orderId, row.orderId));
    return { created: true, acknowledgement: present(orderId, at, body.acknowledged_by, body.note ?? null) };
  });
}

/** The acknowledgement of the order's critical value, null when none yet (404 when the order has no results). */
export async function getCriticalAcknowledgement(db: Db, teamId: string, orderId: string): Promise<Acknowledgement | null> {
  const { row } = await findResults(db, teamId, orderId);
  return row.criticalAcknowledgedAt ? present(orderId, row.criticalAcknowledgedAt, row.criticalAcknowledgedBy ?? '', row.criticalAcknowledgementNote) : null;
}
