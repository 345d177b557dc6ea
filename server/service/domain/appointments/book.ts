import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, lt, sql } from 'drizzle-orm';
import { ASYNC_TIMEOUT_MS, SYNC_TIMEOUT_MS, type Appointment, type BookBody, type USAddress } from '../../../contract';
import { localDate } from '../../../lib/timezones';
import type { Database } from '../../../store/db';
import { enqueueJob } from '../../jobs/queue';
import { appointmentEvents, appointments, appointmentSlots, type ServiceSchema } from '../../db/schema';
import { phlebotomyProvider, providerBehaviour, type ProviderBookingRequest, type PhlebotomyProvider, type ProviderTicket, type SlotTemplate } from '../../providers';
import { emitEvent } from '../../webhooks/outbox';
import { Invalid, ServiceError } from '../errors';
import { lockOrder } from '../orders/lifecycle';
import { findOrderRow, type OrderRow } from '../orders/present';
import { FINAL_TOPS } from '../orders/statuses';
import { addressDigest, orderUsAddress } from './address';
import { newAppointmentValues } from './newAppointment';
import type { BookingKeyCodec, BookingKeyPayload } from './bookingKey';
import { activeAppointmentRow, lockAppointmentAndOrder, presentAppointment, type AppointmentRow } from './present';
import { APPOINTMENT_CREATED, confirmAppointment, moveOrderTo, rollBackReservation } from './transitions';
import { zipArea, type ZipArea } from './zips';
import { providerAddress, providerPatient } from '../../providers/types';

type Db = Database<ServiceSchema>;

export const APPOINTMENT_CONFIRM_KIND = 'appointment.confirm';
/** A synchronous booking waits at most this long for the provider; then it fails (500) and releases the slot. */
export const SYNC_MAX_WAIT_MS = 30_000;
/** After this, a synchronous reservation left behind by a crashed process is rolled back by the job. */
export const SYNC_RECOVERY_GRACE_MS = 60_000;

export interface ProviderRecord {
  request: ProviderBookingRequest;
  tickets: ProviderTicket[];
  [k: string]: unknown;
}

export const ticketOf = (row: AppointmentRow): ProviderTicket => {
  const rec = row.providerRecord as unknown as ProviderRecord;
  return rec.tickets[rec.tickets.length - 1]!;
};

const keyLoc = ['body', 'booking_key'];

/** Checks the order can take an appointment: the team's (404), at-home phlebotomy and not final (422). */
export function assertBookableOrder(order: OrderRow) {
  if (order.collectionMethod !== 'at_home_phlebotomy') {
    throw new Invalid(['path', 'order_id'], `order is a ${order.collectionMethod} order; appointments are for at_home_phlebotomy orders`, 'value_error.collection_method');
  }
  if (FINAL_TOPS.has(order.status)) throw new Invalid(['path', 'order_id'], `order is ${order.status}; it cannot take an appointment`, 'value_error.order_status');
  if (order.status === 'sample_with_lab' || order.lowLevelStatus === 'draw_completed') {
    throw new Invalid(['path', 'order_id'], "the order's sample was already collected", 'value_error.order_status');
  }
}

/** The slot a booking key names, checked against the address it is used for and the provider's schedule. */
export interface KeyedSlot {
  key: BookingKeyPayload;
  address: USAddress;
  area: ZipArea;
  provider: PhlebotomyProvider;
  template: SlotTemplate;
}

/**
 * Validates the key against the order (or, for a reschedule, the appointment's address `at`) and the
 * provider's schedule; answers the slot it names. 410 when the key expired or the slot started;
 * 422 at body.booking_key when it was offered for another address or names a slot that is not offered.
 */
