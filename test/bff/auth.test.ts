/**
 * Sign-in, sessions and CSRF, as the dashboard's user meets them: on every store kind, since
 * sessions live in the BFF's store.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_PROBE_HEADER } from '../../server/bff/api/auth';
import { verifyPassword } from '../../server/bff/auth/passwords';
import type { StaffUser } from '../../server/bff/auth/staff';
import { sessions, staff as staffTable } from '../../server/bff/db/schema';
import {
  PASSWORD,
  STAFF_ROLES,
  sleep,
  staffEmail,
  startBff,
  startService,
  storeKinds,
  type BffFixture,
  type ServiceFixture,
  type Session,
} from './harness';

interface LoginBody {
  user: StaffUser;
  csrfToken: string;
}

let service: ServiceFixture;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
});

describe.each(storeKinds)('sign-in and sessions (%s)', (kind) => {
  let bff: BffFixture;
  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  });
  afterAll(async () => {
    await bff?.close();
  });

  const login = (email: string, password: string, extra: { app?: BffFixture['app']; remoteAddress?: string } = {}) =>
    bff.request<LoginBody>({ method: 'POST', url: '/api/auth/login', payload: { email, password }, ...extra });

  describe('login', () => {
    it('answers 200 {user, csrfToken} and sets an HttpOnly, SameSite=Strict, Path=/ session cookie', async () => {
      const r = await login(staffEmail('coordinator'), PASSWORD);
      expect(r.status).toBe(200);
      expect(r.body.user).toEqual({ id: bff.staff.coordinator.id, email: staffEmail('coordinator'), name: 'Test coordinator', role: 'coordinator', mfa_enabled: false });
      expect(r.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(Object.keys(r.body).sort()).toEqual(['csrfToken', 'user']);

      const setCookie = [r.headers['set-cookie']].flat().find((c) => c?.startsWith('labdesk_session='));
      expect(setCookie).toBeDefined();
      expect(setCookie).toMatch(/;\s*HttpOnly/i);
      expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
      expect(setCookie).toMatch(/;\s*Path=\/(;|$)/);
      const cookie = r.raw.cookies.find((c) => c.name === 'labdesk_session')!;
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Strict');
      expect(cookie.path).toBe('/');
      // The cookie carries a token, never the user's identity or the CSRF token.
      expect(cookie.value).not.toContain(bff.staff.coordinator.id);
      expect(cookie.value).not.toContain(r.body.csrfToken);
    });

    it('accepts the e-mail in another case and with surrounding spaces', async () => {
      const r = await login(`  ${staffEmail('lab_ops').toUpperCase()} `, PASSWORD);
      expect(r.status).toBe(200);
      expect(r.body.user.id).toBe(bff.staff.lab_ops.id);
    });

    it('answers a wrong password and an unknown e-mail with the same 401 message, and sets no cookie', async () => {
      const wrong = await login(staffEmail('admin'), `${PASSWORD}x`);
      const unknown = await login('nobody@labdesk.test', PASSWORD);
      for (const r of [wrong, unknown]) {
        expect(r.status).toBe(401);
        expect(r.raw.cookies.find((c) => c.name === 'labdesk_session')).toBeUndefined();
      }
      const [a, b] = [wrong.body as unknown as { message: string }, unknown.body as unknown as { message: string }];
      expect(a.message).toBeTruthy();
      expect(a).toEqual(b);
    });

    it('refuses a disabled staff member, and ends their sessions', async () => {
      const session = await bff.login('reviewer');
      expect((await bff.get('/api/auth/me', session)).status).toBe(200);
      await bff.db.update(staffTable).set({ disabledAt: new Date() }).where(eq(staffTable.id, bff.staff.reviewer.id));
      try {
        expect((await login(staffEmail('reviewer'), PASSWORD)).status).toBe(401);
        expect((await bff.get('/api/auth/me', session)).status).toBe(401);
      } finally {
        await bff.db.update(staffTable).set({ disabledAt: null }).where(eq(staffTable.id, bff.staff.reviewer.id));
      }
    });

    it('answers an incomplete body with a 4xx {message}', async () => {
      const r = await bff.request({ method: 'POST', url: '/api/auth/login', payload: { email: staffEmail('admin') } });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.message).toBeTruthy();
    });

    // Throttling (per account and per address, stored): test/bff/signInThrottle.test.ts.
  });

  describe('the session', () => {
    it('/api/auth/me answers the user and the same CSRF token with the cookie, and 401 {message} without', async () => {
      const session = await bff.login('admin');
      const me = await bff.get<LoginBody>('/api/auth/me', session);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ user: session.user, csrfToken: session.csrfToken });

      const anonymous = await bff.get('/api/auth/me');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.message).toBeTruthy();
    });

    it('gives each sign-in its own session and CSRF token', async () => {
      const a = await bff.login('admin');
      const b = await bff.login('admin');
      expect(a.value).not.toBe(b.value);
      expect(a.csrfToken).not.toBe(b.csrfToken);
      // One session's CSRF token does not open the other.
      const r = await bff.request({ method: 'POST', url: '/api/auth/logout', session: a, csrf: b.csrfToken });
      expect(r.status).toBe(403);
    });

    it('refuses a tampered, unsigned or foreign cookie with 401', async () => {
      const session = await bff.login('admin');
      const dot = session.value.lastIndexOf('.');
      const token = session.value.slice(0, dot);
      const signature = session.value.slice(dot + 1);
      const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
      const variants = [
        `${flip(token)}.${signature}`, // another token, old signature
        `${token}.${flip(signature)}`, // the token, a forged signature
        token, // the raw token without a signature
        `${token}.`,
        'garbage',
      ];
      for (const value of variants) {
        const r = await bff.request({ url: '/api/auth/me', headers: { cookie: `labdesk_session=${value}` } });
        expect(r.status, value).toBe(401);
        const users = await bff.request({ url: '/api/users', headers: { cookie: `labdesk_session=${value}` } });
        expect(users.status, value).toBe(401);
      }
      // The genuine cookie still works.
      expect((await bff.get('/api/auth/me', session)).status).toBe(200);
    });

    it('is signed with the session secret: another deployment’s secret does not accept it', async () => {
      const session = await bff.login('admin');
      const other = await bff.buildApp({ sessionSecret: 'another-secret-0123456789abcdef0123456789' });
      expect((await bff.get('/api/auth/me', session, other)).status).toBe(401);
    });

    it('lives in the store: another BFF process on it accepts the session, and a sign-out in one ends it in both', async () => {
      const session = await bff.login('coordinator');
      const other = await bff.buildApp();
      expect((await bff.get('/api/auth/me', session, other)).status).toBe(200);
      const out = await bff.request({ method: 'POST', url: '/api/auth/logout', session, app: other });
      expect(out.status).toBeLessThan(300);
      expect((await bff.get('/api/auth/me', session, other)).status).toBe(401);
      expect((await bff.get('/api/auth/me', session)).status).toBe(401);
    });

    it('stores only a hash of the session token', async () => {
      const session = await bff.login('coordinator');
      const token = session.value.slice(0, session.value.lastIndexOf('.'));
      const rows = await bff.db.select().from(sessions);
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toContain(token);
    });
  });

  describe('logout', () => {
    it('needs the CSRF header: none or a wrong one is 403 and the session lives on', async () => {
      const session = await bff.login('coordinator');
      const none = await bff.request({ method: 'POST', url: '/api/auth/logout', session, csrf: false });
      expect(none.status).toBe(403);
      expect(none.body.message).toMatch(/csrf/i);
      const wrong = await bff.request({ method: 'POST', url: '/api/auth/logout', session, csrf: `${session.csrfToken.slice(1)}x` });
      expect(wrong.status).toBe(403);
      const empty = await bff.request({ method: 'POST', url: '/api/auth/logout', session, csrf: '' });
      expect(empty.status).toBe(403);
      expect((await bff.get('/api/auth/me', session)).status).toBe(200);
    });

    it('answers 204, clears the cookie and ends the session on the server', async () => {
      const session = await bff.login('coordinator');
      const r = await bff.request({ method: 'POST', url: '/api/auth/logout', session });
      expect(r.status).toBe(204);
      const cleared = r.raw.cookies.find((c) => c.name === 'labdesk_session');
      expect(cleared).toBeDefined();
      expect(cleared!.value).toBe('');
      // The old cookie (e.g. kept by an attacker) no longer works.
      expect((await bff.get('/api/auth/me', session)).status).toBe(401);
      expect((await bff.get('/api/audit-events', session)).status).toBe(401);
      expect((await bff.request({ method: 'POST', url: '/api/auth/logout', session })).status).toBe(401);
    });

    it('without a session is 401', async () => {
      expect((await bff.request({ method: 'POST', url: '/api/auth/logout', csrf: 'whatever' })).status).toBe(401);
    });
  });

  describe('timeouts', () => {
    const expectAlive = async (session: Session, app: BffFixture['app'], alive: boolean) => {
      const r = await bff.get('/api/auth/me', session, app);
      expect(r.status).toBe(alive ? 200 : 401);
    };

    it('ends a session left unused for longer than the idle timeout', async () => {
      const app = await bff.buildApp({ sessionPolicy: { idleMs: 1000, absoluteMs: 60_000 } });
      const session = await bff.login('coordinator', app);
      await expectAlive(session, app, true);
      await sleep(1500);
      await expectAlive(session, app, false);
      // Signing in again works.
      await expectAlive(await bff.login('coordinator', app), app, true);
    });

    it('keeps a session that is used more often than the idle timeout (sliding)', async () => {
      const app = await bff.buildApp({ sessionPolicy: { idleMs: 1200, absoluteMs: 60_000 } });
      const session = await bff.login('coordinator', app);
      // Used every 300 ms for 1.8 s: well past the 1.2 s idle timeout counted from sign-in.
      for (let i = 0; i < 6; i++) {
        await sleep(300);
        await expectAlive(session, app, true);
      }
      await sleep(1800);
      await expectAlive(session, app, false);
    });

    it('does not count the dashboard’s session probe as activity: an unattended tab still times out', async () => {
      const app = await bff.buildApp({ sessionPolicy: { idleMs: 1200, absoluteMs: 60_000 } });
      const session = await bff.login('coordinator', app);
      // The session watch asks every 300 ms for 1.8 s: the session still ends at its idle timeout.
      for (let i = 0; i < 6; i++) {
        await sleep(300);
        const probe = await bff.request({ url: '/api/auth/me', session, app, headers: { [SESSION_PROBE_HEADER]: '1' } });
        if (i < 3) expect(probe.status).toBe(200);
      }
      await expectAlive(session, app, false);
    });

    it('ends a session after the absolute timeout however active it is', async () => {
      const app = await bff.buildApp({ sessionPolicy: { idleMs: 60_000, absoluteMs: 1500 } });
      const session = await bff.login('coordinator', app);
      for (let i = 0; i < 2; i++) {
        await sleep(300);
        await expectAlive(session, app, true);
      }
      await sleep(1200);
      await expectAlive(session, app, false);
      // The expired session is gone from the store.
      const rows = await bff.db.select().from(sessions);
      const token = session.value.slice(0, session.value.lastIndexOf('.'));
      expect(rows.map((r) => r.tokenHash)).not.toContain(createHash('sha256').update(token).digest('hex'));
    });
  });

  describe('passwords', () => {
    it('are stored as salted scrypt hashes, never in plain text', async () => {
      const rows = await bff.db.select().from(staffTable);
      expect(rows).toHaveLength(Object.keys(STAFF_ROLES).length);
      for (const row of rows) {
        expect(row.passwordHash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
        expect(row.passwordHash).not.toContain(PASSWORD);
        expect(row.passwordHash).not.toContain(Buffer.from(PASSWORD).toString('base64url'));
        const [, n] = row.passwordHash.split('$');
        expect(Number(n)).toBeGreaterThanOrEqual(2 ** 14);
        expect(await verifyPassword(PASSWORD, row.passwordHash)).toBe(true);
        expect(await verifyPassword(`${PASSWORD}!`, row.passwordHash)).toBe(false);
      }
      // Same password, different salt: no two hashes alike.
      expect(new Set(rows.map((r) => r.passwordHash)).size).toBe(rows.length);
    });
  });
});
