import { describe, expect, it } from 'vitest';
import { addMonths, defaultRange, RANGE_PRESETS, rangeProblem, todayIn } from './dateRange';

describe('date ranges', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(defaultRange('2026-05-31')).toEqual({ start_date: '2026-05-02', end_date: '2026-05-31' });
  });

  it('offers 7 days, 30 days, 90 days and 6 months', () => {
    expect(RANGE_PRESETS.map((p) => [p.label, p.range('2026-05-31').start_date])).toEqual([
      ['7 days', '2026-05-25'],
      ['30 days', '2026-05-02'],
      ['90 days', '2026-03-03'],
      ['6 months', '2025-12-01'],
    ]);
  });

  it('clamps month arithmetic to the end of shorter months', () => {
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });

  it('explains what is wrong with a range', () => {
    expect(rangeProblem({ start_date: '2026-05-02', end_date: '2026-05-01' })).toMatch(/on or before/);
    expect(rangeProblem({ start_date: '2024-01-01', end_date: '2026-01-01' })).toMatch(/at most 366 days/);
    expect(rangeProblem({ start_date: '', end_date: '2026-01-01' })).toMatch(/both/);
    expect(rangeProblem({ start_date: '2026-05-01', end_date: '2026-05-01' })).toBeNull();
  });

  it("takes today in the patient's zone", () => {
    const now = new Date('2026-05-01T03:00:00Z'); // still 30 April in Chicago
    expect(todayIn('America/Chicago', now)).toBe('2026-04-30');
    expect(todayIn('Asia/Tokyo', now)).toBe('2026-05-01');
  });
});
