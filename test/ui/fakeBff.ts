/**
 * An in-memory stand-in for the BFF's HTTP API (docs/bff-api.md), installed as `globalThis.fetch`.
 * Page tests drive the real dashboard against it, so they exercise the real providers, URLs,
 * headers and status codes rather than mocked hooks.
 */
import { vi } from 'vitest';
import type { MindfulnessMinutes, StaffUser } from '../../src/providers/types';
import type { UserRecord } from '../../src/users/types';

export interface StaffAccount {
  email: string;
  password: string;
  user: StaffUser;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
type MindfulnessHandler = (userId: string, start: string, end: string) => Answer;

export interface FakeBffOptions {
  staff?: StaffAccount[];
  users?: UserRecord[];
  /** Start with a live session cookie, as after a page reload. */
  signedIn?: boolean;
  /** Every login answers 429, as when the BFF's rate limit kicks in. */
  rateLimited?: boolean;
  mindfulness?: MindfulnessHandler;
}

export const CSRF_TOKEN = 'csrf-token-for-tests';

export const ADMIN: StaffAccount = {
  email: 'ada@labdesk.test',
  password: 'correct horse battery staple',
  user: { id: 'staff-1', email: 'ada@labdesk.test', name: 'Ada Admin', role: 'admin' },
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({ status, body, headers });

export function createFakeBff(options: FakeBffOptions = {}) {
  const staff = options.staff ?? [ADMIN];
  const users = [...(options.users ?? [])];
  const state = { session: options.signedIn ? (staff[0]?.user ?? null) : null as StaffUser | null };
  const requests: RecordedRequest[] = [];

  function route(req: RecordedRequest): Answer {
    const { method, path } = req;
    if (method === 'POST' && path === '/api/auth/login') {
      if (options.rateLimited) return json(429, { message: 'Too many requests' });
      const { email, password } = (req.body ?? {}) as { email?: string; password?: string };
      const account = staff.find((s) => s.email === email && s.password === password);
      if (!account) return json(401, { message: 'Invalid credentials' });
      state.session = account.user;
      return json(200, { user: account.user, csrfToken: CSRF_TOKEN });
    }
    if (method === 'GET' && path === '/api/auth/me') {
      return state.session ? json(200, { user: state.session, csrfToken: CSRF_TOKEN }) : json(401, { message: 'Not signed in' });
    }
    if (!state.session) return json(401, { message: 'Not signed in' });
    if (method !== 'GET' && req.headers.get('x-csrf-token') !== CSRF_TOKEN) {
      return json(403, { message: 'Missing or wrong CSRF token' });
    }
    if (method === 'POST' && path === '/api/auth/logout') {
      state.session = null;
      return { status: 204 };
    }

    const mindfulness = path.match(/^\/api\/users\/([^/]+)\/mindfulness-minutes$/);
    if (method === 'GET' && mindfulness) {
      const userId = decodeURIComponent(mindfulness[1] ?? '');
      if (!users.some((u) => u.id === userId)) return json(404, { message: 'User not found' });
      const start = req.query.get('start_date') ?? '';
      const end = req.query.get('end_date') ?? '';
      if (start > end) return json(400, { message: 'start_date must not be after end_date', errors: { start_date: 'must not be after end_date' } });
      return (options.mindfulness ?? defaultMindfulness)(userId, start, end);
    }

    const one = path.match(/^\/api\/users\/([^/]+)$/);
    if (one) {
      const user = users.find((u) => u.id === decodeURIComponent(one[1] ?? ''));
      if (!user) return json(404, { message: 'User not found' });
      if (method === 'GET') return json(200, user);
      if (method === 'PUT') {
        Object.assign(user, req.body as Partial<UserRecord>);
        return json(200, user);
      }
    }
    if (method === 'GET' && path === '/api/users') return listUsers(req.query);
    return json(404, { message: `No route for ${method} ${path}` });
  }

  function listUsers(query: URLSearchParams): Answer {
    const filter = JSON.parse(query.get('filter') ?? '{}') as { q?: string; id?: string[] };
    const [field, order] = JSON.parse(query.get('sort') ?? '["id","ASC"]') as [string, string];
    const [from, to] = JSON.parse(query.get('range') ?? '[0,24]') as [number, number];
    if (field !== 'id' && field !== 'created_on') {
      return json(400, { message: `Users cannot be sorted by ${field}; sort by id or created_on` });
    }
    let rows = users;
    if (filter.id) rows = rows.filter((u) => filter.id?.includes(u.id));
    if (filter.q) rows = rows.filter((u) => u.client_user_id.toLowerCase().includes(filter.q?.toLowerCase() ?? ''));
    // `id` is the upstream's natural (creation) order: the order of the array.
    if (field === 'created_on') rows = [...rows].sort((a, b) => a.created_on.localeCompare(b.created_on));
    if (order === 'DESC') rows = [...rows].reverse();
    const page = rows.slice(from, to + 1);
    const range = page.length ? `${from}-${from + page.length - 1}` : '*';
    return json(200, page, { 'Content-Range': `users ${range}/${rows.length}` });
  }

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://labdesk.test');
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' && init.body ? (JSON.parse(init.body) as unknown) : undefined;
    const req: RecordedRequest = { method: (init.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams, headers, body };
    requests.push(req);
    const answer = route(req);
    const hasBody = answer.status !== 204 && answer.body !== undefined;
    return new Response(hasBody ? JSON.stringify(answer.body) : null, {
      status: answer.status,
      headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...answer.headers },
    });
  });

