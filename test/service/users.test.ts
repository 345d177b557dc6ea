import { beforeAll, describe, expect, it } from 'vitest';
import { expect422, expectDetail, groupedUrl, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(storeKinds)('users (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  const api = () => svc().api(team.apiKey);

  beforeAll(async () => {
    team = await svc().createTeam('Users team');
    other = await svc().createTeam('Other team');
  });

  describe('create', () => {
    it('answers {user_id, client_user_id} and the user reads back with every field of the User table', async () => {
      const r = await api().post('/v2/user', {
        client_user_id: 'pt-full-1',
        fallback_time_zone: 'America/New_York',
        fallback_birth_date: '1984-02-29',
        ingestion_start: '2026-01-01',
        ingestion_end: '2026-06-30',
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ user_id: expect.stringMatching(UUID), client_user_id: 'pt-full-1' });
      const userId = r.body.user_id;
      await svc().connectSources(userId, [
        { slug: 'oura', createdOn: new Date('2026-02-01T08:00:00Z') },
        { slug: 'apple_health_kit', createdOn: new Date('2026-02-03T09:30:00Z') },
      ]);

      const got = await api().get(`/v2/user/${userId}`);
      expect(got.status).toBe(200);
      const u = got.body;
      expect(Object.keys(u).sort()).toEqual(
        [
          'client_user_id',
          'connected_sources',
          'created_on',
          'fallback_birth_date',
          'fallback_time_zone',
          'ingestion_end',
          'ingestion_start',
          'team_id',
          'user_id',
        ].sort(),
      );
      expect(u.user_id).toBe(userId);
      expect(u.team_id).toBe(team.teamId);
      expect(u.client_user_id).toBe('pt-full-1');
      expect(u.created_on).toMatch(ISO_UTC);
      expect(u.fallback_time_zone).toEqual({ id: 'America/New_York', source_slug: expect.any(String), updated_at: expect.stringMatching(ISO_UTC) });
      expect(u.fallback_time_zone.source_slug.length).toBeGreaterThan(0);
      expect(u.fallback_birth_date).toEqual({ value: '1984-02-29', source_slug: expect.any(String), updated_at: expect.stringMatching(ISO_UTC) });
      expect(u.ingestion_start).toBe('2026-01-01');
      expect(u.ingestion_end).toBe('2026-06-30');

      // Connected sources: in connection order, provider and its deprecated duplicate `source`, no null logo.
      expect(u.connected_sources.map((s: { provider: { slug: string } }) => s.provider.slug)).toEqual(['oura', 'apple_health_kit']);
      for (const s of u.connected_sources) {
        expect(Object.keys(s).sort()).toEqual(['created_on', 'provider', 'source']);
        expect(s.created_on).toMatch(ISO_UTC);
        expect(Object.keys(s.provider).sort()).toEqual(['logo', 'name', 'slug']);
        for (const k of ['name', 'slug', 'logo']) {
          expect(typeof s.provider[k]).toBe('string');
          expect(s.provider[k].length).toBeGreaterThan(0);
        }
        expect(s.source).toEqual(s.provider);
        // The logo is an absolute URL the service itself serves.
        const logo = new URL(s.provider.logo);
        const img = await svc().inject({ method: 'GET', url: logo.pathname });
        expect(img.status).toBe(200);
        expect(img.headers['content-type']).toMatch(/^image\/svg\+xml/);
      }
      expect(u.connected_sources[0].created_on).toBe('2026-02-01T08:00:00.000Z');
      expect(u.connected_sources[0].provider.name).toBe('Oura');

      // The list and resolve show the same user.
      const listed = (await api().get('/v2/user?limit=500')).body.users.find((x: { user_id: string }) => x.user_id === userId);
      expect(listed).toEqual(u);
      expect((await api().get('/v2/user/resolve/pt-full-1')).body).toEqual(u);
    });

    it('a user with nothing optional has empty sources and null fallbacks and bounds', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'pt-bare-1' });
      const u = (await api().get(`/v2/user/${userId}`)).body;
      expect(u.connected_sources).toEqual([]);
      expect(u.fallback_time_zone).toBeNull();
      expect(u.fallback_birth_date).toBeNull();
      expect(u.ingestion_start ?? null).toBeNull();
      expect(u.ingestion_end ?? null).toBeNull();
    });

    it('trims client_user_id and requires it (422 body.client_user_id)', async () => {
      const r = await api().post('/v2/user', { client_user_id: '  pt-trim-1  ' });
      expect(r.status).toBe(200);
      expect(r.body.client_user_id).toBe('pt-trim-1');
      for (const body of [{}, { client_user_id: '' }, { client_user_id: '   ' }, { client_user_id: null }, { client_user_id: 42 }, { client_user_id: ['a'] }, { client_user_id: 'x'.repeat(256) }]) {
        expect422(await api().post('/v2/user', body), ['body', 'client_user_id']);
      }
      expect((await api().post('/v2/user', { client_user_id: 'y'.repeat(255) })).status).toBe(200);
      // A client_user_id of the longest size still resolves (path parameters past the router's default length).
      for (const long of ['y'.repeat(255), 'ü'.repeat(255), `${'z'.repeat(120)}/${'z'.repeat(120)}`]) {
        const created = await api().post('/v2/user', { client_user_id: long });
        expect([200, 400]).toContain(created.status);
        const resolved = await api().get(`/v2/user/resolve/${encodeURIComponent(long)}`);
        expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
        expect(resolved.body.client_user_id).toBe(long);
      }
      // A megabytes-long id is refused at once (the PII check must not backtrack over it).
      for (const huge of ['x'.repeat(2_000_000), `a@${'b'.repeat(2_000_000)}`]) {
        expect422(await api().post('/v2/user', { client_user_id: huge }), ['body', 'client_user_id']);
      }
    });

    it('refuses a client_user_id that is an e-mail address or a phone number (422 value_error.pii)', async () => {
      const pii = [
        'jane.doe@example.com',
        'JANE@EXAMPLE.ORG',
        'patient jane.doe+lab@example.co.uk',
        '+1 (415) 555-0134',
        '415.555.0134',
        '415-555-0134',
        '(415) 555-0134',
        '4155550134',
        '14155550134',
        '00441234567890',
        '+44 20 7946 0958',
        '+33 6 12 34 56 78',
      ];
      for (const client_user_id of pii) {
        const detail = expect422(await api().post('/v2/user', { client_user_id }), ['body', 'client_user_id']);
        expect(detail[0]!.type).toBe('value_error.pii');
        expect(detail[0]!.msg).toMatch(/personally identifiable/);
      }
      // Nothing was created, and PATCH refuses the same values.
      const list = (await api().get('/v2/user?limit=500')).body.users.map((u: { client_user_id: string }) => u.client_user_id);
      for (const v of pii) expect(list).not.toContain(v);
      const userId = await svc().createUser(team, { client_user_id: 'pt-pii-patch' });
      expect422(await api().patch(`/v2/user/${userId}`, { client_user_id: 'jane@example.com' }), ['body', 'client_user_id']);
      expect422(await api().patch(`/v2/user/${userId}`, { client_user_id: '+1 415 555 0134' }), ['body', 'client_user_id']);
    });

    it('accepts opaque ids that merely contain digits', async () => {
      // Bare record numbers (MRN-style, 6-9 digits) are not phone numbers.
      const ok = ['12345678', '004217', '987654321', 'pt-8f3c2a91', 'mbr_7Q2K9X', 'cohort-a-00042', '3f2b8c1e-9d4a-4e7b-8f6a-1c2d3e4f5a6b', 'patient-2024-0001', 'ext-1a2b3c4d-5e6f', 'A-1', 'ünïcødé 患者 7'];
      for (const client_user_id of ok) {
        const r = await api().post('/v2/user', { client_user_id });
        expect(r.status, `${client_user_id}: ${JSON.stringify(r.body)}`).toBe(200);
        const resolved = await api().get(`/v2/user/resolve/${encodeURIComponent(client_user_id)}`);
        expect(resolved.status).toBe(200);
        expect(resolved.body.user_id).toBe(r.body.user_id);
      }
    });

    it('fallback_time_zone must be an IANA tz database id', async () => {
      // EST is an IANA id (the interface lists it); PST, CST and IST are abbreviations or ICU-only ids.
      const valid = ['America/New_York', 'America/Chicago', 'Etc/GMT+5', 'EST5EDT', 'UTC', 'EST', 'CET', 'Europe/Kyiv', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires'];
      const invalid = ['Mars/Base', '+02:00', 'GMT+5', 'UTC+2', 'PST', 'CST', 'IST', 'PDT', 'AGT', 'SystemV/EST5', 'US/Pacific-New', 'America/New York', 'Factory', '', 'x'.repeat(65), 42];
      let i = 0;
      for (const zone of valid) {
        const r = await api().post('/v2/user', { client_user_id: `pt-tz-ok-${i++}`, fallback_time_zone: zone });
        expect(r.status, `${zone}: ${JSON.stringify(r.body)}`).toBe(200);
        const u = (await api().get(`/v2/user/${r.body.user_id}`)).body;
        expect(u.fallback_time_zone.id).toBe(zone);
      }
      for (const zone of invalid) {
        expect422(await api().post('/v2/user', { client_user_id: `pt-tz-bad-${i++}`, fallback_time_zone: zone }), ['body', 'fallback_time_zone']);
      }
    });

    it('fallback_birth_date and ingestion bounds must be real calendar dates', async () => {
      let i = 0;
      for (const field of ['fallback_birth_date', 'ingestion_start', 'ingestion_end']) {
        for (const value of ['2023-02-30', '2023-02-29', '2026-04-31', '2026-13-01', '1990-1-1', '0000-01-01', '1990-01-01T00:00:00Z', 'yesterday', '', 19900101]) {
          expect422(await api().post('/v2/user', { client_user_id: `pt-date-${i++}`, [field]: value }), ['body', field]);
        }
        for (const value of ['2024-02-29', '0001-01-01', '9999-12-31']) {
          const r = await api().post('/v2/user', { client_user_id: `pt-date-ok-${i++}`, [field]: value });
          expect(r.status, `${field}=${value}: ${JSON.stringify(r.body)}`).toBe(200);
        }
      }
    });

    it('refuses ingestion_start after ingestion_end, accepts the same day', async () => {
      expect422(
        await api().post('/v2/user', { client_user_id: 'pt-bounds-1', ingestion_start: '2026-03-02', ingestion_end: '2026-03-01' }),
        ['body', 'ingestion_end'],
      );
      expect((await api().get('/v2/user/resolve/pt-bounds-1')).status).toBe(404);
      const r = await api().post('/v2/user', { client_user_id: 'pt-bounds-2', ingestion_start: '2026-03-01', ingestion_end: '2026-03-01' });
      expect(r.status).toBe(200);
    });

    it('answers 400 with the existing user_id for a duplicate client_user_id, also under concurrent creates', async () => {
      const first = await api().post('/v2/user', { client_user_id: 'pt-dup-1' });
      expect(first.status).toBe(200);
      const again = await api().post('/v2/user', { client_user_id: 'pt-dup-1', fallback_time_zone: 'UTC' });
      expect(again.status).toBe(400);
      expect(again.body.detail).toMatchObject({ user_id: first.body.user_id });
      expect(JSON.stringify(again.body.detail)).toMatch(/pt-dup-1/);
      // The existing user was not changed by the refused create.
      expect((await api().get(`/v2/user/${first.body.user_id}`)).body.fallback_time_zone).toBeNull();

      const racers = await Promise.all(Array.from({ length: 5 }, () => api().post('/v2/user', { client_user_id: 'pt-race-1' })));
      const won = racers.filter((r) => r.status === 200);
      const lost = racers.filter((r) => r.status === 400);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(4);
      for (const r of lost) expect(r.body.detail.user_id).toBe(won[0]!.body.user_id);
      const all = (await api().get('/v2/user?limit=500')).body.users.filter((u: { client_user_id: string }) => u.client_user_id === 'pt-race-1');
      expect(all).toHaveLength(1);
    });

    it('allows the same client_user_id in two teams, each resolving to its own user', async () => {
      const mine = await svc().createUser(team, { client_user_id: 'shared-id-1' });
      const theirs = await svc().createUser(other, { client_user_id: 'shared-id-1' });
      expect(mine).not.toBe(theirs);
      expect((await api().get('/v2/user/resolve/shared-id-1')).body.user_id).toBe(mine);
      expect((await svc().api(other.apiKey).get('/v2/user/resolve/shared-id-1')).body.user_id).toBe(theirs);
    });
  });

  describe('get, resolve, patch, delete', () => {
    it('resolves by client_user_id; an unknown one is 404 {detail}', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'cohort/a 01' });
      const r = await api().get(`/v2/user/resolve/${encodeURIComponent('cohort/a 01')}`);
      expect(r.status).toBe(200);
      expect(r.body.user_id).toBe(userId);
      expectDetail(await api().get('/v2/user/resolve/no-such-client-id'), 404);
      // Resolve does not trim or change case.
      expectDetail(await api().get('/v2/user/resolve/COHORT%2FA%2001'), 404);
    });

    it('answers 422 (path.user_id) for a malformed user id and 404 for an unknown one', async () => {
      for (const bad of ['not-a-uuid', '123', 'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ']) {
        expect422(await api().get(`/v2/user/${bad}`), ['path', 'user_id']);
        expect422(await api().patch(`/v2/user/${bad}`, {}), ['path', 'user_id']);
        expect422(await api().delete(`/v2/user/${bad}`), ['path', 'user_id']);
      }
      expectDetail(await api().get(`/v2/user/${UNKNOWN_UUID}`), 404);
      // A user id is a uuid whatever the case the client writes it in.
      const userId = await svc().createUser(team, { client_user_id: 'pt-upper-1' });
      const upper = await api().get(`/v2/user/${userId.toUpperCase()}`);
      expect(upper.status).toBe(200);
      expect(upper.body.user_id).toBe(userId);
      expect((await api().patch(`/v2/user/${userId.toUpperCase()}`, { fallback_time_zone: 'UTC' })).status).toBe(204);
    });

    it('PATCH answers 204 with no body; GET shows the change with source_slug and updated_at', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'pt-patch-1' });
      const before = (await api().get(`/v2/user/${userId}`)).body;
      const r = await api().patch(`/v2/user/${userId}`, { fallback_time_zone: 'Europe/Paris', fallback_birth_date: '1975-06-15', ingestion_start: '2026-02-01' });
      expect(r.status).toBe(204);
      expect(r.raw.body).toBe('');
      const after = (await api().get(`/v2/user/${userId}`)).body;
      expect(after.fallback_time_zone).toEqual({ id: 'Europe/Paris', source_slug: expect.any(String), updated_at: expect.stringMatching(ISO_UTC) });
      expect(after.fallback_birth_date).toEqual({ value: '1975-06-15', source_slug: expect.any(String), updated_at: expect.stringMatching(ISO_UTC) });
      expect(after.fallback_time_zone.source_slug.length).toBeGreaterThan(0);
      expect(Date.parse(after.fallback_time_zone.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.created_on));
      expect(after.ingestion_start).toBe('2026-02-01');
      expect(after.ingestion_end ?? null).toBeNull();
      // Untouched fields stay.
      expect(after.client_user_id).toBe('pt-patch-1');
      expect(after.created_on).toBe(before.created_on);

      // An empty patch changes nothing.
      expect((await api().patch(`/v2/user/${userId}`, {})).status).toBe(204);
      expect((await api().get(`/v2/user/${userId}`)).body).toEqual(after);

      // Rename, then the old client id no longer resolves.
      expect((await api().patch(`/v2/user/${userId}`, { client_user_id: 'pt-patch-1b' })).status).toBe(204);
      expect((await api().get('/v2/user/resolve/pt-patch-1b')).body.user_id).toBe(userId);
      expectDetail(await api().get('/v2/user/resolve/pt-patch-1'), 404);
    });

    it('PATCH null clears a fallback value or a bound; absent fields are unchanged', async () => {
      const userId = await svc().createUser(team, {
        client_user_id: 'pt-clear-1',
        fallback_time_zone: 'America/Chicago',
        fallback_birth_date: '1990-01-01',
        ingestion_start: '2026-01-01',
        ingestion_end: '2026-12-31',
      });
      expect((await api().patch(`/v2/user/${userId}`, { fallback_time_zone: null, ingestion_end: null })).status).toBe(204);
      const u = (await api().get(`/v2/user/${userId}`)).body;
      expect(u.fallback_time_zone).toBeNull();
      expect(u.ingestion_end ?? null).toBeNull();
      expect(u.fallback_birth_date.value).toBe('1990-01-01');
      expect(u.ingestion_start).toBe('2026-01-01');
      expect((await api().patch(`/v2/user/${userId}`, { fallback_birth_date: null, ingestion_start: null })).status).toBe(204);
      const v = (await api().get(`/v2/user/${userId}`)).body;
      expect(v.fallback_birth_date).toBeNull();
      expect(v.ingestion_start ?? null).toBeNull();
    });

    it('PATCH checks ingestion bounds against the stored ones, and validates like create', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'pt-bounds-patch', ingestion_start: '2026-02-01', ingestion_end: '2026-02-28' });
      expect422(await api().patch(`/v2/user/${userId}`, { ingestion_start: '2026-03-01' }), ['body', 'ingestion_end']);
      expect422(await api().patch(`/v2/user/${userId}`, { ingestion_end: '2026-01-31' }), ['body', 'ingestion_end']);
      expect422(await api().patch(`/v2/user/${userId}`, { ingestion_start: '2026-03-05', ingestion_end: '2026-03-01' }), ['body', 'ingestion_end']);
      // Refused patches left everything as it was.
      const u = (await api().get(`/v2/user/${userId}`)).body;
      expect([u.ingestion_start, u.ingestion_end]).toEqual(['2026-02-01', '2026-02-28']);
      // Moving both together, or clearing the end first, is fine.
      expect((await api().patch(`/v2/user/${userId}`, { ingestion_start: '2026-03-01', ingestion_end: '2026-03-31' })).status).toBe(204);
      expect((await api().patch(`/v2/user/${userId}`, { ingestion_end: null })).status).toBe(204);
      expect((await api().patch(`/v2/user/${userId}`, { ingestion_start: '2027-01-01' })).status).toBe(204);

      expect422(await api().patch(`/v2/user/${userId}`, { fallback_time_zone: 'Mars/Base' }), ['body', 'fallback_time_zone']);
      expect422(await api().patch(`/v2/user/${userId}`, { fallback_birth_date: '2023-02-30' }), ['body', 'fallback_birth_date']);
      expect422(await api().patch(`/v2/user/${userId}`, { client_user_id: '' }), ['body', 'client_user_id']);
      expect422(await api().patch(`/v2/user/${userId}`, { client_user_id: null }), ['body', 'client_user_id']);
    });

    it('PATCH to another user’s client_user_id is 400 with that user_id', async () => {
      const a = await svc().createUser(team, { client_user_id: 'pt-rename-a' });
      const b = await svc().createUser(team, { client_user_id: 'pt-rename-b' });
      const r = await api().patch(`/v2/user/${b}`, { client_user_id: 'pt-rename-a' });
      expect(r.status).toBe(400);
      expect(r.body.detail.user_id).toBe(a);
      expect((await api().get(`/v2/user/${b}`)).body.client_user_id).toBe('pt-rename-b');
      // Renaming to its own id is a no-op, not a conflict.
      expect((await api().patch(`/v2/user/${b}`, { client_user_id: 'pt-rename-b' })).status).toBe(204);
    });

    it('concurrent renames of several users to one client_user_id: exactly one wins, the others get 400', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await svc().createUser(team, { client_user_id: `pt-rename-race-${i}` }));
      const answers = await Promise.all(ids.map((id) => api().patch(`/v2/user/${id}`, { client_user_id: 'pt-rename-race' })));
      expect(answers.map((a) => a.status).sort()).toEqual([204, 400, 400, 400, 400]);
      const winner = ids[answers.findIndex((a) => a.status === 204)]!;
      for (const a of answers.filter((x) => x.status === 400)) expect(a.body.detail.user_id).toBe(winner);
      expect((await api().get('/v2/user/resolve/pt-rename-race')).body.user_id).toBe(winner);
    });

    it('DELETE answers {success:true}; afterwards every call on that user is 404 and its client id is free', async () => {
      const userId = await svc().createUser(team, { client_user_id: 'pt-delete-1' });
      await svc().connectSources(userId, [{ slug: 'garmin' }]);
      await svc().insertPoints(userId, [{ provider: 'garmin', start: '2026-01-10T07:00:00Z', offset: 0 }]);
      const totalBefore = (await api().get('/v2/user')).body.total;

      const r = await api().delete(`/v2/user/${userId}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true });

      expectDetail(await api().get(`/v2/user/${userId}`), 404);
      expectDetail(await api().patch(`/v2/user/${userId}`, { fallback_time_zone: 'UTC' }), 404);
      expectDetail(await api().delete(`/v2/user/${userId}`), 404);
      expectDetail(await api().get('/v2/user/resolve/pt-delete-1'), 404);
      expectDetail(await api().get(groupedUrl(userId, { start_date: '2026-01-01' })), 404);
      expect((await api().get('/v2/user')).body.total).toBe(totalBefore - 1);
      expect((await api().post('/v2/user', { client_user_id: 'pt-delete-1' })).status).toBe(200);
    });
  });

  describe('team isolation', () => {
    it('another team’s user is answered exactly like an unknown id, and is never listed', async () => {
      const foreign = await svc().createUser(other, { client_user_id: 'foreign-1' });
      await svc().insertPoints(foreign, [{ provider: 'oura', start: '2026-01-10T07:00:00Z', offset: 0 }]);
      const unknown = UNKNOWN_UUID;
      const calls = (id: string) => [
        () => api().get(`/v2/user/${id}`),
        () => api().patch(`/v2/user/${id}`, { fallback_time_zone: 'UTC' }),
        () => api().delete(`/v2/user/${id}`),
        () => api().get(groupedUrl(id, { start_date: '2026-01-01' })),
      ];
      const foreignAnswers = await Promise.all(calls(foreign).map((c) => c()));
      const unknownAnswers = await Promise.all(calls(unknown).map((c) => c()));
      for (let i = 0; i < foreignAnswers.length; i++) {
        expectDetail(foreignAnswers[i]!, 404);
        expect({ status: foreignAnswers[i]!.status, body: foreignAnswers[i]!.body }).toEqual({
          status: unknownAnswers[i]!.status,
          body: unknownAnswers[i]!.body,
        });
      }
      const resolveForeign = await api().get('/v2/user/resolve/foreign-1');
      const resolveUnknown = await api().get('/v2/user/resolve/never-seen-anywhere');
      expect(resolveForeign.status).toBe(404);
      expect(resolveForeign.body).toEqual(resolveUnknown.body);

      // The refused calls did nothing to the other team's user.
      const theirs = await svc().api(other.apiKey).get(`/v2/user/${foreign}`);
      expect(theirs.status).toBe(200);
      expect(theirs.body.fallback_time_zone).toBeNull();
      const theirPoints = await svc().api(other.apiKey).get(groupedUrl(foreign, { start_date: '2026-01-01' }));
      expect(theirPoints.body.groups.oura[0].data).toHaveLength(1);

      const mine = (await api().get('/v2/user?limit=500')).body;
      expect(mine.users.every((u: { team_id: string }) => u.team_id === team.teamId)).toBe(true);
      expect(mine.users.map((u: { user_id: string }) => u.user_id)).not.toContain(foreign);
    });
  });
});

describe.each(storeKinds)('user list paging (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let small: Team;
  const created: string[] = [];
  const api = () => svc().api(team.apiKey);

  beforeAll(async () => {
    team = await svc().createTeam('Paging team');
    small = await svc().createTeam('Small team');
    // 101 users, one after the other: one more than the default page.
    for (let i = 0; i < 101; i++) created.push(await svc().createUser(team, { client_user_id: `page-${String(i).padStart(3, '0')}` }));
    for (let i = 0; i < 3; i++) await svc().createUser(small, { client_user_id: `small-${i}` });
  });

  it('defaults to offset 0 and limit 100, with total the team’s total', async () => {
    for (const url of ['/v2/user', '/v2/user/']) {
      const r = await api().get(url);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['limit', 'offset', 'total', 'users']);
      expect(r.body.offset).toBe(0);
      expect(r.body.limit).toBe(100);
      expect(r.body.total).toBe(101);
      expect(r.body.users).toHaveLength(100);
    }
  });

  it('lists users in creation order; pages of any size neither overlap nor skip', async () => {
    const all = (await api().get('/v2/user?limit=500')).body;
    expect(all.limit).toBe(500);
    expect(all.users.map((u: { user_id: string }) => u.user_id)).toEqual(created);

    for (const size of [1, 7, 25, 100]) {
      const seen: string[] = [];
      for (let offset = 0; offset < 101; offset += size) {
        const page = (await api().get(`/v2/user?offset=${offset}&limit=${size}`)).body;
        expect(page.offset).toBe(offset);
        expect(page.limit).toBe(size);
        expect(page.total).toBe(101);
        expect(page.users.length).toBe(Math.min(size, 101 - offset));
        seen.push(...page.users.map((u: { user_id: string }) => u.user_id));
        if (size === 1 && offset >= 3) break; // limit 1 is covered by the first pages
      }
      if (size !== 1) expect(seen).toEqual(created);
      else expect(seen).toEqual(created.slice(0, 4));
    }
  });

  it('answers an empty page past the end, with the total', async () => {
    for (const offset of [101, 102, 100000]) {
      const r = await api().get(`/v2/user?offset=${offset}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ users: [], total: 101, offset, limit: 100 });
    }
    const last = await api().get('/v2/user?offset=100&limit=500');
    expect(last.body.users.map((u: { user_id: string }) => u.user_id)).toEqual([created[100]]);
  });

  it('accepts limit 1 and 500; refuses 0, 501, negative, fractional and non-numeric values', async () => {
    expect((await api().get('/v2/user?limit=1')).body.users).toHaveLength(1);
    expect((await api().get('/v2/user?limit=500')).body.users).toHaveLength(101);
    for (const v of ['0', '501', '-1', '1.5', 'abc', '1e309', 'Infinity', 'NaN', '']) {
      expect422(await api().get(`/v2/user?limit=${encodeURIComponent(v)}`), ['query', 'limit']);
    }
    for (const v of ['-1', '0.5', 'abc', 'Infinity', '1e20']) {
      expect422(await api().get(`/v2/user?offset=${encodeURIComponent(v)}`), ['query', 'offset']);
    }
    expect422(await api().get('/v2/user?limit=1&limit=2'), ['query', 'limit']);
    expect422(await api().get('/v2/user?offset=1&offset=2'), ['query', 'offset']);
  });

  it('shows each team only its own users and total', async () => {
    const r = await svc().api(small.apiKey).get('/v2/user?limit=500');
    expect(r.body.total).toBe(3);
    expect(r.body.users.map((u: { client_user_id: string }) => u.client_user_id)).toEqual(['small-0', 'small-1', 'small-2']);
    const mine = (await api().get('/v2/user?limit=500')).body.users.map((u: { client_user_id: string }) => u.client_user_id);
    expect(mine.some((c: string) => c.startsWith('small-'))).toBe(false);
  });
});
