import { describe, expect, it } from 'vitest';
import type { AppointmentRecord, Slot } from '../../appointments/types';
import { formatInZone, TIME, zoneAbbreviations } from '../../components/zonedTime';
import { asyncTimeoutOf, canBookAnother, pollInterval, waitingSince } from './appointmentState';
import { toBookBody } from './bookingBody';
import { findSameSlot, isExpired, nextExpiry, sameSlot } from './slots';
import { providersOf, slotDescription, visibleSlots } from '../../components/SlotPicker';

const slot = (over: Partial<Slot> = {}): Slot => ({
  booking_key: 'k1',
  start: '2026-10-26T15:00:00.000Z',
  end: '2026-10-26T15:30:00.000Z',
  expires_at: '2026-10-26T10:00:00.000Z',
  price: 35,
  is_priority: false,
  num_appointments_available: 3,
  ...over,
});

describe('slots across answers', () => {
  it('finds the same offer under its new key, and not a different one at the same time', () => {
    const days = [{ date: '2026-10-26', slots: [slot({ booking_key: 'k2', price: 45, is_priority: true }), slot({ booking_key: 'k3' })] }];
    expect(findSameSlot(days, slot())?.booking_key).toBe('k3');
    expect(findSameSlot([{ date: '2026-10-26', slots: [slot({ booking_key: 'k4', start: '2026-10-26T16:00:00.000Z' })] }], slot())).toBeNull();
  });

  it('requires the same provider when both slots name one, and ignores it when either does not', () => {
    expect(sameSlot(slot({ provider: 'provider_1' }), slot({ booking_key: 'k2', provider: 'provider_1' }))).toBe(true);
    expect(sameSlot(slot({ provider: 'provider_1' }), slot({ booking_key: 'k2', provider: 'provider_3' }))).toBe(false);
    expect(sameSlot(slot({ provider: 'provider_1' }), slot({ booking_key: 'k2' }))).toBe(true);
    expect(sameSlot(slot(), slot({ booking_key: 'k2', provider: 'provider_3' }))).toBe(true);
    const days = [{ date: '2026-10-26', slots: [slot({ booking_key: 'k2', provider: 'provider_1' }), slot({ booking_key: 'k3', provider: 'provider_3' })] }];
    expect(findSameSlot(days, slot({ provider: 'provider_3' }))?.booking_key).toBe('k3');
    expect(findSameSlot([{ date: '2026-10-26', slots: [days[0]!.slots[0]!] }], slot({ provider: 'provider_3' }))).toBeNull();
  });

  it('knows expired keys, and the next expiry still ahead', () => {
    const now = Date.parse('2026-10-26T10:00:00.000Z');
    expect(isExpired(slot(), now)).toBe(true);
    expect(isExpired(slot({ expires_at: '2026-10-26T10:00:01.000Z' }), now)).toBe(false);
    const days = [{ date: 'd', slots: [slot(), slot({ expires_at: '2026-10-26T10:05:00.000Z' }), slot({ expires_at: '2026-10-26T10:01:00.000Z' })] }];
    expect(nextExpiry(days, now)).toBe(Date.parse('2026-10-26T10:01:00.000Z'));
  });
});

