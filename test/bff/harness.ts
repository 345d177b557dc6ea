/**
 * Test harness of the BFF suites.
 *
 * - `startService()`: a REAL service (buildServiceApp on an in-memory PGlite store) listening on a
 *   random local port, with two teams and helpers that insert fixtures straight into its tables.
 * - `startBff(kind, ...)`: a BFF (buildBffApp) on its own store: in-memory PGlite, or, for kind
 *   'postgres', a fresh database created from TEST_DATABASE_URL and dropped on close. Staff of
 *   every role are created; requests go through `app.inject`.
 * - `startFakeUpstream()`: a tiny node:http server for deployments that answer differently.
 *
 * Store-facing suites (sessions, audit, cursor cache) loop over `storeKinds`.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildBffApp, type BffAppOptions } from '../../server/bff/app';
import { hashPassword } from '../../server/bff/auth/passwords';
import { createStaff, type StaffUser } from '../../server/bff/auth/staff';
import { bffSchema, staff as staffTable, type BffSchema } from '../../server/bff/db/schema';
import { buildServiceApp } from '../../server/service/app';
import { connectedSources, mindfulnessMinutes, serviceSchema, users, type ServiceSchema } from '../../server/service/db/schema';
import { syncProviderCatalogue } from '../../server/service/domain/providers';
import { createTeam } from '../../server/service/domain/teams';
import { openStore, type Database, type Store } from '../../server/store/db';
import { storeTemplate, type TemplateName } from '../support/templates';
import { createTestDatabase as createDatabase, storeKinds, type StoreKind, type TestDatabase } from '../support/testDatabase';



// From the repository's root (where vitest runs): page tests load this harness in jsdom, whose
// `import.meta.url` is not a file URL.
export const serviceMigrations = path.resolve('server/service/db/migrations');
export const bffMigrations = path.resolve('server/bff/db/migrations');

/** A uuid no row has. */
export const UNKNOWN_UUID = '0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c';

// ---------------------------------------------------------------------------------------------
// Databases


/**
 * The BFF's own store, migrated (a copy of this run's `bff` template, or of `bff-staff` for
 * startBff); `close` also drops a PostgreSQL test database. `seeded` is the template's meta, or
 * undefined when there was no template and the store was migrated here.
 */
