import { z } from 'zod';
import { Appointment, AvailabilityResponse, BookBody, CalendarDate, CancelBody, CancellationReason, RequestBody, RescheduleBody, USAddress, USAddressOut } from '../../contract';
import { filter, listQuery } from './list';

export {
  APPOINTMENT_PROVIDERS,
  ASYNC_TIMEOUT_MS,
  AVAILABILITY_DAYS,
  SYNC_TIMEOUT_MS,
} from '../../contract';

/** The summary of its order the BFF adds to each appointment. */
export const AppointmentOrderSummary = z.object({
  id: z.string(),
  status: z.string().nullable(),
  low_level_status: z.string().nullable(),
  patient_name: z.string().nullable(),
  user_id: z.string(),
});
export type AppointmentOrderSummary = z.infer<typeof AppointmentOrderSummary>;

/**
 * `appointments`: `id` is the ORDER id (the service keeps one current appointment per order and
 * reads it by order); the service's own appointment id is `appointment_id`.
 */
export const AppointmentRecord = Appointment.extend({ id: z.string(), appointment_id: z.string(), order: AppointmentOrderSummary }).meta({
  id: 'AppointmentRecord',
});
export type AppointmentRecord = z.infer<typeof AppointmentRecord>;
export type AppointmentAddress = Appointment['address'];
export type AppointmentEvent = Appointment['events'][number];

/** Statuses in which an appointment still holds (or waits for) a visit. */
export const ACTIVE_APPOINTMENT_STATUSES: readonly string[] = ['reserved', 'pending', 'confirmed', 'in_progress'];
/** Statuses of an appointment that holds (or waits for) a slot and can still be moved or cancelled (not once the draw is under way). */
export const CHANGEABLE_APPOINTMENT_STATUSES: readonly string[] = ['pending', 'reserved', 'confirmed'];
/** Statuses of a booking the provider has not answered yet: the dashboard keeps asking until it has. */
export const AWAITING_PROVIDER_STATUSES: readonly string[] = ['pending', 'reserved'];

export const AppointmentsList = listQuery({
  filter: {
    status: filter.stringList(),
    provider: filter.stringList(),
    start_date: filter.dateBound('start').describe('Starts at or after'),
    end_date: filter.dateBound('end').describe('Starts at or before'),
    order_id: filter.uuid(),
    user_id: filter.uuid(),
    past: filter.boolean().describe('true: only visits whose start has passed; false: only those to come (and requested ones, no time yet)'),
  },
  // `upcoming`: what is coming first (from now, soonest first), then requested ones without a time,
  // then past visits, latest first; a coordinator's list never opens on last year's draws.
  sort: { upcoming: ['ASC'], start_at: ['ASC', 'DESC'], status: ['ASC', 'DESC'], provider: ['ASC', 'DESC'], id: ['ASC', 'DESC'] },
  defaultSort: { field: 'start_at', order: 'ASC' },
});

export const AvailabilityQuery = z.object({ start_date: CalendarDate.optional() });
/** `{}` (or no body): at the order's patient address; otherwise at the address given. */
export const AvailabilityBody = z.union([z.strictObject({}), USAddress]).optional();
export type AddressBody = z.input<typeof USAddress>;
/** The service's answer plus the address the slots are for. */
export const AvailabilityAnswer = AvailabilityResponse.extend({ address: USAddressOut.nullable().optional() }).meta({ id: 'AvailabilityAnswer' });
export type AvailabilityAnswer = z.infer<typeof AvailabilityAnswer>;

export const BookAppointment = BookBody.loose();
export type BookAppointment = z.input<typeof BookBody>;
export const RequestAppointment = RequestBody.loose();
export type RequestAppointment = z.input<typeof RequestBody>;
export const RescheduleAppointment = RescheduleBody.loose();
export type RescheduleAppointment = z.input<typeof RescheduleBody>;
export const CancelAppointment = CancelBody.loose();
export type CancelAppointment = z.input<typeof CancelBody>;
export { CancellationReason };
export type CancellationReasonRecord = z.infer<typeof CancellationReason>;
export type Slot = z.infer<typeof AvailabilityResponse>['slots'][number]['slots'][number];
export type SlotDay = z.infer<typeof AvailabilityResponse>['slots'][number];
