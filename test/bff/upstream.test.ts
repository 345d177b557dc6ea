/**
 * What the dashboard sees when the service misbehaves or is another deployment: upstream errors
 * mapped onto `{message, errors}`, credentials problems that never sign staff out, answers of an
 * unexpected shape refused, and deployments that serve only the SDK's or the interface's paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/logCapture';
import {
  UNKNOWN_UUID,
  closedPortUrl,
  listQuery,
  startBff,
  startFakeUpstream,
  startService,
  wireUser,
  type BffFixture,
  type FakeHandler,
  type FakeUpstream,
  type ServiceFixture,
  type Session,
  type UserRecordBody,
} from './harness';

let service: ServiceFixture;
let bff: BffFixture;
let session: Session;
let userId: string;
const fakes: FakeUpstream[] = [];

beforeAll(async () => {
  service = await startService();
  [userId] = (await service.addUsers(service.team, [{ clientUserId: 'pt-upstream', fallbackTimeZone: 'UTC' }])) as [string];
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  session = await bff.login('admin');
});
afterAll(async () => {
  for (const f of fakes) await f.close();
  await bff?.close();
  await service?.close();
});

/** A BFF app in front of a fake upstream answering with `handler`. */
async function behindFake(handler: FakeHandler) {
  const fake = await startFakeUpstream(handler);
  fakes.push(fake);
  const app = await bff.buildApp({ serviceBaseUrl: fake.url, serviceApiKey: 'fake-key-123' });
  return { fake, app };
}

const chartPath = (id: string) => `/api/users/${id}/mindfulness-minutes?start_date=2026-05-01&end_date=2026-05-07`;

describe('upstream errors', () => {
  it('answers a malformed user id with 404 on the chart, as on the user page (the service’s 422 is about a path, not a form field)', async () => {
    for (const path of [chartPath('not-a-uuid'), '/api/users/not-a-uuid']) {
      const r = await bff.get(path, session);
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ message: 'User not found' });
    }
  });

  it('keys 422 field errors by the form field, without the location part', async () => {
    const { app } = await behindFake(() => ({
      status: 422,
      body: {
        detail: [
          { loc: ['query', 'limit'], msg: 'must be at most 50', type: 'value_error' },
          { loc: ['body', 'patient_address', 'zip'], msg: 'is not a US zip code', type: 'value_error' },
          { loc: ['query', 'limit'], msg: 'a second problem with limit', type: 'value_error' },
        ],
      },
    }));
    const r = await bff.get('/api/users', session, app);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      message: 'limit: must be at most 50',
      errors: { limit: 'must be at most 50', 'patient_address.zip': 'is not a US zip code' },
    });
  });

  it('keeps a 422 whose detail is a sentence as its message', async () => {
    const { app } = await behindFake(() => ({ status: 422, body: { detail: 'cursor is invalid or was tampered with' } }));
    const r = await bff.get('/api/users', session, app);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('cursor is invalid or was tampered with');
  });

  it('passes the service’s 404 on as 404 {message}', async () => {
    const r = await bff.get(chartPath(UNKNOWN_UUID), session);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('User not found');
  });

  it('answers 502 with a clear message when the service is down (closed port), and logs why without the path', async () => {
    const { lines, stream } = captureLogs();
    const app = await bff.buildApp({ serviceBaseUrl: await closedPortUrl(), logger: { level: 'info', stream } });
    for (const url of ['/api/users', `/api/users/${userId}`, chartPath(userId)]) {
      const r = await bff.get(url, session, app);
      expect(r.status, url).toBe(502);
      expect(r.body.message).toMatch(/cannot be reached/i);
    }
    const failures = lines.map((l) => JSON.parse(l) as { msg: string; operation?: string; upstreamStatus?: number; reason?: string }).filter((l) => l.msg === 'service call failed');
    expect(failures).toHaveLength(3);
    expect(failures[0]).toMatchObject({ operation: 'list users', upstreamStatus: 0, reason: 'ECONNREFUSED' });
    expect(lines.join('')).not.toContain(userId);
    // The staff member stays signed in.
    expect((await bff.get('/api/auth/me', session, app)).status).toBe(200);
  });

  it('answers 502, not 401, when the service rejects the API key: the staff member is not signed out', async () => {
    const app = await bff.buildApp({ serviceApiKey: 'lsk_not-the-teams-key' });
    for (const url of ['/api/users', `/api/users/${userId}`, chartPath(userId)]) {
      const r = await bff.get(url, session, app);
      expect(r.status, url).toBe(502);
      expect(r.body.message).toMatch(/API key/);
      expect(r.body.message).not.toContain('lsk_');
    }
    expect((await bff.get('/api/auth/me', session, app)).status).toBe(200);
    // A 403 from the service is the operator's problem too.
    const { app: forbidding } = await behindFake(() => ({ status: 403, body: { detail: 'Key revoked' } }));
    expect((await bff.get('/api/users', session, forbidding)).status).toBe(502);
  });

  it.each([
    ['a field of the wrong type', { status: 200, body: { users: 'nope', total: 1, offset: 0, limit: 25 } }],
    ['no body at all', { status: 200, body: '', raw: true }],
    ['text instead of JSON', { status: 200, body: '<html>maintenance</html>', raw: true }],
    ['an array', { status: 200, body: [] }],
    ['a 500', { status: 500, body: { detail: 'Internal server error' } }],
    ['a 503 in text', { status: 503, body: 'upstream overloaded', raw: true }],
  ])('answers 502 when the upstream answers %s', async (_name, answer) => {
    const { app } = await behindFake(() => answer);
    const r = await bff.get('/api/users', session, app);
    expect(r.status).toBe(502);
    expect(r.body.message).toBeTruthy();
    expect(r.raw.body).not.toContain('maintenance');
    expect(r.raw.body).not.toContain('nope');
  });

  it('answers 502 when a user or a timeseries page has an unexpected shape', async () => {
    const user = wireUser('pt-x');
    const { app } = await behindFake(({ path }) =>
      path.endsWith('/grouped')
        ? { status: 200, body: { groups: { oura: [{ source: { provider: 'oura' }, data: [{ value: 'ten' }] }] }, next_cursor: null } }
        : path.includes(UNKNOWN_UUID)
          ? { status: 200, body: { ...user, connected_sources: 'none' } }
          : { status: 200, body: { ...user, user_id: userId } },
    );
    expect((await bff.get(`/api/users/${UNKNOWN_UUID}`, session, app)).status).toBe(502);
    expect((await bff.get(chartPath(userId), session, app)).status).toBe(502);
  });

  it('sends the API key to the service and never to the browser', async () => {
    const { fake, app } = await behindFake(() => ({ status: 200, body: { users: [wireUser('pt-1')], total: 1, offset: 0, limit: 25 } }));
    const r = await bff.get('/api/users', session, app);
    expect(r.status).toBe(200);
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.every((q) => q.apiKey === 'fake-key-123')).toBe(true);
    expect(r.raw.body).not.toContain('fake-key-123');
    expect(JSON.stringify(r.headers)).not.toContain('fake-key-123');
  });
});

