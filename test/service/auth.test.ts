import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import { serviceSchema } from '../../server/service/db/schema';
import { openStore } from '../../server/store/db';
import { ADMIN_TOKEN, expect422, expectDetail, migrationsFolder, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';

describe.each(storeKinds)('API keys and the operator API (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let userId: string;

  beforeAll(async () => {
    team = await svc().createTeam('Auth team');
    userId = await svc().createUser(team, { client_user_id: 'auth-user-1' });
  });

  const teamEndpoints = () => [
    { method: 'GET' as const, url: '/v2/user' },
    { method: 'GET' as const, url: '/v2/user/' },
    { method: 'GET' as const, url: `/v2/user/${userId}` },
    { method: 'GET' as const, url: '/v2/user/resolve/auth-user-1' },
    { method: 'POST' as const, url: '/v2/user', payload: { client_user_id: 'never-created' } },
    { method: 'PATCH' as const, url: `/v2/user/${userId}`, payload: { fallback_time_zone: 'UTC' } },
    { method: 'DELETE' as const, url: `/v2/user/${userId}` },
    { method: 'GET' as const, url: `/v2/timeseries/${userId}/mindfulness_minutes/grouped?start_date=2026-01-01` },
  ];

  describe('x-service-api-key', () => {
    it('answers 401 {detail} on every team endpoint without a key, and changes nothing', async () => {
      for (const e of teamEndpoints()) {
        const r = await svc().inject(e);
        expectDetail(r, 401);
        expect(r.body.detail).toMatch(/x-service-api-key/);
      }
      const still = await svc().api(team.apiKey).get(`/v2/user/${userId}`);
      expect(still.status).toBe(200);
      expect((await svc().api(team.apiKey).get('/v2/user/resolve/never-created')).status).toBe(404);
    });

    it('answers 401 for an empty, wrong, near-miss or oversized key', async () => {
      const wrong = [
        '',
        'lsk_not-a-real-key',
        `${team.apiKey}x`,
        team.apiKey.slice(0, -1),
        team.apiKey.toUpperCase(),
        ` ${team.apiKey}`,
        'k'.repeat(10_000),
        ADMIN_TOKEN,
      ];
      for (const key of wrong) {
        for (const e of teamEndpoints()) {
          const r = await svc().inject({ ...e, key });
          expectDetail(r, 401);
        }
      }
    });

    it('checks the key before the input: bad input without a key is 401, not 422', async () => {
      expectDetail(await svc().inject({ method: 'GET', url: '/v2/user?limit=0' }), 401);
      expectDetail(await svc().inject({ method: 'POST', url: '/v2/user', payload: { client_user_id: 'a@b.co' } }), 401);
      expectDetail(await svc().inject({ method: 'GET', url: '/v2/timeseries/not-a-uuid/mindfulness_minutes/grouped' }), 401);
    });

    it('does not accept the admin token header in place of a key', async () => {
      const r = await svc().inject({ method: 'GET', url: '/v2/user', headers: { 'x-admin-token': ADMIN_TOKEN } });
      expectDetail(r, 401);
    });

    it('accepts the key on both list paths', async () => {
      for (const url of ['/v2/user', '/v2/user/']) {
        const r = await svc().api(team.apiKey).get(url);
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(1);
      }
    });
  });

  describe('key rotation', () => {
    it('revokes the previous key by default: old key 401, new key works, data unchanged', async () => {
      const t = await svc().createTeam('Rotating team');
      const uid = await svc().createUser(t, { client_user_id: 'rot-1' });
      const r = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${t.teamId}/api-keys`, headers: { 'x-admin-token': ADMIN_TOKEN } });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ team_id: t.teamId, api_key: expect.stringMatching(/^lsk_[A-Za-z0-9_-]{43}$/), revoked_keys: 1 });
      expect(r.body.api_key).not.toBe(t.apiKey);

      expectDetail(await svc().api(t.apiKey).get(`/v2/user/${uid}`), 401);
      const withNew = await svc().api(r.body.api_key).get(`/v2/user/${uid}`);
      expect(withNew.status).toBe(200);
      expect(withNew.body.client_user_id).toBe('rot-1');
      // Another team's key is untouched by this team's rotation.
      expect((await svc().api(team.apiKey).get('/v2/user')).status).toBe(200);
    });

    it('keeps the earlier keys with revoke_previous:false; a later default rotation revokes them all', async () => {
      const t = await svc().createTeam('Overlap team');
      const second = await svc().inject({
        method: 'POST',
        url: `/admin/v1/teams/${t.teamId}/api-keys`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        payload: { revoke_previous: false },
      });
      expect(second.status).toBe(201);
      expect(second.body.revoked_keys).toBe(0);
      for (const key of [t.apiKey, second.body.api_key]) {
        const r = await svc().api(key).get('/v2/user');
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(0);
      }

      const third = await svc().inject({
        method: 'POST',
        url: `/admin/v1/teams/${t.teamId}/api-keys`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        payload: { revoke_previous: true },
      });
      expect(third.status).toBe(201);
      expect(third.body.revoked_keys).toBe(2);
      expectDetail(await svc().api(t.apiKey).get('/v2/user'), 401);
      expectDetail(await svc().api(second.body.api_key).get('/v2/user'), 401);
      expect((await svc().api(third.body.api_key).get('/v2/user')).status).toBe(200);
    });

    /**
     * Another service process: on PostgreSQL a store of its own (its own pool and LISTEN
     * connection) on the same database; the embedded store has one process, so a second app on it.
     */
    async function anotherProcess() {
      const url = svc().database?.databaseUrl;
      const second = url ? await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: url }) : undefined;
      const store = second ?? svc().store;
      const app = await buildServiceApp({ db: store.db, notifications: store.notifications });
      return {
        app,
        notifications: store.notifications,
        close: async () => {
          await app.close();
          await second?.close();
        },
      };
    }

    it('revokes a key every process has cached, the moment another process rotates it', async () => {
      const t = await svc().createTeam('Cached key team');
      const { app: otherProcess, close } = await anotherProcess();
      try {
        // Both have the key in their cache…
        for (const app of [svc().app, otherProcess]) {
          for (let i = 0; i < 3; i++) expect((await svc().inject({ method: 'GET', url: '/v2/user', key: t.apiKey }, app)).status).toBe(200);
        }
        // …and the rotation, made through the first, is refused at once by both.
        const rotated = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${t.teamId}/api-keys`, headers: { 'x-admin-token': ADMIN_TOKEN } });
        expect(rotated.status).toBe(201);
        expectDetail(await svc().inject({ method: 'GET', url: '/v2/user', key: t.apiKey }), 401);
        // At once, not eventually: the other process catches up with the announcement before it
        // trusts its memory (the notification may still be on its way when the rotation answers).
        expectDetail(await svc().inject({ method: 'GET', url: '/v2/user', key: t.apiKey }, otherProcess), 401);
        expect((await svc().inject({ method: 'GET', url: '/v2/user', key: rotated.body.api_key }, otherProcess)).status).toBe(200);
      } finally {
        await close();
      }
    });

    it('trusts no cached key while its notification channel is down, and caches again once it is back (PostgreSQL)', async () => {
      const url = svc().database?.databaseUrl;
      // The embedded store's notifications come back on its one session: they cannot be lost.
      if (!url) return;
      const t = await svc().createTeam('Channel down team');
      const { app: otherProcess, notifications, close } = await anotherProcess();
      const operator = new pg.Client({ connectionString: url });
      await operator.connect();
      const status = async (key: string) => (await svc().inject({ method: 'GET', url: '/v2/user', key }, otherProcess)).status;
      try {
        expect(await status(t.apiKey)).toBe(200);
        const dropped = await operator.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'labdesk_notifications'`,
        );
        expect(dropped.rows.some((r) => r.ended)).toBe(true);
        // Rotated while the other process cannot hear it: refused there all the same.
        const rotated = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${t.teamId}/api-keys`, headers: { 'x-admin-token': ADMIN_TOKEN } });
        expect(rotated.status).toBe(201);
        expectDetail(await svc().inject({ method: 'GET', url: '/v2/user', key: t.apiKey }, otherProcess), 401);
        expect(await status(rotated.body.api_key)).toBe(200);
        // Back (re-made after a pause): the new key is remembered again and a rotation still refused at once.
        while ((await notifications.catchUp()) === null) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await status(rotated.body.api_key)).toBe(200);
        const again = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${t.teamId}/api-keys`, headers: { 'x-admin-token': ADMIN_TOKEN } });
        expect(again.status).toBe(201);
        expectDetail(await svc().inject({ method: 'GET', url: '/v2/user', key: rotated.body.api_key }, otherProcess), 401);
        expect(await status(again.body.api_key)).toBe(200);
      } finally {
        await operator.end();
        await close();
      }
    });

    it('answers 404 for an unknown team and 422 for a malformed team id or body', async () => {
      const h = { 'x-admin-token': ADMIN_TOKEN };
      expectDetail(await svc().inject({ method: 'POST', url: `/admin/v1/teams/${UNKNOWN_UUID}/api-keys`, headers: h }), 404);
      expect422(await svc().inject({ method: 'POST', url: '/admin/v1/teams/not-a-uuid/api-keys', headers: h }), ['path', 'team_id']);
      expect422(
        await svc().inject({ method: 'POST', url: `/admin/v1/teams/${team.teamId}/api-keys`, headers: h, payload: { revoke_previous: 'yes' } }),
        ['body', 'revoke_previous'],
      );
      // The failed attempts revoked nothing.
      expect((await svc().api(team.apiKey).get('/v2/user')).status).toBe(200);
    });
  });

  describe('operator API', () => {
    it('answers 401 without, or with a wrong, x-admin-token', async () => {
      for (const headers of [{}, { 'x-admin-token': '' }, { 'x-admin-token': 'wrong' }, { 'x-admin-token': `${ADMIN_TOKEN}x` }, { 'x-service-api-key': ADMIN_TOKEN }]) {
        const create = await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers, payload: { name: 'Nope' } });
        expectDetail(create, 401);
        const rotate = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${team.teamId}/api-keys`, headers });
        expectDetail(rotate, 401);
      }
      // Nothing was rotated by the refused calls.
      expect((await svc().api(team.apiKey).get('/v2/user')).status).toBe(200);
    });

    it('creates a team: 201 {team_id, api_key}; the key opens an empty team of its own', async () => {
      const r = await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { name: '  Clinic Nord  ' } });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(['api_key', 'team_id']);
      expect(r.body.team_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(r.body.api_key).toMatch(/^lsk_[A-Za-z0-9_-]{43}$/);
      const list = await svc().api(r.body.api_key).get('/v2/user');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ users: [], total: 0, offset: 0, limit: 100 });
    });

    it('validates the team name (422 with loc body.name)', async () => {
      const h = { 'x-admin-token': ADMIN_TOKEN };
      for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 42 }, { name: null }, { name: ['a'] }, { name: 'a\u0000b' }]) {
        expect422(await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers: h, payload }), ['body', 'name']);
      }
      expect((await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers: h, payload: { name: 'x'.repeat(200) } })).status).toBe(201);
      expect((await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers: h, payload: { name: 'Équipe 東京 🧘' } })).status).toBe(201);
      expect422(await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers: { ...h, 'content-type': 'application/json' }, payload: '{"name":' }), ['body']);
    });

    it('is disabled without an admin token: 404 with a detail that says so', async () => {
      const noAdmin = await svc().buildApp({ adminToken: undefined });
      for (const headers of [{}, { 'x-admin-token': ADMIN_TOKEN }, { 'x-admin-token': '' }]) {
        const r = await svc().inject({ method: 'POST', url: '/admin/v1/teams', headers, payload: { name: 'Nope' } }, noAdmin);
        expectDetail(r, 404);
        expect(r.body.detail).toMatch(/operator API is disabled/);
        expect(r.body.detail).toMatch(/SERVICE_ADMIN_TOKEN/);
        const rotate = await svc().inject({ method: 'POST', url: `/admin/v1/teams/${team.teamId}/api-keys`, headers }, noAdmin);
        expectDetail(rotate, 404);
      }
      // The team API still works on that app.
      expect((await svc().inject({ method: 'GET', url: '/v2/user', key: team.apiKey }, noAdmin)).status).toBe(200);
    });
  });
});
