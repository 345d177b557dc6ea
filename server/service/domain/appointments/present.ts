import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Appointment } from '../../../contract';
import type { Database } from '../../../store/db';
import { appointmentEvents, appointments, orders, type ServiceSchema } from '../../db/schema';
import { NotFound } from '../errors';
import { pscSlotOwner } from '../psc/slots';

type Db = Database<ServiceSchema>;
export type AppointmentRow = typeof appointments.$inferSelect;

/**
 * Where the appointment's slot place is counted (appointment_slots.provider): the phlebotomy
 * provider for at-home draws, the center (its site code in the provider record) for walk-in visits.
 */
export function slotOwnerOf(row: Pick<AppointmentRow, 'type' | 'provider' | 'providerRecord'>): string {
  const site = (row.providerRecord as { site_code?: unknown }).site_code;
  return row.type === 'patient_service_center' && typeof site === 'string' ? pscSlotOwner(site) : row.provider;
}

/** Statuses of an appointment that still holds (or waits for) a slot. */
export const ACTIVE_STATUSES = ['reserved', 'pending', 'confirmed'];

export async function presentAppointment(db: Db, row: AppointmentRow): Promise<Appointment> {
  const events = await db.select().from(appointmentEvents).where(eq(appointmentEvents.appointmentId, row.id)).orderBy(asc(appointmentEvents.id));
  return {
    id: row.id,
    user_id: row.userId,
    order_id: row.orderId,
    address: row.address as Appointment['address'],
    location: row.location,
    start_at: row.startAt?.toISOString() ?? null,
    end_at: row.endAt?.toISOString() ?? null,
    iana_timezone: row.ianaTimezone,
    type: row.type,
    provider: row.provider,
    status: row.status,
    provider_id: row.providerId,
    can_reschedule: row.status === 'confirmed' || (row.status === 'pending' && row.mode === 'request'),
    event_status: row.eventStatus,
    events: events.map((e) => ({ created_at: e.createdAt.toISOString(), status: e.status, data: e.data })),
    order_transaction_id: null,
    external_id: row.externalId,
    appointment_notes: row.appointmentNotes,
    event_data: row.eventData,
  };
}

/** The order's latest appointment row (any status), or undefined. */
export async function latestAppointmentRow(db: Db, orderId: string, opts: { lock?: boolean } = {}): Promise<AppointmentRow | undefined> {
  const q = db.select().from(appointments).where(eq(appointments.orderId, orderId)).orderBy(desc(appointments.createdAt), desc(appointments.id)).limit(1);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row;
}

/** The order's active appointment (reserved, pending or confirmed), if any. */
export async function activeAppointmentRow(db: Db, orderId: string): Promise<AppointmentRow | undefined> {
  const [row] = await db
    .select()
    .from(appointments)
    .where(and(eq(appointments.orderId, orderId), inArray(appointments.status, ACTIVE_STATUSES)))
    .limit(1);
  return row;
}

/**
 * Locks the appointment's order, then the appointment: every writer takes the two locks in this
 * order (order first), so concurrent book, confirm, reschedule and cancel never deadlock.
 */
export async function lockAppointmentAndOrder(db: Db, id: string): Promise<AppointmentRow | undefined> {
  const [ref] = await db.select({ orderId: appointments.orderId }).from(appointments).where(eq(appointments.id, id));
  if (!ref) return undefined;
  await db.select({ id: orders.id }).from(orders).where(eq(orders.id, ref.orderId)).for('update');
  return lockAppointment(db, id);
}

export async function lockAppointment(db: Db, id: string): Promise<AppointmentRow | undefined> {
  const [row] = await db.select().from(appointments).where(eq(appointments.id, id)).for('update');
  return row;
}

/** The team's order's latest appointment, presented; 404 when the order has none. */
export async function getOrderAppointment(db: Db, teamId: string, orderId: string): Promise<Appointment> {
  const [row] = await db
    .select()
    .from(appointments)
    .where(and(eq(appointments.teamId, teamId), eq(appointments.orderId, orderId)))
    .orderBy(desc(appointments.createdAt), desc(appointments.id))
    .limit(1);
  if (!row) throw new NotFound('Appointment');
  return presentAppointment(db, row);
}

export const touch = () => ({ updatedAt: sql`now()` });