export async function openBffStore(
  kind: StoreKind,
  templateName: 'bff' | 'bff-staff' = 'bff',
): Promise<{ store: Store<BffSchema>; seeded: unknown; databaseUrl?: string; close(): Promise<void> }> {
  const template = storeTemplate(templateName, kind);
  const database = await createDatabase(kind, 'labdesk_bff', template?.postgresDatabase);
  let store: Store<BffSchema>;
  try {
    store = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: bffMigrations, databaseUrl: database.databaseUrl, poolSize: 4, template: template?.template });
  } catch (err) {
    await database.drop();
    throw err;
  }
  return {
    store,
    seeded: template?.meta,
    databaseUrl: database.databaseUrl,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The real service

export interface Team {
  teamId: string;
  apiKey: string;
}

export interface UserInput {
  clientUserId: string;
  /** Defaults to a clock that advances one minute per user, so creation order is the input order. */
  createdOn?: Date;
  fallbackTimeZone?: string | null;
  /** Provider slugs connected to the user. */
  sources?: string[];
}

export interface PointInput {
  provider: string;
  /** Start instant (ISO with Z or an offset). */
  start: string;
  minutes: number;
  /** Seconds east of UTC; null (default) when the source gives none. */
  offset?: number | null;
  sourceType?: string;
}

export interface ServiceFixture {
  url: string;
  app: FastifyInstance;
  db: Database<ServiceSchema>;
  team: Team;
  otherTeam: Team;
  /** Inserts users of a team; returns their user ids in input order. */
  addUsers(team: Team, inputs: UserInput[]): Promise<string[]>;
  /** Inserts mindfulness sessions of a user straight into the service's table. */
  addPoints(userId: string, points: PointInput[]): Promise<void>;
  close(): Promise<void>;
}

let userClock = Date.parse('2026-01-05T09:00:00Z');

/** The two teams of startService's store. */
export async function seedServiceTeams(db: Database<ServiceSchema>): Promise<{ team: Team; otherTeam: Team }> {
  const team = await createTeam(db, 'BFF test team');
  const otherTeam = await createTeam(db, 'Another team');
  return { team, otherTeam };
}

/**
 * The service on a store with the provider catalogue and two teams: a copy of this run's
 * `service-teams` template (or of `service-lab`, for startLabService), or migrated and seeded
 * here when there is none (then `seeded` is false).
 */
export async function startService(templateName: Extract<TemplateName, 'service-teams' | 'service-lab'> = 'service-teams'): Promise<ServiceFixture & { seeded: boolean }> {
  const template = storeTemplate(templateName, 'pglite');
  const store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder: serviceMigrations, template: template?.template });
  const db = store.db;
  let teams = template?.meta as { team: Team; otherTeam: Team } | undefined;
  if (!teams) {
    await syncProviderCatalogue(db);
    teams = await seedServiceTeams(db);
  }
  const { team, otherTeam } = teams;
  // Webhook receivers of the BFF suites listen on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_URLS=true).
  const app = await buildServiceApp({ db, notifications: store.notifications, webhookAllowPrivateUrls: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  return {
    seeded: template !== undefined,
    url: `http://127.0.0.1:${port}`,
    app,
    db,
    team,
    otherTeam,
    async addUsers(t, inputs) {
      const ids: string[] = [];
      for (const input of inputs) {
        userClock += 60_000;
        const createdOn = input.createdOn ?? new Date(userClock);
        const [row] = await db
          .insert(users)
          .values({
            teamId: t.teamId,
            clientUserId: input.clientUserId,
            createdOn,
            fallbackTimeZone: input.fallbackTimeZone ?? null,
            fallbackTimeZoneSource: input.fallbackTimeZone ? 'manual' : null,
            fallbackTimeZoneUpdatedAt: input.fallbackTimeZone ? createdOn : null,
          })
          .returning({ id: users.id });
        if (input.sources?.length) {
          await db.insert(connectedSources).values(input.sources.map((slug) => ({ userId: row!.id, providerSlug: slug, createdOn })));
        }
        ids.push(row!.id);
      }
      return ids;
    },
    async addPoints(userId, points) {
      for (let i = 0; i < points.length; i += 1000) {
        await db.insert(mindfulnessMinutes).values(
          points.slice(i, i + 1000).map((p) => {
            const start = new Date(p.start);
            return {
              userId,
              providerSlug: p.provider,
              sourceType: p.sourceType ?? 'app',
              startAt: start,
              endAt: new Date(start.getTime() + p.minutes * 60_000),
              value: p.minutes,
              timezoneOffset: p.offset ?? null,
            };
          }),
        );
      }
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Fake upstreams and closed ports

export interface FakeUpstream {
  url: string;
  /** Path and query of every request received, in order. */
  requests: { method: string; url: string; apiKey: string | undefined }[];
  close(): Promise<void>;
}

export type FakeHandler = (req: { method: string; path: string; query: URLSearchParams }) => { status: number; body: unknown; raw?: boolean };

/** A node:http server answering with `handler`; `raw: true` sends `body` as given (a string). */
export async function startFakeUpstream(handler: FakeHandler): Promise<FakeUpstream> {
  const requests: FakeUpstream['requests'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = req.headers['x-service-api-key'];
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', apiKey: typeof key === 'string' ? key : undefined });
    const answer = handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams });
    const text = answer.raw ? String(answer.body) : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': answer.raw ? 'text/plain' : 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A local URL nothing listens on (a port that was free a moment ago). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A service user record as the service (and the BFF, plus `id`) answers it. */
export interface UserRecordBody {
  id: string;
  user_id: string;
  team_id: string;
  client_user_id: string;
  created_on: string;
  connected_sources: { created_on: string; provider: { name: string; slug: string; logo: string } }[];
  fallback_time_zone: { id: string } | null;
}

/** A minimal valid User of the service's wire format, for fake upstreams. */
export function wireUser(clientUserId: string, createdOn = '2026-05-01T12:00:00.000Z') {
  return {
    user_id: randomUUID(),
    team_id: randomUUID(),
    client_user_id: clientUserId,
    created_on: createdOn,
    connected_sources: [],
    fallback_time_zone: null,
    fallback_birth_date: null,
    ingestion_start: null,
    ingestion_end: null,
  };
}

// ---------------------------------------------------------------------------------------------
// The BFF

export const PASSWORD = 'correct horse battery staple 42';
export const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';

/** Staff created in every BFF store: one per role, and one with a role this version does not know. */
export const STAFF_ROLES = {
  admin: 'admin',
  coordinator: 'coordinator',
  lab_ops: 'lab_ops',
  reviewer: 'reviewer',
  unknown: 'auditor',
} as const;
export type StaffKey = keyof typeof STAFF_ROLES;
export const staffEmail = (who: StaffKey) => `${who.replace('_', '-')}@labdesk.test`;

export interface ErrorBody {
  message: string;
  errors?: Record<string, string>;
}

/** What a request answers: status, parsed JSON body (undefined when there is none), headers. */
export interface Answer<T = ErrorBody> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

export interface Session {
  /** The signed cookie value as the browser keeps it. */
  value: string;
  /** `labdesk_session=<value>`, for a Cookie header. */
  cookie: string;
  csrfToken: string;
  user: StaffUser;
}

export interface RequestOptions {
  method?: InjectOptions['method'];
  url: string;
  session?: Session | null;
  /** true (default when a session is given): send the session's CSRF token; a string: send that; false: none. */
  csrf?: boolean | string;
  payload?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
  app?: FastifyInstance;
}

export interface BffFixture {
  kind: StoreKind;
  store: Store<BffSchema>;
  db: Database<BffSchema>;
  /** PostgreSQL: the fixture's database (another process's store opens it too); undefined on PGlite. */
  databaseUrl?: string;
  app: FastifyInstance;
  staff: Record<StaffKey, StaffUser>;
  /** Another BFF app on the same store (a restart, or other options); closed with the fixture. */
  buildApp(overrides?: Partial<BffAppOptions>): Promise<FastifyInstance>;
  request<T = ErrorBody>(opts: RequestOptions): Promise<Answer<T>>;
  get<T = ErrorBody>(url: string, session?: Session | null, app?: FastifyInstance): Promise<Answer<T>>;
  /** Signs in (asserting a 200) and returns the session. */
  login(who: StaffKey, app?: FastifyInstance): Promise<Session>;
  close(): Promise<void>;
}

export interface StartBffOptions {
  serviceBaseUrl: string;
  serviceApiKey: string;
  /** Other buildBffApp options; sign-in throttling defaults lenient so suites can sign in often. */
  app?: Partial<BffAppOptions>;
}

/** The staff of every BFF store of the suites: one per role, and one with a role this version does not know. */
export async function createTestStaff(db: Database<BffSchema>): Promise<Record<StaffKey, StaffUser>> {
  const staff = {} as Record<StaffKey, StaffUser>;
  await Promise.all(
    (Object.keys(STAFF_ROLES) as StaffKey[]).map(async (who) => {
      if (who === 'unknown') {
        // A role from a newer version: createStaff only takes known roles, so straight into the table.
        const [row] = await db
          .insert(staffTable)
          .values({ email: staffEmail(who), name: 'Unknown role', role: STAFF_ROLES[who], passwordHash: await hashPassword(PASSWORD) })
          .returning();
        staff[who] = { id: row!.id, email: row!.email, name: row!.name, role: row!.role };
      } else {
        staff[who] = await createStaff(db, { email: staffEmail(who), password: PASSWORD, role: STAFF_ROLES[who], name: `Test ${who}` });
      }
    }),
  );
  return staff;
}

export async function startBff(kind: StoreKind, opts: StartBffOptions): Promise<BffFixture> {
  // A copy of this run's `bff-staff` template (staff already there), or migrated and staffed here.
  const { store, seeded, databaseUrl, close: closeStore } = await openBffStore(kind, 'bff-staff');
  const apps: FastifyInstance[] = [];
  try {
    const staff = (seeded as { staff: Record<StaffKey, StaffUser> } | undefined)?.staff ?? (await createTestStaff(store.db));

    const buildApp = async (overrides: Partial<BffAppOptions> = {}) => {
      const app = await buildBffApp({
        db: store.db,
        notifications: store.notifications,
        serviceBaseUrl: opts.serviceBaseUrl,
        serviceApiKey: opts.serviceApiKey,
        sessionSecret: SESSION_SECRET,
        // Suites sign in (and fail to) often from one address; the throttle's own tests set theirs.
        signInThrottle: { windowMs: 60_000, accountLimit: 10_000, accountLockMs: 1000, addressFree: 10_000, addressMaxLockMs: 1000 },
        ...opts.app,
        ...overrides,
      });
      await app.ready();
      apps.push(app);
      return app;
    };
    const app = await buildApp();

    const request = async <T = ErrorBody>(o: RequestOptions): Promise<Answer<T>> => {
      const headers: Record<string, string> = { ...o.headers };
      if (o.session) headers.cookie = o.session.cookie;
      const csrf = o.csrf ?? Boolean(o.session);
      if (typeof csrf === 'string') headers['x-csrf-token'] = csrf;
      else if (csrf && o.session) headers['x-csrf-token'] = o.session.csrfToken;
      const raw = await (o.app ?? app).inject({
        method: o.method ?? 'GET',
        url: o.url,
        headers,
        ...(o.payload !== undefined && { payload: o.payload as InjectOptions['payload'] }),
        ...(o.remoteAddress && { remoteAddress: o.remoteAddress }),
      });
      let body: unknown = undefined;
      if (raw.body.length > 0 && String(raw.headers['content-type'] ?? '').includes('json')) body = raw.json();
      else if (raw.body.length > 0) body = raw.body;
      return { status: raw.statusCode, body: body as T, headers: raw.headers, raw };
    };

    const login = async (who: StaffKey, onApp?: FastifyInstance): Promise<Session> => {
      const r = await request<{ user: StaffUser; csrfToken: string }>({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: staffEmail(who), password: PASSWORD },
        app: onApp,
      });
      if (r.status !== 200) throw new Error(`login of ${who} answered ${r.status}: ${JSON.stringify(r.body)}`);
      const cookie = r.raw.cookies.find((c) => c.name === 'labdesk_session');
      if (!cookie) throw new Error('login set no session cookie');
      return { value: cookie.value, cookie: `labdesk_session=${cookie.value}`, csrfToken: r.body.csrfToken, user: r.body.user };
    };

    return {
      kind,
      store,
      db: store.db,
      databaseUrl,
      app,
      staff,
      buildApp,
      request,
      get: (url, session, onApp) => request({ url, session, app: onApp }),
      login,
      close: async () => {
        for (const a of apps) await a.close();
        await closeStore();
      },
    };
  } catch (err) {
    for (const a of apps) await a.close();
    await closeStore();
    throw err;
  }
}

/** Content-Range and the parsed array of a list answer. */
export function listOf<T>(r: Answer<T[]>): { range: string | undefined; items: T[] } {
  return { range: r.headers['content-range'] as string | undefined, items: r.body };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `?sort=..&range=..&filter=..` with each value JSON-encoded, as ra-data-simple-rest sends them. */
export function listQuery(q: { sort?: unknown; range?: unknown; filter?: unknown }): string {
  const params = new URLSearchParams();
  if (q.sort !== undefined) params.set('sort', JSON.stringify(q.sort));
  if (q.range !== undefined) params.set('range', JSON.stringify(q.range));
  if (q.filter !== undefined) params.set('filter', JSON.stringify(q.filter));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export { storeKinds, type StoreKind, type TestDatabase };
export const createTestDatabase = (kind: StoreKind, template?: string) => createDatabase(kind, 'labdesk_bff', template);
