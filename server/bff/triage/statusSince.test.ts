import { describe, expect, it } from 'vitest';
import { currentStatusStart } from './statusSince';

const e = (id: number, at: string, status: string) => ({ id, created_at: at, status });

describe('currentStatusStart', () => {
  it('is the first event of the last run of the same status (a repeat is not a change)', () => {
    const events = [
      e(1, '2026-05-01T09:00:00Z', 'received.testkit.ordered'),
      e(2, '2026-05-02T09:00:00Z', 'collecting_sample.testkit.problem_in_transit_lab'),
      e(3, '2026-05-03T09:00:00Z', 'collecting_sample.testkit.problem_in_transit_lab'),
    ];
    expect(currentStatusStart(events)).toEqual({ eventId: 2, status: 'collecting_sample.testkit.problem_in_transit_lab', at: '2026-05-02T09:00:00Z' });
  });

  it('reads events in time order whatever order they come in, and a status that came back starts again', () => {
    const events = [e(4, '2026-05-04T09:00:00Z', 'failed.testkit.lost'), e(1, '2026-05-01T09:00:00Z', 'failed.testkit.lost'), e(2, '2026-05-02T09:00:00Z', 'collecting_sample.testkit.transit_customer')];
    expect(currentStatusStart(events)?.eventId).toBe(4);
    expect(currentStatusStart([])).toBeNull();
  });
});
