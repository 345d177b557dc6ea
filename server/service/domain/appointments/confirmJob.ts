import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../store/db';
import { appointmentEvents, appointments, orders, type ServiceSchema } from '../../db/schema';
import { FINAL_TOPS } from '../orders/statuses';
import { phlebotomyProvider, providerBehaviour } from '../../providers';
import { lockAppointmentAndOrder } from './present';
import { ticketOf, type ProviderRecord } from './book';
import { pendingRescheduleOf, rollBackReschedule } from './reschedule';
import { cancelAppointmentRow, confirmAppointment, rollBackReservation } from './transitions';

type Db = Database<ServiceSchema>;

const Payload = z.object({ appointment_id: z.uuid(), reschedule_id: z.uuid().optional() });

export type ConfirmOutcome = 'gone' | 'settled' | 'confirmed' | 'cancelled' | 'rolled_back' | 'waiting';

/**
 * The `appointment.confirm` job: carries an asynchronous booking on after the request answered.
 * In one transaction it locks the appointment and, while it is pending: past the async timeout,
 * cancels the attempt and the appointment (place released); else reads the provider's answer:
 * confirmed → confirmed; refused → submitted again; no answer yet → runs again when it is due.
 * For a synchronous reservation it is the safety net of a crashed request: past the deadline the
 * reservation is rolled back. Idempotent: a settled appointment is left alone.
 */
export async function runConfirmJob(
  db: Db,
  rawPayload: Record<string, unknown>,
  now: () => Date = () => new Date(),
  random: () => number = Math.random,
): Promise<{ outcome: ConfirmOutcome; retryAt?: Date }> {
  const payload = Payload.parse(rawPayload);
  return db.transaction(async (tx) => {
    const row = await lockAppointmentAndOrder(tx, payload.appointment_id);
    if (!row) return { outcome: 'gone' as const };
    if (payload.reschedule_id) {
      // Safety net of a reschedule: still waiting past its deadline means its request died; roll it back.
      const pr = pendingRescheduleOf(row);
      if (!pr || pr.id !== payload.reschedule_id) return { outcome: 'settled' as const };
      if (now().getTime() < Date.parse(pr.deadline)) return { outcome: 'waiting' as const, retryAt: new Date(pr.deadline) };
      await rollBackReschedule(tx, row, pr);
      return { outcome: 'rolled_back' as const };
    }
    if (row.status !== 'pending' && row.status !== 'reserved') return { outcome: 'settled' as const };
    const provider = phlebotomyProvider(row.provider);
    const deadline = row.confirmDeadline ?? now();
    const ticket = ticketOf(row);
    const state = provider ? provider.poll(ticket, now()) : 'rejected';
    if (row.mode === 'sync') {
      if (now() < deadline) return { outcome: 'waiting' as const, retryAt: deadline };
      await rollBackReservation(tx, row);
      return { outcome: 'rolled_back' as const };
    }
    const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId));
    if (!order || FINAL_TOPS.has(order.status)) {
      await cancelAppointmentRow(tx, row, { reason: 'order_closed', ticket_id: ticket.ticket_id });
      return { outcome: 'cancelled' as const };
    }
    // An answer that came after the async timeout is too late: the attempt was due to be cancelled.
    if (state === 'confirmed' && Date.parse(ticket.ready_at) <= deadline.getTime()) {
      await confirmAppointment(tx, row, { ticket_id: ticket.ticket_id, confirmed_by: 'provider', asynchronous: true });
      return { outcome: 'confirmed' as const };
    }
    if (now() >= deadline) {
      await cancelAppointmentRow(tx, row, { reason: 'async_confirmation_timeout', ticket_id: ticket.ticket_id });
      return { outcome: 'cancelled' as const };
    }
    let next = ticket;
    if (state === 'rejected' && provider) {
      const rec = row.providerRecord as unknown as ProviderRecord;
      next = provider.submit(rec.request, await providerBehaviour(tx, provider.slug), now(), random);
      await tx
        .update(appointments)
        .set({ providerId: next.ticket_id, providerRecord: { ...rec, tickets: [...rec.tickets, next] } })
        .where(eq(appointments.id, row.id));
      await tx.insert(appointmentEvents).values({
        appointmentId: row.id,
        status: 'pending',
        data: { resubmitted: true, refused_ticket_id: ticket.ticket_id, ticket_id: next.ticket_id, provider_request: rec.request },
      });
    }
    const retryAt = new Date(Math.min(Math.max(Date.parse(next.ready_at), now().getTime()), deadline.getTime()));
    return { outcome: 'waiting' as const, retryAt };
  });
}
