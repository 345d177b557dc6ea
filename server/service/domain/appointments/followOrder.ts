/**
 * An appointment follows its order: once the order is past the draw (drawn, at the lab, resulted,
 * completed, or the drawn sample rejected), its appointment is completed; once the order ends any
 * other way, an appointment still holding a slot is cancelled. So an appointment of a completed or
 * cancelled order never offers a reschedule or a cancel that would then fail.
 *
 * Its own module (schema, presentation and the outbox only): order transitions call it, and the
 * appointment transitions call order transitions.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { appointmentEvents, appointments, appointmentSlots, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { ACTIVE_STATUSES, presentAppointment, slotOwnerOf } from './present';

type Db = Database<ServiceSchema>;

/** Order statuses (low level) that mean the sample was drawn at the visit. */
const PAST_THE_DRAW = new Set(['draw_completed', 'partial_results', 'completed', 'sample_error', 'delivered_to_lab']);

/** When the order's active appointment ends (its start when no end is known); null without one. */
export async function activeAppointmentEnd(db: Db, orderId: string): Promise<Date | null> {
  const [row] = await db
    .select({ startAt: appointments.startAt, endAt: appointments.endAt })
    .from(appointments)
    .where(and(eq(appointments.orderId, orderId), inArray(appointments.status, ACTIVE_STATUSES)))
    .limit(1);
  return row ? (row.endAt ?? row.startAt) : null;
}

/** Called by every order move (inside its transaction): completes or ends the order's active appointment. */
export async function appointmentFollowsOrder(tx: Db, order: { id: string; teamId: string; userId: string }, top: string, low: string) {
  const drawn = PAST_THE_DRAW.has(low) || top === 'sample_with_lab' || top === 'completed';
  const ended = top === 'failed' || top === 'cancelled';
  if (!drawn && !ended) return;
  const [row] = await tx
    .select()
    .from(appointments)
    .where(and(eq(appointments.orderId, order.id), inArray(appointments.status, ACTIVE_STATUSES)))
    .for('update');
  if (!row) return;
  // A cancelled order's appointment is cancelled by the cancellation itself (with its reason).
  if (top === 'cancelled') return;
  const status = drawn ? 'completed' : 'cancelled';
  const [updated] = await tx
    .update(appointments)
    .set({ status, eventStatus: status, confirmDeadline: null, updatedAt: sql`now()` })
    .where(eq(appointments.id, row.id))
    .returning();
  await tx.insert(appointmentEvents).values({ appointmentId: row.id, status, data: { order_status: low } });
  if (status === 'cancelled' && row.startAt) {
    await tx
      .update(appointmentSlots)
      .set({ booked: sql`${appointmentSlots.booked} - 1` })
      .where(and(eq(appointmentSlots.provider, slotOwnerOf(row)), eq(appointmentSlots.startAt, row.startAt), sql`${appointmentSlots.booked} > 0`));
  }
  await emitEvent(tx, order.teamId, 'labtest.appointment.updated', order.userId, (await presentAppointment(tx, updated!)) as unknown as Record<string, unknown>);
}
