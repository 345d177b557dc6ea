/**
 * What went wrong with a book or reschedule, sorted by what the page must do about it
 * (docs/bff-api.md: the BFF adds `code` where the dashboard must react differently).
 */
import { HttpError } from 'react-admin';
import { errorCodeOf } from '../../providers/errorCode';

export type BookingProblem =
  /** 410 slot_expired: the booking key is too old. Refresh the slots; nothing was booked. */
  | { kind: 'expired'; message: string }
  /** 409 slot_taken: the slot is full (other bookings took its last place). Refresh the slots. */
  | { kind: 'taken'; message: string }
  /** 409 has_appointment: the order already has an appointment (booked elsewhere meanwhile). */
  | { kind: 'has_appointment'; message: string }
  /** 502 not_confirmed: the provider did not confirm a synchronous booking; nothing was booked. */
  | { kind: 'not_confirmed'; message: string }
  /** 422: errors keyed by the body's field paths. */
  | { kind: 'invalid'; message: string; errors: Record<string, string> }
  | { kind: 'other'; message: string };

export function bookingProblemOf(error: unknown): BookingProblem {
  if (!(error instanceof HttpError)) {
    return { kind: 'other', message: error instanceof Error && error.message ? error.message : 'The server could not be reached' };
  }
  const body = (error.body ?? {}) as { code?: unknown; errors?: Record<string, string> };
  const message = error.message;
  const code = errorCodeOf(error);
  if (code === 'slot_expired' || (!code && error.status === 410)) return { kind: 'expired', message };
  if (code === 'slot_taken') return { kind: 'taken', message };
  if (code === 'has_appointment') return { kind: 'has_appointment', message };
  if (code === 'not_confirmed' || (!code && error.status === 502)) return { kind: 'not_confirmed', message };
  if (error.status === 422 && body.errors && Object.keys(body.errors).length) return { kind: 'invalid', message, errors: body.errors };
  return { kind: 'other', message };
}

/** Splits field errors into those a form shows under its inputs and the rest (said in a message). */
export function splitFieldErrors(errors: Record<string, string>, formFields: readonly string[]) {
  const onFields: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(errors)) {
    if (formFields.includes(field)) onFields[field] = message;
    else elsewhere.push(`${field}: ${message}`);
  }
  return { onFields, elsewhere };
}
