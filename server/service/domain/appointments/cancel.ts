import type { Appointment, CancelBody, CancellationReason } from '../../../contract';
import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import { Invalid, NotFound } from '../errors';
import { lockOrder } from '../orders/lifecycle';
import { findOrderRow } from '../orders/present';
import { ACTIVE_STATUSES, latestAppointmentRow, presentAppointment } from './present';
import { cancelAppointmentRow } from './transitions';

type Db = Database<ServiceSchema>;

export const CANCELLATION_REASONS: CancellationReason[] = [
  { id: 'patient_unavailable', name: 'Patient is unavailable at that time', is_refundable: true },
  { id: 'patient_rescheduling', name: 'Patient wants another time', is_refundable: true },
  { id: 'no_longer_needed', name: 'Appointment no longer needed', is_refundable: true },
  { id: 'address_problem', name: 'Address is wrong or not accessible', is_refundable: true },
  { id: 'provider_unavailable', name: 'Provider cannot attend', is_refundable: true },
  { id: 'late_cancellation', name: 'Cancelled less than 24 hours before the appointment', is_refundable: false },
  { id: 'other', name: 'Other', is_refundable: false },
];

/** Cancels the order's active appointment: place released, order appointment_cancelled, webhook. */
export async function cancelOrderAppointment(db: Db, teamId: string, orderId: string, body: CancelBody): Promise<Appointment> {
  await findOrderRow(db, teamId, orderId);
  const reason = CANCELLATION_REASONS.find((r) => r.id === body.cancellation_reason_id);
  if (!reason) throw new Invalid(['body', 'cancellation_reason_id'], 'unknown cancellation_reason_id; see GET /v3/order/phlebotomy/appointment/cancellation-reasons', 'value_error.cancellation_reason_id');
  const row = await db.transaction(async (tx) => {
    await lockOrder(tx, orderId);
    const current = await latestAppointmentRow(tx, orderId, { lock: true });
    if (!current) throw new NotFound('Appointment');
    if (!ACTIVE_STATUSES.includes(current.status)) throw new Invalid(['path', 'order_id'], `the appointment is ${current.status}; it cannot be cancelled`, 'value_error.appointment_status');
    return cancelAppointmentRow(tx, current, { reason_id: reason.id, reason: reason.name, is_refundable: reason.is_refundable, notes: body.notes ?? null }, reason.id);
  });
  return presentAppointment(db, row);
}
