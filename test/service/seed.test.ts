import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import { seedDemoIfEmpty } from '../../server/service/seed/demo';
import { flatten, groupedUrl, openTestStore, storeKinds, useService, type ServiceHarness } from './harness';

const DEMO_KEY = 'demo-key-for-the-seed-suite-0001';
const NOW = new Date('2026-06-01T12:00:00Z');
const OPTIONS = { apiKey: DEMO_KEY, users: 8, days: 45, now: NOW, seed: 4242 };

interface SeededUser {
  user_id: string;
  client_user_id: string;
  connected_sources: { provider: { slug: string; name: string; logo: string }; source: unknown }[];
  fallback_time_zone: { id: string } | null;
}

/** What a client of the seeded team sees: its users and every session of each, fetched over HTTP. */
async function snapshot(svc: ServiceHarness, key: string, app = svc.app) {
  const list = await svc.inject({ method: 'GET', url: '/v2/user?limit=500', key }, app);
  expect(list.status).toBe(200);
  const users = list.body.users as SeededUser[];
  const sessions: Record<string, { provider: string; start: string; value: number; timezone_offset: number | null }[]> = {};
  for (const u of users) {
    const points = [];
    let cursor: string | null = null;
    do {
      const r = await svc.inject({ method: 'GET', url: groupedUrl(u.user_id, { start_date: '2025-01-01', next_cursor: cursor ?? undefined }), key }, app);
      expect(r.status).toBe(200);
      points.push(...flatten(r.body).map((p) => ({ provider: p.provider, start: p.start, value: p.value, timezone_offset: p.timezone_offset })));
      cursor = r.body.next_cursor;
    } while (cursor);
    sessions[u.client_user_id] = points;
  }
  return { total: list.body.total as number, users, sessions };
}

describe.each(storeKinds)('demo seed (%s)', (kind) => {
  const svc = useService(kind);
  let teamId: string | null;
  let seen: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    teamId = await seedDemoIfEmpty(svc().db, OPTIONS);
    seen = await snapshot(svc(), DEMO_KEY);
  });

  it('creates the demo team, opened by the given key', async () => {
    expect(teamId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.total).toBe(8);
    expect(seen.users).toHaveLength(8);
    expect(seen.users.every((u) => (u as unknown as { team_id: string }).team_id === teamId)).toBe(true);
    expect((await svc().api('some-other-key-000000000').get('/v2/user')).status).toBe(401);
  });

  it('gives every user 2 to 4 connected sources, with names and logos', () => {
    for (const u of seen.users) {
      expect(u.connected_sources.length).toBeGreaterThanOrEqual(2);
      expect(u.connected_sources.length).toBeLessThanOrEqual(4);
      for (const s of u.connected_sources) {
        expect(s.provider.name.length).toBeGreaterThan(0);
        expect(s.provider.logo).toMatch(/^https?:\/\//);
        expect(s.source).toEqual(s.provider);
      }
    }
  });

  it('uses realistic client_user_ids that the API itself would accept (no PII)', async () => {
    const ids = seen.users.map((u) => u.client_user_id);
    expect(new Set(ids).size).toBe(ids.length);
    const check = await svc().createTeam('PII check team');
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{4,}$/);
      const r = await svc().api(check.apiKey).post('/v2/user', { client_user_id: id });
      expect(r.status, `${id}: ${JSON.stringify(r.body)}`).toBe(200);
    }
  });

  it('seeds sessions from the connected sources only, none after `now`, within the seeded days', () => {
    let total = 0;
    for (const u of seen.users) {
      const slugs = new Set(u.connected_sources.map((s) => s.provider.slug));
      for (const p of seen.sessions[u.client_user_id]!) {
        expect(slugs.has(p.provider)).toBe(true);
        expect(Date.parse(p.start)).toBeLessThanOrEqual(NOW.getTime());
        expect(Date.parse(p.start)).toBeGreaterThan(NOW.getTime() - (OPTIONS.days + 2) * 86_400_000);
        expect(p.value).toBeGreaterThan(0);
        total++;
      }
    }
    expect(total).toBeGreaterThan(0);
  });

  it('never seeds twice; a later demo key also opens the demo team', async () => {
    expect(await seedDemoIfEmpty(svc().db, OPTIONS)).toBeNull();
    expect((await svc().api(DEMO_KEY).get('/v2/user')).body.total).toBe(8);
    const laterKey = 'demo-key-set-after-first-start-02';
    expect(await seedDemoIfEmpty(svc().db, { ...OPTIONS, apiKey: laterKey })).toBeNull();
    const r = await svc().api(laterKey).get('/v2/user');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(8);
    // Still the one demo team with the same users.
    expect(r.body.users.map((u: SeededUser) => u.user_id).sort()).toEqual(seen.users.map((u) => u.user_id).sort());
  });

  describe('determinism', () => {
    let other: Awaited<ReturnType<typeof openTestStore>>;
    afterAll(async () => {
      await other?.store.close();
      await other?.database.drop();
    });

    it('the same seed and `now` give the same users and sessions on another store', async () => {
      other = await openTestStore(kind);
      expect(await seedDemoIfEmpty(other.store.db, OPTIONS)).not.toBeNull();
      const app = await buildServiceApp({ db: other.store.db });
      try {
        const again = await snapshot(svc(), DEMO_KEY, app);
        expect(again.users.map((u) => u.client_user_id)).toEqual(seen.users.map((u) => u.client_user_id));
        expect(again.users.map((u) => u.fallback_time_zone?.id ?? null)).toEqual(seen.users.map((u) => u.fallback_time_zone?.id ?? null));
        expect(again.users.map((u) => u.connected_sources.map((s) => s.provider.slug))).toEqual(
          seen.users.map((u) => u.connected_sources.map((s) => s.provider.slug)),
        );
        expect(again.sessions).toEqual(seen.sessions);
      } finally {
        await app.close();
      }
    });
  });
});
