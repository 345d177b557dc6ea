/**
 * What the dashboard sees when an appointment action fails. Most failures keep the BFF's usual
 * shape (`toBffError`: 422 field errors, 404, upstream trouble as 502/504); the ones the dashboard
 * must react to differently (refresh the slots, show "already booked", offer to try again) also
 * carry a `code`.
 */
import type { FastifyInstance } from 'fastify';
import { BffError } from '../errors';
import { toBffError, UpstreamError } from '../upstream/errors';

export type AppointmentErrorCode = 'slot_expired' | 'slot_taken' | 'has_appointment' | 'not_confirmed' | 'not_reschedulable';

/** A BffError with a `code`; answered as `{message, code, errors?}` by `appointmentErrorHandler`. */
export class AppointmentError extends BffError {
  constructor(
    statusCode: number,
    message: string,
    readonly code: AppointmentErrorCode,
    errors?: Record<string, string>,
  ) {
    super(statusCode, message, errors);
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
        // The service answers 409 both for a taken slot or used key and for an order that already
        // has an appointment; its message is not a contract, so ask the order itself.
        const has = await ctx.hasActiveAppointment().catch(() => false);
        if (has) return new AppointmentError(409, plain.message, 'has_appointment');
      }
      if (action === 'cancel' || action === 'availability') return plain;
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

/**
 * The error handler of the appointment routes: answers coded errors with their `code` and hands
 * everything else to the BFF's one error handler (a handler that throws passes the error up).
 */
export function useAppointmentErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(async (error, _req, reply) => {
    if (error instanceof AppointmentError) {
      return reply
        .status(error.statusCode)
        .send({ message: error.message, code: error.code, ...(error.errors && { errors: error.errors }) });
    }
    throw error;
  });
}
