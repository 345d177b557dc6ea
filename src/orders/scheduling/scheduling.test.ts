import { describe, expect, it } from 'vitest';
import type { AppointmentRecord, Slot } from '../../appointments/types';
import { formatInZone, TIME, zoneAbbreviations } from '../../components/zonedTime';
import { asyncTimeoutOf, canBookAnother, pollInterval, waitingSince } from './appointmentState';
import { toBookBody } from './bookingBody';
import { findSameSlot, isExpired, nextExpiry } from './slots';

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

  it('knows expired keys, and the next expiry still ahead', () => {
    const now = Date.parse('2026-10-26T10:00:00.000Z');
    expect(isExpired(slot(), now)).toBe(true);
    expect(isExpired(slot({ expires_at: '2026-10-26T10:00:01.000Z' }), now)).toBe(false);
    const days = [{ date: 'd', slots: [slot(), slot({ expires_at: '2026-10-26T10:05:00.000Z' }), slot({ expires_at: '2026-10-26T10:01:00.000Z' })] }];
    expect(nextExpiry(days, now)).toBe(Date.parse('2026-10-26T10:01:00.000Z'));
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
