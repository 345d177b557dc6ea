/**
 * What the scheduling section reads off an appointment record: whether a draw can be booked,
 * whether the provider still has to answer (and so the page keeps asking), and for how long.
 */
import { AWAITING_PROVIDER_STATUSES } from '../../components/AppointmentStatusChip';
import type { AppointmentRecord } from '../../appointments/types';
import { pollMs } from '../../components/polling';

/** Polling a booking the provider has not answered yet. */
export const AWAITING_POLL_MS = 2000;
/** Polling a request, which waits for the provider to propose a time: hours, not seconds. */
export const REQUEST_POLL_MS = 30_000;

/** No appointment, or only a cancelled one: a new draw can be booked. Unknown statuses are not. */
export const canBookAnother = (appointment: AppointmentRecord | null | undefined) => !appointment || appointment.status === 'cancelled';

/** A request: no time yet, the provider proposes one. */
export const isRequest = (appointment: AppointmentRecord) => !appointment.start_at || appointment.event_data?.requested === true;

export const isAwaitingProvider = (appointment: AppointmentRecord | null | undefined): appointment is AppointmentRecord =>
  Boolean(appointment && AWAITING_PROVIDER_STATUSES.includes(appointment.status));

/** How often to read the appointment again; false once the provider has answered. */
export function pollInterval(appointment: AppointmentRecord | null | undefined): number | false {
  if (!isAwaitingProvider(appointment)) return false;
  return pollMs(isRequest(appointment) ? REQUEST_POLL_MS : AWAITING_POLL_MS);
}

/** The async confirmation timeout the booking was made with (ms), if it says. */
export function asyncTimeoutOf(appointment: AppointmentRecord): number | null {
  const value = appointment.event_data?.async_confirmation_timeout_millisecond;
  return typeof value === 'number' && value > 0 ? value : null;
}

/** When the wait began: the appointment's first event. */
export function waitingSince(appointment: AppointmentRecord): string | null {
  const times = (appointment.events ?? []).map((e) => e.created_at).filter((t) => !Number.isNaN(Date.parse(t)));
  return times.length ? times.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b)) : null;
}

/** Why the appointment was cancelled, in words, from its last cancelled event (if it says). */
export function cancellationReasonOf(appointment: AppointmentRecord): string | null {
  const event = [...(appointment.events ?? [])].reverse().find((e) => e.status === 'cancelled');
  const reason = event?.data?.reason;
  if (reason === 'async_confirmation_timeout') return 'the provider did not confirm in time';
  if (reason === 'order_closed') return 'the order was closed';
  return typeof reason === 'string' && reason ? reason : null;
}
