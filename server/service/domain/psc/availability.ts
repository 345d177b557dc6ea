import { PSC_AVAILABILITY_DAYS, type PscAvailability, type PscAvailabilityQuery, type PscDaySlots } from '../../../contract';
import { localDate } from '../../../lib/timezones';
import type { Database } from '../../../store/db';
import type { ServiceSchema } from '../../db/schema';
import { addDays, bookedCounts, MAX_DAYS_AHEAD } from '../appointments/availability';
import { BOOKING_KEY_TTL_MS, type BookingKeyCodec } from '../appointments/bookingKey';
import { Invalid } from '../errors';
import { pscCenter, pscLab, PSC_LAB_SLUGS, type PscCenter } from './catalogue';
import { centersNear, patientPoint, type NearCenter } from './search';
import { centerSlotsOn } from './slots';

type Db = Database<ServiceSchema>;

/** The centers an availability query names: its site codes (of its lab), else those near its ZIP code. */
function centersOf(query: PscAvailabilityQuery): NearCenter[] {
  const lab = pscLab(query.lab);
  if (!lab) throw new Invalid(['query', 'lab'], `lab ${query.lab} has no patient service centers (${PSC_LAB_SLUGS.join(', ')})`, 'value_error.lab');
  const point = query.zip_code ? patientPoint(query.zip_code, ['query', 'zip_code']) : undefined;
  if (query.site_codes?.length) {
    return query.site_codes.map((code, i) => {
      const center = pscCenter(code);
      if (!center || center.labId !== lab.id) throw new Invalid(['query', 'site_codes', i], `site code ${code} is not a ${lab.slug} patient service center`, 'value_error.site_code');
      const near = point ? centersNear(lab.id, point, '100').find((n) => n.center === center) : undefined;
      return { center, distance: near?.distance ?? Number.NaN };
    });
  }
  if (!point) throw new Invalid(['query', 'site_codes'], 'give site_codes, or a zip_code to offer the centers near it', 'value_error.missing');
  return centersNear(lab.id, point, query.radius);
}

/**
 * Walk-in slots of the next 7 days (from start_date, default today in the first center's zone) at
 * each center the query names: per center and day one DaySlots carrying the center as `location`,
 * its slots every 15 minutes within the center's opening hours, in its own zone. As for at-home
 * draws, slots already started and slots with no place left are not offered, and the booking key
 * names the slot (center and start) and expires after 15 minutes.
 */
export async function pscAvailability(db: Db, codec: BookingKeyCodec, teamId: string, query: PscAvailabilityQuery, now = new Date()): Promise<PscAvailability> {
  const centers = centersOf(query);
  const zones = [...new Set(centers.map((n) => n.center.zone))];
  const today = localDate(zones[0] ?? 'UTC', now);
  const first = query.start_date ?? today;
  if (first > addDays(today, MAX_DAYS_AHEAD)) {
    throw new Invalid(['query', 'start_date'], `start_date must be at most ${MAX_DAYS_AHEAD} days after today (${today})`, 'value_error.start_date');
  }
  const days = Array.from({ length: PSC_AVAILABILITY_DAYS }, (_, i) => addDays(first, i));
  const perCenter = centers.map((n) => days.map((date) => centerSlotsOn(n.center, date)));
  const booked = await bookedCounts(db, perCenter.flat(2));
  const slots: PscDaySlots[] = centers.flatMap((near, c) =>
    days.map((date, d) => ({
      location: locationOf(near),
      date,
      slots: perCenter[c]![d]!
        .filter((s) => s.start.getTime() > now.getTime())
        .map((s) => ({ s, left: s.capacity - (booked.get(`${s.provider}|${s.start.getTime()}`) ?? 0) }))
        .filter((x) => x.left > 0)
        .map(({ s, left }) => {
          const expiresAt = new Date(Math.min(now.getTime() + BOOKING_KEY_TTL_MS, s.start.getTime()));
          return {
            booking_key: codec.encode({ t: teamId, p: s.provider, s: s.start.toISOString(), e: s.end.toISOString(), a: near.center.siteCode, x: expiresAt.toISOString(), pr: 0, pp: false }),
            start: s.start.toISOString(),
            end: s.end.toISOString(),
            expires_at: expiresAt.toISOString(),
            price: 0,
            is_priority: false,
            num_appointments_available: left,
          };
        }),
    })),
  );
  return { ...(zones.length === 1 ? { timezone: zones[0] } : {}), slots };
}

function locationOf({ center, distance }: NearCenter) {
  return {
    location: { lng: center.lng, lat: center.lat },
    ...(Number.isFinite(distance) ? { distance } : {}),
    address: centerAddress(center),
    code: center.siteCode,
    name: center.name,
    iana_timezone: center.zone,
  };
}

export const centerAddress = (center: PscCenter) => ({ first_line: center.firstLine, city: center.city, state: center.state, zip_code: center.zipCode });
