import { randomUUID } from 'node:crypto';
import type { Appointment, RequestBody } from '../../../contract';
import type { Database } from '../../../store/db';
import { appointmentEvents, appointments, type ServiceSchema } from '../../db/schema';
import { phlebotomyProvider, providerBehaviour, type ProviderBookingRequest } from '../../providers';
import { emitEvent } from '../../webhooks/outbox';
import { Invalid, ServiceError } from '../errors';
import { lockOrder } from '../orders/lifecycle';
import { findOrderRow } from '../orders/present';
import { resolveArea, orderUsAddress } from './address';
import { assertBookableOrder } from './book';
import { activeAppointmentRow, presentAppointment } from './present';
import { APPOINTMENT_CREATED, moveOrderTo } from './transitions';
import { newAppointmentValues } from './newAppointment';
import { providerAddress, providerPatient } from '../../providers/types';

type Db = Database<ServiceSchema>;

/**
 * Requests an appointment without a slot: the provider (which must serve the address) is asked to
 * arrange a time with the patient. The appointment is pending with start_at/end_at null until it is
 * given a slot (reschedule with a booking key) or cancelled; no capacity is taken. The order moves to
 * appointment_pending. access_notes: the body address's, else the order's patient address's.
 */
export async function requestAppointment(db: Db, teamId: string, orderId: string, body: RequestBody): Promise<Appointment> {
  const order = await findOrderRow(db, teamId, orderId);
  assertBookableOrder(order);
  const provider = phlebotomyProvider(body.provider);
  if (!provider) throw new Invalid(['body', 'provider'], `unknown provider ${body.provider}`, 'value_error.provider');
  const area = resolveArea(body.address, ['body', 'address']);
  if (!provider.serves(body.address.zip_code)) {
    throw new Invalid(['body', 'provider'], `${provider.slug} does not serve zip_code ${body.address.zip_code}`, 'value_error.provider');
  }
  const accessNotes = body.address.access_notes ?? orderUsAddress(order).access_notes ?? null;
  const address = { ...body.address, second_line: body.address.second_line ?? null, unit: body.address.unit ?? null, access_notes: accessNotes };
  const behaviour = await providerBehaviour(db, provider.slug);
  const id = randomUUID();
  const row = await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (!locked) throw new ServiceError(404, 'Order not found');
    assertBookableOrder(locked);
    const active = await activeAppointmentRow(tx, order.id);
    if (active) throw new ServiceError(409, `The order already has a ${active.status} appointment; cancel it first`);
    const request: ProviderBookingRequest = {
      appointment_id: id,
      order_id: order.id,
      slot_start: null,
      slot_end: null,
      iana_timezone: area.zone,
      address: providerAddress(address),
      patient: providerPatient(locked.patientDetails),
      appointment_notes: body.appointment_notes ?? null,
    };
    const ticket = provider.submit(request, behaviour);
    const [inserted] = await tx
      .insert(appointments)
      .values({
        ...newAppointmentValues({ id, teamId, orderId: order.id, userId: order.userId, provider: provider.slug, ticket, request, status: 'pending', address, area }),
        appointmentNotes: body.appointment_notes ?? null,
        mode: 'request',
        eventData: { provider_request: request, requested: true },
      })
      .returning();
    await tx.insert(appointmentEvents).values({ appointmentId: id, status: 'pending', data: { provider_request: request, requested: true, ticket_id: ticket.ticket_id } });
    await moveOrderTo(tx, order.id, 'appointment_pending', id, false);
    await emitEvent(tx, teamId, APPOINTMENT_CREATED, order.userId, (await presentAppointment(tx, inserted!)) as unknown as Record<string, unknown>);
    return inserted!;
  });
  return presentAppointment(db, row);
}