export function slotOfKey(order: OrderRow, key: BookingKeyPayload, now: Date, at?: USAddress): KeyedSlot {
  assertUnexpired(key, now);
  const address = at ?? orderUsAddress(order);
  if (addressDigest(address) !== key.a) {
    throw new Invalid(keyLoc, `booking_key was offered for another address than the ${at ? "appointment's" : "order's patient"} address`, 'value_error.booking_key');
  }
  const area = zipArea(address.zip_code);
  const provider = phlebotomyProvider(key.p);
  if (!area || !provider || !provider.serves(address.zip_code)) throw new Invalid(keyLoc, 'booking_key names a provider that does not serve this address', 'value_error.booking_key');
  const start = new Date(key.s);
  const template = provider.slotsOn(area.zone, localDate(area.zone, start)).find((s) => s.start.getTime() === start.getTime());
  if (!template || template.end.toISOString() !== key.e) throw new Invalid(keyLoc, 'booking_key names a slot the provider no longer offers', 'value_error.booking_key');
  return { key, address, area, provider, template };
}

function assertUnexpired(key: BookingKeyPayload, now: Date) {
  if (Date.parse(key.x) <= now.getTime()) throw new ServiceError(410, `booking_key expired at ${key.x}; ask for availability again`);
  if (Date.parse(key.s) <= now.getTime()) throw new ServiceError(410, 'the slot has already started; ask for availability again');
}

/**
 * The booking-key rule, shared by book and reschedule: takes one place in the slot the key names, or
 * answers 409 when the slot is full. A key is not consumed: any order of the team at the key's address
 * may use it until its expires_at (checked again here, at the moment the place is taken), as long as
 * the slot has a place. One conditional UPDATE (booked < capacity) inside the caller's transaction,
 * so concurrent bookings never oversell; cancellation, a rolled-back booking, a timed-out async
 * attempt and a reschedule's old slot give the place back (`releasePlace`).
 */
export async function takePlaceOfKey(tx: Db, slot: Pick<KeyedSlot, 'key' | 'template'>, now: Date) {
  assertUnexpired(slot.key, now);
  const t = slot.template;
  await tx.insert(appointmentSlots).values({ provider: t.provider, startAt: t.start, endAt: t.end, capacity: t.capacity }).onConflictDoNothing();
  const taken = await tx
    .update(appointmentSlots)
    .set({ booked: sql`${appointmentSlots.booked} + 1` })
    .where(and(eq(appointmentSlots.provider, t.provider), eq(appointmentSlots.startAt, t.start), lt(appointmentSlots.booked, appointmentSlots.capacity)))
    .returning({ booked: appointmentSlots.booked });
  if (taken.length === 0) {
    throw new ServiceError(409, `The slot is full: all ${t.capacity} of its places are booked. Ask for availability again and choose another slot.`);
  }
}

/** Waits for a ticket's answer, but not past `until` (timers may fire a little early: loop). */
export async function waitForAnswer(ticket: ProviderTicket, until: number, now: () => Date = () => new Date()) {
  const readyAt = Date.parse(ticket.ready_at);
  for (;;) {
    const untilReady = readyAt - now().getTime();
    const windowLeft = until - now().getTime();
    if (untilReady <= 0 || windowLeft <= 0) return;
    await sleep(Math.min(untilReady, windowLeft) + 1);
  }
}

export interface BookOptions {
  now?: () => Date;
  random?: () => number;
}

/**
 * Books the slot of a booking key for the order.
 * - async_confirmation false: waits for the provider; a refusal (or no answer within 30 s) is a 500
 *   and the reservation is rolled back (nothing stays reserved, nothing is announced).
 * - async_confirmation true: waits up to sync_confirmation_timeout_millisecond, then answers the
 *   appointment (confirmed, or pending while the `appointment.confirm` job carries on; a refused
 *   attempt is submitted again) until async_confirmation_timeout_millisecond, when the attempt and
 *   the pending appointment are cancelled and the place released.
 */
