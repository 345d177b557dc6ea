import { z } from 'zod';
import { CalendarDate, hasNoNul, NO_NUL_MESSAGE, Uuid } from './common';
import { LngLat, TimeSlot, USAddressOut } from './appointments';
import { NOTES_MAX, ZipCode } from './orders';

/** Walk-in visits at patient service centers (wire-facts §11.2) and on-site draws (§11.3). */

export const ALLOWED_RADII = ['10', '20', '25', '50', '100'] as const;
export const DEFAULT_PSC_RADIUS = '25';
/** Days one availability answer covers. */
export const PSC_AVAILABILITY_DAYS = 7;

const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(50).optional());

const Radius = z.enum(ALLOWED_RADII).describe('AllowedRadius, miles as a string: 10, 20, 25, 50 or 100 (default 25)');
const labSlug = z.string().trim().min(1).max(64).refine(hasNoNul, NO_NUL_MESSAGE);

export const AreaInfoQuery = z.object({
  zip_code: ZipCode,
  radius: Radius.optional(),
  lab: labSlug.optional().describe('Only this lab in central_labs (ClientFacingLabs, non-exhaustive)'),
  labs: repeated(labSlug),
  lab_account_id: Uuid.optional(),
});
export type AreaInfoQuery = z.infer<typeof AreaInfoQuery>;

export const PscInfoQuery = z.object({
  zip_code: ZipCode,
  lab_id: z.coerce.number().int().positive(),
  radius: Radius.optional(),
  capabilities: repeated(labSlug),
  lab_account_id: Uuid.optional(),
});
export type PscInfoQuery = z.infer<typeof PscInfoQuery>;

export const OrderPscInfoQuery = z.object({ radius: Radius.optional(), capabilities: repeated(labSlug) });
export type OrderPscInfoQuery = z.infer<typeof OrderPscInfoQuery>;

export const PscAvailabilityQuery = z.object({
  lab: labSlug.describe('AppointmentPscLabs (non-exhaustive): the lab whose centers to offer'),
  start_date: CalendarDate.optional().describe("First day (YYYY-MM-DD); default today in the centers' zone"),
  site_codes: repeated(z.string().trim().min(1).max(64).refine(hasNoNul, NO_NUL_MESSAGE)),
  zip_code: ZipCode.optional(),
  radius: Radius.optional(),
});
export type PscAvailabilityQuery = z.infer<typeof PscAvailabilityQuery>;

export const PscBookingBody = z.object({ booking_key: z.string().min(1, 'must not be empty').max(4096) });
export type PscBookingBody = z.infer<typeof PscBookingBody>;

const reasonId = z.string().min(1, 'must not be empty').max(100);
const note = z.string().max(NOTES_MAX).refine(hasNoNul, NO_NUL_MESSAGE).nullable().optional();
/** The SDK sends camelCase keys here (unlike the at-home cancel); both spellings are accepted. */
export const PscCancelBody = z
  .object({ cancellationReasonId: reasonId.optional(), cancellation_reason_id: reasonId.optional(), note, notes: note })
  .refine((b) => b.cancellationReasonId !== undefined || b.cancellation_reason_id !== undefined, {
    message: 'cancellationReasonId (or cancellation_reason_id) is required',
    path: ['cancellationReasonId'],
  });
export type PscCancelBody = z.infer<typeof PscCancelBody>;

export const LabLocationMetadata = z.object({
  name: z.string(),
  state: z.string(),
  city: z.string(),
  zip_code: z.string(),
  first_line: z.string(),
  second_line: z.string().nullable().optional(),
  phone_number: z.string().nullable().optional(),
  fax_number: z.string().nullable().optional(),
  hours: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe('Per weekday (monday..sunday): {open, close} as HH:MM in the center\'s zone, or null when closed; plus iana_timezone'),
});

export const LabLocation = z.object({
  metadata: LabLocationMetadata,
  distance: z.number().describe('Miles from the ZIP code asked about (great circle)'),
  site_code: z.string(),
  supported_bill_types: z.array(z.string()),
  location: LngLat,
  capabilities: z.array(z.string()).describe('stat, appointment_scheduling_with_lab (non-exhaustive)'),
});
export type LabLocation = z.infer<typeof LabLocation>;

export const PscInfo = z.object({ lab_id: z.number().int(), slug: z.string(), patient_service_centers: z.array(LabLocation) });
export type PscInfo = z.infer<typeof PscInfo>;

export const PscAreaInfo = z.object({
  patient_service_centers: z.object({
    appointment_with_vital: z.boolean(),
    within_radius: z.number().int(),
    radius: z.string(),
    capabilities: z.array(z.string()).optional(),
  }),
  supported_bill_types: z.array(z.string()),
  lab_id: z.number().int(),
});

export const AreaInfo = z.object({
  zip_code: z.string(),
  phlebotomy: z.object({ is_served: z.boolean(), providers: z.array(z.object({ name: z.string(), service_types: z.array(z.string()) })) }),
  central_labs: z.record(z.string(), PscAreaInfo),
});
export type AreaInfo = z.infer<typeof AreaInfo>;

export const AppointmentLocation = z.object({
  location: LngLat,
  distance: z.number().nullable().optional(),
  address: USAddressOut,
  code: z.string(),
  name: z.string(),
  iana_timezone: z.string().nullable().optional(),
});

/** A center's slot: an at-home slot's fields without the home-visit provider that offers it. */
export const PscTimeSlot = TimeSlot.omit({ provider: true });

export const PscDaySlots = z.object({ location: AppointmentLocation.optional(), date: z.string(), slots: z.array(PscTimeSlot) });
export type PscDaySlots = z.infer<typeof PscDaySlots>;

export const PscAvailability = z.object({ timezone: z.string().nullable().optional(), slots: z.array(PscDaySlots) });
export type PscAvailability = z.infer<typeof PscAvailability>;
