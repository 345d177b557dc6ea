/**
 * Sessions cached in each BFF process (server/bff/auth/sessionCache.ts), as staff meet them: every
 * way a session ends or changes is refused or applied at the very next request, whoever made the
 * change — this process, another BFF process on the store, or SQL straight into `bff.*`. Each
 * session is used first, so the next request would be answered from memory if the cache were stale.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBffApp } from '../../server/bff/app';
import { bffSchema, sessions, type BffSchema } from '../../server/bff/db/schema';
import { openStore, type Store } from '../../server/store/db';
import {
  bffMigrations,
  SESSION_SECRET,
  sleep,
  startBff,
  startService,
  storeKinds,
  type BffFixture,
  type ServiceFixture,
  type Session,
} from './harness';

const NEW_PASSWORD = 'Quiet-Harbour-Lantern-8421';

let service: ServiceFixture;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
});

/** Runs `check` while the member is disabled straight in the store (as an operator would), then enables them again. */
async function whileDisabled(bff: BffFixture, id: string, check: () => Promise<void>) {
  await bff.db.execute(sql`UPDATE bff.staff SET disabled_at = now() WHERE id = ${id}`);
  try {
    await check();
  } finally {
    await bff.db.execute(sql`UPDATE bff.staff SET disabled_at = NULL WHERE id = ${id}`);
  }
}

describe.each(storeKinds)('sessions cached in the process (%s)', (kind) => {
  let bff: BffFixture;
  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  });
  afterAll(async () => {
    await bff?.close();
  });

  /** Signed in and used twice: from here on the process knows the session. */
  const warmSession = async (who: Parameters<BffFixture['login']>[0], app?: FastifyInstance) => {
    const session = await bff.login(who, app);
    for (let i = 0; i < 2; i++) expect((await bff.get('/api/auth/me', session, app)).status).toBe(200);
    return session;
  };
  const status = async (url: string, session: Session, app?: FastifyInstance) => (await bff.get(url, session, app)).status;

  it('refuses a member disabled straight in the store at the next request, and takes them back once enabled', async () => {
    const session = await warmSession('reviewer');
    const id = bff.staff.reviewer.id;
    await whileDisabled(bff, id, async () => {
      expect(await status('/api/auth/me', session)).toBe(401);
      expect(await status('/api/parser-jobs', session)).toBe(401);
    });
    // Disabling straight in the store did not delete the session: enabled again, it works again.
    expect(await status('/api/auth/me', session)).toBe(200);
  });

  it('applies a role changed straight in the store at the next request', async () => {
    const session = await warmSession('admin');
    const id = bff.staff.admin.id;
    expect(await status('/api/audit-events', session)).toBe(200);
    await bff.db.execute(sql`UPDATE bff.staff SET role = 'reviewer' WHERE id = ${id}`);
    try {
      expect(await status('/api/audit-events', session)).toBe(403);
      const me = await bff.get<{ user: { role: string } }>('/api/auth/me', session);
      expect(me.body.user.role).toBe('reviewer');
    } finally {
      await bff.db.execute(sql`UPDATE bff.staff SET role = 'admin' WHERE id = ${id}`);
    }
    expect(await status('/api/audit-events', session)).toBe(200);
  });

  it('ends a session deleted, or moved past its idle timeout, straight in the store', async () => {
    const deleted = await warmSession('coordinator');
    const aged = await warmSession('coordinator');
    const kept = await warmSession('coordinator');
    const hashOf = async (s: Session) => {
      const [row] = await bff.db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.csrfToken, s.csrfToken));
      return row!.tokenHash;
    };
    await bff.db.execute(sql`DELETE FROM bff.sessions WHERE token_hash = ${await hashOf(deleted)}`);
    await bff.db.execute(sql`UPDATE bff.sessions SET last_seen_at = now() - interval '1 day' WHERE token_hash = ${await hashOf(aged)}`);
    expect(await status('/api/auth/me', deleted)).toBe(401);
    expect(await status('/api/auth/me', aged)).toBe(401);
    expect(await status('/api/auth/me', kept)).toBe(200);
  });

  it('applies a role’s two-factor rule set straight in the store at the next request', async () => {
    const session = await warmSession('reviewer');
    expect(await status('/api/openapi.json', session)).toBe(200);
    await bff.db.execute(sql`INSERT INTO bff.role_policies (role, mfa_required) VALUES ('reviewer', true)`);
    try {
      const refused = await bff.get<{ code?: string }>('/api/openapi.json', session);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('mfa_enrolment_required');
      const me = await bff.get<{ mfa_enrolment_required?: boolean }>('/api/auth/me', session);
      expect(me.body.mfa_enrolment_required).toBe(true);
    } finally {
      await bff.db.execute(sql`DELETE FROM bff.role_policies WHERE role = 'reviewer'`);
    }
    expect(await status('/api/openapi.json', session)).toBe(200);
  });

  it('ends every session of a member whose password an admin resets, and only theirs', async () => {
    const admin = await warmSession('admin');
    const email = `reset-${kind}@labdesk.test`;
    const created = await bff.request<{ id: string }>({
      method: 'POST',
      url: '/api/staff',
      session: admin,
      payload: { email, name: 'Grace Hopper', role: 'coordinator', password: NEW_PASSWORD },
    });
    expect(created.status).toBe(201);
    const signIn = await bff.request<{ csrfToken: string; user: Session['user'] }>({ method: 'POST', url: '/api/auth/login', payload: { email, password: NEW_PASSWORD } });
    const cookie = signIn.raw.cookies.find((c) => c.name === 'labdesk_session')!;
    const member: Session = { value: cookie.value, cookie: `labdesk_session=${cookie.value}`, csrfToken: signIn.body.csrfToken, user: signIn.body.user };
    expect(await status('/api/auth/me', member)).toBe(200);
    expect(await status('/api/auth/me', member)).toBe(200);
    const reset = await bff.request({ method: 'PUT', url: `/api/staff/${created.body.id}`, session: admin, payload: { password: `${NEW_PASSWORD}-2` } });
    expect(reset.status).toBe(200);
    expect(await status('/api/auth/me', member)).toBe(401);
    expect(await status('/api/auth/me', admin)).toBe(200);
  });

  it('keeps a session alive in another BFF app while it is used in one: idle timers reach the store', async () => {
    const policy = { sessionPolicy: { idleMs: 1200, absoluteMs: 60_000 } };
    const [one, other] = [await bff.buildApp(policy), await bff.buildApp(policy)];
    const session = await warmSession('lab_ops', one);
    expect(await status('/api/auth/me', session, other)).toBe(200);
    // Used in `one` every 300 ms for 1.8 s: past the idle timeout `other` last saw it at.
    for (let i = 0; i < 6; i++) {
      await sleep(300);
      expect(await status('/api/auth/me', session, one)).toBe(200);
    }
    expect(await status('/api/auth/me', session, other)).toBe(200);
  });
});

