/**
 * The `users` resource against the real service: react-admin's list, search, getMany and getOne
 * calls, as the dashboard makes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UNKNOWN_UUID,
  listQuery,
  startBff,
  startService,
  type Answer,
  type BffFixture,
  type ServiceFixture,
  type Session,
  type UserRecordBody,
} from './harness';

const USERS = 60;
/** Three families of client ids, 20 each, interleaved in creation order. */
const clientId = (i: number) =>
  i % 3 === 0 ? `pt-${(0xa000 + i).toString(16)}` : i % 3 === 1 ? `Cohort-A-${String(i).padStart(5, '0')}` : `mbr_${String(i).padStart(6, '0')}`;

let service: ServiceFixture;
let bff: BffFixture;
let session: Session;
/** The team's user ids in creation order. */
let ids: string[];
let foreignId: string;

beforeAll(async () => {
  service = await startService();
  ids = await service.addUsers(
    service.team,
    Array.from({ length: USERS }, (_, i) => ({
      clientUserId: clientId(i),
      fallbackTimeZone: i % 2 ? 'America/Chicago' : null,
      sources: i === 0 ? ['oura', 'fitbit'] : [],
    })),
  );
  [foreignId] = (await service.addUsers(service.otherTeam, [{ clientUserId: 'Cohort-A-99999' }])) as [string];
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  session = await bff.login('lab_ops');
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

const list = (q: Parameters<typeof listQuery>[0]) => bff.get<UserRecordBody[]>(`/api/users${listQuery(q)}`, session);
const idsOf = (r: Answer<UserRecordBody[]>) => r.body.map((u) => u.id);

describe('users list', () => {
  it('answers the first page with Content-Range users 0-24/<total> by default', async () => {
    const r = await bff.get<UserRecordBody[]>('/api/users', session);
    expect(r.status).toBe(200);
    expect(r.headers['content-range']).toBe(`users 0-24/${USERS}`);
    expect(idsOf(r)).toEqual(ids.slice(0, 25));
  });

  it('answers records with id = user_id and the service’s fields', async () => {
    const r = await list({ range: [0, 0] });
    expect(r.headers['content-range']).toBe(`users 0-0/${USERS}`);
    const [u] = r.body;
    expect(u).toMatchObject({ id: ids[0], user_id: ids[0], team_id: service.team.teamId, client_user_id: clientId(0), fallback_time_zone: null });
    expect(new Date(u!.created_on).toISOString()).toBe(u!.created_on);
    expect(u!.connected_sources.map((s) => s.provider.slug).sort()).toEqual(['fitbit', 'oura']);
    // The service API key never reaches the browser.
    expect(r.raw.body).not.toContain(service.team.apiKey);
  });

  it('walks pages in creation order without overlap or gaps', async () => {
    const pages = [
      [[0, 24], `users 0-24/${USERS}`],
      [[25, 49], `users 25-49/${USERS}`],
      [[50, 74], `users 50-59/${USERS}`],
    ] as const;
    const seen: string[] = [];
    for (const [range, contentRange] of pages) {
      const r = await list({ sort: ['id', 'ASC'], range, filter: {} });
      expect(r.status).toBe(200);
      expect(r.headers['content-range']).toBe(contentRange);
      seen.push(...idsOf(r));
    }
    expect(seen).toEqual(ids);
    expect(new Set(seen).size).toBe(USERS);
  });

  it('answers a range past the end with an empty page and the total', async () => {
    const r = await list({ range: [75, 99] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect(r.headers['content-range']).toBe(`users */${USERS}`);
  });

  it('sorts by id and created_on ascending alike (creation order), in either letter case', async () => {
    const byId = idsOf(await list({ sort: ['id', 'ASC'], range: [10, 19] }));
    expect(byId).toEqual(ids.slice(10, 20));
    expect(idsOf(await list({ sort: ['created_on', 'ASC'], range: [10, 19] }))).toEqual(byId);
    expect(idsOf(await list({ sort: ['created_on', 'asc'], range: [10, 19] }))).toEqual(byId);
  });

  it('sorts created_on DESC newest first, with consistent pages', async () => {
    const seen: string[] = [];
    const contentRanges: string[] = [];
    for (const range of [[0, 24], [25, 49], [50, 74]] as const) {
      const r = await list({ sort: ['created_on', 'DESC'], range });
      expect(r.status).toBe(200);
      contentRanges.push(String(r.headers['content-range']));
      seen.push(...idsOf(r));
    }
    expect(contentRanges).toEqual([`users 0-24/${USERS}`, `users 25-49/${USERS}`, `users 50-59/${USERS}`]);
    expect(seen).toEqual([...ids].reverse());
    const first = await list({ sort: ['created_on', 'DESC'], range: [0, 1] });
    const [newest, next] = first.body;
    expect(Date.parse(newest!.created_on)).toBeGreaterThan(Date.parse(next!.created_on));
    // id DESC is the same order.
    expect(idsOf(await list({ sort: ['id', 'DESC'], range: [0, 4] }))).toEqual(seen.slice(0, 5));
  });

  it('refuses a sort the service cannot do with 400 {message}, never another order', async () => {
    for (const sort of [['client_user_id', 'ASC'], ['fallback_time_zone', 'DESC'], ['created_on', 'SIDEWAYS']]) {
      const r = await bff.get(`/api/users${listQuery({ sort, range: [0, 24] })}`, session);
      expect(r.status, JSON.stringify(sort)).toBe(400);
      expect(typeof r.body.message).toBe('string');
      expect(r.body.message.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['range not JSON', 'range=[0'],
    ['range reversed', 'range=[5,2]'],
    ['range negative', 'range=[-1,3]'],
    ['range not integers', 'range=[0.5,3]'],
    ['range an object', 'range={"from":0}'],
    ['range too wide', 'range=[0,5000]'],
    ['range given twice', 'range=[0,1]&range=[2,3]'],
    ['sort not JSON', 'sort=created_on'],
    ['sort without order', 'sort=["created_on"]'],
    ['filter not JSON', 'filter={bad'],
    ['filter an array', 'filter=[1,2]'],
  ])('answers a malformed query (%s) with 400 {message}', async (_name, qs) => {
    const r = await bff.get(`/api/users?${qs.replace(/[[\]{}"]/g, encodeURIComponent)}`, session);
    expect(r.status).toBe(400);
    expect(r.body.message).toBeTruthy();
  });
});

describe('users search (filter q)', () => {
  const cohort = () => ids.filter((_, i) => i % 3 === 1);

  it('matches a substring of client_user_id, case-insensitively, with the right total', async () => {
    for (const q of ['cohort-a', 'COHORT-A-', 'Cohort-a-000']) {
      const r = await list({ filter: { q }, range: [0, 24] });
      expect(r.status, q).toBe(200);
      expect(r.headers['content-range'], q).toBe('users 0-19/20');
      expect(idsOf(r), q).toEqual(cohort());
    }
    // Another team's Cohort-A-99999 is not among them.
    expect(idsOf(await list({ filter: { q: '99999' } }))).toEqual([]);
  });

  it('pages through matches, and sorts them newest first on request', async () => {
    const first = await list({ filter: { q: 'MBR_' }, range: [0, 9] });
    const second = await list({ filter: { q: 'MBR_' }, range: [10, 19] });
    expect(first.headers['content-range']).toBe('users 0-9/20');
    expect(second.headers['content-range']).toBe('users 10-19/20');
    const mbr = ids.filter((_, i) => i % 3 === 2);
    expect([...idsOf(first), ...idsOf(second)]).toEqual(mbr);
    const desc = await list({ filter: { q: 'mbr_' }, sort: ['created_on', 'DESC'], range: [0, 4] });
    expect(idsOf(desc)).toEqual([...mbr].reverse().slice(0, 5));
  });

  it('answers no match with an empty page and a total of 0', async () => {
    const r = await list({ filter: { q: 'no-such-patient' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect(r.headers['content-range']).toBe('users */0');
  });

  it('finds a user created a moment ago by their exact client id', async () => {
    await list({ filter: { q: 'pt-' } }); // a search snapshot is now cached
    const [fresh] = (await service.addUsers(service.team, [{ clientUserId: 'walk-in-4711' }])) as [string];
    const r = await list({ filter: { q: 'walk-in-4711' } });
    expect(r.status).toBe(200);
    expect(idsOf(r)).toEqual([fresh]);
    expect(r.headers['content-range']).toBe('users 0-0/1');
  });
});

describe('users getMany and getOne', () => {
  it('getMany via filter={"id":[...]} answers the known ids and skips unknown ones', async () => {
    const r = await list({ filter: { id: [ids[7], UNKNOWN_UUID, ids[3], foreignId, 'not-a-uuid'] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(idsOf(r).sort()).toEqual([ids[3], ids[7]].sort());
    expect(r.headers['content-range']).toBe('users 0-1/2');
    for (const u of r.body) expect(u.user_id).toBe(u.id);
  });

  it('getMany of nothing known is an empty list', async () => {
    const r = await list({ filter: { id: [UNKNOWN_UUID] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('getOne answers the record', async () => {
    const r = await bff.get<UserRecordBody>(`/api/users/${ids[5]}`, session);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids[5], user_id: ids[5], client_user_id: clientId(5) });
    expect(r.body.fallback_time_zone?.id).toBe('America/Chicago');
  });

  it('getOne of an unknown id, another team’s user or a malformed id is 404 {message}', async () => {
    for (const id of [UNKNOWN_UUID, foreignId, 'not-a-uuid']) {
      const r = await bff.get(`/api/users/${id}`, session);
      expect(r.status, id).toBe(404);
      expect(r.body.message, id).toBeTruthy();
    }
  });
});