export async function bookAppointment(db: Db, codec: BookingKeyCodec, teamId: string, orderId: string, body: BookBody, opts: BookOptions = {}): Promise<Appointment> {
  const now = opts.now ?? (() => new Date());
  const order = await findOrderRow(db, teamId, orderId);
  const key = codec.decode(body.booking_key, teamId);
  assertBookableOrder(order);
  const slot = slotOfKey(order, key, now());
  const { address, area, provider, template } = slot;
  const behaviour = await providerBehaviour(db, provider.slug);
  const isAsync = body.async_confirmation === true;
  const syncWindow = isAsync ? (body.sync_confirmation_timeout_millisecond ?? SYNC_TIMEOUT_MS.default) : SYNC_MAX_WAIT_MS;
  const asyncTimeout = body.async_confirmation_timeout_millisecond ?? ASYNC_TIMEOUT_MS.default;
  const id = randomUUID();

  const started = now();
  const row = await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (!locked) throw new ServiceError(404, 'Order not found');
    assertBookableOrder(locked);
    const active = await activeAppointmentRow(tx, order.id);
    if (active) throw new ServiceError(409, `The order already has a ${active.status} appointment; cancel it first`);
    await takePlaceOfKey(tx, slot, now());
    const request: ProviderBookingRequest = {
      appointment_id: id,
      order_id: order.id,
      slot_start: template.start.toISOString(),
      slot_end: template.end.toISOString(),
      iana_timezone: area.zone,
      address: providerAddress(address),
      patient: providerPatient(locked.patientDetails),
      appointment_notes: body.appointment_notes ?? null,
    };
    const ticket = provider.submit(request, behaviour, started, opts.random);
    const deadline = isAsync
      ? new Date(started.getTime() + asyncTimeout)
      : new Date(started.getTime() + Math.min(SYNC_MAX_WAIT_MS, behaviour.latency_ms) + SYNC_RECOVERY_GRACE_MS);
    const status = isAsync ? 'pending' : 'reserved';
    const [inserted] = await tx
      .insert(appointments)
      .values({
        ...newAppointmentValues({ id, teamId, orderId: order.id, userId: order.userId, provider: provider.slug, ticket, request, status, address: { ...address, unit: null }, area }),
        startAt: template.start,
        endAt: template.end,
        price: template.price,
        isPriority: template.isPriority,
        appointmentNotes: body.appointment_notes ?? null,
        mode: isAsync ? 'async' : 'sync',
        confirmDeadline: deadline,
        eventData: {
          provider_request: request,
          price: template.price,
          is_priority: template.isPriority,
          async_confirmation: isAsync,
          ...(isAsync ? { sync_confirmation_timeout_millisecond: syncWindow, async_confirmation_timeout_millisecond: asyncTimeout } : {}),
        },
      })
      .returning();
    await tx.insert(appointmentEvents).values({ appointmentId: id, status, data: { provider_request: request, ticket_id: ticket.ticket_id } });
    const firstRun = isAsync ? new Date(Math.min(Math.max(Date.parse(ticket.ready_at), started.getTime() + syncWindow), deadline.getTime())) : deadline;
    await enqueueJob(tx, APPOINTMENT_CONFIRM_KIND, { appointment_id: id }, { runAt: firstRun });
    if (isAsync) {
      await moveOrderTo(tx, order.id, 'appointment_pending', id, false);
      await emitEvent(tx, teamId, APPOINTMENT_CREATED, order.userId, (await presentAppointment(tx, inserted!)) as unknown as Record<string, unknown>);
    }
    return inserted!;
  });

  await waitForAnswer(ticketOf(row), started.getTime() + syncWindow, now);

  let failed = false;
  const settled = await db.transaction(async (tx) => {
    const current = await lockAppointmentAndOrder(tx, id);
    if (!current) return undefined;
    if (current.status !== 'reserved' && current.status !== 'pending') {
      // Settled meanwhile (e.g. cancelled while waiting): a synchronous booking that is not confirmed is a failure.
      if (!isAsync && current.status !== 'confirmed') failed = true;
      return current;
    }
    const state = provider.poll(ticketOf(current), now());
    if (state === 'confirmed') return confirmAppointment(tx, current, { ticket_id: ticketOf(current).ticket_id, confirmed_by: 'provider' });
    if (!isAsync) {
      failed = true;
      await rollBackReservation(tx, current);
      return undefined;
    }
    return current;
  });
  if (failed || !settled) {
    throw new ServiceError(500, `${provider.slug} could not confirm the booking; nothing was reserved. Ask for availability and try again.`);
  }
  return presentAppointment(db, settled);
}
