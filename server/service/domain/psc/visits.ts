/**
 * Walk-in visits: an appointment of `type: patient_service_center` at one of the order's lab's
 * centers. The rules are the at-home draws' (appointments/): a booking key names a slot and is not
 * used up, a slot has as many places as the center has draw stations (taken by one conditional
 * increment, so concurrent bookings never oversell), cancelling gives the place back, the order
 * follows (appointment_scheduled, appointment_cancelled) and `labtest.appointment.*` events are
 * recorded. Unlike a phlebotomy provider, the center confirms at once: nothing waits in the background.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Appointment, PscBookingBody, PscCancelBody } from '../../../contract';
import type { Database } from '../../../store/db';
import { appointmentEvents, appointments, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { takePlaceOfKey } from '../appointments/book';
import type { BookingKeyCodec, BookingKeyPayload } from '../appointments/bookingKey';
import { CANCELLATION_REASONS } from '../appointments/cancel';
import { activeAppointmentRow, ACTIVE_STATUSES, presentAppointment, type AppointmentRow } from '../appointments/present';
import { APPOINTMENT_CREATED, APPOINTMENT_UPDATED, cancelAppointmentRow, moveOrderTo, releasePlace } from '../appointments/transitions';
import { Invalid, NotFound, ServiceError } from '../errors';
import { lockOrder } from '../orders/lifecycle';
import { findOrderRow, type OrderRow } from '../orders/present';
import { pscCenter, type PscCenter } from './catalogue';
import { centerAddress } from './availability';
import { assertWalkInOrder, labOfOrder } from './orderCenter';
import { centerSlotAt, pscSlotOwner, siteOfSlotOwner } from './slots';

type Db = Database<ServiceSchema>;
export const PSC_TYPE = 'patient_service_center';
const keyLoc = ['body', 'booking_key'];

/** The center and slot a key names, checked against the order's lab and the center's hours. */
async function slotOfPscKey(db: Db, codec: BookingKeyCodec, teamId: string, order: OrderRow, bookingKey: string) {
  const key: BookingKeyPayload = codec.decode(bookingKey, teamId);
  const site = siteOfSlotOwner(key.p);
  const center = site ? pscCenter(site) : undefined;
  if (!center || key.a !== center.siteCode) throw new Invalid(keyLoc, 'booking_key is not a patient service center slot; ask for PSC availability', 'value_error.booking_key');
  const lab = await labOfOrder(db, order);
  if (center.labId !== lab.id) throw new Invalid(keyLoc, `booking_key names a center of another lab than the order's (${lab.slug})`, 'value_error.booking_key');
  const template = centerSlotAt(center, new Date(key.s));
  if (!template || template.end.toISOString() !== key.e) throw new Invalid(keyLoc, 'booking_key names a slot the center no longer offers', 'value_error.booking_key');
  return { key, center, template };
}

function visitPlace(center: PscCenter) {
  return {
    address: centerAddress(center),
    location: { lng: center.lng, lat: center.lat },
    ianaTimezone: center.zone,
    providerRecord: { site_code: center.siteCode, center_name: center.name },
  };
}

/** The order's latest walk-in visit (locked when asked), if any. */
async function latestVisit(db: Db, orderId: string, lock = false): Promise<AppointmentRow | undefined> {
  const q = db
    .select()
    .from(appointments)
    .where(and(eq(appointments.orderId, orderId), eq(appointments.type, PSC_TYPE)))
    .orderBy(desc(appointments.createdAt), desc(appointments.id))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function bookVisit(db: Db, codec: BookingKeyCodec, teamId: string, orderId: string, body: PscBookingBody, now = () => new Date()): Promise<Appointment> {
  const order = await findOrderRow(db, teamId, orderId);
  assertWalkInOrder(order);
  const slot = await slotOfPscKey(db, codec, teamId, order, body.booking_key);
  const row = await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (!locked) throw new NotFound('Order');
    assertWalkInOrder(locked);
    const active = await activeAppointmentRow(tx, order.id);
    if (active) throw new ServiceError(409, `The order already has a ${active.status} appointment; cancel or reschedule it`);
    await takePlaceOfKey(tx, slot, now());
    const id = randomUUID();
    const confirmation = `PSC-${id.slice(0, 8).toUpperCase()}`;
    const [inserted] = await tx
      .insert(appointments)
      .values({
        id,
        teamId,
        orderId: order.id,
        userId: order.userId,
        type: PSC_TYPE,
        provider: slot.center.lab,
        providerId: confirmation,
        status: 'confirmed',
        eventStatus: 'scheduled',
        ...visitPlace(slot.center),
        startAt: slot.template.start,
        endAt: slot.template.end,
        price: 0,
        mode: 'sync',
        eventData: { site_code: slot.center.siteCode, center_name: slot.center.name },
      })
      .returning();
    await tx.insert(appointmentEvents).values({ appointmentId: id, status: 'scheduled', data: { site_code: slot.center.siteCode } });
    await moveOrderTo(tx, order.id, 'appointment_scheduled', id, true);
    await emitEvent(tx, teamId, APPOINTMENT_CREATED, order.userId, (await presentAppointment(tx, inserted!)) as unknown as Record<string, unknown>);
    return inserted!;
  });
  return presentAppointment(db, row);
}

