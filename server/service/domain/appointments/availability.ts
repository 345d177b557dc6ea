import { and, gte, inArray, lte } from 'drizzle-orm';
import { AVAILABILITY_DAYS, type AvailabilityResponse, type DaySlots, type USAddress } from '../../../contract';
import { localDate } from '../../../lib/timezones';
import type { Database } from '../../../store/db';
import { appointmentSlots, type ServiceSchema } from '../../db/schema';
import { providersServing, type SlotTemplate } from '../../providers';
import { Invalid } from '../errors';
import { addressDigest, resolveArea } from './address';
import { BOOKING_KEY_TTL_MS, type BookingKeyCodec } from './bookingKey';

type Db = Database<ServiceSchema>;

/** Providers publish schedules a year ahead at most. */
export const MAX_DAYS_AHEAD = 365;

/** The calendar date `n` days after a YYYY-MM-DD date. */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Taken places per provider and slot start, for the slots given. */
export async function bookedCounts(db: Db, slots: SlotTemplate[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (slots.length === 0) return out;
  const providers = [...new Set(slots.map((s) => s.provider))];
  const from = new Date(Math.min(...slots.map((s) => s.start.getTime())));
  const to = new Date(Math.max(...slots.map((s) => s.start.getTime())));
  const rows = await db
    .select({ provider: appointmentSlots.provider, startAt: appointmentSlots.startAt, booked: appointmentSlots.booked })
    .from(appointmentSlots)
    .where(and(inArray(appointmentSlots.provider, providers), gte(appointmentSlots.startAt, from), lte(appointmentSlots.startAt, to)));
  for (const r of rows) out.set(`${r.provider}|${r.startAt.getTime()}`, r.booked);
  return out;
}

/**
 * Slots of the next 14 days (from start_date, default today in the address's zone) of every provider
 * serving the zip, merged and sorted by start. Slots already started and slots with no place left are
 * left out; the 14 days are always there (an unserved zip gets 14 empty days). Each slot names its
 * provider (an extension of this service; the booking key names it too).
 */
export async function availability(
  db: Db,
  codec: BookingKeyCodec,
  teamId: string,
  address: USAddress,
  startDate: string | null | undefined,
  now = new Date(),
): Promise<AvailabilityResponse> {
  const area = resolveArea(address, ['body']);
  const zone = area.zone;
  const today = localDate(zone, now);
  const first = startDate ?? today;
  if (first > addDays(today, MAX_DAYS_AHEAD)) {
    throw new Invalid(['query', 'start_date'], `start_date must be at most ${MAX_DAYS_AHEAD} days after today (${today} in ${zone})`, 'value_error.start_date');
  }
  const providers = providersServing(address.zip_code);
  const days = Array.from({ length: AVAILABILITY_DAYS }, (_, i) => addDays(first, i));
  const perDay = days.map((date) => providers.flatMap((p) => p.slotsOn(zone, date)));
  const booked = await bookedCounts(db, perDay.flat());
  const digest = addressDigest(address);
  const slots: DaySlots[] = days.map((date, i) => {
    const offered = perDay[i]!
      .filter((s) => s.start.getTime() > now.getTime())
      .map((s) => ({ s, left: s.capacity - (booked.get(`${s.provider}|${s.start.getTime()}`) ?? 0) }))
      .filter((x) => x.left > 0)
      .sort((a, b) => a.s.start.getTime() - b.s.start.getTime() || a.s.provider.localeCompare(b.s.provider));
    return {
      date,
      slots: offered.map(({ s, left }) => {
        const expiresAt = new Date(Math.min(now.getTime() + BOOKING_KEY_TTL_MS, s.start.getTime()));
        return {
          booking_key: codec.encode({
            t: teamId,
            p: s.provider,
            s: s.start.toISOString(),
            e: s.end.toISOString(),
            a: digest,
            x: expiresAt.toISOString(),
            pr: s.price,
            pp: s.isPriority,
          }),
          start: s.start.toISOString(),
          end: s.end.toISOString(),
          expires_at: expiresAt.toISOString(),
          price: s.price,
          is_priority: s.isPriority,
          num_appointments_available: left,
          // Extension: the provider the key names, so callers can tell providers' slots apart.
          provider: s.provider,
        };
      }),
    };
  });
  return { timezone: zone, slots };
}
