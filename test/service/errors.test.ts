import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expect422, expectDetail, storeKinds, useService, type Answer, type Team } from './harness';

/** Strings a careless or hostile client might send anywhere. */
const GARBAGE_STRINGS = [
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '💥🧘‍♀️',
  'ünïcødé 患者',
  "'; DROP TABLE service.users; --",
  '../../etc/passwd',
  '%00',
  '%zz',
  'null',
  'undefined',
  '[]',
  '{}',
  '-1',
  '0',
  '1e309',
  'NaN',
  'true',
  '0000-01-01',
  '2026-02-30',
  '9999-99-99T99:99:99Z',
];
/** encodeURIComponent, except that a lone surrogate becomes its (invalid) UTF-8 bytes instead of throwing. */
function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
}

/** JSON values of the wrong type (and a few right-typed oddities) for body fields. */
const GARBAGE_VALUES: unknown[] = [...GARBAGE_STRINGS, 0, -1, 1.5, 1e308, true, false, null, [], ['a'], {}, { a: 1 }, 'x'.repeat(100_000)];

describe.each(storeKinds)('errors and hostile input (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let userId: string;
  const api = () => svc().api(team.apiKey);

  /** Not a 500; a JSON body with `detail`; and for 422 the production shape. */
  function expectHandled(r: Answer, what: string) {
    expect(r.status, `${what}: ${JSON.stringify(r.body)?.slice(0, 300)}`).toBeLessThan(500);
    if (r.status >= 400) {
      expect(r.headers['content-type'], what).toMatch(/application\/json/);
      expect(r.body, what).toHaveProperty('detail');
      if (r.status === 422) expect422(r);
    }
  }

  beforeAll(async () => {
    team = await svc().createTeam('Errors team');
    userId = await svc().createUser(team, { client_user_id: 'err-user-1', fallback_time_zone: 'America/Chicago' });
    await svc().insertPoints(userId, [
      { provider: 'oura', start: '2026-01-15T12:00:00Z', offset: 0 },
      { provider: 'fitbit', start: '2026-01-15T13:00:00Z', offset: null },
    ]);
  });

  describe('the error shapes', () => {
    it('422 lists each problem as {loc, msg, type}, located in query, path or body', async () => {
      const q = expect422(await api().get('/v2/user?limit=0&offset=-1'));
      expect(q.map((d) => d.loc).sort()).toEqual([
        ['query', 'limit'],
        ['query', 'offset'],
      ]);
      expect422(await api().get('/v2/user/not-a-uuid'), ['path', 'user_id']);
      const b = expect422(await api().post('/v2/user', { client_user_id: '', fallback_time_zone: 'Mars/Base', fallback_birth_date: 'soon' }));
      expect(b.map((d) => d.loc)).toEqual(expect.arrayContaining([['body', 'client_user_id'], ['body', 'fallback_time_zone'], ['body', 'fallback_birth_date']]));
      const missing = expect422(await api().post('/v2/user', {}), ['body', 'client_user_id']);
      expect(missing[0]!.type).toBe('missing');
    });

    it('a malformed JSON body is 422 at loc body, not a 500', async () => {
      for (const payload of ['{bad', '{"client_user_id": "a",}', '{"client_user_id": "a"', '\u00ff\u00fe', 'nul', '{"client_user_id": "\\ud800"']) {
        const r = await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey, headers: { 'content-type': 'application/json' }, payload });
        const d = expect422(r, ['body']);
        expect(d[0]!.type).toBe('value_error.json');
      }
      const patch = await svc().inject({ method: 'PATCH', url: `/v2/user/${userId}`, key: team.apiKey, headers: { 'content-type': 'application/json' }, payload: '{' });
      expect422(patch, ['body']);
      const raw = await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey, headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
      expect422(raw, ['body']);
    });

    it('a body that is not an object, or is missing, is 422 at loc body', async () => {
      for (const payload of ['null', '[]', '"client"', '42', 'true']) {
        const r = await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey, headers: { 'content-type': 'application/json' }, payload });
        expect422(r, ['body']);
      }
      expect422(await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey }), ['body']);
      expect422(await svc().inject({ method: 'PATCH', url: `/v2/user/${userId}`, key: team.apiKey }), ['body']);
    });

    it('an unsupported content type is refused with {detail}, not a 500', async () => {
      const r = await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey, headers: { 'content-type': 'application/xml' }, payload: '<user/>' });
      expectHandled(r, 'xml');
      expect(r.status).toBeGreaterThanOrEqual(400);
    });

    it('an unknown route is 404 {detail}, with or without a key', async () => {
      for (const [method, url] of [
        ['GET', '/nope'],
        ['GET', '/v2'],
        ['GET', '/v2/users'],
        ['GET', '/v2/user/a/b/c'],
        ['PUT', '/v2/user/'],
        ['POST', '/v2/timeseries/x/mindfulness_minutes/grouped'],
        ['GET', '/v2/timeseries/x/heartrate/grouped'],
        ['GET', '/admin/v1/nope'],
      ] as const) {
        for (const key of [undefined, team.apiKey]) {
          const r = await svc().inject({ method, url, key });
          expectDetail(r, 404);
          expect(r.body.detail).toContain(url);
        }
      }
    });

    it('a malformed path is 422 in the same shape, and a long path parameter is not a server error', async () => {
      for (const url of ['/v2/user/%zz', '/v2/user/resolve/%E0%A4%A', `/v2/timeseries/%/mindfulness_minutes/grouped?start_date=2026-01-01`]) {
        expect422(await svc().inject({ method: 'GET', url, key: team.apiKey }), ['path']);
      }
      const long = await api().get(`/v2/user/resolve/${'a'.repeat(5000)}`);
      expectHandled(long, 'long path');
      expect([404, 422]).toContain(long.status);
    });

    it('answers JSON with no stack trace, no SQL and no internals in any error', async () => {
      const answers = [
        await api().post('/v2/user', { client_user_id: 'a\u0000b' }),
        await api().get('/v2/user/resolve/a%00b'),
        await api().get(`/v2/timeseries/${userId}/mindfulness_minutes/grouped?start_date=0000-01-01`),
        await api().get(`/v2/timeseries/${userId}/mindfulness_minutes/grouped?start_date=2026-01-01&provider=%00`),
      ];
      for (const r of answers) {
        expectHandled(r, r.raw.raw.req.url ?? '');
        const text = r.raw.body;
        expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
        expect(text).not.toMatch(/select |insert into|drizzle|pglite|postgres/i);
      }
    });
  });

  describe('never a 500 for bad input', () => {
    it('GET /v2/user with garbage offset, limit and repeated or bracketed parameters', async () => {
      for (const v of GARBAGE_STRINGS) {
        const e = enc(v);
        expectHandled(await api().get(`/v2/user?offset=${e}`), `offset=${v.slice(0, 20)}`);
        expectHandled(await api().get(`/v2/user?limit=${e}`), `limit=${v.slice(0, 20)}`);
        expectHandled(await api().get(`/v2/user/?offset=${e}&limit=${e}&extra=${e}`), `both=${v.slice(0, 20)}`);
      }
      for (const qs of ['limit=1&limit=2', 'limit[]=1', 'offset[0]=1', 'limit=1,2', 'limit=%', 'limit=0x10', 'offset=1e3', '&&&', '=', 'limit']) {
        expectHandled(await api().get(`/v2/user?${qs}`), qs);
      }
    });

    it('GET, PATCH and DELETE /v2/user/{user_id} and resolve with garbage ids', async () => {
      for (const v of GARBAGE_STRINGS) {
        const e = enc(v);
        if (e === '') continue;
        expectHandled(await api().get(`/v2/user/${e}`), `get ${v.slice(0, 20)}`);
        expectHandled(await api().patch(`/v2/user/${e}`, { fallback_time_zone: 'UTC' }), `patch ${v.slice(0, 20)}`);
        expectHandled(await api().delete(`/v2/user/${e}`), `delete ${v.slice(0, 20)}`);
        expectHandled(await api().get(`/v2/user/resolve/${e}`), `resolve ${v.slice(0, 20)}`);
      }
      // The user the garbage was aimed around is intact.
      expect((await api().get(`/v2/user/${userId}`)).status).toBe(200);
    });

    it('POST /v2/user with garbage in every field, and garbage bodies', async () => {
      let i = 0;
      for (const field of ['client_user_id', 'fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end']) {
        for (const v of GARBAGE_VALUES) {
          const body = field === 'client_user_id' ? { client_user_id: v } : { client_user_id: `fuzz-${i++}`, [field]: v };
          expectHandled(await api().post('/v2/user', body), `${field}=${JSON.stringify(v)?.slice(0, 30)}`);
        }
      }
      for (const v of GARBAGE_VALUES) {
        expectHandled(await svc().inject({ method: 'POST', url: '/v2/user', key: team.apiKey, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(v) ?? 'null' }), `body ${String(v).slice(0, 20)}`);
      }
      expectHandled(await api().post('/v2/user', { client_user_id: 'fuzz-extra', unknown_field: { deep: [1, 2, { x: null }] } }), 'extra field');
    });

    it('PATCH /v2/user/{user_id} with garbage in every field', async () => {
      const target = await svc().createUser(team, { client_user_id: 'fuzz-patch-target' });
      for (const field of ['client_user_id', 'fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end']) {
        for (const v of GARBAGE_VALUES) {
          expectHandled(await api().patch(`/v2/user/${target}`, { [field]: v }), `${field}=${JSON.stringify(v)?.slice(0, 30)}`);
        }
      }
      expect((await api().get(`/v2/user/${target}`)).status).toBe(200);
    });

    it('GET grouped timeseries with garbage in every parameter', async () => {
      const base = `/v2/timeseries/${userId}/mindfulness_minutes/grouped`;
      for (const v of GARBAGE_STRINGS) {
        const e = enc(v);
        for (const qs of [
          `start_date=${e}`,
          `start_date=2026-01-01&end_date=${e}`,
          `start_date=2026-01-01&provider=${e}`,
          `start_date=2026-01-01&next_cursor=${e}`,
          `start_date=2026-01-01&cursor=${e}`,
          `start_date=2026-01-01&next_cursor=${e}&cursor=${e}`,
        ]) {
          expectHandled(await api().get(`${base}?${qs}`), qs.slice(0, 60));
        }
        if (e !== '') expectHandled(await api().get(`/v2/timeseries/${e}/mindfulness_minutes/grouped?start_date=2026-01-01`), `user ${v.slice(0, 20)}`);
      }
      for (const qs of [
        'start_date=2026-01-01&start_date=2026-01-02',
        'start_date[]=2026-01-01',
        'start_date=2026-01-01&end_date=2026-01-02&end_date=2026-01-03',
        'start_date=2026-01-01&provider=oura&provider=fitbit',
        'start_date=2026-01-01&next_cursor=a&next_cursor=b',
        'start_date=2026-01-01T00:00:00+01:00',
        'start_date=2026-01-01T00:00:00%2B99:99',
        'start_date=2026-01-01T00:00:00-2400',
        'start_date=9999-12-31T23:59:59-14:00',
        'start_date=0001-01-01',
        'start_date=0001-01-01&end_date=9999-12-31',
        'start_date=9999-12-31',
        'start_date=2026-01-01 00:00:00.1234567891',
        `start_date=2026-01-01&provider=${'p'.repeat(65)}`,
      ]) {
        expectHandled(await api().get(`${base}?${qs}`), qs);
      }
    });

    it('operator API with garbage names, team ids and bodies', async () => {
      const h = { 'x-admin-token': ADMIN_TOKEN };
      // Rotation garbage goes to a team of its own: a boolean is valid and rotates that team's key.
      const victim = await svc().createTeam('Rotation fuzz team');
      for (const v of GARBAGE_VALUES) {
        expectHandled(await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers: h, payload: { name: v } }), `name=${JSON.stringify(v)?.slice(0, 30)}`);
        expectHandled(
          await svc().inject({ method: 'POST', url: `/admin/v1/teams/${victim.teamId}/api-keys`, headers: h, payload: { revoke_previous: v, other: v } }),
          `revoke_previous=${JSON.stringify(v)?.slice(0, 30)}`,
        );
      }
      for (const v of GARBAGE_STRINGS) {
        const e = enc(v);
        if (e === '') continue;
        expectHandled(await svc().inject({ method: 'POST', url: `/admin/v1/teams/${e}/api-keys`, headers: h }), `team ${v.slice(0, 20)}`);
      }
      // None of the garbage rotated the team's key.
      expect((await api().get('/v2/user')).status).toBe(200);
    });

    it('API key headers of any shape are 401, never 500', async () => {
      // Header values are printable ASCII on the wire.
      for (const key of GARBAGE_STRINGS.filter((k) => [...k].every((c) => c >= ' ' && c <= '~'))) {
        expectDetail(await svc().inject({ method: 'GET', url: '/v2/user', key }), 401);
      }
      const r = await svc().inject({ method: 'GET', url: '/v2/user', headers: { 'x-service-api-key': ['a', 'b'] as unknown as string } });
      expectDetail(r, 401);
    });
  });
});
