/**
 * Appointment shapes as the BFF serves them (docs/bff-api.md, "At-home phlebotomy appointments"),
 * built on the service's contract (server/contract/appointments.ts, types only), and the limits
 * the dashboard checks before sending. The limits mirror the contract, which the dashboard may
 * only import types from: keep them in step with it.
 */
import type { Appointment, AvailabilityResponse, CancellationReason, DaySlots, TimeSlot } from '../../server/contract';

/** The summary of its order the BFF adds to each appointment. */
export interface AppointmentOrderSummary {
  id: string;
  status: string | null;
  low_level_status: string | null;
  patient_name: string | null;
  user_id: string;
}

/**
 * An `appointments` record. `id` is the ORDER id (the service keeps one current appointment per
 * order and reads it by order); the service's own appointment id is `appointment_id`.
 */
export type AppointmentRecord = Omit<Appointment, 'id'> & {
  id: string;
  appointment_id: string;
  order: AppointmentOrderSummary;
};

export type AppointmentAddress = Appointment['address'];
export type AppointmentEvent = Appointment['events'][number];
export type Slot = TimeSlot;
export type SlotDay = DaySlots;
export type { CancellationReason };

/** `POST /api/orders/:id/appointment/availability`: the service's answer plus the address the slots are for. */
export type AvailabilityAnswer = AvailabilityResponse & { address?: AppointmentAddress | null };

/** A US address as the appointment calls send it (availability, request). */
export interface AddressBody {
  first_line: string;
  second_line?: string | null;
  city: string;
  state: string;
  zip_code: string;
  access_notes?: string | null;
}

export interface BookBody {
  booking_key: string;
  appointment_notes?: string;
  async_confirmation?: boolean;
  sync_confirmation_timeout_millisecond?: number;
  async_confirmation_timeout_millisecond?: number;
}

export interface RequestBody {
  address: AddressBody;
  provider: string;
  appointment_notes?: string;
}

export interface RescheduleBody {
  booking_key: string;
  appointment_notes?: string;
}

export interface CancelBody {
  cancellation_reason_id: string;
  notes?: string;
}

/** `SYNC_TIMEOUT_MS` of the contract: how long an asynchronous booking waits for a quick answer. */
export const SYNC_TIMEOUT_MS = { min: 1000, max: 10_000, default: 2500 } as const;
/** `ASYNC_TIMEOUT_MS` of the contract: how long the provider has to confirm before the booking is dropped. */
export const ASYNC_TIMEOUT_MS = { min: 60_000, max: 172_800_000, default: 15 * 60_000 } as const;
/** `AVAILABILITY_DAYS`: each availability answer covers this many days. */
export const AVAILABILITY_DAYS = 14;
/** The providers the request form offers (the contract's stand-in names; answers may carry others). */
export const APPOINTMENT_PROVIDERS = ['provider_1', 'provider_2', 'provider_3', 'provider_4'] as const;