describe('the calendar’s slots', () => {
  const at = (i: number) => new Date(Date.parse('2026-10-26T15:00:00.000Z') + i * 30 * 60_000).toISOString();
  const many = Array.from({ length: 9 }, (_, i) => slot({ booking_key: `k${i}`, start: at(i), end: at(i + 1), provider: i % 3 === 0 ? 'provider_2' : 'provider_1' }));

  it('names the provider last in a chip’s accessible name, when the slot names it', () => {
    expect(slotDescription(slot(), 'America/Los_Angeles')).toMatch(/^8:00\sAM PDT, \$35, 3 places left$/);
    expect(slotDescription(slot({ provider: 'provider_2', is_priority: true }), 'America/Los_Angeles')).toMatch(/^8:00\sAM PDT, \$35, priority, 3 places left, Provider 2$/);
    expect(slotDescription(slot({ provider: 'acme_draws' }), 'America/Los_Angeles')).toMatch(/, acme_draws$/);
  });

  it('lists the providers present, unnamed ones last, none when no slot names one', () => {
    expect(providersOf([{ date: 'd', slots: many }])).toEqual(['provider_1', 'provider_2']);
    expect(providersOf([{ date: 'd', slots: [...many, slot()] }])).toEqual(['provider_1', 'provider_2', '']);
    expect(providersOf([{ date: 'd', slots: [slot()] }])).toEqual([]);
  });

  it('shows the earliest 6, the chosen one always, and the chosen providers only', () => {
    const reversed = [...many].reverse();
    const { shown, hidden } = visibleSlots(reversed);
    expect(shown.map((s) => s.booking_key)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    expect(hidden).toBe(3);
    expect(visibleSlots(many, { expanded: true }).shown).toHaveLength(9);
    const chosen = visibleSlots(many, { selectedKey: 'k8' });
    expect(chosen.shown.map((s) => s.booking_key)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k8']);
    expect(chosen.hidden).toBe(2);
    expect(visibleSlots(many, { providers: new Set(['provider_2']) }).shown.map((s) => s.booking_key)).toEqual(['k0', 'k3', 'k6']);
    expect(visibleSlots(many, { providers: new Set(['provider_2']), selectedKey: 'k7' }).shown.map((s) => s.booking_key)).toEqual(['k0', 'k3', 'k6', 'k7']);
    expect(visibleSlots([slot()], { providers: new Set(['']) }).shown).toHaveLength(1);
  });
});

describe('booking body', () => {
  it('sends the async windows in milliseconds, within the documented ranges', () => {
    expect(toBookBody(slot(), { appointment_notes: '  ', async_confirmation: false })).toEqual({ booking_key: 'k1' });
    expect(toBookBody(slot(), { appointment_notes: 'Ring', async_confirmation: true, sync_seconds: 2.5, async_minutes: 15 })).toEqual({
      booking_key: 'k1',
      appointment_notes: 'Ring',
      async_confirmation: true,
      sync_confirmation_timeout_millisecond: 2500,
      async_confirmation_timeout_millisecond: 900_000,
    });
    const clamped = toBookBody(slot(), { async_confirmation: true, sync_seconds: 60, async_minutes: 100_000 });
    expect(clamped.sync_confirmation_timeout_millisecond).toBe(10_000);
    expect(clamped.async_confirmation_timeout_millisecond).toBe(172_800_000);
  });
});

describe('appointment state', () => {
  const appointment = (over: Partial<AppointmentRecord>) => ({ status: 'pending', start_at: '2026-10-26T15:00:00.000Z', events: [], event_data: {}, ...over }) as AppointmentRecord;

  it('polls a booking every 2 s, a request every 30 s, and nothing once answered', () => {
    expect(pollInterval(appointment({}))).toBe(2000);
    expect(pollInterval(appointment({ start_at: null, event_data: { requested: true } }))).toBe(30_000);
    expect(pollInterval(appointment({ status: 'confirmed' }))).toBe(false);
    expect(pollInterval(appointment({ status: 'something_new' }))).toBe(false);
  });

  it('reads the wait from the first event and the async timeout', () => {
    const a = appointment({
      event_data: { async_confirmation_timeout_millisecond: 60_000 },
      events: [
        { created_at: '2026-10-26T10:00:05.000Z', status: 'pending', data: {} },
        { created_at: '2026-10-26T10:00:00.000Z', status: 'pending', data: {} },
      ],
    });
    expect(asyncTimeoutOf(a)).toBe(60_000);
    expect(waitingSince(a)).toBe('2026-10-26T10:00:00.000Z');
    expect(asyncTimeoutOf(appointment({}))).toBeNull();
  });

  it('books another only when there is none or it was cancelled (never for an unknown status)', () => {
    expect(canBookAnother(null)).toBe(true);
    expect(canBookAnother(appointment({ status: 'cancelled' }))).toBe(true);
    expect(canBookAnother(appointment({ status: 'confirmed' }))).toBe(false);
    expect(canBookAnother(appointment({ status: 'no_show' }))).toBe(false);
  });
});

describe('zoned times', () => {
  it('formats in the named zone, across the end of daylight saving', () => {
    expect(formatInZone('2026-10-31T15:00:00Z', 'America/Los_Angeles', TIME)).toMatch(/^8:00\sAM$/);
    expect(formatInZone('2026-11-02T15:00:00Z', 'America/Los_Angeles', TIME)).toMatch(/^7:00\sAM$/);
    expect(zoneAbbreviations('America/Los_Angeles', [new Date('2026-10-31T15:00:00Z'), new Date('2026-11-02T15:00:00Z')])).toBe('PDT/PST');
    expect(formatInZone('2026-11-02T15:00:00Z', 'Not/AZone', TIME)).toBe('2026-11-02T15:00:00Z');
  });
});
