import { z } from 'zod';
import { ALLOWED_RADII, Appointment, CalendarDate, DEFAULT_PSC_RADIUS, Order } from '../../contract';

/**
 * Walk-in visits (patient service centers) under an order, and the on-site "draw completed" action.
 * Opening hours are wall-clock times in the center's own zone (`iana_timezone`); slot instants are
 * UTC and shown in that zone.
 */

export const WALK_IN_WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WalkInWeekday = (typeof WALK_IN_WEEKDAYS)[number];
export { ALLOWED_RADII as WALK_IN_RADII, DEFAULT_PSC_RADIUS as WALK_IN_DEFAULT_RADIUS };

const DayHours = z.object({ open: z.string(), close: z.string() }).nullable();

export const WalkInCenter = z
  .object({
    site_code: z.string(),
    name: z.string(),
    address: z.object({ first_line: z.string(), city: z.string(), state: z.string(), zip_code: z.string() }),
    phone_number: z.string().nullable(),
    distance_miles: z.number(),
    iana_timezone: z.string().nullable().describe('The zone of the opening hours'),
    hours: z.record(z.string(), DayHours).describe('Per weekday (sunday..saturday): open and close as HH:MM in the center’s zone, or null when closed'),
    capabilities: z.array(z.string()),
  })
  .meta({ id: 'WalkInCenter' });
export type WalkInCenter = z.infer<typeof WalkInCenter>;

export const WalkInCentersQuery = z.object({ radius: z.enum(ALLOWED_RADII).optional() });
export const WalkInCenters = z
  .object({ lab: z.string(), radius: z.string(), centers: z.array(WalkInCenter).describe('Nearest first') })
  .meta({ id: 'WalkInCenters' });
export type WalkInCenters = z.infer<typeof WalkInCenters>;

export const WalkInAvailabilityQuery = z.object({ site_code: z.string().min(1).max(64), start_date: CalendarDate.optional() });
export const WalkInSlot = z.object({ booking_key: z.string(), start: z.string(), end: z.string(), num_appointments_available: z.number().int() });
export type WalkInSlot = z.infer<typeof WalkInSlot>;
export const WalkInAvailability = z
  .object({
    site_code: z.string(),
    iana_timezone: z.string().nullable(),
    days: z.array(z.object({ date: z.string().describe('YYYY-MM-DD in the center’s zone'), slots: z.array(WalkInSlot) })),
  })
  .meta({ id: 'WalkInAvailability' });
export type WalkInAvailability = z.infer<typeof WalkInAvailability>;

export const WalkInBooking = z.object({ booking_key: z.string().min(1).max(4096) });
export const WalkInCancel = z.object({ cancellation_reason_id: z.string().min(1).max(100), note: z.string().max(1000).nullable().optional() });
export type WalkInCancel = z.infer<typeof WalkInCancel>;

/** The order's latest walk-in visit, if any (`site_code` and `center_name` in `event_data`). */
export const WalkInVisit = z.object({ visit: Appointment.nullable() }).meta({ id: 'WalkInVisit' });
export type WalkInVisit = z.infer<typeof WalkInVisit>;

export const DrawCompletedAnswer = z.object({ order: Order, message: z.string() }).meta({ id: 'DrawCompletedAnswer' });
export type DrawCompletedAnswer = z.infer<typeof DrawCompletedAnswer>;
