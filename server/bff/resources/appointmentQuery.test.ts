/**
 * The appointments list opens on what is coming: the `upcoming` sort puts visits to come first
 * (soonest first), then requested ones without a time, then past visits (latest first); the
 * `past` filter keeps past visits only, or only those to come.
 */
import { describe, expect, it } from 'vitest';
import type { AppointmentRecord } from '../api';
import type { DirectoryEntry } from './appointmentDirectory';
import { planAppointmentsList } from './appointmentQuery';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const entry = (id: string, startAt: string | null): DirectoryEntry => ({
  record: { id, start_at: startAt, status: 'confirmed', provider: 'provider_1', user_id: 'u' } as unknown as AppointmentRecord,
  orderCreatedAt: '2026-01-01T00:00:00Z',
});
const ENTRIES = [
  entry('last-year', '2025-06-01T09:00:00Z'),
  entry('yesterday', '2026-06-14T09:00:00Z'),
  entry('requested', null),
  entry('next-week', '2026-06-22T09:00:00Z'),
  entry('tomorrow', '2026-06-16T09:00:00Z'),
];

const listed = (sort: { field: string; order: 'ASC' | 'DESC' }, filter: { past?: boolean } = {}) => {
  const plan = planAppointmentsList({ range: [0, 24], sort, filter, sortGiven: true }, NOW);
  return ENTRIES.filter(plan.matches).sort(plan.compare).map((e) => e.record.id);
};

describe('the appointments list from now', () => {
  it('lists what is coming first, soonest first, then requested visits, then past ones latest first', () => {
    expect(listed({ field: 'upcoming', order: 'ASC' })).toEqual(['tomorrow', 'next-week', 'requested', 'yesterday', 'last-year']);
    // The plain start sort stays what it says: oldest first.
    expect(listed({ field: 'start_at', order: 'ASC' })).toEqual(['last-year', 'yesterday', 'tomorrow', 'next-week', 'requested']);
  });

  it('filters past visits, or those to come', () => {
    expect(listed({ field: 'start_at', order: 'DESC' }, { past: true })).toEqual(['yesterday', 'last-year']);
    expect(listed({ field: 'upcoming', order: 'ASC' }, { past: false })).toEqual(['tomorrow', 'next-week', 'requested']);
  });
});