  return { fetch, requests, state, users };
}

/** Every day from start to end (inclusive), as the BFF zero-fills them. */
export function datesBetween(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${start}T00:00:00Z`); d.toISOString().slice(0, 10) <= end; d = new Date(d.getTime() + 86_400_000)) {
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** Oura and Calm sessions on the last two days of whatever range is asked: 52 minutes, 3 sessions. */
export function defaultMindfulness(userId: string, start: string, end: string): Answer {
  const days = datesBetween(start, end).map((date) => ({ date, total: 0, by_provider: {} as Record<string, number> }));
  const last = days[days.length - 1];
  const beforeLast = days[days.length - 2];
  if (last) Object.assign(last, { total: 32, by_provider: { oura: 20, calm: 12 } });
  if (beforeLast) Object.assign(beforeLast, { total: 20, by_provider: { oura: 20 } });
  const body: MindfulnessMinutes = {
    user_id: userId,
    start_date: start,
    end_date: end,
    time_zone: 'America/Chicago',
    providers: [
      { slug: 'oura', name: 'Oura' },
      { slug: 'calm', name: 'Calm' },
    ],
    days,
    sessions: 3,
    upstream_pages: 1,
  };
  return json(200, body);
}

export function emptyMindfulness(userId: string, start: string, end: string): Answer {
  const days = datesBetween(start, end).map((date) => ({ date, total: 0, by_provider: {} }));
  return json(200, { user_id: userId, start_date: start, end_date: end, time_zone: 'America/Chicago', providers: [], days, sessions: 0, upstream_pages: 1 });
}

const source = (name: string, slug: string, created_on: string) => {
  const provider = { name, slug, logo: `https://logos.example/${slug}.png` };
  return { provider, source: provider, created_on };
};

export function makeUser(overrides: Partial<UserRecord> & { id: string; client_user_id: string }): UserRecord {
  return {
    user_id: overrides.id,
    team_id: '5f0c9a52-0000-4000-8000-00000000000a',
    created_on: '2026-05-01T12:00:00.000Z',
    connected_sources: [],
    fallback_time_zone: null,
    fallback_birth_date: null,
    ingestion_start: null,
    ingestion_end: null,
    ...overrides,
  };
}

export const SAMPLE_USERS: UserRecord[] = [
  makeUser({
    id: '0b7e6a8e-1111-4000-8000-000000000001',
    client_user_id: 'pt-7f3a2c91',
    created_on: '2026-05-01T12:00:00.000Z',
    connected_sources: [source('Oura', 'oura', '2026-05-02T08:30:00.000Z'), source('Calm', 'calm', '2026-05-03T09:00:00.000Z')],
    fallback_time_zone: { id: 'America/Chicago', source_slug: 'manual', updated_at: '2026-05-01T12:00:00.000Z' },
    fallback_birth_date: { value: '1980-04-02', source_slug: 'manual', updated_at: '2026-05-01T12:00:00.000Z' },
    ingestion_start: '2025-01-01',
    ingestion_end: null,
  }),
  makeUser({ id: '0b7e6a8e-2222-4000-8000-000000000002', client_user_id: 'pt-99b01d44', created_on: '2026-05-04T15:45:00.000Z' }),
  makeUser({
    id: '0b7e6a8e-3333-4000-8000-000000000003',
    client_user_id: 'pt-c4e2a7f3',
    created_on: '2026-05-06T07:10:00.000Z',
    connected_sources: [source('Withings', 'withings', '2026-05-06T07:30:00.000Z')],
  }),
];
