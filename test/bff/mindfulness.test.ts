/**
 * The mindfulness chart data (`GET /api/users/:id/mindfulness-minutes`) against the real service,
 * with sessions inserted straight into the service's table: daily totals per provider on the
 * patient's local calendar day, every upstream cursor page followed, bad ranges refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UNKNOWN_UUID,
  startBff,
  startService,
  type BffFixture,
  type ErrorBody,
  type PointInput,
  type ServiceFixture,
  type Session,
} from './harness';

interface Chart {
  user_id: string;
  start_date: string;
  end_date: string;
  time_zone: string;
  providers: { slug: string; name: string }[];
  days: { date: string; total: number; by_provider: Record<string, number> }[];
  sessions: number;
  upstream_pages: number;
}

let service: ServiceFixture;
let bff: BffFixture;
let session: Session;
let chicago: string; // fallback zone America/Chicago; points near midnight
let noZone: string; // no fallback zone: UTC
let heavy: string; // more than two upstream pages
let foreign: string; // another team's user

const H = 3600;
/** The patient's calendar day of a session starting at `startMs` with a UTC offset in seconds. */
const dayAt = (startMs: number, offsetSeconds: number) => new Date(startMs + offsetSeconds * 1000).toISOString().slice(0, 10);

// 500 sessions: 450 with an offset (+02:00), 50 without (fallback Asia/Kolkata, +05:30).
const HEAVY_POINTS: PointInput[] = [
  ...Array.from({ length: 450 }, (_, i) => ({
    provider: 'oura',
    start: new Date(Date.parse('2026-03-01T00:00:00Z') + i * 3 * H * 1000).toISOString(),
    minutes: 1 + (i % 7) * 0.5,
    offset: 2 * H,
  })),
  ...Array.from({ length: 50 }, (_, i) => ({
    provider: 'garmin',
    start: new Date(Date.parse('2026-03-01T20:00:00Z') + i * 24 * H * 1000).toISOString(),
    minutes: 10,
    offset: null,
  })),
];

