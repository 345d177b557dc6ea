/**
 * Who may do what, and the audit trail of it: sessions, CSRF, the role matrix and audit events,
 * against the real service. On every store kind (sessions and the audit trail live in the BFF's store).
 */
import { asc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/bff/db/schema';
import {
  PASSWORD,
  UNKNOWN_UUID,
  listQuery,
  staffEmail,
  startBff,
  startFakeUpstream,
  startService,
  storeKinds,
  type BffFixture,
  type ServiceFixture,
  type Session,
  type StaffKey,
} from './harness';

// Distinctive minute values: they must never show up in the audit trail.
const MINUTES = [13.37, 21.91];

let service: ServiceFixture;
let userIds: string[];
let foreignUserId: string;

beforeAll(async () => {
  service = await startService();
  userIds = await service.addUsers(service.team, [
    { clientUserId: 'pt-access-1', fallbackTimeZone: 'Europe/London', sources: ['oura'] },
    { clientUserId: 'pt-access-2' },
    { clientUserId: 'pt-access-3' },
  ]);
  [foreignUserId] = (await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-foreign' }])) as [string];
  await service.addPoints(userIds[0]!, [
    { provider: 'oura', start: '2026-05-02T08:00:00Z', minutes: MINUTES[0]!, offset: 3600 },
    { provider: 'oura', start: '2026-05-03T08:00:00Z', minutes: MINUTES[1]!, offset: 3600 },
  ]);
});
afterAll(async () => {
  await service?.close();
});

const chartUrl = (id: string) => `/api/users/${id}/mindfulness-minutes?start_date=2026-05-01&end_date=2026-05-07`;

describe.each(storeKinds)('access and audit (%s)', (kind) => {
  let bff: BffFixture;
  const sessions = {} as Record<StaffKey, Session>;

  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    for (const who of ['admin', 'coordinator', 'lab_ops', 'reviewer', 'unknown'] as const) sessions[who] = await bff.login(who);
  });
  afterAll(async () => {
    await bff?.close();
  });

  /** Audit events written after `sinceId`, oldest first. */
  const eventsSince = async (sinceId: number) =>
    bff.db.select().from(auditEvents).where(gt(auditEvents.id, sinceId)).orderBy(asc(auditEvents.id));
  const lastEventId = async () => {
    const rows = await bff.db.select({ id: auditEvents.id }).from(auditEvents);
    return Math.max(0, ...rows.map((r) => r.id));
  };

  const resourceCalls = () => [
    { name: 'users list', url: `/api/users${listQuery({ sort: ['id', 'ASC'], range: [0, 24], filter: {} })}`, permission: 'users' },
    { name: 'users search', url: `/api/users${listQuery({ filter: { q: 'access' } })}`, permission: 'users' },
    { name: 'users getMany', url: `/api/users${listQuery({ filter: { id: userIds.slice(0, 2) } })}`, permission: 'users' },
    { name: 'users getOne', url: `/api/users/${userIds[0]}`, permission: 'users' },
    { name: 'mindfulness minutes', url: chartUrl(userIds[0]!), permission: 'timeseries' },
    { name: 'audit events', url: '/api/audit-events', permission: 'audit' },
  ];

  const MATRIX: Record<StaffKey, Record<string, number>> = {
    admin: { users: 200, timeseries: 200, audit: 200 },
    coordinator: { users: 200, timeseries: 200, audit: 403 },
    lab_ops: { users: 200, timeseries: 403, audit: 403 },
    reviewer: { users: 403, timeseries: 403, audit: 403 },
    unknown: { users: 403, timeseries: 403, audit: 403 },
  };

  describe('sessions and CSRF', () => {
    it('answers every resource call without a session with 401 {message}', async () => {
      const calls = [...resourceCalls().map((c) => ({ method: 'GET' as const, url: c.url })), { method: 'GET' as const, url: '/api/orders' }];
      for (const { method, url } of calls) {
        const r = await bff.request({ method, url });
        expect(r.status, url).toBe(401);
        expect(r.body.message, url).toBeTruthy();
      }
      // Mutations too, with or without a CSRF header, on existing and unknown routes.
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        for (const url of ['/api/users', `/api/users/${userIds[0]}`, '/api/audit-events', '/api/orders']) {
          const r = await bff.request({ method, url, csrf: 'anything', payload: {} });
          expect(r.status, `${method} ${url}`).toBe(401);
        }
      }
    });

    it('answers every mutation without the CSRF header, or with a wrong one, with 403', async () => {
      const s = sessions.admin;
      const targets = [
        { method: 'POST' as const, url: '/api/auth/logout' },
        { method: 'POST' as const, url: '/api/users' },
        { method: 'PUT' as const, url: `/api/users/${userIds[0]}` },
        { method: 'PATCH' as const, url: `/api/users/${userIds[0]}` },
        { method: 'DELETE' as const, url: `/api/users/${userIds[0]}` },
        { method: 'POST' as const, url: '/api/orders' },
      ];
      for (const t of targets) {
        for (const csrf of [false, 'not-the-token', sessions.coordinator.csrfToken]) {
          const r = await bff.request({ ...t, session: s, csrf, payload: {} });
          expect(r.status, `${t.method} ${t.url} csrf=${String(csrf)}`).toBe(403);
          expect(r.body.message).toBeTruthy();
        }
      }
      // With the right token a mutation gets past the check (these routes do not exist: 404).
      expect((await bff.request({ method: 'DELETE', url: `/api/users/${userIds[0]}`, session: s })).status).toBe(404);
      // The session survived all that.
      expect((await bff.get('/api/auth/me', s)).status).toBe(200);
    });

    it('does not need the CSRF header for reads', async () => {
      const r = await bff.request({ url: `/api/users/${userIds[0]}`, session: sessions.admin, csrf: false });
      expect(r.status).toBe(200);
    });
  });

  describe('roles', () => {
    it.each(Object.keys(MATRIX) as StaffKey[])('%s gets exactly what the permission matrix allows', async (who) => {
      for (const call of resourceCalls()) {
        const r = await bff.get(call.url, sessions[who]);
        const expected = MATRIX[who][call.permission];
        expect(r.status, `${who} ${call.name}: ${JSON.stringify(r.body)}`).toBe(expected);
        if (expected === 403) {
          expect(r.body.message).toMatch(/role/i);
          expect(Object.keys(r.body)).toEqual(['message']);
        }
      }
    });

    it('still lets an unknown role sign in and see who they are (and nothing else)', async () => {
      const me = await bff.get<{ user: { role: string } }>('/api/auth/me', sessions.unknown);
      expect(me.status).toBe(200);
      expect(me.body.user.role).toBe('auditor');
    });

    it('answers a denied call without asking the service', async () => {
      const upstream = await startFakeUpstream(() => ({ status: 500, body: { detail: 'should not be called' } }));
      try {
        const app = await bff.buildApp({ serviceBaseUrl: upstream.url });
        for (const call of resourceCalls().filter((c) => c.permission !== 'audit')) {
          expect((await bff.get(call.url, sessions.reviewer, app)).status).toBe(403);
        }
        expect((await bff.get(chartUrl(userIds[0]!), sessions.lab_ops, app)).status).toBe(403);
        expect(upstream.requests).toEqual([]);
      } finally {
        await upstream.close();
      }
    });
  });

  describe('audit trail', () => {
    it('records a users list page with the staff id, action, resource and the record ids shown', async () => {
      const since = await lastEventId();
      const r = await bff.get<{ id: string }[]>(`/api/users${listQuery({ range: [0, 1] })}`, sessions.coordinator);
      expect(r.status).toBe(200);
      const events = await eventsSince(since);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        staffId: bff.staff.coordinator.id,
        staffEmail: staffEmail('coordinator'),
        action: 'list',
        resource: 'users',
        recordIds: r.body.map((u) => u.id),
        outcome: 'ok',
      });
      expect(events[0]!.recordIds).toEqual(userIds.slice(0, 2));
      expect(events[0]!.at.getTime()).toBeGreaterThan(Date.now() - 60_000);
    });

    it('records getOne and getMany reads with their record ids', async () => {
      const since = await lastEventId();
      expect((await bff.get(`/api/users/${userIds[1]}`, sessions.lab_ops)).status).toBe(200);
      expect((await bff.get(`/api/users${listQuery({ filter: { id: [userIds[2], UNKNOWN_UUID] } })}`, sessions.lab_ops)).status).toBe(200);
      const events = await eventsSince(since);
      expect(events.map((e) => [e.staffId, e.action, e.resource, e.recordIds])).toEqual([
        [bff.staff.lab_ops.id, 'read', 'users', [userIds[1]]],
        [bff.staff.lab_ops.id, 'read', 'users', [userIds[2]]],
      ]);
    });

    it('records a mindfulness read with the user id and the range, but no health values', async () => {
      const since = await lastEventId();
      const r = await bff.get<{ days: { total: number }[] }>(chartUrl(userIds[0]!), sessions.coordinator);
      expect(r.status).toBe(200);
      // The chart itself does carry the values...
      expect(r.body.days.map((d) => d.total)).toEqual(expect.arrayContaining(MINUTES));
      const events = await eventsSince(since);
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event).toMatchObject({
        staffId: bff.staff.coordinator.id,
        action: 'read',
        resource: 'mindfulness_minutes',
        recordIds: [userIds[0]],
        outcome: 'ok',
      });
      expect(event!.detail).toMatchObject({ start_date: '2026-05-01', end_date: '2026-05-07' });
      // ...the trail does not: no minutes, totals, sessions or provider breakdown.
      const text = JSON.stringify(event);
      for (const v of [...MINUTES, MINUTES[0]! + MINUTES[1]!]) expect(text).not.toContain(String(v));
      for (const key of ['days', 'total', 'by_provider', 'sessions', 'providers', 'value']) {
        expect(Object.keys(event!.detail)).not.toContain(key);
      }
    });

    it('records denied accesses with the staff id and a 403', async () => {
      const since = await lastEventId();
      expect((await bff.get('/api/users', sessions.reviewer)).status).toBe(403);
      expect((await bff.get(chartUrl(userIds[0]!), sessions.lab_ops)).status).toBe(403);
      expect((await bff.get('/api/audit-events', sessions.coordinator)).status).toBe(403);
      const events = await eventsSince(since);
      // Each denial names what was attempted, on what, and that it was refused.
      expect(events.map((e) => [e.staffId, e.action, e.resource, e.outcome, e.statusCode])).toEqual([
        [bff.staff.reviewer.id, 'list', 'users', 'denied', 403],
        [bff.staff.lab_ops.id, 'read', 'mindfulness_minutes', 'denied', 403],
        [bff.staff.coordinator.id, 'list', 'audit_events', 'denied', 403],
      ]);
      expect(events[1]!.recordIds).toEqual([userIds[0]]);
      // Nothing that was denied is recorded as done.
      expect(events.some((e) => e.outcome === 'ok')).toBe(false);
    });

    it('records sign-in successes and failures, and sign-outs', async () => {
      const since = await lastEventId();
      const login = (email: string, password: string) => bff.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      expect((await login(staffEmail('lab_ops'), 'not the password')).status).toBe(401);
      expect((await login('stranger@labdesk.test', PASSWORD)).status).toBe(401);
      const session = await bff.login('lab_ops');
      expect((await bff.request({ method: 'POST', url: '/api/auth/logout', session })).status).toBe(204);
      const events = await eventsSince(since);
      expect(events.map((e) => [e.action, e.resource, e.outcome, e.staffId])).toEqual([
        ['login', 'auth', 'denied', bff.staff.lab_ops.id],
        ['login', 'auth', 'denied', null],
        ['login', 'auth', 'ok', bff.staff.lab_ops.id],
        ['logout', 'auth', 'ok', bff.staff.lab_ops.id],
      ]);
      expect(events[0]!.statusCode).toBe(401);
      // Never the password that was tried.
      expect(JSON.stringify(events)).not.toContain('not the password');
      expect(JSON.stringify(events)).not.toContain(PASSWORD);
    });

    it('does not record a read the service refused (another team’s user)', async () => {
      const since = await lastEventId();
      expect((await bff.get(`/api/users/${foreignUserId}`, sessions.admin)).status).toBe(404);
      const events = await eventsSince(since);
      // What was asked is kept (who looked for which id), as a failure: nothing was read.
      expect(events.map((e) => [e.action, e.resource, e.recordIds, e.outcome, e.statusCode])).toEqual([['read', 'users', [foreignUserId], 'failed', 404]]);
      expect(events[0]!.patientIds).toEqual([]);
    });

    it('is readable by admins as audit-events, newest first, with a total and filters', async () => {
      const all = await bff.get<{ id: string; at: string; action: string; staff_id: string | null }[]>(
        `/api/audit-events${listQuery({ sort: ['at', 'DESC'], range: [0, 9] })}`,
        sessions.admin,
      );
      expect(all.status).toBe(200);
      expect(all.body.length).toBe(10);
      expect(all.headers['content-range']).toMatch(/^audit-events 0-9\/\d+$/);
      const times = all.body.map((e) => Date.parse(e.at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);

      const mine = await bff.get<{ staff_id: string | null; outcome: string }[]>(
        `/api/audit-events${listQuery({ filter: { staff_id: bff.staff.reviewer.id, outcome: 'denied' } })}`,
        sessions.admin,
      );
      expect(mine.status).toBe(200);
      expect(mine.body.length).toBeGreaterThan(0);
      expect(mine.body.every((e) => e.staff_id === bff.staff.reviewer.id && e.outcome === 'denied')).toBe(true);

      // One patient's trail: every access that touched their data.
      const patient = await bff.get<{ patient_ids: string[] }[]>(`/api/audit-events${listQuery({ filter: { patient_id: userIds[0] } })}`, sessions.admin);
      expect(patient.status).toBe(200);
      expect(patient.body.length).toBeGreaterThan(0);
      expect(patient.body.every((e) => e.patient_ids.includes(userIds[0]!))).toBe(true);

      const ascending = await bff.get(`/api/audit-events${listQuery({ sort: ['at', 'ASC'] })}`, sessions.admin);
      expect(ascending.status).toBe(400);
      expect(ascending.body.message).toBeTruthy();
    });
  });
});