/** Moves the order's confirmed visit to another slot (possibly another center of the same lab). */
export async function rescheduleVisit(db: Db, codec: BookingKeyCodec, teamId: string, orderId: string, body: PscBookingBody, now = () => new Date()): Promise<Appointment> {
  const order = await findOrderRow(db, teamId, orderId);
  assertWalkInOrder(order);
  const slot = await slotOfPscKey(db, codec, teamId, order, body.booking_key);
  const row = await db.transaction(async (tx) => {
    await lockOrder(tx, order.id);
    const current = await latestVisit(tx, order.id, true);
    if (!current) throw new NotFound('Appointment');
    if (current.status !== 'confirmed') throw new Invalid(['path', 'order_id'], `the visit is ${current.status}; only a confirmed visit can be rescheduled`, 'value_error.appointment_status');
    if (current.startAt?.getTime() === slot.template.start.getTime() && (current.providerRecord as { site_code?: string }).site_code === slot.center.siteCode) {
      return current; // already there: nothing to move
    }
    await takePlaceOfKey(tx, slot, now());
    await releasePlace(tx, pscSlotOwner(String((current.providerRecord as { site_code?: string }).site_code)), current.startAt);
    const from = { site_code: (current.providerRecord as { site_code?: string }).site_code, start_at: current.startAt?.toISOString() ?? null };
    const [updated] = await tx
      .update(appointments)
      .set({ ...visitPlace(slot.center), startAt: slot.template.start, endAt: slot.template.end, eventData: { site_code: slot.center.siteCode, center_name: slot.center.name }, updatedAt: sql`now()` })
      .where(eq(appointments.id, current.id))
      .returning();
    await tx.insert(appointmentEvents).values({ appointmentId: current.id, status: 'scheduled', data: { rescheduled_from: from, site_code: slot.center.siteCode } });
    await moveOrderTo(tx, order.id, 'appointment_scheduled', current.id, true);
    await emitEvent(tx, teamId, APPOINTMENT_UPDATED, order.userId, (await presentAppointment(tx, updated!)) as unknown as Record<string, unknown>);
    return updated!;
  });
  return presentAppointment(db, row);
}

export async function cancelVisit(db: Db, teamId: string, orderId: string, body: PscCancelBody): Promise<Appointment> {
  await findOrderRow(db, teamId, orderId);
  const reasonId = body.cancellationReasonId ?? body.cancellation_reason_id!;
  const reason = CANCELLATION_REASONS.find((r) => r.id === reasonId);
  const field = body.cancellationReasonId !== undefined ? 'cancellationReasonId' : 'cancellation_reason_id';
  if (!reason) throw new Invalid(['body', field], 'unknown cancellation reason; see GET /v3/order/psc/appointment/cancellation-reasons', 'value_error.cancellation_reason_id');
  const row = await db.transaction(async (tx) => {
    await lockOrder(tx, orderId);
    const current = await latestVisit(tx, orderId, true);
    if (!current) throw new NotFound('Appointment');
    if (!ACTIVE_STATUSES.includes(current.status)) throw new Invalid(['path', 'order_id'], `the visit is ${current.status}; it cannot be cancelled`, 'value_error.appointment_status');
    const notes = body.note ?? body.notes ?? null;
    return cancelAppointmentRow(tx, current, { reason_id: reason.id, reason: reason.name, is_refundable: reason.is_refundable, notes }, reason.id);
  });
  return presentAppointment(db, row);
}

export async function getVisit(db: Db, teamId: string, orderId: string): Promise<Appointment> {
  await findOrderRow(db, teamId, orderId);
  const row = await latestVisit(db, orderId);
  if (!row) throw new NotFound('Appointment');
  return presentAppointment(db, row);
}
