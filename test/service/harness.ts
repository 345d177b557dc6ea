/**
 * Test harness of the service suites: one store and one app per suite (a test file runs its suites
 * on the embedded PGlite store and, when TEST_DATABASE_URL is set, on PostgreSQL too, in a database
 * of its own that is dropped afterwards). Tests talk to the service over HTTP with `app.inject`;
 * the only direct store access is for fixtures the API cannot create (sessions, connected sources).
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import type { ReaderPool } from '../../server/service/sandbox/readerPool';
import { connectedSources, mindfulnessMinutes, serviceSchema, type ServiceSchema } from '../../server/service/db/schema';
import { syncProviderCatalogue } from '../../server/service/domain/providers';
import { openStore, type Database, type Store } from '../../server/store/db';
import { storeTemplate } from '../support/templates';
import { createTestDatabase as createDatabase, storeKinds, type StoreKind, type TestDatabase } from '../support/testDatabase';



export const ADMIN_TOKEN = 'test-admin-token-7f3c9a2e';
export const migrationsFolder = fileURLToPath(new URL('../../server/service/db/migrations', import.meta.url));

export interface Team {
  teamId: string;
  apiKey: string;
}

/** What `api()` answers: the status and the parsed JSON body (undefined when there is none). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers by property
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

export interface PointInput {
  provider: string;
  /** Start instant (ISO with Z or offset, or a Date). */
  start: string | Date;
  minutes?: number;
  /** Seconds east of UTC; null (default) when the source gives none. */
  offset?: number | null;
  sourceType?: string;
}


export class ServiceHarness {
  /** Apps built besides the main one (restarts, an app without operator token); closed in afterAll. */
  private extraApps: FastifyInstance[] = [];

  constructor(
    readonly kind: StoreKind,
    readonly store: Store<ServiceSchema>,
    readonly app: FastifyInstance,
    /** Where a second store on the same data can connect (PostgreSQL), as another process would. */
    readonly database?: TestDatabase,
  ) {}

  get db(): Database<ServiceSchema> {
    return this.store.db;
  }

  /** Another app on the same store, as after a restart (or with other options). */
  async buildApp(opts: { adminToken?: string; readers?: ReaderPool } = { adminToken: ADMIN_TOKEN }): Promise<FastifyInstance> {
    const app = await buildServiceApp({ db: this.store.db, notifications: this.store.notifications, adminToken: opts.adminToken, readers: opts.readers });
    await app.ready();
    this.extraApps.push(app);
    return app;
  }

  /** Sends a request; `key` goes in x-service-api-key. The body is parsed as JSON when there is one. */
  async inject(opts: InjectOptions & { key?: string }, app: FastifyInstance = this.app): Promise<Answer> {
    const { key, ...rest } = opts;
    const headers: Record<string, string> = { ...((rest.headers as Record<string, string>) ?? {}) };
    if (key !== undefined) headers['x-service-api-key'] = key;
    const raw = await app.inject({ ...rest, headers });
    let body: unknown = undefined;
    if (raw.body.length > 0 && String(raw.headers['content-type'] ?? '').includes('json')) body = raw.json();
    else if (raw.body.length > 0) body = raw.body;
    return { status: raw.statusCode, body, headers: raw.headers, raw };
  }

  /** Requests on behalf of a team. */
  api(key: string) {
    return {
      get: (url: string) => this.inject({ method: 'GET', url, key }),
      post: (url: string, payload?: unknown) => this.inject({ method: 'POST', url, key, ...(payload === undefined ? {} : { payload: payload as object }) }),
      patch: (url: string, payload?: unknown) => this.inject({ method: 'PATCH', url, key, ...(payload === undefined ? {} : { payload: payload as object }) }),
      delete: (url: string) => this.inject({ method: 'DELETE', url, key }),
    };
  }

