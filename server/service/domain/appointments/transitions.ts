import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { appointmentEvents, appointments, appointmentSlots, orders, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { lockOrder, scheduleAdvance } from '../orders/lifecycle';
import { FINAL_TOPS } from '../orders/statuses';
import { moveOrder } from '../orders/transitions';
import { ACTIVE_STATUSES, presentAppointment, slotOwnerOf, type AppointmentRow } from './present';

type Db = Database<ServiceSchema>;

export const APPOINTMENT_CREATED = 'labtest.appointment.created';
export const APPOINTMENT_UPDATED = 'labtest.appointment.updated';

/** Gives a slot's place back (never below zero). */
export async function releasePlace(tx: Db, provider: string, startAt: Date | null) {
  if (!startAt) return;
  await tx
    .update(appointmentSlots)
    .set({ booked: sql`${appointmentSlots.booked} - 1` })
    .where(and(eq(appointmentSlots.provider, provider), eq(appointmentSlots.startAt, startAt), gt(appointmentSlots.booked, 0)));
}

/** Moves the order to collecting_sample.<method>.<low> unless it is final or already there. */
async function moveOrderTo(tx: Db, orderId: string, low: string, appointmentId: string, resume: boolean) {
  const order = await lockOrder(tx, orderId);
  if (!order || FINAL_TOPS.has(order.status)) return;
  if (order.status === 'collecting_sample' && order.lowLevelStatus === low) {
    if (order.appointmentId !== appointmentId) await tx.update(orders).set({ appointmentId }).where(eq(orders.id, orderId));
    return;
  }
  const moved = await moveOrder(tx, order, 'collecting_sample', low, { appointmentId });
  if (resume) await scheduleAdvance(tx, moved);
}

async function update(tx: Db, row: AppointmentRow, changes: Partial<typeof appointments.$inferInsert>, event: { status: string; data: Record<string, unknown> }) {
  const [updated] = await tx
    .update(appointments)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(appointments.id, row.id))
    .returning();
  await tx.insert(appointmentEvents).values({ appointmentId: row.id, status: event.status, data: event.data });
  return updated!;
}

/** The provider confirmed: appointment confirmed (event scheduled), order appointment_scheduled, lifecycle resumed, webhook. */
export async function confirmAppointment(tx: Db, row: AppointmentRow, data: Record<string, unknown>) {
  const updated = await update(tx, row, { status: 'confirmed', eventStatus: 'scheduled', confirmDeadline: null }, { status: 'scheduled', data });
  await moveOrderTo(tx, row.orderId, 'appointment_scheduled', row.id, true);
  // A synchronous booking is announced once confirmed; an asynchronous one was announced as pending.
  const eventType = row.mode === 'sync' ? APPOINTMENT_CREATED : APPOINTMENT_UPDATED;
  await emitEvent(tx, row.teamId, eventType, row.userId, (await presentAppointment(tx, updated)) as unknown as Record<string, unknown>);
  return updated;
}

/** Cancels an appointment (or a pending attempt): place released, order appointment_cancelled, webhook. */
export async function cancelAppointmentRow(tx: Db, row: AppointmentRow, data: Record<string, unknown>, reasonId: string | null = null) {
  const updated = await update(
    tx,
    row,
    { status: 'cancelled', eventStatus: 'cancelled', confirmDeadline: null, cancellationReasonId: reasonId },
    { status: 'cancelled', data },
  );
  await releasePlace(tx, slotOwnerOf(row), row.startAt);
  await moveOrderTo(tx, row.orderId, 'appointment_cancelled', row.id, false);
  await emitEvent(tx, row.teamId, APPOINTMENT_UPDATED, row.userId, (await presentAppointment(tx, updated)) as unknown as Record<string, unknown>);
  return updated;
}

/** Rolls back a synchronous booking that was not confirmed: nothing stays reserved, nothing was announced. */
export async function rollBackReservation(tx: Db, row: AppointmentRow) {
  await releasePlace(tx, slotOwnerOf(row), row.startAt);
  await tx.delete(appointments).where(eq(appointments.id, row.id));
}

export { moveOrderTo };

/** Cancels the order's active appointment, if any (the order is being cancelled; its lock is held). */
export async function cancelActiveAppointmentOfOrder(tx: Db, orderId: string, data: Record<string, unknown>) {
  const [row] = await tx
    .select()
    .from(appointments)
    .where(and(eq(appointments.orderId, orderId), inArray(appointments.status, ACTIVE_STATUSES)))
    .for('update');
  if (!row) return undefined;
  if (row.status === 'reserved') {
    // A synchronous booking still waiting for its provider: it ends as if refused.
    await rollBackReservation(tx, row);
    return undefined;
  }
  return cancelAppointmentRow(tx, row, data);
}
