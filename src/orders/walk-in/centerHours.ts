/**
 * A center's opening hours read in its own zone: what "today" is there, its hours today, whether it
 * is open now. Hours are wall-clock "HH:MM" in the center's zone (the BFF's WalkInCenter).
 */
import type { WalkInCenter } from '../../../server/bff/api';

/** The weekday (sunday..saturday) and wall-clock HH:MM of an instant in a zone. */
export function wallClock(at: Date, timeZone: string): { weekday: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: get('weekday').toLowerCase(), time: `${get('hour')}:${get('minute')}` };
}

const zoneOf = (center: WalkInCenter) => center.iana_timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "07:00–17:00" for today at the center, or "Closed today". */
export function todaysHours(center: WalkInCenter, now: Date = new Date()): string {
  const hours = center.hours[wallClock(now, zoneOf(center)).weekday];
  return hours ? `${hours.open}–${hours.close}` : 'Closed today';
}

export function isOpenNow(center: WalkInCenter, now: Date = new Date()): boolean {
  const { weekday, time } = wallClock(now, zoneOf(center));
  const hours = center.hours[weekday];
  return !!hours && time >= hours.open && time < hours.close;
}