  /** Creates a team through the operator API and returns its id and first key. */
  async createTeam(name = `Team ${randomBytes(3).toString('hex')}`): Promise<Team> {
    const r = await this.inject({ method: 'POST', url: '/admin/v1/teams', headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { name } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { teamId: r.body.team_id, apiKey: r.body.api_key };
  }

  /** Creates a user through the API; returns its user_id. */
  async createUser(team: Team, body: Record<string, unknown>): Promise<string> {
    const r = await this.api(team.apiKey).post('/v2/user', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.user_id as string;
  }

  /** Mindfulness sessions straight into the store (the API has no write endpoint for them). Returns their ids in input order. */
  async insertPoints(userId: string, points: PointInput[]): Promise<number[]> {
    if (points.length === 0) return [];
    const ids: number[] = [];
    for (let i = 0; i < points.length; i += 1000) {
      const rows = await this.db
        .insert(mindfulnessMinutes)
        .values(
          points.slice(i, i + 1000).map((p) => {
            const start = new Date(p.start);
            const minutes = p.minutes ?? 10;
            return {
              userId,
              providerSlug: p.provider,
              sourceType: p.sourceType ?? 'app',
              startAt: start,
              endAt: new Date(start.getTime() + minutes * 60_000),
              value: minutes,
              timezoneOffset: p.offset ?? null,
            };
          }),
        )
        .returning({ id: mindfulnessMinutes.id });
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  }

  /** Connects providers to a user (what a provider link would do). */
  async connectSources(userId: string, sources: { slug: string; createdOn?: Date }[]) {
    await this.db
      .insert(connectedSources)
      .values(sources.map((s) => ({ userId, providerSlug: s.slug, createdOn: s.createdOn ?? new Date() })));
  }

  async close() {
    for (const a of this.extraApps) await a.close();
    await this.app.close();
    await this.store.close();
  }
}

/**
 * Opens a fresh store of the given kind, migrated, with the provider catalogue: a copy of this
 * run's `service` template, or migrated and seeded here when there is none.
 */
export async function openTestStore(kind: StoreKind): Promise<{ store: Store<ServiceSchema>; database: TestDatabase }> {
  const template = storeTemplate('service', kind);
  const database = await createDatabase(kind, 'labdesk_t', template?.postgresDatabase);
  try {
    const store = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: database.databaseUrl, template: template?.template });
    if (!template) await syncProviderCatalogue(store.db);
    return { store, database };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/**
 * Registers beforeAll/afterAll for one suite: a fresh store, the provider catalogue and an app with
 * the operator API enabled. Returns a getter (the harness exists once beforeAll has run).
 */
export function useService(kind: StoreKind): () => ServiceHarness {
  let harness: ServiceHarness | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    const opened = await openTestStore(kind);
    database = opened.database;
    const app = await buildServiceApp({ db: opened.store.db, notifications: opened.store.notifications, adminToken: ADMIN_TOKEN });
    await app.ready();
    harness = new ServiceHarness(kind, opened.store, app, opened.database);
  });
  afterAll(async () => {
    await harness?.close();
    await database?.drop();
  });
  return () => {
    if (!harness) throw new Error('the service harness is used before beforeAll ran');
    return harness;
  };
}

/** Asserts the production 422 shape and returns its issues. */
export function expect422(r: Answer, loc?: (string | number)[]) {
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect(Array.isArray(r.body?.detail), JSON.stringify(r.body)).toBe(true);
  const detail = r.body.detail as { loc: (string | number)[]; msg: string; type: string }[];
  expect(detail.length).toBeGreaterThan(0);
  for (const issue of detail) {
    expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    expect(Array.isArray(issue.loc)).toBe(true);
    expect(typeof issue.msg).toBe('string');
    expect(issue.msg.length).toBeGreaterThan(0);
    expect(typeof issue.type).toBe('string');
  }
  if (loc) expect(detail.map((d) => d.loc)).toContainEqual(loc);
  return detail;
}

/** Asserts a `{detail: "..."}` answer with the given status. */
export function expectDetail(r: Answer, status: number) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(typeof r.body?.detail, JSON.stringify(r.body)).toBe('string');
  expect((r.body.detail as string).length).toBeGreaterThan(0);
}

/** A uuid no row has. */
export const UNKNOWN_UUID = '0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c';

export const groupedUrl = (userId: string, query: Record<string, string | undefined>) => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, v);
  return `/v2/timeseries/${userId}/mindfulness_minutes/grouped?${qs.toString()}`;
};

export interface FlatPoint {
  provider: string;
  sourceType: string | undefined;
  id: number | undefined;
  start: string;
  end: string;
  timestamp: string;
  value: number;
  unit: string;
  timezone_offset: number | null;
}

/** The points of a grouped answer, flattened and ordered by (start, id). */
type WirePoint = Omit<FlatPoint, 'provider' | 'sourceType'>;

export function flatten(body: { groups: Record<string, { source: { provider: string; type?: string }; data: WirePoint[] }[]> }): FlatPoint[] {
  const out: FlatPoint[] = [];
  for (const [slug, entries] of Object.entries(body.groups)) {
    for (const entry of entries) {
      for (const p of entry.data) {
        out.push({ provider: slug, sourceType: entry.source.type, ...p });
      }
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start) || (a.id ?? 0) - (b.id ?? 0));
}

export { storeKinds, type StoreKind, type TestDatabase };
export const createTestDatabase = (kind: StoreKind) => createDatabase(kind, 'labdesk_t');