const postgres = storeKinds.includes('postgres');
describe.runIf(postgres)('several BFF processes on one PostgreSQL database', () => {
  let bff: BffFixture;
  /** Another process's store on the same database: its own pool and its own listening connection. */
  let otherStore: Store<BffSchema>;
  let other: FastifyInstance;
  beforeAll(async () => {
    bff = await startBff('postgres', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    otherStore = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: bffMigrations, databaseUrl: bff.databaseUrl, poolSize: 2 });
    other = await buildBffApp({
      db: otherStore.db,
      notifications: otherStore.notifications,
      serviceBaseUrl: service.url,
      serviceApiKey: service.team.apiKey,
      sessionSecret: SESSION_SECRET,
    });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherStore?.close();
    await bff?.close();
  });

  const status = async (session: Session, app?: FastifyInstance) => (await bff.get('/api/auth/me', session, app)).status;
  const warmOnBoth = async (who: Parameters<BffFixture['login']>[0]) => {
    const session = await bff.login(who);
    for (const app of [bff.app, other, bff.app, other]) expect(await status(session, app)).toBe(200);
    return session;
  };

  it('a sign-out in one is refused at once in the other', async () => {
    const session = await warmOnBoth('coordinator');
    expect((await bff.request({ method: 'POST', url: '/api/auth/logout', session })).status).toBe(204);
    expect(await status(session, other)).toBe(401);
  });

  it('a member disabled through one is refused at once in the other, and so is one disabled by SQL', async () => {
    const admin = await warmOnBoth('admin');
    const reviewer = await warmOnBoth('reviewer');
    const id = bff.staff.reviewer.id;
    const disabled = await bff.request({ method: 'PUT', url: `/api/staff/${id}`, session: admin, payload: { disabled: true } });
    expect(disabled.status).toBe(200);
    expect(await status(reviewer, other)).toBe(401);
    expect((await bff.request({ method: 'PUT', url: `/api/staff/${id}`, session: admin, payload: { disabled: false } })).status).toBe(200);

    const again = await warmOnBoth('reviewer');
    await whileDisabled(bff, id, async () => {
      expect(await status(again, other)).toBe(401);
      expect(await status(again, bff.app)).toBe(401);
    });
    expect(await status(admin, other)).toBe(200);
  });

  it('while the notification channel is down every request reads the store, and once it is back the cache is correct again', async () => {
    const session = await warmOnBoth('lab_ops');
    const id = bff.staff.lab_ops.id;
    const operator = new pg.Client({ connectionString: bff.databaseUrl });
    await operator.connect();
    try {
      const dropped = await operator.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'labdesk_notifications'`,
      );
      // The fixture's store and the other process's: both channels are down.
      expect(dropped.rows.filter((r) => r.ended)).toHaveLength(2);
    } finally {
      await operator.end();
    }
    await whileDisabled(bff, id, async () => {
      expect(await status(session, other)).toBe(401);
      expect(await status(session, bff.app)).toBe(401);
    });
    expect(await status(session, other)).toBe(200);
    expect(await status(session, bff.app)).toBe(200);

    // Back (the channels are re-made after a pause): the session is known from memory again, and
    // a change is still refused at once.
    for (const store of [bff.store, otherStore]) while ((await store.notifications.catchUp()) === null) await sleep(50);
    await warmOnBoth('lab_ops');
    expect(await status(session, other)).toBe(200);
    await whileDisabled(bff, id, async () => {
      expect(await status(session, other)).toBe(401);
      expect(await status(session, bff.app)).toBe(401);
    });
  });
});