describe('other deployments', () => {
  /** A deployment that lists users at exactly `listPath` and nowhere else. */
  const directory = (listPath: string, count: number) => {
    const users = Array.from({ length: count }, (_, i) =>
      wireUser(`dep-${String(i).padStart(3, '0')}`, new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString()),
    );
    const handler: FakeHandler = ({ method, path, query }) => {
      if (method !== 'GET' || path !== listPath) return { status: 404, body: { detail: 'Not Found' } };
      const offset = Number(query.get('offset') ?? 0);
      const limit = Number(query.get('limit') ?? 100);
      return { status: 200, body: { users: users.slice(offset, offset + limit), total: users.length, offset, limit } };
    };
    return { users, handler };
  };

  it.each([
    ['only /v2/user (the SDK’s path)', '/v2/user'],
    ['only /v2/user/ (the interface’s path)', '/v2/user/'],
  ])('lists users from a deployment that serves %s', async (_name, listPath) => {
    const { users, handler } = directory(listPath, 30);
    const { fake, app } = await behindFake(handler);
    for (let round = 0; round < 2; round++) {
      const first = await bff.get<UserRecordBody[]>(`/api/users${listQuery({ sort: ['id', 'ASC'], range: [0, 24] })}`, session, app);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.headers['content-range']).toBe('users 0-24/30');
      expect(first.body.map((u) => u.client_user_id)).toEqual(users.slice(0, 25).map((u) => u.client_user_id));
      const second = await bff.get<UserRecordBody[]>(`/api/users${listQuery({ sort: ['created_on', 'DESC'], range: [25, 49] })}`, session, app);
      expect(second.status).toBe(200);
      expect(second.headers['content-range']).toBe('users 25-29/30');
      expect(second.body.map((u) => u.client_user_id)).toEqual(users.slice(0, 5).map((u) => u.client_user_id).reverse());
    }
    // Once the BFF knows the deployment's path it does not keep probing the other one.
    const misses = fake.requests.filter((q) => !q.url.startsWith(`${listPath}?`));
    expect(misses.length).toBeLessThanOrEqual(1);
  });

  it('lists newest first in one call per page once it knows the directory’s size, and stays right when the size changes', async () => {
    const { users, handler } = directory('/v2/user', 30);
    const { fake, app } = await behindFake(handler);
    const newest = (range: [number, number]) => bff.get<UserRecordBody[]>(`/api/users${listQuery({ sort: ['created_on', 'DESC'], range })}`, session, app);
    const ids = (from: number, to: number) => users.slice(from, to).map((u) => u.client_user_id).reverse();

    expect((await newest([0, 9])).body.map((u) => u.client_user_id)).toEqual(ids(20, 30));
    const calls = fake.requests.length;
    const again = await newest([10, 19]);
    expect(again.headers['content-range']).toBe('users 10-19/30');
    expect(again.body.map((u) => u.client_user_id)).toEqual(ids(10, 20));
    expect(fake.requests.length - calls).toBe(1);

    // Users added and removed behind the BFF's back: the page reports the new size, so the
    // offsets are read again from it.
    users.push(wireUser('dep-new-1', '2026-02-01T00:00:00.000Z'), wireUser('dep-new-2', '2026-02-01T00:01:00.000Z'));
    const grown = await newest([0, 9]);
    expect(grown.headers['content-range']).toBe('users 0-9/32');
    expect(grown.body.map((u) => u.client_user_id)).toEqual(ids(22, 32));
    users.splice(0, 27);
    const shrunk = await newest([0, 9]);
    expect(shrunk.headers['content-range']).toBe('users 0-4/5');
    expect(shrunk.body.map((u) => u.client_user_id)).toEqual(ids(0, 5));
    expect((await newest([10, 19])).headers['content-range']).toBe('users */5');
  });
});
