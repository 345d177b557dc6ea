/**
 * Slot bookkeeping for the calendar. Each availability answer carries fresh booking keys, so a slot
 * is recognised across answers by what it offers, not by its key.
 */
import type { Slot, SlotDay } from '../../appointments/types';
import { slotProvider } from '../../components/SlotPicker';

/**
 * Same start, end, price, priority, and the same provider when both name one: the same offer,
 * whatever its key. The provider is an extension of our service (another deployment's slots may
 * not name it): a slot that does not say cannot be told apart by it, so only the rest counts then.
 */
export function sameSlot(a: Slot, b: Slot): boolean {
  const pa = slotProvider(a);
  const pb = slotProvider(b);
  return (
    Date.parse(a.start) === Date.parse(b.start) &&
    Date.parse(a.end) === Date.parse(b.end) &&
    a.price === b.price &&
    a.is_priority === b.is_priority &&
    (pa === undefined || pb === undefined || pa === pb)
  );
}

/** The offer in `days` that is the same as `slot`, with its new booking key; null when it is gone. */
export function findSameSlot(days: SlotDay[] | undefined, slot: Slot): Slot | null {
  for (const day of days ?? []) {
    const found = day.slots.find((s) => sameSlot(s, slot));
    if (found) return found;
  }
  return null;
}

/** Whether the booking key of the slot can no longer be used (no expiry given: it can). */
export function isExpired(slot: Slot, now: number = Date.now()): boolean {
  const at = slot.expires_at ? Date.parse(slot.expires_at) : Number.NaN;
  return Number.isFinite(at) && at <= now;
}

/**
 * When the first slot still valid at `now` expires (ms since epoch), or null. Slots that arrived
 * already expired are skipped: refreshing for them would loop if the clocks disagree; they are
 * caught when someone tries to book them.
 */
export function nextExpiry(days: SlotDay[] | undefined, now: number = Date.now()): number | null {
  let next: number | null = null;
  for (const day of days ?? []) {
    for (const slot of day.slots) {
      const at = slot.expires_at ? Date.parse(slot.expires_at) : Number.NaN;
      if (Number.isFinite(at) && at > now && (next === null || at < next)) next = at;
    }
  }
  return next;
}
