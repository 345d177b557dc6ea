import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Appointment, RescheduleBody, USAddress } from '../../../contract';
import type { Database } from '../../../store/db';
import { enqueueJob } from '../../jobs/queue';
import { appointmentEvents, appointments, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { providerBehaviour, type ProviderBookingRequest, type ProviderTicket } from '../../providers';
import { Invalid, NotFound, ServiceError } from '../errors';
import { lockOrder } from '../orders/lifecycle';
import { findOrderRow } from '../orders/present';
import {
  APPOINTMENT_CONFIRM_KIND,
  assertBookableOrder,
  SYNC_MAX_WAIT_MS,
  SYNC_RECOVERY_GRACE_MS,
  slotOfKey,
  takePlaceOfKey,
  waitForAnswer,
  type BookOptions,
  type ProviderRecord,
} from './book';
import type { BookingKeyCodec } from './bookingKey';
import { latestAppointmentRow, lockAppointment, lockAppointmentAndOrder, presentAppointment, type AppointmentRow } from './present';
import { APPOINTMENT_UPDATED, moveOrderTo, releasePlace } from './transitions';
import { providerAddress } from '../../providers/types';

type Db = Database<ServiceSchema>;

/** A reschedule waiting for the provider: its new place is taken, the appointment keeps its slot until it confirms. */
export interface PendingReschedule {
  id: string;
  provider: string;
  start: string;
  end: string;
  price: number;
  is_priority: boolean;
  appointment_notes: string | null;
  request: ProviderBookingRequest;
  ticket: ProviderTicket;
  deadline: string;
}

const reschedulable = (row: AppointmentRow) => row.status === 'confirmed' || (row.status === 'pending' && row.mode === 'request');

/** Gives back a failed reschedule's place; the appointment stays as it was. */
export async function rollBackReschedule(tx: Db, row: AppointmentRow, pr: PendingReschedule) {
  await releasePlace(tx, pr.provider, new Date(pr.start));
  const { pending_reschedule: _dropped, ...rest } = row.providerRecord as ProviderRecord & { pending_reschedule?: PendingReschedule };
  await tx.update(appointments).set({ providerRecord: rest }).where(eq(appointments.id, row.id));
}

export function pendingRescheduleOf(row: AppointmentRow): PendingReschedule | undefined {
  return (row.providerRecord as { pending_reschedule?: PendingReschedule }).pending_reschedule;
}

/**
 * Moves the order's appointment (confirmed, or requested without a slot) to the slot of a booking key
 * offered for the appointment's address. Synchronous: the new place is taken, the provider is asked
 * (access_notes forwarded again) and the answer awaited; confirmed → the appointment takes the new
 * slot (the old place is released), the order is appointment_scheduled and `labtest.appointment.updated`
 * is recorded; refused → 500 and the appointment keeps its old slot (the new place is released).
 */
export async function rescheduleAppointment(db: Db, codec: BookingKeyCodec, teamId: string, orderId: string, body: RescheduleBody, opts: BookOptions = {}): Promise<Appointment> {
  const now = opts.now ?? (() => new Date());
  const order = await findOrderRow(db, teamId, orderId);
  const key = codec.decode(body.booking_key, teamId);
  assertBookableOrder(order);
  const current = await latestAppointmentRow(db, orderId);
  if (!current) throw new NotFound('Appointment');
  if (!reschedulable(current)) throw new Invalid(['path', 'order_id'], `the appointment is ${current.status}; it cannot be rescheduled`, 'value_error.appointment_status');
  const address = current.address as unknown as USAddress;
  const slot = slotOfKey(order, key, now(), address);
  const { area, provider, template } = slot;
  const behaviour = await providerBehaviour(db, provider.slug);
  const started = now();
  const attemptId = randomUUID();

  const pending = await db.transaction(async (tx) => {
    await lockOrder(tx, orderId);
    const row = await lockAppointment(tx, current.id);
    if (!row || !reschedulable(row)) throw new ServiceError(409, 'The appointment changed meanwhile; try again');
    if (pendingRescheduleOf(row)) throw new ServiceError(409, 'Another reschedule of this appointment is in progress');
    await takePlaceOfKey(tx, slot, now());
    const rec = row.providerRecord as unknown as ProviderRecord;
    const notes = body.appointment_notes !== undefined ? body.appointment_notes : row.appointmentNotes;
    const request: ProviderBookingRequest = {
      ...rec.request,
      slot_start: template.start.toISOString(),
      slot_end: template.end.toISOString(),
      iana_timezone: area.zone,
      address: providerAddress(address),
      appointment_notes: notes ?? null,
    };
    const ticket = provider.submit(request, behaviour, started, opts.random);
    const deadline = new Date(started.getTime() + Math.min(SYNC_MAX_WAIT_MS, behaviour.latency_ms) + SYNC_RECOVERY_GRACE_MS);
    const pr: PendingReschedule = {
      id: attemptId,
      provider: provider.slug,
      start: template.start.toISOString(),
      end: template.end.toISOString(),
      price: template.price,
      is_priority: template.isPriority,
      appointment_notes: notes ?? null,
      request,
      ticket,
      deadline: deadline.toISOString(),
    };
    await tx.update(appointments).set({ providerRecord: { ...rec, pending_reschedule: pr } }).where(eq(appointments.id, row.id));
    // The safety net: a reschedule left behind by a crashed request is rolled back at the deadline.
    await enqueueJob(tx, APPOINTMENT_CONFIRM_KIND, { appointment_id: row.id, reschedule_id: attemptId }, { runAt: deadline });
    return pr;
  });

  await waitForAnswer(pending.ticket, started.getTime() + SYNC_MAX_WAIT_MS, now);

  let failed = false;
  const settled = await db.transaction(async (tx) => {
    const row = await lockAppointmentAndOrder(tx, current.id);
    const pr = row && pendingRescheduleOf(row);
    if (!row || !pr || pr.id !== attemptId) {
      failed = true;
      return undefined;
    }
    if (provider.poll(pr.ticket, now()) !== 'confirmed') {
      await rollBackReschedule(tx, row, pr);
      failed = true;
      return undefined;
    }
    await releasePlace(tx, row.provider, row.startAt);
    const { pending_reschedule: _done, ...rec } = row.providerRecord as ProviderRecord & { pending_reschedule?: PendingReschedule };
    const from = { provider: row.provider, start_at: row.startAt?.toISOString() ?? null, end_at: row.endAt?.toISOString() ?? null, provider_id: row.providerId };
    const [updated] = await tx
      .update(appointments)
      .set({
        provider: pr.provider,
        providerId: pr.ticket.ticket_id,
        startAt: new Date(pr.start),
        endAt: new Date(pr.end),
        price: pr.price,
        isPriority: pr.is_priority,
        appointmentNotes: pr.appointment_notes,
        status: 'confirmed',
        eventStatus: 'scheduled',
        confirmDeadline: null,
        providerRecord: { ...rec, request: pr.request, tickets: [...rec.tickets, pr.ticket] },
        eventData: { ...row.eventData, provider_request: pr.request, price: pr.price, is_priority: pr.is_priority, rescheduled_from: from },
        updatedAt: now(),
      })
      .where(eq(appointments.id, row.id))
      .returning();
    await tx.insert(appointmentEvents).values({
      appointmentId: row.id,
      status: 'scheduled',
      data: { rescheduled: true, from, ticket_id: pr.ticket.ticket_id, provider_request: pr.request },
    });
    await moveOrderTo(tx, row.orderId, 'appointment_scheduled', row.id, true);
    await emitEvent(tx, row.teamId, APPOINTMENT_UPDATED, row.userId, (await presentAppointment(tx, updated!)) as unknown as Record<string, unknown>);
    return updated!;
  });
  if (failed || !settled) {
    throw new ServiceError(500, `${provider.slug} could not confirm the new slot; the appointment keeps its previous slot.`);
  }
  return presentAppointment(db, settled);
}
