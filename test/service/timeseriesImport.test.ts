import { beforeAll, describe, expect, it } from 'vitest';
import { TIMESERIES_IMPORT_MAX_POINTS } from '../../server/contract';
import { expect422, expectDetail, flatten, groupedUrl, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';

const URL_ = '/v2/timeseries/mindfulness_minutes/import';

/** `n` sessions of a user, one a day from 2026-03-01, 10 minutes each, alternating two providers. */
function sessions(userId: string, n: number, from = 0) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const start = new Date(Date.UTC(2026, 2, 1, 7, 30) + i * 86_400_000);
    return {
      user_id: userId,
      provider: i % 2 ? 'oura' : 'garmin',
      source_type: 'device',
      start: start.toISOString(),
      end: new Date(start.getTime() + 10 * 60_000).toISOString(),
      value: 10,
      timezone_offset: i % 3 ? 3600 : null,
    };
  });
}

describe.each(storeKinds)('bulk import of mindfulness minutes (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  let userA: string;
  let userB: string;
  let foreignUser: string;
  const api = () => svc().api(team.apiKey);

  /** Every point of a user, through the existing grouped endpoint (all pages). */
  async function readBack(userId: string) {
    const points = [];
    let cursor: string | null = null;
    do {
      const r = await api().get(groupedUrl(userId, { start_date: '2020-01-01', next_cursor: cursor ?? undefined }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      points.push(...flatten(r.body));
      cursor = r.body.next_cursor;
    } while (cursor);
    return points;
  }

  beforeAll(async () => {
    team = await svc().createTeam('Import team');
    other = await svc().createTeam('Other team');
    userA = await svc().createUser(team, { client_user_id: 'import-a' });
    userB = await svc().createUser(team, { client_user_id: 'import-b' });
    foreignUser = await svc().createUser(other, { client_user_id: 'import-foreign' });
  });

  it('stores the points of several users in one request; the grouped endpoint serves them', async () => {
    const body = { points: [...sessions(userA, 250), ...sessions(userB, 3)] };
    const r = await api().post(URL_, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ received: 253, imported: 253, skipped: 0 });
    const a = await readBack(userA); // 250 points: two pages
    expect(a).toHaveLength(250);
    const first = a.find((p) => p.start === sessions(userA, 1)[0]!.start)!;
    expect(first).toMatchObject({ provider: 'garmin', sourceType: 'device', value: 10, unit: 'min', timezone_offset: null, end: '2026-03-01T07:40:00.000Z' });
    expect(a.find((p) => p.start === sessions(userA, 1, 1)[0]!.start)).toMatchObject({ provider: 'oura', timezone_offset: 3600 });
    expect(await readBack(userB)).toHaveLength(3);
  });

  it('is idempotent: importing the same points again stores nothing more; repeats within a request count once', async () => {
    const again = await api().post(URL_, { points: sessions(userA, 250) });
    expect(again.body).toEqual({ received: 250, imported: 0, skipped: 250 });
    const mixed = [...sessions(userA, 2, 249), ...sessions(userA, 1, 250)]; // one stored, one new, the new one twice
    const r = await api().post(URL_, { points: mixed });
    expect(r.body).toEqual({ received: 3, imported: 1, skipped: 2 });
    expect(await readBack(userA)).toHaveLength(251);
  });

  it('answers a bad row with 422 naming it, and stores nothing of the request', async () => {
    const points = sessions(userB, 5, 100);
    const bad = structuredClone(points);
    bad[3]!.end = bad[3]!.start; // not after start
    expect422(await api().post(URL_, { points: bad }), ['body', 'points', 3, 'end']);
    const cases: [Record<string, unknown>, string][] = [
      [{ start: '2026-03-01 07:30' }, 'start'], // no offset
      [{ value: -1 }, 'value'],
      [{ value: 'ten' }, 'value'],
      [{ provider: 'Not A Slug' }, 'provider'],
      [{ user_id: 'not-a-uuid' }, 'user_id'],
      [{ timezone_offset: 1.5 }, 'timezone_offset'],
    ];
    for (const [change, field] of cases) {
      const body = structuredClone(points);
      Object.assign(body[2]!, change);
      expect422(await api().post(URL_, { points: body }), ['body', 'points', 2, field]);
    }
    const unknownField = structuredClone(points) as Record<string, unknown>[];
    unknownField[1]!.colour = 'blue';
    expect422(await api().post(URL_, { points: unknownField }));
    expect422(await api().post(URL_, { points: [] }));
    expect422(await api().post(URL_, {}));
    expect(await readBack(userB)).toHaveLength(3); // none of the five
  });

  it('answers another team’s user, or an unknown one, with 404 naming the row, and stores nothing', async () => {
    for (const stranger of [foreignUser, UNKNOWN_UUID]) {
      const points = [...sessions(userB, 2, 200), ...sessions(stranger, 1, 200)];
      const r = await api().post(URL_, { points });
      expectDetail(r, 404);
      expect(r.body.detail).toContain('points[2]');
    }
    expect(await readBack(userB)).toHaveLength(3);
    // The other team sees nothing of ours either, and its key cannot import into our users.
    expectDetail(await svc().api(other.apiKey).post(URL_, { points: sessions(userA, 1, 300) }), 404);
  });

  it('bounds a request: at most the documented number of points; no key, no import', async () => {
    const tooMany = { points: sessions(userB, TIMESERIES_IMPORT_MAX_POINTS + 1, 1000) };
    expect422(await api().post(URL_, tooMany), ['body', 'points']);
    const atLimit = await api().post(URL_, { points: sessions(userB, TIMESERIES_IMPORT_MAX_POINTS, 1000) });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
    expect(atLimit.body.imported).toBe(TIMESERIES_IMPORT_MAX_POINTS);
    const huge = await svc().inject({ method: 'POST', url: URL_, key: team.apiKey, headers: { 'content-type': 'application/json' }, payload: `{"points":[${'"x",'.repeat(1_200_000)}"x"]}` });
    expect(huge.status).toBe(413);
    expect((await svc().inject({ method: 'POST', url: URL_, payload: { points: sessions(userB, 1) } })).status).toBe(401);
  });

  it('takes JSON Lines too (application/x-ndjson), with the same checks', async () => {
    const lines = sessions(userB, 4, 500).map((p) => JSON.stringify(p));
    const post = (payload: string) => svc().inject({ method: 'POST', url: URL_, key: team.apiKey, headers: { 'content-type': 'application/x-ndjson' }, payload });
    const r = await post(`${lines.join('\n')}\n`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ received: 4, imported: 4, skipped: 0 });
    expect422(await post(`${lines[0]}\n{not json\n`), ['body', 'points', 1]);
    const bad = sessions(userB, 2, 600);
    bad[1]!.value = -3;
    expect422(await post(bad.map((p) => JSON.stringify(p)).join('\n')), ['body', 'points', 1, 'value']);
    expect(await readBack(userB)).toHaveLength(3 + TIMESERIES_IMPORT_MAX_POINTS + 4);
  });

  it('is documented in the OpenAPI document with its schemas', async () => {
    const r = await svc().inject({ method: 'GET', url: '/openapi.json' });
    const op = r.body.paths[URL_]?.post;
    expect(op?.operationId).toBe('importMindfulnessMinutes');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
  });
});
