/**
 * What the dashboard sees when an appointment action fails. Most failures keep the BFF's usual
 * shape (`toBffError`: 422 field errors, 404, upstream trouble as 502/504); the ones the dashboard
 * must react to differently (refresh the slots, show "already booked", offer to try again) also
 * carry a `code`.
 */
import { BffError } from '../errors';
import { toBffError, UpstreamError } from '../upstream/errors';

export type AppointmentErrorCode = 'slot_expired' | 'slot_taken' | 'has_appointment' | 'not_confirmed' | 'not_reschedulable';

/** A BffError whose `code` is one of the appointment codes (answered by the BFF's one error handler). */
export class AppointmentError extends BffError {
  declare readonly code: AppointmentErrorCode;
  constructor(statusCode: number, message: string, code: AppointmentErrorCode, errors?: Record<string, string>) {
    super(statusCode, message, errors, code);
  }
}

export type AppointmentAction = 'availability' | 'book' | 'request' | 'reschedule' | 'cancel';

export const orderNotFound = () => new BffError(404, 'Order not found');
export const noAppointment = () => new BffError(404, 'No appointment for this order');

export interface MapContext {
  /** Asked on a 409 of book/request only: does the order hold an active appointment now? */
  hasActiveAppointment(): Promise<boolean>;
}

/**
 * Maps an upstream failure of `action`; anything else is answered as is. The service's own
 * messages are kept for 4xx (they say what to do); a 500 of a synchronous booking gets a fixed one
 * (its text is the service's internals, and nothing was reserved either way).
 */
export async function mapActionError(err: unknown, action: AppointmentAction, ctx: MapContext): Promise<unknown> {
  if (!(err instanceof UpstreamError)) return err;
  const plain = toBffError(err);
  switch (err.status) {
    case 404:
      // reschedule/cancel act on the order's appointment; the others on the order itself.
      return action === 'reschedule' || action === 'cancel' ? noAppointment() : orderNotFound();
    case 410:
      return new AppointmentError(410, plain.message, 'slot_expired', { booking_key: plain.message });
    case 409: {
      if (action === 'book' || action === 'request') {
        // The service answers 409 both for a full slot and for an order that already has an
        // appointment; its message is not a contract, so ask the order itself.
        const has = await ctx.hasActiveAppointment().catch(() => false);
        if (has) return new AppointmentError(409, plain.message, 'has_appointment');
      }
      if (action === 'cancel' || action === 'availability') return plain;
      // slot_taken: the slot's places are all taken (booking keys are not used up; a key books any
      // order at its address until it expires, while the slot has a place).
      return new AppointmentError(409, plain.message, 'slot_taken');
    }
    case 500:
      if (action === 'book' || action === 'reschedule') {
        return new AppointmentError(
          502,
          action === 'book'
            ? 'The provider did not confirm the booking; nothing was reserved. Ask for availability and try again.'
            : 'The provider did not confirm the new slot; the appointment keeps its previous time. Ask for availability and try again.',
          'not_confirmed',
        );
      }
      return plain;
    default:
      return plain;
  }
}
