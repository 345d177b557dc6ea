/**
 * Path ids arrive parsed by the BFF's contract: one that cannot be a record's id is "not found"
 * at once, and never becomes an upstream URL that climbs to another endpoint
 * (`/api/users/%2E%2E` → `GET /v2/user/..` → `GET /v2/`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, startFakeUpstream, type BffFixture, type FakeUpstream, type Session } from './harness';

let upstream: FakeUpstream;
let bff: BffFixture;
let admin: Session;

beforeAll(async () => {
  upstream = await startFakeUpstream(() => ({ status: 404, body: { detail: 'not found' } }));
  bff = await startBff('pglite', { serviceBaseUrl: upstream.url, serviceApiKey: 'fake-upstream-key' });
  admin = await bff.login('admin');
});
afterAll(async () => {
  await bff?.close();
  await upstream?.close();
});

// (A bare `.` is the list itself: URLs drop dot segments before any route sees them.)
const climbing = ['%2E%2E', '..%2F..%2Fv2%2Fuser', '%2F', 'a%2Fb', '.hidden', 'x'.repeat(101)];
const routes = ['/api/users/:id', '/api/orders/:id', '/api/appointments/:id', '/api/lab-accounts/:id', '/api/lab-tests/:id', '/api/labs/:id', '/api/parser-jobs/:id', '/api/webhook-endpoints/:id', '/api/users/:id/mindfulness-minutes?start_date=2026-01-01&end_date=2026-01-02'];

describe('path ids', () => {
  it.each(routes)('%s answers 404 for ids that could climb, without calling the service', async (route) => {
    for (const id of climbing) {
      const before = upstream.requests.length;
      const r = await bff.get(route.replace(':id', id), admin);
      // 414 for an id past Fastify's parameter length, before any route runs.
      expect(r.status, `${route} ${id}`).toBe(id.length > 100 ? 414 : 404);
      expect(r.body).toMatchObject({ message: expect.any(String) });
      expect(upstream.requests.length, `${route} ${id}`).toBe(before);
    }
  });

  it('passes an ordinary id on, encoded', async () => {
    const before = upstream.requests.length;
    expect((await bff.get('/api/users/0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c', admin)).status).toBe(404);
    expect(upstream.requests.slice(before).map((r) => r.url)).toEqual(['/v2/user/0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c']);
  });
});
