import { z } from 'zod';
import { CalendarDate, DateTime, hasNoNul, IanaTimeZone, NO_NUL_MESSAGE, Uuid } from './common';
import { UsState } from './labs';
import { NOTES_MAX, ZipCode } from './orders';

/** At-home phlebotomy appointments (issue 4): availability, book, get, cancel, cancellation reasons. */

const notes = (what: string) =>
  z.string().max(NOTES_MAX, `${what} must be at most ${NOTES_MAX} characters`).refine(hasNoNul, NO_NUL_MESSAGE);
const text = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max).refine(hasNoNul, NO_NUL_MESSAGE);

export const SYNC_TIMEOUT_MS = { min: 1000, max: 10_000, default: 2500 } as const;
export const ASYNC_TIMEOUT_MS = { min: 60_000, max: 172_800_000, default: 15 * 60_000 } as const;
export const AVAILABILITY_DAYS = 14;

/** Provider names of the interface (stand-ins); answers carry them as plain strings (non-exhaustive). */
export const APPOINTMENT_PROVIDERS = ['provider_1', 'provider_2', 'provider_3', 'provider_4'] as const;
export const APPOINTMENT_STATUSES = ['confirmed', 'pending', 'reserved', 'in_progress', 'completed', 'cancelled'] as const;
export const APPOINTMENT_EVENT_STATUSES = ['pending', 'reserved', 'scheduled', 'completed', 'cancelled', 'in_progress'] as const;
export const APPOINTMENT_TYPES = ['phlebotomy', 'patient_service_center'] as const;

export const USAddress = z.object({
  first_line: text(200),
  second_line: z.string().max(200).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional().describe('Carries the unit number'),
  city: text(100),
  state: UsState,
  zip_code: ZipCode,
  unit: z.string().max(200).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional().describe('Deprecated: use second_line'),
  access_notes: notes('access_notes')
    .nullable()
    .optional()
    .describe('Gate codes, parking, entrance directions; at most 1000 characters; forwarded to the provider on every booking'),
});
export type USAddress = z.infer<typeof USAddress>;

/** The address as answers carry it (never re-validated on the way out). */
export const USAddressOut = z.object({
  first_line: z.string(),
  second_line: z.string().nullable().optional(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
  unit: z.string().nullable().optional(),
  access_notes: z.string().nullable().optional(),
});

export const LngLat = z.object({ lng: z.number(), lat: z.number() });

export const AvailabilityQuery = z.object({
  start_date: CalendarDate.nullable().optional().describe("First day (YYYY-MM-DD); default today in the address's time zone"),
});
export type AvailabilityQuery = z.infer<typeof AvailabilityQuery>;

export const TimeSlot = z.object({
  booking_key: z.string(),
  start: DateTime,
  end: DateTime,
  expires_at: DateTime,
  price: z.number().int(),
  is_priority: z.boolean(),
  num_appointments_available: z.number().int(),
  provider: z
    .string()
    .optional()
    .describe('Extension: the provider offering the slot, provider_1..provider_4 (non-exhaustive); the one the booking key names'),
});
export type TimeSlot = z.infer<typeof TimeSlot>;

export const DaySlots = z.object({ date: z.string(), slots: z.array(TimeSlot) });
export type DaySlots = z.infer<typeof DaySlots>;

export const AvailabilityResponse = z.object({
  timezone: z.string().nullable().optional(),
  slots: z.array(DaySlots),
});
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;

const bookingKey = z.string().min(1, 'must not be empty').max(4096);
const appointmentNotes = notes('appointment_notes').nullable().optional();

export const BookBody = z.object({
  booking_key: bookingKey,
  appointment_notes: appointmentNotes,
  async_confirmation: z.boolean().default(false),
  sync_confirmation_timeout_millisecond: z
    .number()
    .int()
    .min(SYNC_TIMEOUT_MS.min)
    .max(SYNC_TIMEOUT_MS.max)
    .nullable()
    .optional()
    .describe('1000-10000, default 2500; applies only when async_confirmation is true'),
  async_confirmation_timeout_millisecond: z
    .number()
    .int()
    .min(ASYNC_TIMEOUT_MS.min)
    .max(ASYNC_TIMEOUT_MS.max)
    .nullable()
    .optional()
    .describe('60000-172800000, default 15 minutes; applies only when async_confirmation is true'),
});
export type BookBody = z.infer<typeof BookBody>;

export const RequestBody = z.object({
  address: USAddress,
  provider: z.string().min(1).max(64).describe('provider_1..provider_4 (non-exhaustive)'),
  appointment_notes: appointmentNotes,
});
export type RequestBody = z.infer<typeof RequestBody>;

export const RescheduleBody = z.object({ booking_key: bookingKey, appointment_notes: appointmentNotes });
export type RescheduleBody = z.infer<typeof RescheduleBody>;

export const CancelBody = z.object({
  cancellation_reason_id: z.string().min(1, 'must not be empty').max(100),
  notes: notes('notes').nullable().optional(),
});
export type CancelBody = z.infer<typeof CancelBody>;

export const AppointmentOrderParams = z.object({ order_id: Uuid });

export const AppointmentEvent = z.object({
  created_at: DateTime,
  status: z.string().describe('AppointmentEventStatus (non-exhaustive)'),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type AppointmentEvent = z.infer<typeof AppointmentEvent>;

export const Appointment = z.object({
  id: z.string(),
  user_id: z.string(),
  order_id: z.string(),
  address: USAddressOut,
  location: LngLat,
  start_at: DateTime.nullable(),
  end_at: DateTime.nullable(),
  iana_timezone: IanaTimeZone.nullable().optional(),
  type: z.string().describe('phlebotomy, patient_service_center (non-exhaustive)'),
  provider: z.string().describe('provider_1..provider_4 (non-exhaustive)'),
  status: z.string().describe('confirmed, pending, reserved, in_progress, completed, cancelled (non-exhaustive)'),
  provider_id: z.string(),
  can_reschedule: z.boolean(),
  event_status: z.string().describe('pending, reserved, scheduled, completed, cancelled, in_progress (non-exhaustive)'),
  events: z.array(AppointmentEvent),
  order_transaction_id: z.string().nullable().optional(),
  external_id: z.string().nullable().optional(),
  appointment_notes: z.string().nullable().optional(),
  event_data: z.record(z.string(), z.unknown()).optional(),
});
export type Appointment = z.infer<typeof Appointment>;

export const CancellationReason = z.object({ id: z.string(), name: z.string(), is_refundable: z.boolean() });
export type CancellationReason = z.infer<typeof CancellationReason>;
export const CancellationReasons = z.array(CancellationReason);
