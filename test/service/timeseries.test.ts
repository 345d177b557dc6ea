import { beforeAll, describe, expect, it } from 'vitest';
import { expect422, expectDetail, flatten, groupedUrl, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const iso = (s: string) => new Date(s).toISOString();

describe.each(storeKinds)('grouped mindfulness minutes (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  const api = () => svc().api(team.apiKey);
  /** start instants of a grouped answer, as ISO strings, sorted. */
  const startsOf = async (userId: string, query: Record<string, string | undefined>) => {
    const r = await api().get(groupedUrl(userId, query));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.next_cursor).toBeNull();
    return flatten(r.body).map((p) => p.start);
  };

  // America/Chicago user: sessions without an offset use the fallback zone (CST = UTC-6 in January);
  // sessions with their own offset (+01:00 here) use it whatever the fallback zone says.
  let chicago: string;
  const chicagoNoOffset = {
    before: '2026-01-15T05:59:59.999Z', // 2026-01-14 23:59:59.999 local
    first: '2026-01-15T06:00:00.000Z', // 2026-01-15 00:00:00
    noon: '2026-01-15T18:00:00.000Z',
    lastSecond: '2026-01-16T05:59:59.000Z', // 23:59:59
    lastMilli: '2026-01-16T05:59:59.999Z', // 23:59:59.999
    nextDay: '2026-01-16T06:00:00.000Z', // 2026-01-16 00:00:00
  };
  const chicagoOwnOffset = {
    before: '2026-01-14T22:59:59.999Z', // 2026-01-14 23:59:59.999 at +01:00
    first: '2026-01-14T23:00:00.000Z', // 2026-01-15 00:00:00 at +01:00
    lastSecond: '2026-01-15T22:59:59.000Z',
    lastMilli: '2026-01-15T22:59:59.999Z',
    nextDay: '2026-01-15T23:00:00.000Z',
  };

  // A user without a fallback zone: sessions without an offset are read in UTC.
  let utcUser: string;
  const utcPoints = {
    before: '2026-01-14T23:59:59.999Z',
    first: '2026-01-15T00:00:00.000Z',
    lastSecond: '2026-01-15T23:59:59.000Z',
    lastMilli: '2026-01-15T23:59:59.999Z',
    nextDay: '2026-01-16T00:00:00.000Z',
  };

  beforeAll(async () => {
    team = await svc().createTeam('Timeseries team');
    chicago = await svc().createUser(team, { client_user_id: 'ts-chicago', fallback_time_zone: 'America/Chicago' });
    await svc().insertPoints(chicago, [
      ...Object.values(chicagoNoOffset).map((start) => ({ provider: 'fitbit', start, offset: null, sourceType: 'device' })),
      ...Object.values(chicagoOwnOffset).map((start) => ({ provider: 'oura', start, offset: 3600, sourceType: 'device' })),
    ]);
    utcUser = await svc().createUser(team, { client_user_id: 'ts-utc' });
    await svc().insertPoints(utcUser, Object.values(utcPoints).map((start) => ({ provider: 'manual', start, offset: null })));
  });

  describe('the time rule', () => {
    it('date bounds are local days: 00:00:00 through 23:59:59 (the whole second), by the fallback zone', async () => {
      const starts = await startsOf(chicago, { start_date: '2026-01-15', end_date: '2026-01-15' });
      const expected = [
        chicagoNoOffset.first,
        chicagoNoOffset.noon,
        chicagoNoOffset.lastSecond,
        chicagoNoOffset.lastMilli,
        chicagoOwnOffset.first,
        chicagoOwnOffset.lastSecond,
        chicagoOwnOffset.lastMilli,
      ].sort();
      expect(starts).toEqual(expected);
    });

    it('a session with its own timezone_offset is placed in its own local day, not the fallback zone’s', async () => {
      const r = await api().get(groupedUrl(chicago, { start_date: '2026-01-15', end_date: '2026-01-15', provider: 'oura' }));
      const oura = flatten(r.body);
      expect(oura.map((p) => p.start)).toEqual([chicagoOwnOffset.first, chicagoOwnOffset.lastSecond, chicagoOwnOffset.lastMilli]);
      expect(oura.every((p) => p.timezone_offset === 3600)).toBe(true);
      // Read in Chicago time, 2026-01-14T23:00Z would be the 14th; it is the 15th at +01:00.
      const day14 = await startsOf(chicago, { start_date: '2026-01-14', end_date: '2026-01-14', provider: 'oura' });
      expect(day14).toEqual([chicagoOwnOffset.before]);
    });

    it('without a fallback zone, sessions without an offset are read in UTC', async () => {
      expect(await startsOf(utcUser, { start_date: '2026-01-15', end_date: '2026-01-15' })).toEqual([utcPoints.first, utcPoints.lastSecond, utcPoints.lastMilli]);
      expect(await startsOf(utcUser, { start_date: '2026-01-16' })).toEqual([utcPoints.nextDay]);
      expect(await startsOf(utcUser, { start_date: '2026-01-01', end_date: '2026-01-14' })).toEqual([utcPoints.before]);
    });

    it('follows a changed fallback zone at once', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'ts-moving' });
      await svc().insertPoints(userId, Object.values(utcPoints).map((start) => ({ provider: 'manual', start, offset: null })));
      expect(await startsOf(userId, { start_date: '2026-01-15', end_date: '2026-01-15' })).toEqual([utcPoints.first, utcPoints.lastSecond, utcPoints.lastMilli]);
      // Asia/Tokyo (UTC+9): the 15th runs from 2026-01-14T15:00Z to 2026-01-15T14:59:59.999Z.
      expect((await api().patch(`/v2/user/${userId}`, { fallback_time_zone: 'Asia/Tokyo' })).status).toBe(204);
      expect(await startsOf(userId, { start_date: '2026-01-15', end_date: '2026-01-15' })).toEqual([utcPoints.before, utcPoints.first]);
      expect((await api().patch(`/v2/user/${userId}`, { fallback_time_zone: null })).status).toBe(204);
      expect(await startsOf(userId, { start_date: '2026-01-15', end_date: '2026-01-15' })).toEqual([utcPoints.first, utcPoints.lastSecond, utcPoints.lastMilli]);
    });

    it('a start date alone has no upper bound', async () => {
      const starts = await startsOf(chicago, { start_date: '2026-01-15' });
      expect(starts).toEqual(
        [
          chicagoNoOffset.first,
          chicagoNoOffset.noon,
          chicagoNoOffset.lastSecond,
          chicagoNoOffset.lastMilli,
          chicagoNoOffset.nextDay,
          chicagoOwnOffset.first,
          chicagoOwnOffset.lastSecond,
          chicagoOwnOffset.lastMilli,
          chicagoOwnOffset.nextDay,
        ].sort(),
      );
      expect(await startsOf(chicago, { start_date: '2026-01-17' })).toEqual([]);
    });

    it('date-times with Z or an offset are instants, inclusive at both ends', async () => {
      const all = [...Object.values(chicagoNoOffset), ...Object.values(chicagoOwnOffset)];
      const between = (a: string, b: string) => all.filter((s) => s >= iso(a) && s <= iso(b)).sort();
      const a = '2026-01-15T06:00:00Z';
      const b = '2026-01-15T22:59:59Z';
      const expected = between(a, b);
      expect(expected).toContain(chicagoNoOffset.first);
      expect(expected).toContain(chicagoOwnOffset.lastSecond);
      expect(expected).not.toContain(chicagoOwnOffset.lastMilli);
      expect(await startsOf(chicago, { start_date: a, end_date: b })).toEqual(expected);
      // The same instants written with offsets (URLSearchParams encodes '+').
      expect(await startsOf(chicago, { start_date: '2026-01-15T00:00:00-06:00', end_date: '2026-01-15T23:59:59+01:00' })).toEqual(expected);
      expect(await startsOf(chicago, { start_date: '2026-01-15T07:00:00.000+0100', end_date: '2026-01-15T22:59:59.000Z' })).toEqual(expected);
      // Millisecond precision at the edges.
      expect(await startsOf(chicago, { start_date: '2026-01-16T05:59:59.999Z', end_date: '2026-01-16T05:59:59.999Z' })).toEqual([chicagoNoOffset.lastMilli]);
    });

    it('date-times without an offset are wall-clock times', async () => {
      // Noon to 23:59:59 on the 15th, local: the Chicago noon session and the last second; the
      // +01:00 sessions at 23:59:59 local too.
      const starts = await startsOf(chicago, { start_date: '2026-01-15T12:00:00', end_date: '2026-01-15T23:59:59' });
      expect(starts).toEqual([chicagoNoOffset.noon, chicagoNoOffset.lastSecond, chicagoOwnOffset.lastSecond].sort());
      expect(await startsOf(chicago, { start_date: '2026-01-15 12:00', end_date: '2026-01-15T12:00' })).toEqual([chicagoNoOffset.noon]);
    });

    it('the DST days of America/Chicago are local days of 23 and 25 hours', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'ts-dst', fallback_time_zone: 'America/Chicago' });
      const spring = {
        before: '2026-03-08T05:59:59.000Z', // 2026-03-07 23:59:59 CST
        first: '2026-03-08T06:00:00.000Z', // 00:00 CST
        afterGap: '2026-03-08T08:30:00.000Z', // 03:30 CDT (02:00-03:00 does not exist)
        lastSecond: '2026-03-09T04:59:59.000Z', // 23:59:59 CDT
        lastMilli: '2026-03-09T04:59:59.999Z',
        nextDay: '2026-03-09T05:00:00.000Z', // 2026-03-09 00:00 CDT
      };
      const autumn = {
        before: '2026-11-01T04:59:59.000Z', // 2026-10-31 23:59:59 CDT
        first: '2026-11-01T05:00:00.000Z', // 00:00 CDT
        firstOneThirty: '2026-11-01T06:30:00.000Z', // 01:30 CDT
        secondOneThirty: '2026-11-01T07:30:00.000Z', // 01:30 CST (the repeated hour)
        lastSecond: '2026-11-02T05:59:59.000Z', // 23:59:59 CST
        nextDay: '2026-11-02T06:00:00.000Z', // 2026-11-02 00:00 CST
      };
      await svc().insertPoints(userId, [...Object.values(spring), ...Object.values(autumn)].map((start) => ({ provider: 'fitbit', start, offset: null })));

      expect(await startsOf(userId, { start_date: '2026-03-08', end_date: '2026-03-08' })).toEqual([spring.first, spring.afterGap, spring.lastSecond, spring.lastMilli]);
      expect(await startsOf(userId, { start_date: '2026-03-07', end_date: '2026-03-07' })).toEqual([spring.before]);
      expect(await startsOf(userId, { start_date: '2026-03-09', end_date: '2026-03-09' })).toEqual([spring.nextDay]);
      // A wall-clock bound inside the gap.
      expect(await startsOf(userId, { start_date: '2026-03-08T02:30:00', end_date: '2026-03-08T03:30:00' })).toEqual([spring.afterGap]);

      expect(await startsOf(userId, { start_date: '2026-11-01', end_date: '2026-11-01' })).toEqual([
        autumn.first,
        autumn.firstOneThirty,
        autumn.secondOneThirty,
        autumn.lastSecond,
      ]);
      expect(await startsOf(userId, { start_date: '2026-10-31', end_date: '2026-10-31' })).toEqual([autumn.before]);
      expect(await startsOf(userId, { start_date: '2026-11-02', end_date: '2026-11-02' })).toEqual([autumn.nextDay]);
      // Both 01:30s are within 01:00-01:59:59 wall-clock time.
      expect(await startsOf(userId, { start_date: '2026-11-01T01:00:00', end_date: '2026-11-01T01:59:59' })).toEqual([autumn.firstOneThirty, autumn.secondOneThirty]);
    });

    it('zones that are also abbreviations keep their summer time (CET in July is UTC+2)', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'ts-cet', fallback_time_zone: 'CET' });
      const lastOf15th = '2026-07-15T21:59:59.000Z'; // 23:59:59 CEST
      const earlyOn16th = '2026-07-15T22:30:00.000Z'; // 00:30 CEST on the 16th
      await svc().insertPoints(userId, [lastOf15th, earlyOn16th].map((start) => ({ provider: 'withings', start, offset: null })));
      expect(await startsOf(userId, { start_date: '2026-07-16', end_date: '2026-07-16' })).toEqual([earlyOn16th]);
      expect(await startsOf(userId, { start_date: '2026-07-15', end_date: '2026-07-15' })).toEqual([lastOf15th]);
    });

    it('every fallback zone the users API accepts works here', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'ts-zones' });
      await svc().insertPoints(userId, [{ provider: 'manual', start: '2026-06-15T12:00:00Z', offset: null }]);
      for (const zone of ['America/New_York', 'Etc/GMT+5', 'Etc/GMT-14', 'EST5EDT', 'EST', 'MST', 'HST', 'CET', 'EET', 'MET', 'WET', 'UTC', 'GMT', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Argentina/Buenos_Aires']) {
        expect((await api().patch(`/v2/user/${userId}`, { fallback_time_zone: zone })).status, zone).toBe(204);
        const r = await api().get(groupedUrl(userId, { start_date: '2026-06-14', end_date: '2026-06-16' }));
        expect(r.status, `${zone}: ${JSON.stringify(r.body)}`).toBe(200);
        expect(flatten(r.body)).toHaveLength(1);
      }
    });
  });

  describe('ingestion bounds', () => {
    it('never serves sessions outside ingestion_start..ingestion_end (local days), whatever the query', async () => {
      const userId = await svc().createUser(team, {
        client_user_id: 'ts-ingest',
        fallback_time_zone: 'America/Chicago',
        ingestion_start: '2026-02-10',
        ingestion_end: '2026-02-12',
      });
      const p = {
        beforeStart: '2026-02-10T05:59:59.999Z', // 2026-02-09 23:59:59.999 CST
        atStart: '2026-02-10T06:00:00.000Z', // 2026-02-10 00:00
        atEnd: '2026-02-13T05:59:59.999Z', // 2026-02-12 23:59:59.999
        afterEnd: '2026-02-13T06:00:00.000Z', // 2026-02-13 00:00
      };
      const withOffset = {
        inside: '2026-02-12T22:30:00.000Z', // 2026-02-12 23:30 at +01:00
        outside: '2026-02-12T23:30:00.000Z', // 2026-02-13 00:30 at +01:00
      };
      await svc().insertPoints(userId, [
        ...Object.values(p).map((start) => ({ provider: 'fitbit', start, offset: null })),
        ...Object.values(withOffset).map((start) => ({ provider: 'oura', start, offset: 3600 })),
      ]);
      const inside = [p.atStart, p.atEnd, withOffset.inside].sort();
      expect(await startsOf(userId, { start_date: '2026-01-01' })).toEqual(inside);
      expect(await startsOf(userId, { start_date: '2026-01-01', end_date: '2026-12-31' })).toEqual(inside);
      expect(await startsOf(userId, { start_date: '2026-02-01T00:00:00Z', end_date: '2026-03-01T00:00:00Z' })).toEqual(inside);
      expect(await startsOf(userId, { start_date: '2026-02-13' })).toEqual([]);
      expect(await startsOf(userId, { start_date: '2026-02-09', end_date: '2026-02-09' })).toEqual([]);

      expect((await api().patch(`/v2/user/${userId}`, { ingestion_end: null })).status).toBe(204);
      expect(await startsOf(userId, { start_date: '2026-01-01' })).toEqual([...inside, p.afterEnd, withOffset.outside].sort());
      expect((await api().patch(`/v2/user/${userId}`, { ingestion_start: null })).status).toBe(204);
      expect(await startsOf(userId, { start_date: '2026-01-01' })).toEqual([...Object.values(p), ...Object.values(withOffset)].sort());
    });
  });

  describe('answer shape and filters', () => {
    it('groups by provider slug; each entry names its source; points carry start, end, unit, value, timestamp, timezone_offset', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'ts-shape', fallback_time_zone: 'Europe/Paris' });
      await svc().insertPoints(userId, [
        { provider: 'apple_health_kit', start: '2026-04-01T06:00:00Z', minutes: 12.5, offset: 7200, sourceType: 'app' },
        { provider: 'apple_health_kit', start: '2026-04-01T20:00:00Z', minutes: 5, offset: 7200, sourceType: 'device' },
        { provider: 'oura', start: '2026-04-02T05:30:00Z', minutes: 20, offset: -18000, sourceType: 'device' },
        { provider: 'fitbit', start: '2026-04-02T07:00:00Z', minutes: 3, offset: null, sourceType: 'device' },
      ]);
      const r = await api().get(groupedUrl(userId, { start_date: '2026-04-01', end_date: '2026-04-02' }));
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['groups', 'next', 'next_cursor']);
      expect(r.body.next_cursor).toBeNull();
      expect(r.body.next).toBeNull();
      expect(Object.keys(r.body.groups).sort()).toEqual(['apple_health_kit', 'fitbit', 'oura']);
      for (const [slug, entries] of Object.entries(r.body.groups as Record<string, { source: { provider: string; type?: string }; data: Record<string, unknown>[] }[]>)) {
        for (const entry of entries) {
          expect(entry.source.provider).toBe(slug);
          for (const point of entry.data) {
            for (const key of ['start', 'end', 'unit', 'value', 'timestamp', 'timezone_offset']) expect(point).toHaveProperty(key);
            expect(point.start).toMatch(ISO_UTC);
            expect(point.end).toMatch(ISO_UTC);
            expect(point.timestamp).toBe(point.start);
            expect(typeof point.unit).toBe('string');
            expect((point.unit as string).length).toBeGreaterThan(0);
            expect(Date.parse(point.end as string) - Date.parse(point.start as string)).toBe((point.value as number) * 60_000);
          }
        }
      }
      // One entry per source type of a provider.
      const apple = r.body.groups.apple_health_kit;
      expect(apple.map((e: { source: { type: string } }) => e.source.type).sort()).toEqual(['app', 'device']);
      const app = apple.find((e: { source: { type: string } }) => e.source.type === 'app');
      expect(app.data).toEqual([
        expect.objectContaining({ start: '2026-04-01T06:00:00.000Z', end: '2026-04-01T06:12:30.000Z', timestamp: '2026-04-01T06:00:00.000Z', value: 12.5, timezone_offset: 7200 }),
      ]);
      expect(r.body.groups.oura[0].data[0].timezone_offset).toBe(-18000);
      expect(r.body.groups.fitbit[0].data[0].timezone_offset).toBeNull();
    });

    it('filters by provider slug; an unknown slug answers empty groups', async () => {
      const only = await api().get(groupedUrl(chicago, { start_date: '2026-01-01', provider: 'fitbit' }));
      expect(Object.keys(only.body.groups)).toEqual(['fitbit']);
      expect(flatten(only.body)).toHaveLength(Object.values(chicagoNoOffset).length);
      const none = await api().get(groupedUrl(chicago, { start_date: '2026-01-01', provider: 'garmin' }));
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ groups: {}, next_cursor: null, next: null });
      const empty = await api().get(groupedUrl(chicago, { start_date: '2026-01-01', provider: '' }));
      expect(flatten(empty.body)).toHaveLength(Object.values(chicagoNoOffset).length + Object.values(chicagoOwnOffset).length);
    });

    it('answers an empty result for a user without data', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'ts-empty' });
      const r = await api().get(groupedUrl(userId, { start_date: '2020-01-01' }));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ groups: {}, next_cursor: null, next: null });
    });
  });

  describe('validation', () => {
    it('requires start_date (422 query.start_date, type missing)', async () => {
      const detail = expect422(await api().get(`/v2/timeseries/${chicago}/mindfulness_minutes/grouped`), ['query', 'start_date']);
      expect(detail.find((d) => d.loc[1] === 'start_date')!.type).toBe('missing');
      expect422(await api().get(groupedUrl(chicago, { end_date: '2026-01-15' })), ['query', 'start_date']);
    });

    it('refuses an end before the start (422 query.end_date); the same day is fine', async () => {
      expect422(await api().get(groupedUrl(chicago, { start_date: '2026-01-15', end_date: '2026-01-14' })), ['query', 'end_date']);
      expect422(await api().get(groupedUrl(chicago, { start_date: '2026-01-15T10:00:00Z', end_date: '2026-01-15T09:59:59.999Z' })), ['query', 'end_date']);
      expect422(await api().get(groupedUrl(chicago, { start_date: '2026-01-15T10:00:00', end_date: '2026-01-15T09:00:00' })), ['query', 'end_date']);
      expect((await api().get(groupedUrl(chicago, { start_date: '2026-01-15T10:00:00Z', end_date: '2026-01-15T10:00:00Z' }))).status).toBe(200);
    });

    it('refuses dates and date-times that do not exist or are not ISO', async () => {
      const bad = [
        '2023-02-30',
        '2026-02-29',
        '2026-13-01',
        '2026-00-10',
        '0000-01-01',
        '2026-02-29T10:00:00',
        '2026-02-30T10:00:00Z',
        '2026-04-31T00:00:00+02:00',
        '2026-01-15T25:00:00',
        '2026-01-15T24:30:00Z',
        '2026-01-15T10:60:00',
        '0001-01-01T00:00:00+14:00',
        '2026-01-15T10:00:00 01:00',
        'yesterday',
        '2026/01/15',
        '15-01-2026',
        '20260115',
        '2026-01-15T',
        '',
        ' ',
      ];
      for (const value of bad) {
        expect422(await api().get(groupedUrl(chicago, { start_date: value })), ['query', 'start_date']);
        expect422(await api().get(groupedUrl(chicago, { start_date: '2026-01-01', end_date: value })), ['query', 'end_date']);
      }
    });

    it('answers 422 for a malformed user id, 404 for an unknown one', async () => {
      expect422(await api().get(groupedUrl('not-a-uuid', { start_date: '2026-01-01' })), ['path', 'user_id']);
      expectDetail(await api().get(groupedUrl(UNKNOWN_UUID, { start_date: '2026-01-01' })), 404);
    });
  });
});
