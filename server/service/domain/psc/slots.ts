import { localDate, wallTimeToInstant } from '../../../lib/timezones';
import type { SlotTemplate } from '../../providers';
import { WEEKDAYS, type PscCenter } from './catalogue';

/** A walk-in visit's length: one draw station for 15 minutes. */
export const PSC_SLOT_MINUTES = 15;

/**
 * The key under which a center's slot places are counted in appointment_slots (the table the
 * at-home draws use, keyed by provider and start): one namespace per center, so the same capacity
 * rule (a conditional increment below capacity) holds for walk-in visits.
 */
export const pscSlotOwner = (siteCode: string) => `psc:${siteCode}`;
export const siteOfSlotOwner = (owner: string) => (owner.startsWith('psc:') ? owner.slice(4) : undefined);

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The weekday of a YYYY-MM-DD date. */
export const weekdayOf = (date: string) => WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;

/** The center's slots on a calendar date of its own zone: every 15 minutes within its opening hours. */
export function centerSlotsOn(center: PscCenter, date: string): SlotTemplate[] {
  const hours = center.hours[weekdayOf(date)];
  if (!hours) return [];
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const out: SlotTemplate[] = [];
  for (let m = minutesOf(hours.open); m + PSC_SLOT_MINUTES <= minutesOf(hours.close); m += PSC_SLOT_MINUTES) {
    out.push({
      provider: pscSlotOwner(center.siteCode),
      start: wallTimeToInstant(center.zone, midnight + m * 60_000),
      end: wallTimeToInstant(center.zone, midnight + (m + PSC_SLOT_MINUTES) * 60_000),
      price: 0,
      isPriority: false,
      capacity: center.stations,
    });
  }
  return out;
}

/** The slot of the center starting at `start`, if it offers one. */
export function centerSlotAt(center: PscCenter, start: Date): SlotTemplate | undefined {
  return centerSlotsOn(center, localDate(center.zone, start)).find((s) => s.start.getTime() === start.getTime());
}