beforeAll(async () => {
  service = await startService();
  [chicago, noZone, heavy] = (await service.addUsers(service.team, [
    { clientUserId: 'pt-chicago', fallbackTimeZone: 'America/Chicago', sources: ['oura', 'fitbit'] },
    { clientUserId: 'pt-nozone', sources: ['manual'] },
    { clientUserId: 'pt-heavy', fallbackTimeZone: 'Asia/Kolkata', sources: ['oura', 'garmin'] },
  ])) as [string, string, string];
  [foreign] = (await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-foreign', fallbackTimeZone: 'UTC' }])) as [string];

  // May: Chicago is on CDT (UTC-05:00). Each comment gives the patient's local start.
  await service.addPoints(chicago, [
    { provider: 'oura', start: '2026-05-02T04:30:00Z', minutes: 12.5, offset: -5 * H }, // 05-01 23:30 (own offset)
    { provider: 'fitbit', start: '2026-05-02T04:30:00Z', minutes: 7.25 }, // 05-01 23:30 (fallback zone)
    { provider: 'calm', start: '2026-05-01T05:00:00Z', minutes: 3 }, // 05-01 00:00, first instant of the range
    { provider: 'fitbit', start: '2026-05-01T04:59:00Z', minutes: 99 }, // 04-30 23:59: before the range
    { provider: 'oura', start: '2026-05-02T15:30:00Z', minutes: 10, offset: 9 * H }, // 05-03 00:30 in Tokyo (travelling)
    { provider: 'fitbit', start: '2026-05-03T05:10:00Z', minutes: 5 }, // 05-03 00:10
    { provider: 'oura', start: '2026-05-04T23:30:00Z', minutes: 8, offset: H }, // 05-05 00:30 (+01:00), 05-04 in Chicago
    { provider: 'oura', start: '2026-05-06T09:00:00Z', minutes: 6, offset: -10 * H }, // 05-05 23:00 in Honolulu
    { provider: 'fitbit', start: '2026-05-08T04:59:59Z', minutes: 4.5 }, // 05-07 23:59:59, last second of the range
    { provider: 'fitbit', start: '2026-05-08T05:00:00Z', minutes: 99 }, // 05-08 00:00: after the range
    // January: Chicago is on CST (UTC-06:00).
    { provider: 'fitbit', start: '2026-01-15T05:30:00Z', minutes: 11 }, // 01-14 23:30 (01-15 00:30 on CDT)
    { provider: 'fitbit', start: '2026-01-15T06:30:00Z', minutes: 2 }, // 01-15 00:30
  ]);
  await service.addPoints(noZone, [
    { provider: 'manual', start: '2026-05-02T23:30:00Z', minutes: 15 }, // UTC: 05-02
    { provider: 'manual', start: '2026-05-03T00:30:00Z', minutes: 20 }, // UTC: 05-03
  ]);
  await service.addPoints(heavy, HEAVY_POINTS);
  await service.addPoints(foreign, [{ provider: 'oura', start: '2026-05-02T12:00:00Z', minutes: 30, offset: 0 }]);

  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  session = await bff.login('coordinator');
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

const chart = <T = Chart>(userId: string, start?: string, end?: string) => {
  const qs = new URLSearchParams();
  if (start !== undefined) qs.set('start_date', start);
  if (end !== undefined) qs.set('end_date', end);
  return bff.get<T>(`/api/users/${userId}/mindfulness-minutes?${qs}`, session);
};

describe('daily mindfulness minutes', () => {
  it('sums minutes per local day and provider, one zero-filled entry per day of the range', async () => {
    const r = await chart(chicago, '2026-05-01', '2026-05-07');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ user_id: chicago, start_date: '2026-05-01', end_date: '2026-05-07', time_zone: 'America/Chicago' });
    expect(r.body.days).toEqual([
      { date: '2026-05-01', total: 22.75, by_provider: { oura: 12.5, fitbit: 7.25, calm: 3 } },
      { date: '2026-05-02', total: 0, by_provider: {} },
      { date: '2026-05-03', total: 15, by_provider: { oura: 10, fitbit: 5 } },
      { date: '2026-05-04', total: 0, by_provider: {} },
      { date: '2026-05-05', total: 14, by_provider: { oura: 14 } },
      { date: '2026-05-06', total: 0, by_provider: {} },
      { date: '2026-05-07', total: 4.5, by_provider: { fitbit: 4.5 } },
    ]);
    expect(r.body.sessions).toBe(8);
    expect(r.body.upstream_pages).toBe(1);
    // Connected providers by name; a provider the user has not connected by its slug.
    expect(r.body.providers).toEqual([
      { slug: 'calm', name: 'calm' },
      { slug: 'fitbit', name: 'Fitbit' },
      { slug: 'oura', name: 'Oura' },
    ]);
  });

  it('uses the fallback zone’s offset of the day (standard time in winter)', async () => {
    const r = await chart(chicago, '2026-01-14', '2026-01-15');
    expect(r.status).toBe(200);
    expect(r.body.days).toEqual([
      { date: '2026-01-14', total: 11, by_provider: { fitbit: 11 } },
      { date: '2026-01-15', total: 2, by_provider: { fitbit: 2 } },
    ]);
  });

  it('counts on the UTC day for a user without a fallback zone and without offsets', async () => {
    const r = await chart(noZone, '2026-05-01', '2026-05-04');
    expect(r.status).toBe(200);
    expect(r.body.time_zone).toBe('UTC');
    expect(r.body.days.map((d) => [d.date, d.total])).toEqual([
      ['2026-05-01', 0],
      ['2026-05-02', 15],
      ['2026-05-03', 20],
      ['2026-05-04', 0],
    ]);
    expect(r.body.providers).toEqual([{ slug: 'manual', name: 'Manual entry' }]);
  });

  it('answers a range without sessions with zero days', async () => {
    const r = await chart(chicago, '2025-12-30', '2026-01-02');
    expect(r.status).toBe(200);
    expect(r.body.days).toEqual(['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02'].map((date) => ({ date, total: 0, by_provider: {} })));
    expect(r.body.sessions).toBe(0);
    expect(r.body.providers).toEqual([]);
  });

  it('follows every upstream cursor page: all of a heavy user’s sessions are counted', async () => {
    const r = await chart(heavy, '2026-03-01', '2026-04-30');
    expect(r.status).toBe(200);
    expect(r.body.upstream_pages).toBeGreaterThan(1);
    expect(r.body.upstream_pages).toBe(3); // 500 points, 200 per page
    expect(r.body.sessions).toBe(HEAVY_POINTS.length);
    expect(r.body.days).toHaveLength(61);

    const expected = new Map<string, Record<string, number>>();
    for (const p of HEAVY_POINTS) {
      const day = dayAt(Date.parse(p.start), p.offset ?? 5.5 * H);
      const d = expected.get(day) ?? {};
      d[p.provider] = (d[p.provider] ?? 0) + p.minutes;
      expected.set(day, d);
    }
    for (const day of r.body.days) {
      const want = expected.get(day.date) ?? {};
      expect(day.by_provider, day.date).toEqual(want);
      expect(day.total, day.date).toBeCloseTo(Object.values(want).reduce((a, b) => a + b, 0), 2);
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(r.body.days.map((d) => d.total))).toBeCloseTo(sum(HEAVY_POINTS.map((p) => p.minutes)), 2);
    expect(r.body.providers.map((p) => p.slug)).toEqual(['garmin', 'oura']);
  });

  it('accepts a range of exactly 366 days', async () => {
    const r = await chart(chicago, '2026-01-01', '2027-01-01');
    expect(r.status).toBe(200);
    expect(r.body.days).toHaveLength(366);
    expect(r.body.sessions).toBe(12); // every session of the user falls in 2026
  });
});

describe('bad requests', () => {
  it('refuses a start after the end with 422 and errors.end_date', async () => {
    const r = await chart<ErrorBody>(chicago, '2026-05-07', '2026-05-01');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ message: expect.any(String), errors: { end_date: expect.any(String) } });
  });

  it('refuses more than 366 days with 422 and errors.end_date', async () => {
    const r = await chart<ErrorBody>(chicago, '2026-01-01', '2027-01-02');
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(/366/);
    expect(r.body.errors?.end_date).toBeTruthy();
  });

  it.each([
    ['an impossible start date', '2026-02-30', '2026-03-05', 'start_date'],
    ['a start date in another format', '05/01/2026', '2026-05-07', 'start_date'],
    ['an end date that is not a date', '2026-05-01', 'tomorrow', 'end_date'],
    ['no end date', '2026-05-01', undefined, 'end_date'],
    ['no start date', undefined, '2026-05-07', 'start_date'],
  ])('refuses %s with 422 and the field in errors', async (_name, start, end, field) => {
    const r = await chart<ErrorBody>(chicago, start, end);
    expect(r.status).toBe(422);
    expect(r.body.message).toBeTruthy();
    expect(Object.keys(r.body.errors ?? {})).toContain(field);
  });

  it('answers another team’s user and an unknown user with 404 {message}', async () => {
    for (const id of [foreign, UNKNOWN_UUID]) {
      const r = await chart<ErrorBody>(id, '2026-05-01', '2026-05-07');
      expect(r.status, id).toBe(404);
      expect(r.body.message).toBeTruthy();
      expect(JSON.stringify(r.body)).not.toContain('30');
    }
  });
});
