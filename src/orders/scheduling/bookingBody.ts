/**
 * The booking form's values → the book and reschedule bodies. The form asks how long the provider
 * may take to confirm later in minutes (what a coordinator thinks in); the BFF takes milliseconds.
 * The short wait before such a booking shows as pending is not asked: it stays the default.
 */
import { ASYNC_TIMEOUT_MS, SYNC_TIMEOUT_MS, type BookBody, type RescheduleBody, type Slot } from '../../appointments/types';

export interface BookingFormValues {
  appointment_notes?: string | null;
  async_confirmation?: boolean;
  /** The sync window, in seconds (not asked on the form: the default). */
  sync_seconds?: number | null;
  /** The async timeout, in minutes. */
  async_minutes?: number | null;
}

export const SYNC_SECONDS = { min: SYNC_TIMEOUT_MS.min / 1000, max: SYNC_TIMEOUT_MS.max / 1000, default: SYNC_TIMEOUT_MS.default / 1000 };
export const ASYNC_MINUTES = { min: ASYNC_TIMEOUT_MS.min / 60_000, max: ASYNC_TIMEOUT_MS.max / 60_000, default: ASYNC_TIMEOUT_MS.default / 60_000 };

export const BOOKING_DEFAULTS: BookingFormValues = {
  appointment_notes: '',
  async_confirmation: false,
  sync_seconds: SYNC_SECONDS.default,
  async_minutes: ASYNC_MINUTES.default,
};

const notesOf = (values: BookingFormValues) =>
  typeof values.appointment_notes === 'string' && values.appointment_notes.trim() !== '' ? { appointment_notes: values.appointment_notes } : {};

/** Clamped to the documented range, so a rounding slip never becomes a 422. */
const clampMs = (value: number, range: { min: number; max: number }) => Math.min(range.max, Math.max(range.min, Math.round(value)));

export function toBookBody(slot: Slot, values: BookingFormValues): BookBody {
  const body: BookBody = { booking_key: slot.booking_key, ...notesOf(values) };
  if (values.async_confirmation) {
    body.async_confirmation = true;
    body.sync_confirmation_timeout_millisecond = clampMs((values.sync_seconds ?? SYNC_SECONDS.default) * 1000, SYNC_TIMEOUT_MS);
    body.async_confirmation_timeout_millisecond = clampMs((values.async_minutes ?? ASYNC_MINUTES.default) * 60_000, ASYNC_TIMEOUT_MS);
  }
  return body;
}

export const toRescheduleBody = (slot: Slot, values: BookingFormValues): RescheduleBody => ({ booking_key: slot.booking_key, ...notesOf(values) });

/** The booking form's inputs (field errors for anything else are said in a message). */
export const BOOKING_FORM_FIELDS = ['appointment_notes', 'async_minutes'] as const;

/** Field errors of the body → the form's inputs (the async windows are asked in other units). */
export function toBookingFormErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    if (field === 'sync_confirmation_timeout_millisecond') out.sync_seconds = message;
    else if (field === 'async_confirmation_timeout_millisecond') out.async_minutes = message;
    else out[field] = message;
  }
  return out;
}
