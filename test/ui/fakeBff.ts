/**
 * An in-memory stand-in for the BFF's HTTP API (docs/bff-api.md), installed as `globalThis.fetch`.
 * Page tests drive the real dashboard against it, so they exercise the real providers, URLs,
 * headers and status codes rather than mocked hooks.
 */
import { vi } from 'vitest';
import type { AppointmentRecord } from '../../src/appointments/types';
import type { LabAccountRecord } from '../../src/lab-accounts/types';
import type { LabRecord, MarkerRecord } from '../../src/markers/types';
import type { LabTestRecord, OrderRecord } from '../../src/orders/types';
import type { ParserJobRecord, ParserQueueStatus } from '../../src/parser-jobs/types';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../src/webhook-endpoints/types';
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

export type Answer = { status: number; body?: unknown; headers?: Record<string, string>; /** Bytes sent as they are (e.g. a file), instead of JSON. */ raw?: Uint8Array };
type MindfulnessHandler = (userId: string, start: string, end: string) => Answer;

export interface FakeBffOptions {
  staff?: StaffAccount[];
  users?: UserRecord[];
  /** Start with a live session cookie, as after a page reload. */
  signedIn?: boolean;
  /** Every login answers 429, as when the BFF's rate limit kicks in. */
  rateLimited?: boolean;
  mindfulness?: MindfulnessHandler;
  /** Lab ordering (docs/bff-api.md): orders and the lab catalogue. */
  orders?: OrderRecord[];
  labAccounts?: LabAccountRecord[];
  markers?: MarkerRecord[];
  labTests?: LabTestRecord[];
  labs?: LabRecord[];
  /** Answers POST /api/orders; by default the order is made from the body and kept. */
  createOrder?: CreateOrderHandler;
  /** Answers POST /api/orders/:id/cancel instead of the default (cancel unless final) when it returns an answer. */
  cancelOrder?: (orderId: string) => Answer | null;
  /** At-home phlebotomy: each order's current appointment (record id = order id). */
  appointments?: AppointmentRecord[];
  /** The slot calendar, booking key lifetimes and forced answers (410, 409, 502, ...). */
  scheduling?: SchedulingOptions;
  /** Lab-report parsing: jobs (each may carry a script of states it moves through, one per read). */
  parserJobs?: FakeParserJob[];
  parser?: ParserOptions;
  /** Webhook endpoints and their delivery logs. */
  webhookEndpoints?: WebhookEndpointRecord[];
  webhookDeliveries?: WebhookDeliveryRecord[];
}

export type CreateOrderHandler = (body: Record<string, unknown>, headers: Headers) => Answer | null;

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
  const lab = createLabOrdering(options);
  const scheduling = createScheduling(options, lab.orders, () => state.session?.role);
  const parser = createParser(options, users, () => state.session);
  const webhooks = createWebhooks(options, () => state.session?.role);

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
    const schedulingAnswer = scheduling.route(req);
    if (schedulingAnswer) return schedulingAnswer;
    const labAnswer = lab.route(req);
    if (labAnswer) return labAnswer;
    const parserAnswer = parser.route(req);
    if (parserAnswer) return parserAnswer;
    const webhookAnswer = webhooks.route(req);
    if (webhookAnswer) return webhookAnswer;
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
    return new Response(answer.raw ? (answer.raw as BodyInit) : hasBody ? JSON.stringify(answer.body) : null, {
      status: answer.status,
      headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...answer.headers },
    });
  });

  // XMLHttpRequest (the report upload uses it for progress) goes through the same routes.
  const xhr = createFakeXhr((req) => {
    requests.push(req);
    return route(req);
  }, options.parser?.holdUploads ?? false);

  return {
    fetch,
    requests,
    state,
    users,
    orders: lab.orders,
    appointments: scheduling.appointments,
    parserJobs: parser.jobs,
    webhookEndpoints: webhooks.endpoints,
    webhookDeliveries: webhooks.deliveries,
    /** Install with vi.stubGlobal('XMLHttpRequest', bff.XMLHttpRequest). */
    XMLHttpRequest: xhr.XMLHttpRequest,
    /** Uploads sent through it; with `parser.holdUploads`, drive their progress by hand. */
    uploads: xhr.uploads,
  };
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

// ---------------------------------------------------------------------------------------------
// Lab ordering: `orders`, `lab-accounts`, `markers`, `lab-tests`, `labs` (docs/bff-api.md)

/** The low-level statuses the BFF's `needs_attention` filter stands for. */
export const NEEDS_ATTENTION_STATUSES = [
  'problem_in_transit_customer',
  'problem_in_transit_lab',
  'failure_to_deliver_to_customer',
  'failure_to_deliver_to_lab',
  'sample_error',
  'lost',
];

type ListQuery = { filter: Record<string, unknown>; sort: [string, string]; range: [number, number] };

function readList(query: URLSearchParams): ListQuery {
  return {
    filter: JSON.parse(query.get('filter') ?? '{}') as Record<string, unknown>,
    sort: JSON.parse(query.get('sort') ?? '["id","ASC"]') as [string, string],
    range: JSON.parse(query.get('range') ?? '[0,24]') as [number, number],
  };
}

function page<T>(resource: string, rows: T[], [from, to]: [number, number]): Answer {
  const items = rows.slice(from, to + 1);
  const range = items.length ? `${from}-${from + items.length - 1}` : '*';
  return json(200, items, { 'Content-Range': `${resource} ${range}/${rows.length}` });
}

const asList = (v: unknown): string[] | undefined =>
  v === undefined || v === null || v === '' ? undefined : (Array.isArray(v) ? v : [v]).map(String);

function createLabOrdering(options: FakeBffOptions) {
  // Copies: a test's cancel or create must not leak into the next test's sample data.
  const orders = structuredClone(options.orders ?? []);
  const labAccounts = options.labAccounts ?? SAMPLE_LAB_ACCOUNTS;
  const markers = options.markers ?? SAMPLE_MARKERS;
  const labTests = options.labTests ?? SAMPLE_LAB_TESTS;
  const labs = options.labs ?? SAMPLE_LABS;

  function listOrders(query: URLSearchParams): Answer {
    const { filter, sort, range } = readList(query);
    const [field, order] = sort;
    const keys: Record<string, (o: OrderRecord) => string> = {
      id: (o) => o.created_at,
      created_at: (o) => o.created_at,
      patient_name: (o) => `${String(o.patient_details?.last_name ?? '')} ${String(o.patient_details?.first_name ?? '')}`,
      last_status: (o) => o.events.at(-1)?.created_at ?? o.created_at,
    };
    const key = keys[field];
    if (!key) return json(400, { message: `Orders can be sorted by created_at, patient_name or last_status only (not by ${field})` });
    let rows = orders;
    const ids = asList(filter.id);
    if (Array.isArray(filter.id)) rows = rows.filter((o) => ids?.includes(o.id));
    let statuses = asList(filter.status);
    if (filter.needs_attention === true) statuses = statuses ? statuses.filter((x) => NEEDS_ATTENTION_STATUSES.includes(x)) : NEEDS_ATTENTION_STATUSES;
    if (statuses) rows = rows.filter((o) => statuses.includes(o.low_level_status ?? ''));
    const methods = asList(filter.collection_method);
    if (methods) rows = rows.filter((o) => methods.includes(o.details.type));
    if (typeof filter.user_id === 'string') rows = rows.filter((o) => o.user_id === filter.user_id);
    if (typeof filter.start_date === 'string') rows = rows.filter((o) => o.created_at >= (filter.start_date as string));
    if (typeof filter.end_date === 'string') rows = rows.filter((o) => o.created_at <= (filter.end_date as string));
    if (typeof filter.q === 'string' && filter.q) {
      const q = filter.q.toLowerCase();
      rows = rows.filter((o) =>
        [o.id, o.sample_id, o.patient_details?.first_name, o.patient_details?.last_name].some((v) => typeof v === 'string' && v.toLowerCase().includes(q)),
      );
    }
    rows = [...rows].sort((a, b) => key(a).localeCompare(key(b)) * (order === 'DESC' ? -1 : 1));
    return page('orders', rows, range);
  }

  function createOrder(req: RecordedRequest): Answer {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const custom = options.createOrder?.(body, req.headers);
    if (custom) return custom;
    const test = labTests.find((t) => t.id === body.lab_test_id) ?? labTests[0]!;
    const now = new Date().toISOString();
    const order = makeOrder({
      id: `5e0c1d2e-0000-4000-8000-${String(orders.length + 1).padStart(12, '0')}`,
      user_id: String(body.user_id),
      patient_details: body.patient_details as Record<string, unknown>,
      patient_address: body.patient_address as Record<string, unknown>,
      clinical_notes: (body.clinical_notes as string | undefined) ?? null,
      lab_account_id: (body.lab_account_id as string | undefined) ?? labAccounts[0]?.id ?? null,
      lab_test: test,
      created_at: now,
      events: [{ id: 1, created_at: now, status: `received.${test.method}.ordered` }],
    });
    orders.unshift(order);
    return json(201, order);
  }

  function route(req: RecordedRequest): Answer | null {
    const { method, path } = req;
    if (method === 'GET' && path === '/api/orders') return listOrders(req.query);
    if (method === 'POST' && path === '/api/orders') return createOrder(req);
    const cancel = path.match(/^\/api\/orders\/([^/]+)\/cancel$/);
    if (method === 'POST' && cancel) {
      const custom = options.cancelOrder?.(decodeURIComponent(cancel[1] ?? ''));
      if (custom) return custom;
      const order = orders.find((o) => o.id === decodeURIComponent(cancel[1] ?? ''));
      if (!order) return json(404, { message: 'Order not found' });
      if (['completed', 'cancelled', 'failed'].includes(order.status ?? '')) {
        return json(422, { message: 'order_id: the order is final', errors: { order_id: 'the order is final' } });
      }
      Object.assign(order, {
        status: 'cancelled',
        low_level_status: 'cancelled',
        events: [...order.events, { id: order.events.length + 1, created_at: new Date().toISOString(), status: `cancelled.${order.details.type}.cancelled` }],
      });
      return json(200, order);
    }
    const oneOrder = path.match(/^\/api\/orders\/([^/]+)$/);
    if (method === 'GET' && oneOrder) {
      const order = orders.find((o) => o.id === decodeURIComponent(oneOrder[1] ?? ''));
      return order ? json(200, order) : json(404, { message: 'Order not found' });
    }

    if (method === 'GET' && path === '/api/lab-accounts') {
      const { filter, range } = readList(req.query);
      let rows = labAccounts;
      if (Array.isArray(filter.id)) rows = rows.filter((a) => (filter.id as string[]).includes(a.id));
      const statuses = asList(filter.status);
      if (statuses) rows = rows.filter((a) => statuses.includes(a.status));
      const labsWanted = asList(filter.lab);
      if (labsWanted) rows = rows.filter((a) => labsWanted.includes(a.lab));
      return page('lab-accounts', rows, range);
    }
    const oneAccount = path.match(/^\/api\/lab-accounts\/([^/]+)$/);
    if (method === 'GET' && oneAccount) {
      const account = labAccounts.find((a) => a.id === decodeURIComponent(oneAccount[1] ?? ''));
      return account ? json(200, account) : json(404, { message: 'Lab account not found' });
    }

    if (method === 'GET' && path === '/api/markers') {
      const { filter, sort, range } = readList(req.query);
      let rows = markers;
      if (Array.isArray(filter.id)) return page('markers', rows.filter((m) => (filter.id as unknown[]).map(Number).includes(m.id)), [0, 999]);
      if (sort[0] !== 'id' || sort[1] !== 'ASC') return json(400, { message: 'Markers are listed in the catalogue’s own order only' });
      const slug = typeof filter.lab_slug === 'string' ? filter.lab_slug : undefined;
      if (slug) rows = rows.filter((m) => labs.find((l) => l.id === m.lab_id)?.slug === slug);
      if (typeof filter.q === 'string' && filter.q) rows = rows.filter((m) => m.name.toLowerCase().includes((filter.q as string).toLowerCase()));
      return page('markers', rows, range);
    }
    const oneMarker = path.match(/^\/api\/markers\/([^/]+)$/);
    if (method === 'GET' && oneMarker) {
      const marker = markers.find((m) => String(m.id) === decodeURIComponent(oneMarker[1] ?? ''));
      return marker ? json(200, marker) : json(404, { message: 'Marker not found' });
    }

    if (method === 'GET' && path === '/api/lab-tests') {
      const { filter, range } = readList(req.query);
      let rows = labTests;
      if (Array.isArray(filter.id)) rows = rows.filter((t) => (filter.id as string[]).includes(t.id));
      if (typeof filter.lab_slug === 'string') rows = rows.filter((t) => t.lab?.slug === filter.lab_slug);
      if (typeof filter.status === 'string') rows = rows.filter((t) => t.status === filter.status);
      return page('lab-tests', rows, range);
    }
    if (method === 'GET' && path === '/api/labs') return page('labs', labs, readList(req.query).range);
    return null;
  }

  return { route, orders };
}

export const SAMPLE_LABS: LabRecord[] = [
  { id: 1, slug: 'quest', name: 'Quest Diagnostics', first_line_address: '500 Plaza Drive', city: 'Secaucus', zipcode: '07094', collection_methods: ['walk_in_test', 'testkit'], sample_types: ['serum'] },
  { id: 2, slug: 'labcorp', name: 'Labcorp', first_line_address: '531 South Spring Street', city: 'Burlington', zipcode: '27215', collection_methods: ['walk_in_test', 'at_home_phlebotomy'], sample_types: ['serum'] },
];

export const SAMPLE_LAB_ACCOUNTS: LabAccountRecord[] = [
  {
    id: 'a1a1a1a1-0000-4000-8000-000000000001',
    lab: 'quest',
    org_id: 'org_demo',
    status: 'active',
    delegated_flow: 'not_delegated',
    provider_account_id: '97512046',
    account_name: 'Demo Quest Client Bill',
    default_clinical_notes: 'Fasting specimens preferred.',
    business_units: ['QTE'],
    allowed_billing: { client_bill: ['TX', 'CA'], patient_bill: ['TX'] },
    team_id_allowlist: [],
  },
  {
    id: 'a1a1a1a1-0000-4000-8000-000000000002',
    lab: 'labcorp',
    org_id: 'org_demo',
    status: 'active',
    delegated_flow: 'order_delegated',
    provider_account_id: '30184472',
    account_name: 'Demo Labcorp',
    default_clinical_notes: null,
    business_units: null,
    allowed_billing: { client_bill: ['TX'] },
    team_id_allowlist: [],
  },
  {
    id: 'a1a1a1a1-0000-4000-8000-000000000003',
    lab: 'sonora_quest',
    org_id: null,
    status: 'onboarding_review',
    delegated_flow: 'result_delegated',
    provider_account_id: 'SQ-41872',
    account_name: 'Sonora Quest (onboarding)',
    default_clinical_notes: null,
    business_units: null,
    allowed_billing: {},
    team_id_allowlist: [],
  },
];

const labOf = (id: number) => SAMPLE_LABS.find((l) => l.id === id) ?? null;

export function makeLabTest(overrides: Partial<LabTestRecord> & { id: string; name: string; labId: number }): LabTestRecord {
  const { labId, ...rest } = overrides;
  return {
    slug: overrides.name.toLowerCase().replace(/\W+/g, '_'),
    sample_type: 'serum',
    method: 'walk_in_test',
    price: 59,
    is_active: true,
    status: 'active',
    fasting: false,
    lab: labOf(labId),
    markers: [],
    ...rest,
  };
}

export const SAMPLE_LAB_TESTS: LabTestRecord[] = [
  makeLabTest({ id: 'b2b2b2b2-0000-4000-8000-000000000001', name: 'Quest Metabolic Panel', labId: 1 }),
  makeLabTest({ id: 'b2b2b2b2-0000-4000-8000-000000000002', name: 'Quest Thyroid Kit', labId: 1, method: 'testkit' }),
  makeLabTest({ id: 'b2b2b2b2-0000-4000-8000-000000000003', name: 'Labcorp Heart Health', labId: 2, method: 'at_home_phlebotomy' }),
];

export const SAMPLE_MARKERS: MarkerRecord[] = [
  {
    id: 1003,
    name: 'TSH',
    slug: 'tsh',
    description: 'Thyroid stimulating hormone.',
    lab_id: 1,
    provider_id: '899',
    type: 'biomarker',
    unit: 'mIU/L',
    price: '22.00',
    aoe: null,
    a_la_carte_enabled: true,
    common_tat_days: 1,
    worst_case_tat_days: 3,
    is_orderable: true,
    expected_results: [
      { id: 11, name: 'TSH', slug: 'tsh', lab_id: 1, provider_id: '899', required: true, loinc: { id: 30162, name: 'Thyrotropin [Units/volume] in Serum or Plasma', slug: 'tsh', code: '3016-3', unit: 'mIU/L' } },
    ],
  },
  {
    id: 2001,
    name: 'Glucose',
    slug: 'glucose',
    description: null,
    lab_id: 2,
    provider_id: '001818',
    type: 'biomarker',
    unit: 'mg/dL',
    price: '12.00',
    aoe: null,
    a_la_carte_enabled: true,
    common_tat_days: 1,
    worst_case_tat_days: 2,
    is_orderable: true,
    expected_results: [
      { id: 21, name: 'Glucose', slug: 'glucose', lab_id: 2, provider_id: '001818', required: true, loinc: { id: 23457, name: 'Glucose [Mass/volume] in Serum or Plasma', slug: 'glucose', code: '2345-7', unit: 'mg/dL' } },
    ],
  },
];

export function makeOrder(overrides: Partial<OrderRecord> & { id: string }): OrderRecord {
  const created = overrides.created_at ?? '2026-05-04T15:00:00.000Z';
  const test = overrides.lab_test ?? SAMPLE_LAB_TESTS[0]!;
  return {
    user_id: SAMPLE_USERS[0]!.id,
    team_id: '5f0c9a52-0000-4000-8000-00000000000a',
    patient_details: { first_name: 'Ada', last_name: 'Lovelace', dob: '1980-04-02', gender: 'female', phone_number: '+15555550100', email: 'ada@example.com' },
    patient_address: { first_line: '1 Main Street', city: 'Austin', state: 'TX', zip: '73301', country: 'US', access_notes: 'Gate code 4711; park behind the building' },
    lab_test: test,
    details: { type: test.method, data: { id: 'd-1', created_at: created, updated_at: created } },
    sample_id: null,
    notes: null,
    created_at: created,
    updated_at: created,
    events: [{ id: 1, created_at: created, status: `received.${test.method}.ordered` }],
    status: 'received',
    low_level_status: 'ordered',
    billing_type: 'client_bill',
    has_abn: false,
    lab_account_id: SAMPLE_LAB_ACCOUNTS[0]!.id,
    clinical_notes: null,
    origin: 'created',
    ...overrides,
  };
}

export const SAMPLE_ORDERS: OrderRecord[] = [
  makeOrder({
    id: '0e0e0e0e-0000-4000-8000-000000000001',
    created_at: '2026-05-06T09:00:00.000Z',
    status: 'collecting_sample',
    low_level_status: 'problem_in_transit_lab',
    lab_test: SAMPLE_LAB_TESTS[1]!,
    details: { type: 'testkit', data: null },
    patient_details: { first_name: 'Grace', last_name: 'Hopper', dob: '1906-12-09', gender: 'female', phone_number: '+15555550101', email: 'grace@example.com' },
    clinical_notes: 'Repeat the kit if the sample is lost.\nCall before shipping.',
    events: [
      { id: 1, created_at: '2026-05-06T09:00:00.000Z', status: 'received.testkit.ordered' },
      { id: 2, created_at: '2026-05-06T10:00:00.000Z', status: 'received.testkit.requisition_created' },
      { id: 3, created_at: '2026-05-07T08:00:00.000Z', status: 'collecting_sample.testkit.transit_lab' },
      { id: 4, created_at: '2026-05-08T12:30:00.000Z', status: 'collecting_sample.testkit.problem_in_transit_lab' },
    ],
  }),
  makeOrder({
    id: '0e0e0e0e-0000-4000-8000-000000000002',
    created_at: '2026-05-05T09:00:00.000Z',
    status: 'mystery_stage',
    low_level_status: 'awaiting_courier',
    patient_details: { first_name: 'Alan', last_name: 'Turing', dob: '1912-06-23', gender: 'male', phone_number: '+15555550102', email: 'alan@example.com' },
    events: [
      { id: 1, created_at: '2026-05-05T09:00:00.000Z', status: 'received.walk_in_test.ordered' },
      { id: 2, created_at: '2026-05-05T11:00:00.000Z', status: 'mystery_stage.walk_in_test.awaiting_courier' },
    ],
  }),
  makeOrder({
    id: '0e0e0e0e-0000-4000-8000-000000000003',
    created_at: '2026-05-04T09:00:00.000Z',
    status: 'completed',
    low_level_status: 'completed',
    patient_details: { first_name: 'Katherine', last_name: 'Johnson', dob: '1918-08-26', gender: 'female', phone_number: '+15555550103', email: 'kj@example.com' },
  }),
  makeOrder({
    id: '0e0e0e0e-0000-4000-8000-000000000004',
    created_at: '2026-05-03T09:00:00.000Z',
    status: 'failed',
    low_level_status: 'lost',
    lab_test: SAMPLE_LAB_TESTS[1]!,
    details: { type: 'testkit', data: null },
    patient_details: { first_name: 'Edsger', last_name: 'Dijkstra', dob: '1930-05-11', gender: 'male', phone_number: '+15555550104', email: 'ewd@example.com' },
  }),
];

// ---------------------------------------------------------------------------------------------
// At-home phlebotomy appointments (docs/bff-api.md): the `appointments` resource and an order's
// appointment actions, with a fixed calendar (slots are cut at fixed UTC instants from a fixed
// "today") and booking keys that expire on the real clock, as the page sees them.

export type AppointmentAction = 'availability' | 'book' | 'request' | 'reschedule' | 'cancel';

/** One slot a provider offers: instants in UTC. */
export interface SlotTemplate {
  start: string;
  end: string;
  provider: string;
  price: number;
  is_priority: boolean;
  places: number;
}

export interface SchedulingOptions {
  /** The time zone of a zip code. Default: 9xxxx Los Angeles, 6xxxx-7xxxx Chicago, others New York. */
  zoneOf?: (zip: string) => string;
  /** The first day of the default window: the fake's fixed "today" in the address's zone. */
  today?: string;
  /** Slots offered on a day (a calendar date in the address's zone). Default: `defaultSlotsOn`. */
  slotsOn?: (date: string, zone: string) => SlotTemplate[];
  /** How long booking keys live (ms of the real clock) for the n-th availability call (1-based). Default 15 min. */
  keyTtlMs?: number | ((call: number) => number);
  /** Answers given instead of the default, one per call, in order, before the default takes over. */
  answers?: Partial<Record<AppointmentAction, Answer[]>>;
  /** An asynchronous booking stays pending for this many reads of the appointment (default 1) ... */
  pendingReads?: number;
  /** ... then ends so (default confirmed). */
  asyncOutcome?: 'confirmed' | 'cancelled';
  /** Zip codes no provider serves: a request there is a 422 on `address.zip_code`. */
  unservedZips?: string[];
  /**
   * Whether availability slots name their provider (`provider`, our service's extension). Default
   * true; false: a deployment whose slots do not (the provider only sealed in the booking key).
   */
  slotProviders?: boolean;
}

export const FAKE_TODAY = '2026-10-26';

export const CANCELLATION_REASONS = [
  { id: 'patient_request', name: 'Patient asked to cancel', is_refundable: true },
  { id: 'no_longer_needed', name: 'Appointment no longer needed', is_refundable: true },
  { id: 'late_cancellation', name: 'Cancelled less than 24 hours before the appointment', is_refundable: false },
];

export function defaultZoneOf(zip: string): string {
  if (zip.startsWith('9')) return 'America/Los_Angeles';
  if (zip.startsWith('6') || zip.startsWith('7')) return 'America/Chicago';
  return 'America/New_York';
}

/**
 * Two slots a day, none on Sundays: 15:00Z with provider_1 ($35, 3 places) and 18:30Z with
 * provider_2 (priority, $45, 1 place). In Los Angeles 15:00Z is 8:00 AM in daylight time and 7:00 AM
 * in standard time (US daylight saving ends on 1 November 2026).
 */
export function defaultSlotsOn(date: string): SlotTemplate[] {
  if (new Date(`${date}T12:00:00Z`).getUTCDay() === 0) return [];
  return [
    { start: `${date}T15:00:00.000Z`, end: `${date}T15:30:00.000Z`, provider: 'provider_1', price: 35, is_priority: false, places: 3 },
    { start: `${date}T18:30:00.000Z`, end: `${date}T19:00:00.000Z`, provider: 'provider_2', price: 45, is_priority: true, places: 1 },
  ];
}

/** The summary of its order the BFF puts on an appointment. */
function orderSummary(order: OrderRecord): AppointmentRecord['order'] {
  const d = order.patient_details ?? {};
  const name = [d.first_name, d.last_name].filter((p) => typeof p === 'string' && p).join(' ');
  return { id: order.id, status: order.status ?? null, low_level_status: order.low_level_status ?? null, patient_name: name || null, user_id: order.user_id };
}

function addressOfOrder(order: OrderRecord): AppointmentRecord['address'] {
  const a = (order.patient_address ?? {}) as Record<string, string | null | undefined>;
  return {
    first_line: a.first_line ?? '',
    second_line: a.second_line ?? null,
    city: a.city ?? '',
    state: a.state ?? '',
    zip_code: a.zip ?? '',
    access_notes: a.access_notes ?? null,
  };
}

/** An appointment record for the order (confirmed with provider_1 at 15:00Z on FAKE_TODAY unless overridden). */
export function makeAppointment(order: OrderRecord, overrides: Partial<AppointmentRecord> = {}): AppointmentRecord {
  const address = overrides.address ?? addressOfOrder(order);
  const status = overrides.status ?? 'confirmed';
  return {
    id: order.id,
    appointment_id: `ap-${order.id.slice(-6)}`,
    user_id: order.user_id,
    order_id: order.id,
    address,
    location: { lng: -97.74, lat: 30.27 },
    start_at: `${FAKE_TODAY}T15:00:00.000Z`,
    end_at: `${FAKE_TODAY}T15:30:00.000Z`,
    iana_timezone: defaultZoneOf(address.zip_code),
    type: 'phlebotomy',
    provider: 'provider_1',
    status,
    provider_id: 'ticket-1',
    can_reschedule: status === 'confirmed',
    event_status: status === 'confirmed' ? 'scheduled' : status,
    events: [
      { created_at: '2026-10-20T10:00:00.000Z', status: 'reserved', data: {} },
      { created_at: '2026-10-20T10:00:01.000Z', status: 'scheduled', data: {} },
    ],
    order_transaction_id: null,
    external_id: null,
    appointment_notes: null,
    event_data: {},
    order: orderSummary(order),
    ...overrides,
  };
}

/** A booking key names a slot: it books until it expires, while the slot has a place (it is not used up). */
interface IssuedKey {
  orderId: string;
  slot: SlotTemplate;
  expiresAt: number;
}

function createScheduling(options: FakeBffOptions, orders: OrderRecord[], role: () => string | undefined) {
  const config = options.scheduling ?? {};
  const zoneOf = config.zoneOf ?? defaultZoneOf;
  const slotsOn = config.slotsOn ?? defaultSlotsOn;
  const today = config.today ?? FAKE_TODAY;
  const answers = structuredClone(config.answers ?? {});
  const appointments = new Map<string, AppointmentRecord>((structuredClone(options.appointments ?? [])).map((a) => [a.id, a]));
  const pendingReads = new Map<string, number>();
  const keys = new Map<string, IssuedKey>();
  const booked = new Map<string, number>();
  let availabilityCalls = 0;

  const placeKey = (s: SlotTemplate) => `${s.provider}|${s.start}`;
  const now = () => new Date().toISOString();
  const forced = (action: AppointmentAction) => answers[action]?.shift() ?? null;
  const orderOf = (id: string) => orders.find((o) => o.id === id);
  const ttl = () => (typeof config.keyTtlMs === 'function' ? config.keyTtlMs(availabilityCalls) : (config.keyTtlMs ?? 15 * 60_000));

  function moveOrder(order: OrderRecord, low: string) {
    Object.assign(order, {
      status: 'collecting_sample',
      low_level_status: low,
      events: [...order.events, { id: order.events.length + 1, created_at: now(), status: `collecting_sample.${order.details.type}.${low}` }],
    });
  }

  /** The record as the BFF answers it: with its order's summary as it is now. */
  function present(a: AppointmentRecord): AppointmentRecord {
    const order = orderOf(a.id);
    return order ? { ...a, order: orderSummary(order) } : a;
  }

  function settle(a: AppointmentRecord, outcome: 'confirmed' | 'cancelled') {
    const order = orderOf(a.id);
    if (outcome === 'confirmed') {
      Object.assign(a, { status: 'confirmed', event_status: 'scheduled', can_reschedule: true, events: [...a.events, { created_at: now(), status: 'scheduled', data: {} }] });
      if (order) moveOrder(order, 'appointment_scheduled');
    } else {
      Object.assign(a, {
        status: 'cancelled',
        event_status: 'cancelled',
        can_reschedule: false,
        events: [...a.events, { created_at: now(), status: 'cancelled', data: { reason: 'async_confirmation_timeout' } }],
      });
      if (a.start_at) booked.set(`${a.provider}|${a.start_at}`, (booked.get(`${a.provider}|${a.start_at}`) ?? 1) - 1);
      if (order) moveOrder(order, 'appointment_cancelled');
    }
  }

  function read(orderId: string): Answer {
    const a = appointments.get(orderId);
    if (!a) return json(404, { message: 'No appointment for this order' });
    const left = pendingReads.get(orderId);
    if (left !== undefined && a.status === 'pending') {
      if (left <= 1) {
        pendingReads.delete(orderId);
        settle(a, config.asyncOutcome ?? 'confirmed');
      } else {
        pendingReads.set(orderId, left - 1);
      }
    }
    return json(200, present(a));
  }

  function availability(order: OrderRecord, req: RecordedRequest): Answer {
    availabilityCalls += 1;
    const custom = forced('availability');
    if (custom) return custom;
    const body = (req.body ?? {}) as Partial<AppointmentRecord['address']>;
    const address = body.zip_code ? ({ ...addressOfOrder(order), ...body } as AppointmentRecord['address']) : addressOfOrder(order);
    const zone = zoneOf(address.zip_code);
    const first = req.query.get('start_date') ?? today;
    const expiresAt = Date.now() + ttl();
    const slots = datesBetween(first, new Date(Date.parse(`${first}T00:00:00Z`) + 13 * 86_400_000).toISOString().slice(0, 10)).map((date) => ({
      date,
      slots: slotsOn(date, zone)
        .map((slot) => ({ slot, left: slot.places - (booked.get(placeKey(slot)) ?? 0) }))
        .filter((x) => x.left > 0)
        .map(({ slot, left }) => {
          const key = `key-${keys.size + 1}-${slot.provider}-${slot.start}`;
          keys.set(key, { orderId: order.id, slot, expiresAt });
          return {
            booking_key: key,
            start: slot.start,
            end: slot.end,
            expires_at: new Date(expiresAt).toISOString(),
            price: slot.price,
            is_priority: slot.is_priority,
            num_appointments_available: left,
            ...(config.slotProviders === false ? {} : { provider: slot.provider }),
          };
        }),
    }));
    return json(200, { timezone: zone, slots, address });
  }

  /** A booking key's slot, or the answer refusing it. */
  function takeKey(orderId: string, key: unknown): IssuedKey | Answer {
    const issued = typeof key === 'string' ? keys.get(key) : undefined;
    if (!issued || issued.orderId !== orderId) return json(422, { message: 'booking_key: is invalid', errors: { booking_key: 'is invalid' } });
    if (Date.now() > issued.expiresAt) {
      return json(410, { message: 'The booking key has expired; ask for availability again', code: 'slot_expired', errors: { booking_key: 'has expired' } });
    }
    if ((booked.get(placeKey(issued.slot)) ?? 0) >= issued.slot.places) {
      return json(409, { message: 'The slot is no longer available', code: 'slot_taken' });
    }
    return issued;
  }

  const notesTooLong = (notes: unknown) =>
    typeof notes === 'string' && notes.length > 1000
      ? json(422, { message: 'appointment_notes: must be at most 1000 characters', errors: { appointment_notes: 'appointment_notes must be at most 1000 characters' } })
      : null;

  function book(order: OrderRecord, req: RecordedRequest): Answer {
    const custom = forced('book');
    if (custom) return custom;
    const body = (req.body ?? {}) as { booking_key?: unknown; appointment_notes?: string; async_confirmation?: boolean; sync_confirmation_timeout_millisecond?: number; async_confirmation_timeout_millisecond?: number };
    const current = appointments.get(order.id);
    if (current && ['pending', 'reserved', 'confirmed'].includes(current.status)) {
      return json(409, { message: `The order already has a ${current.status} appointment`, code: 'has_appointment' });
    }
    const tooLong = notesTooLong(body.appointment_notes);
    if (tooLong) return tooLong;
    const issued = takeKey(order.id, body.booking_key);
    if (!('slot' in issued)) return issued;
    booked.set(placeKey(issued.slot), (booked.get(placeKey(issued.slot)) ?? 0) + 1);
    const isAsync = body.async_confirmation === true;
    const at = now();
    const appointment = makeAppointment(order, {
      appointment_id: `ap-${keys.size}-${order.id.slice(-4)}`,
      address: addressOfOrder(order),
      iana_timezone: zoneOf(addressOfOrder(order).zip_code),
      start_at: issued.slot.start,
      end_at: issued.slot.end,
      provider: issued.slot.provider,
      status: isAsync ? 'pending' : 'confirmed',
      event_status: isAsync ? 'pending' : 'scheduled',
      can_reschedule: !isAsync,
      appointment_notes: body.appointment_notes ?? null,
      events: isAsync
        ? [{ created_at: at, status: 'pending', data: {} }]
        : [
            { created_at: at, status: 'reserved', data: {} },
            { created_at: at, status: 'scheduled', data: {} },
          ],
      event_data: isAsync
        ? {
            async_confirmation: true,
            sync_confirmation_timeout_millisecond: body.sync_confirmation_timeout_millisecond ?? 2500,
            async_confirmation_timeout_millisecond: body.async_confirmation_timeout_millisecond ?? 900_000,
          }
        : { async_confirmation: false },
    });
    appointments.set(order.id, appointment);
    if (isAsync) pendingReads.set(order.id, config.pendingReads ?? 1);
    moveOrder(order, isAsync ? 'appointment_pending' : 'appointment_scheduled');
    return json(200, present(appointment));
  }

  function request(order: OrderRecord, req: RecordedRequest): Answer {
    const custom = forced('request');
    if (custom) return custom;
    const body = (req.body ?? {}) as { address?: Record<string, string>; provider?: string; appointment_notes?: string };
    const zip = body.address?.zip_code ?? '';
    if ((config.unservedZips ?? []).includes(zip)) {
      return json(422, { message: `address.zip_code: no provider serves ${zip}`, errors: { 'address.zip_code': `No provider serves zip code ${zip}` } });
    }
    const current = appointments.get(order.id);
    if (current && ['pending', 'reserved', 'confirmed'].includes(current.status)) {
      return json(409, { message: `The order already has a ${current.status} appointment`, code: 'has_appointment' });
    }
    const address = { second_line: null, access_notes: null, ...body.address } as AppointmentRecord['address'];
    const appointment = makeAppointment(order, {
      address,
      iana_timezone: zoneOf(zip),
      start_at: null,
      end_at: null,
      provider: body.provider ?? '',
      status: 'pending',
      event_status: 'pending',
      can_reschedule: true,
      appointment_notes: body.appointment_notes ?? null,
      events: [{ created_at: now(), status: 'pending', data: { requested: true } }],
      event_data: { requested: true },
    });
    appointments.set(order.id, appointment);
    moveOrder(order, 'appointment_pending');
    return json(200, present(appointment));
  }

  function reschedule(order: OrderRecord, req: RecordedRequest): Answer {
    const custom = forced('reschedule');
    if (custom) return custom;
    const a = appointments.get(order.id);
    if (!a) return json(404, { message: 'No appointment for this order' });
    if (!a.can_reschedule) return json(409, { message: `The appointment is ${a.status}; it cannot be rescheduled` });
    const body = (req.body ?? {}) as { booking_key?: unknown; appointment_notes?: string };
    const tooLong = notesTooLong(body.appointment_notes);
    if (tooLong) return tooLong;
    const issued = takeKey(order.id, body.booking_key);
    if (!('slot' in issued)) return issued;
    booked.set(placeKey(issued.slot), (booked.get(placeKey(issued.slot)) ?? 0) + 1);
    Object.assign(a, {
      start_at: issued.slot.start,
      end_at: issued.slot.end,
      provider: issued.slot.provider,
      status: 'confirmed',
      event_status: 'scheduled',
      can_reschedule: true,
      appointment_notes: body.appointment_notes ?? a.appointment_notes,
      events: [...a.events, { created_at: now(), status: 'scheduled', data: { rescheduled: true } }],
    });
    moveOrder(order, 'appointment_scheduled');
    return json(200, present(a));
  }

  function cancel(order: OrderRecord, req: RecordedRequest): Answer {
    const custom = forced('cancel');
    if (custom) return custom;
    const a = appointments.get(order.id);
    if (!a) return json(404, { message: 'No appointment for this order' });
    const body = (req.body ?? {}) as { cancellation_reason_id?: string; notes?: string };
    const reason = CANCELLATION_REASONS.find((r) => r.id === body.cancellation_reason_id);
    if (!reason) return json(422, { message: 'cancellation_reason_id: unknown', errors: { cancellation_reason_id: 'unknown cancellation_reason_id' } });
    if (!['pending', 'reserved', 'confirmed'].includes(a.status)) {
      return json(422, { message: `the appointment is ${a.status}; it cannot be cancelled`, errors: { order_id: 'cannot be cancelled' } });
    }
    Object.assign(a, {
      status: 'cancelled',
      event_status: 'cancelled',
      can_reschedule: false,
      events: [...a.events, { created_at: now(), status: 'cancelled', data: { reason_id: reason.id, reason: reason.name, notes: body.notes ?? null } }],
    });
    pendingReads.delete(order.id);
    moveOrder(order, 'appointment_cancelled');
    return json(200, present(a));
  }

  function list(query: URLSearchParams): Answer {
    const { filter, sort, range } = readList(query);
    const [field, order] = sort;
    const keysOf: Record<string, (a: AppointmentRecord) => string> = {
      // Appointments without a time last, whichever the direction.
      start_at: (a) => a.start_at ?? '',
      status: (a) => a.status,
      provider: (a) => a.provider,
      id: (a) => a.id,
    };
    const key = keysOf[field];
    if (!key) return json(400, { message: `Appointments can be sorted by start_at, status, provider or id only (not by ${field})` });
    let rows = [...appointments.values()].map(present);
    if (Array.isArray(filter.id)) rows = rows.filter((a) => (filter.id as string[]).includes(a.id));
    const statuses = asList(filter.status);
    if (statuses) rows = rows.filter((a) => statuses.includes(a.status));
    const providers = asList(filter.provider);
    if (providers) rows = rows.filter((a) => providers.includes(a.provider));
    if (typeof filter.start_date === 'string' || typeof filter.end_date === 'string') rows = rows.filter((a) => a.start_at !== null);
    if (typeof filter.start_date === 'string') rows = rows.filter((a) => Date.parse(a.start_at!) >= Date.parse(filter.start_date as string));
    if (typeof filter.end_date === 'string') rows = rows.filter((a) => Date.parse(a.start_at!) <= Date.parse(filter.end_date as string));
    if (typeof filter.order_id === 'string') rows = rows.filter((a) => a.id === filter.order_id);
    if (typeof filter.user_id === 'string') rows = rows.filter((a) => a.user_id === filter.user_id);
    const dir = order === 'DESC' ? -1 : 1;
    rows.sort((a, b) => {
      if (field === 'start_at' && !a.start_at !== !b.start_at) return a.start_at ? -1 : 1;
      return key(a).localeCompare(key(b)) * dir;
    });
    return page('appointments', rows, range);
  }

  const ACTIONS: Record<string, (order: OrderRecord, req: RecordedRequest) => Answer> = { availability, book, request, reschedule, cancel };

  function route(req: RecordedRequest): Answer | null {
    const { method, path } = req;
    if (method === 'GET' && path === '/api/appointments') return list(req.query);
    if (method === 'GET' && path === '/api/appointments/cancellation-reasons') return json(200, CANCELLATION_REASONS);
    const one = path.match(/^\/api\/appointments\/([^/]+)$/);
    if (method === 'GET' && one) return read(decodeURIComponent(one[1] ?? ''));
    const action = path.match(/^\/api\/orders\/([^/]+)\/appointment\/([a-z]+)$/);
    if (method === 'POST' && action) {
      const name = action[2] ?? '';
      const handler = ACTIONS[name];
      if (!handler) return null;
      // appointments:write for all but availability (appointments:read), as the BFF enforces.
      if (name !== 'availability' && !['admin', 'coordinator'].includes(role() ?? '')) return json(403, { message: 'Your role cannot change appointments' });
      const order = orderOf(decodeURIComponent(action[1] ?? ''));
      if (!order) return json(404, { message: 'Order not found' });
      return handler(order, req);
    }
    return null;
  }

  return { route, appointments };
}

// ---------------------------------------------------------------------------------------------
// Lab-report parsing (docs/bff-api.md, "Lab-report parsing and the review queue"): the
// `parser-jobs` resource on a cursor upstream (no total: `/*` and X-Has-Next-Page), jobs that move
// through their stages one read at a time, the uploaded file, and reviews.

/** A job, and the states it moves through: each read of it (one job or a list) applies the next. */
export type FakeParserJob = ParserJobRecord & { script?: Partial<ParserJobRecord>[] };

export interface ParserOptions {
  /** Answers to POST /api/parser-jobs/:id/review given instead of the default, one per call. */
  reviewAnswers?: Answer[];
  /** The states a freshly uploaded job moves through. Default: `defaultUploadScript`. */
  uploadScript?: (job: ParserJobRecord) => Partial<ParserJobRecord>[];
  /** Uploads wait for the test to drive their progress (`bff.uploads[i]`). */
  holdUploads?: boolean;
  /** What GET /api/parser-jobs/queue answers, one per call (the last repeats). Default: not reported. */
  queue?: ParserQueueStatus[];
}

/** What the upload's multipart form carried, as the fake reads it. */
export interface UploadForm {
  user_id: string | null;
  needs_human_review: string | null;
  file: { name: string; type: string; size: number } | null;
  /** The first bytes of the file, for the content check. */
  head: number[];
}

const PARSER_READ = ['admin', 'coordinator', 'lab_ops', 'reviewer'];
const PARSER_REVIEW = ['admin', 'reviewer'];
export const PARSER_MAX_BYTES = 10 * 1024 * 1024;

/** The smallest PNG there is (1×1, transparent): what the fake serves as an uploaded scan. */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
export const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const PDF_HEAD = [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0));

function sniff(head: number[]): string | null {
  const starts = (sig: number[]) => sig.every((b, i) => head[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46])) return 'application/pdf';
  if (starts(PNG_HEAD.slice(0, 4))) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  return null;
}

export const loinc = (code: string, name: string, confidence: number) => ({ loinc_code: code, loinc_name: name, display_name: name, confidence_score: confidence });

/** A report read with doubts of every kind: value, unit, LOINC, range, and a code the dashboard does not know. */
export const DOUBTFUL_REPORT = {
  data: {
    metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1980-04-02', lab_name: 'Quest Diagnostics', date_collected: '2026-05-02', specimen_number: 'SP-1001' },
    results: [
      { test_name: 'Glucose', value: '95', type: 'numeric', units: 'mg/dL', min_reference_range: 70, max_reference_range: 99, interpretation: 'normal', is_above_max_range: false, is_below_min_range: false, loinc_matches: [loinc('2345-7', 'Glucose', 1)], source_panel_name: 'Metabolic panel' },
      { test_name: 'Potassium', value: '45', type: 'numeric', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.1, interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false, loinc_matches: [loinc('2823-3', 'Potassium', 1)], source_panel_name: 'Metabolic panel' },
      { test_name: 'Sodium', value: '140', type: 'numeric', units: 'mmol/', min_reference_range: 136, max_reference_range: 145, interpretation: 'normal', loinc_matches: [loinc('2951-2', 'Sodium', 1)], source_panel_name: 'Metabolic panel' },
      { test_name: 'Hemoglobin A1c', value: '5.6', type: 'percentage', units: '%', min_reference_range: 4, max_reference_range: 5.6, interpretation: 'normal', loinc_matches: [loinc('4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood', 0.72), loinc('17856-6', 'Hemoglobin A1c/Hemoglobin.total in Blood by HPLC', 0.65)] },
      { test_name: 'TSH', value: '2.1', type: 'numeric', units: 'mIU/L', min_reference_range: 4.5, max_reference_range: 0.4, interpretation: 'unknown', loinc_matches: [loinc('3016-3', 'Thyrotropin', 1)] },
      { test_name: 'Vitamin D', value: '30', type: 'numeric', units: 'ng/mL', min_reference_range: 30, max_reference_range: 100, interpretation: 'borderline_watch', loinc_matches: [loinc('1989-3', '25-Hydroxyvitamin D3', 0.95)] },
    ],
  },
  review_reasons: {
    results: [
      [],
      [{ code: 'decimal_suspect', message: '45 has no decimals; Potassium is normally printed with 1.' }],
      [{ code: 'unexpected_unit', message: 'mmol/ is not a unit Sodium is reported in.' }],
      [{ code: 'loinc_low_confidence', message: 'The test name was matched to Hemoglobin A1c only approximately.' }],
      [{ code: 'range_suspect', message: 'The reference range 4.5-0.4 runs backwards.' }],
      [{ code: 'mystery_check', message: 'Something this dashboard has never heard of.' }],
    ],
    report: [{ code: 'ocr_used_low_quality', message: 'The scan was read with low overall confidence (62%).' }],
  },
} satisfies Pick<ParserJobRecord, 'data' | 'review_reasons'>;

export function makeParserJob(overrides: Partial<FakeParserJob> & { id: string }): FakeParserJob {
  const created = overrides.created_at ?? '2026-05-04T15:00:00.000Z';
  return {
    job_id: overrides.id,
    status: 'completed',
    stage: 'done',
    needs_human_review: false,
    is_reviewed: false,
    failure_reason: null,
    user_id: SAMPLE_USERS[0]!.id,
    progress: 1,
    review_requested: false,
    review_reasons: null,
    review: null,
    file: { name: 'report.png', content_type: 'image/png', size: TINY_PNG.length },
    stats: { pages: 1, ocr_pages: 1, mean_ocr_confidence: 62 },
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

/** A job waiting for review, with DOUBTFUL_REPORT's data and reasons. */
export const awaitingReview = (overrides: Partial<FakeParserJob> & { id: string }) =>
  makeParserJob({ status: 'started', stage: 'awaiting_review', needs_human_review: true, ...structuredClone(DOUBTFUL_REPORT), ...overrides });

/** Queued, parsing at 40% and 80%, then waiting for review with DOUBTFUL_REPORT (or done, if nothing is doubtful). */
export function defaultUploadScript(job: ParserJobRecord): Partial<ParserJobRecord>[] {
  return [
    { stage: 'parsing', status: 'started', progress: 0.4 },
    { stage: 'parsing', status: 'started', progress: 0.8 },
    { stage: 'awaiting_review', status: 'started', progress: 1, needs_human_review: true, ...structuredClone(DOUBTFUL_REPORT), review_requested: job.review_requested },
  ];
}

/** The range flags and interpretation, worked out again from corrected numbers (as the service does). */
function recompute(result: Record<string, unknown>): Record<string, unknown> {
  const n = Number(result.value);
  const min = result.min_reference_range as number | undefined;
  const max = result.max_reference_range as number | undefined;
  if (!Number.isFinite(n)) return result;
  const above = max !== undefined && n > max;
  const below = min !== undefined && n < min;
  return { ...result, is_above_max_range: above, is_below_min_range: below, interpretation: above || below ? 'abnormal' : 'normal' };
}

function createParser(options: FakeBffOptions, users: UserRecord[], session: () => StaffUser | null) {
  const jobs: FakeParserJob[] = structuredClone(options.parserJobs ?? []);
  const config = options.parser ?? {};
  const reviewAnswers = [...(config.reviewAnswers ?? [])];
  const role = () => session()?.role ?? '';

  /** The job's next state, if its script has one: a read moves it on. */
  function advance(job: FakeParserJob) {
    const next = job.script?.shift();
    if (next) Object.assign(job, next, { updated_at: new Date().toISOString() });
  }

  const present = (job: FakeParserJob): ParserJobRecord => {
    const { script: _script, ...rest } = job;
    return structuredClone(rest);
  };

  function list(query: URLSearchParams): Answer {
    const { filter, sort, range } = readList(query);
    const [field, order] = sort;
    if (field !== 'created_at' && field !== 'id') return json(400, { message: `Parser jobs can be sorted by created_at or id only (not by ${field})` });
    let rows = jobs;
    if (Array.isArray(filter.id)) {
      rows = rows.filter((j) => (filter.id as string[]).includes(j.id));
      return json(200, rows.map(present), { 'Content-Range': `parser-jobs 0-${Math.max(0, rows.length - 1)}/*`, 'X-Has-Next-Page': 'false' });
    }
    if (filter.queue === true) rows = rows.filter((j) => j.stage === 'awaiting_review' && !j.is_reviewed);
    const statuses = asList(filter.status);
    if (statuses) rows = rows.filter((j) => statuses.includes(j.status));
    if (typeof filter.stage === 'string') rows = rows.filter((j) => j.stage === filter.stage);
    if (typeof filter.user_id === 'string') rows = rows.filter((j) => j.user_id === filter.user_id);
    rows = [...rows].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)) * (order === 'ASC' ? 1 : -1));
    const [from, to] = range;
    const items = rows.slice(from, to + 1);
    items.forEach(advance);
    const span = items.length ? `${from}-${from + items.length - 1}` : '*';
    // The upstream has no total: the BFF knows only whether another page follows.
    return json(
      200,
      items.map(({ data: _data, ...item }) => present(item as FakeParserJob)),
      { 'Content-Range': `parser-jobs ${span}/*`, 'X-Has-Next-Page': String(rows.length > to + 1) },
    );
  }

  function upload(req: RecordedRequest): Answer {
    if (!PARSER_READ.includes(role())) return json(403, { message: 'Your role cannot upload reports' });
    const form = req.body as UploadForm;
    if (!form.file) return json(422, { message: 'file: required', errors: { file: 'A file is required' } });
    if (form.file.size > PARSER_MAX_BYTES) return json(413, { message: 'The file is larger than 10 MB' });
    const type = sniff(form.head);
    if (!type) return json(415, { message: 'Only PDF, JPEG and PNG files can be parsed' });
    if (!form.user_id || !users.some((u) => u.id === form.user_id)) {
      return json(422, { message: 'user_id: unknown user', errors: { user_id: 'No user with this id' } });
    }
    const now = new Date().toISOString();
    const id = `9a9a9a9a-0000-4000-8000-${String(jobs.length + 1).padStart(12, '0')}`;
    const job = makeParserJob({
      id,
      status: 'started',
      stage: 'queued',
      progress: 0,
      user_id: form.user_id,
      review_requested: form.needs_human_review === 'true',
      needs_human_review: form.needs_human_review === 'true',
      file: { name: form.file.name, content_type: type, size: form.file.size },
      stats: null,
      created_at: now,
      updated_at: now,
    });
    job.script = (config.uploadScript ?? defaultUploadScript)(job);
    jobs.push(job);
    return json(201, present(job));
  }

  function review(job: FakeParserJob, req: RecordedRequest): Answer {
    if (!PARSER_REVIEW.includes(role())) return json(403, { message: 'Your role cannot review reports' });
    const forced = reviewAnswers.shift();
    if (forced) return forced;
    if (job.stage !== 'awaiting_review' || job.is_reviewed) {
      return json(409, { message: `The job is ${job.stage ?? job.status}; it cannot be reviewed`, code: 'not_reviewable' });
    }
    const body = (req.body ?? {}) as { decision?: string; results?: Record<string, unknown>[]; metadata?: NonNullable<ParserJobRecord['data']>['metadata']; notes?: string | null };
    const errors: Record<string, string> = {};
    body.results?.forEach((r, i) => {
      if (typeof r.value !== 'string' || !r.value) errors[`results.${i}.value`] = 'must not be empty';
    });
    if (body.decision !== 'approve' && body.decision !== 'reject') errors.decision = 'must be approve or reject';
    if (Object.keys(errors).length) return json(422, { message: 'The review is invalid', errors });
    const now = new Date().toISOString();
    const review = { decision: body.decision!, reviewer: session()?.id ?? null, notes: body.notes ?? null, reviewed_at: now };
    if (body.decision === 'approve') {
      const data = job.data!;
      Object.assign(job, {
        status: 'completed',
        stage: 'done',
        is_reviewed: true,
        review,
        updated_at: now,
        data: { metadata: body.metadata ?? data.metadata, results: (body.results ?? data.results).map(recompute) },
      });
    } else {
      Object.assign(job, { status: 'failed', stage: 'failed', is_reviewed: true, review, failure_reason: body.notes ? `Rejected in review: ${body.notes}` : 'Rejected in review', updated_at: now });
    }
    return json(200, present(job));
  }

  function route(req: RecordedRequest): Answer | null {
    const { method, path } = req;
    if (!path.startsWith('/api/parser-jobs')) return null;
    if (method === 'POST' && path === '/api/parser-jobs') return upload(req);
    if (!PARSER_READ.includes(role())) return json(403, { message: 'Your role cannot read parser jobs' });
    if (method === 'GET' && path === '/api/parser-jobs') return list(req.query);
    if (method === 'GET' && path === '/api/parser-jobs/queue') {
      const answers = config.queue ?? [{ available: false }];
      return json(200, answers.length > 1 ? answers.shift()! : answers[0]!);
    }
    const match = path.match(/^\/api\/parser-jobs\/([^/]+)(\/file|\/review)?$/);
    if (!match) return null;
    const job = jobs.find((j) => j.id === decodeURIComponent(match[1] ?? ''));
    if (!job) return json(404, { message: 'Parsing job not found' });
    if (method === 'GET' && !match[2]) {
      advance(job);
      return json(200, present(job));
    }
    if (method === 'GET' && match[2] === '/file') {
      const type = job.file?.content_type ?? 'image/png';
      return { status: 200, raw: type === 'application/pdf' ? Uint8Array.from(PDF_HEAD) : TINY_PNG, headers: { 'Content-Type': type, 'Content-Disposition': 'inline', 'Cache-Control': 'no-store' } };
    }
    if (method === 'POST' && match[2] === '/review') return review(job, req);
    return null;
  }

  return { route, jobs };
}

// ---------------------------------------------------------------------------------------------
// The upload's XMLHttpRequest: a stand-in that reads the multipart form, reports upload progress
// (by itself, or step by step when the test holds it), then answers through the fake's routes.

export interface UploadControl {
  form: UploadForm;
  /** Reports `loaded` of `total` bytes sent. */
  progress(fraction: number): void;
  /** Sends the last byte and lets the fake answer. */
  finish(): void;
}

async function readHead(file: File, bytes: number): Promise<number[]> {
  // jsdom's Blob has no arrayBuffer(); FileReader it has.
  const buffer = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(file.slice(0, bytes));
  });
  return Array.from(new Uint8Array(buffer));
}

function createFakeXhr(send: (req: RecordedRequest) => Answer, hold: boolean) {
  const uploads: UploadControl[] = [];

  class FakeUpload extends EventTarget {
    onprogress: ((event: ProgressEvent) => void) | null = null;
    onload: ((event: ProgressEvent) => void) | null = null;
    fire(type: 'progress' | 'load', loaded: number, total: number) {
      const event = new ProgressEvent(type, { lengthComputable: true, loaded, total });
      if (type === 'progress') this.onprogress?.(event);
      else this.onload?.(event);
      this.dispatchEvent(event);
    }
  }

  class FakeXMLHttpRequest {
    readonly upload = new FakeUpload();
    readyState = 0;
    status = 0;
    responseText = '';
    withCredentials = false;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private headers = new Headers();
    private responseHeaders = new Headers();
    private aborted = false;

    open(method: string, url: string) {
      this.method = method.toUpperCase();
      this.url = url;
      this.readyState = 1;
    }
    setRequestHeader(name: string, value: string) {
      this.headers.set(name, value);
    }
    getResponseHeader(name: string) {
      return this.responseHeaders.get(name);
    }
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    send(body: unknown) {
      void this.run(body);
    }

    private async run(body: unknown) {
      const form = await readForm(body);
      const total = form.file?.size || 1;
      const answer = () => {
        if (this.aborted) return;
        this.upload.fire('load', total, total);
        const url = new URL(this.url, 'http://labdesk.test');
        const result = send({ method: this.method, path: url.pathname, query: url.searchParams, headers: this.headers, body: form });
        this.status = result.status;
        this.responseHeaders = new Headers(result.headers);
        this.responseText = result.body === undefined ? '' : JSON.stringify(result.body);
        this.readyState = 4;
        this.onload?.();
      };
      const control: UploadControl = {
        form,
        progress: (fraction) => this.upload.fire('progress', Math.round(total * fraction), total),
        finish: answer,
      };
      uploads.push(control);
      if (hold) return;
      // By itself: half, then all of it, a tick apart, so the bar is seen to move.
      await new Promise((resolve) => setTimeout(resolve, 10));
      control.progress(0.5);
      await new Promise((resolve) => setTimeout(resolve, 10));
      control.progress(1);
      answer();
    }
  }

  return { XMLHttpRequest: FakeXMLHttpRequest as unknown as typeof XMLHttpRequest, uploads };
}

async function readForm(body: unknown): Promise<UploadForm> {
  if (!(body instanceof FormData)) return { user_id: null, needs_human_review: null, file: null, head: [] };
  const file = body.get('file');
  const text = (name: string) => {
    const v = body.get(name);
    return typeof v === 'string' ? v : null;
  };
  return {
    user_id: text('user_id'),
    needs_human_review: text('needs_human_review'),
    file: file instanceof File ? { name: file.name, type: file.type, size: file.size } : null,
    head: file instanceof File ? await readHead(file, 16) : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Webhook endpoints (docs/bff-api.md, "Webhook endpoints"; admins only): endpoints with their
// secrets, the delivery log on a cursor upstream (partial pagination) and replay.

export function makeEndpoint(overrides: Partial<WebhookEndpointRecord> & { id: string }): WebhookEndpointRecord {
  return {
    url: 'https://hooks.example.com/labdesk',
    description: null,
    event_types: ['*'],
    created_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
    disabled_at: null,
    disabled_reason: null,
    ...overrides,
    // The BFF's flag, from disabled_at.
    disabled: Boolean(overrides.disabled_at),
  };
}

export function makeDelivery(overrides: Partial<WebhookDeliveryRecord> & { id: string; endpoint_id: string }): WebhookDeliveryRecord {
  return {
    event_id: `ev-${overrides.id}`,
    event_type: 'labtest.order.updated',
    subject_id: 'order-1',
    status: 'succeeded',
    attempt_count: 1,
    next_attempt_at: null,
    last_status_code: 200,
    delivered_at: '2026-05-02T10:00:01.000Z',
    created_at: '2026-05-02T10:00:00.000Z',
    attempts: [{ attempted_at: '2026-05-02T10:00:00.500Z', duration_ms: 120, status_code: 200, error: null }],
    ...overrides,
  };
}

/** Hosts the fake's service refuses, as the real one refuses private, loopback and link-local addresses. */
const PRIVATE_HOST = /^(localhost|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|\[::1\])/;

function createWebhooks(options: FakeBffOptions, role: () => string | undefined) {
  const endpoints: WebhookEndpointRecord[] = structuredClone(options.webhookEndpoints ?? []);
  const deliveries: WebhookDeliveryRecord[] = structuredClone(options.webhookDeliveries ?? []);
  const secrets = new Map<string, string>(endpoints.map((e) => [e.id, `whsec_existing${e.id.slice(0, 8)}`]));

  function create(req: RecordedRequest): Answer {
    if (endpoints.length >= 20) return json(422, { message: 'The team has 20 webhook endpoints already', errors: { body: 'at most 20 endpoints per team' } });
    const body = (req.body ?? {}) as { url?: string; event_types?: string[]; description?: string };
    const url = body.url ?? '';
    let host = '';
    try {
      host = new URL(url).host;
    } catch {
      return json(422, { message: 'url: must be an absolute http or https URL', errors: { url: 'must be an absolute http or https URL' } });
    }
    if (PRIVATE_HOST.test(host)) {
      return json(422, { message: 'url: private address', errors: { url: 'resolves to a private, loopback or link-local address, which is not allowed' } });
    }
    const now = new Date().toISOString();
    const endpoint = makeEndpoint({
      id: `e0e0e0e0-0000-4000-8000-${String(endpoints.length + 1).padStart(12, '0')}`,
      url,
      event_types: body.event_types ?? ['*'],
      description: body.description ?? null,
      created_at: now,
      updated_at: now,
    });
    const secret = `whsec_${btoa(`secret-of-${endpoint.id}`).slice(0, 32)}`;
    secrets.set(endpoint.id, secret);
    endpoints.push(endpoint);
    return json(201, { ...endpoint, secret });
  }

  function listDeliveries(query: URLSearchParams): Answer {
    const { filter, sort, range } = readList(query);
    if (typeof filter.endpoint_id !== 'string') return json(400, { message: 'filter.endpoint_id is required' });
    if (!['id', 'created_at'].includes(sort[0]) || sort[1] !== 'DESC') return json(400, { message: 'Deliveries are listed newest first only' });
    let rows = deliveries.filter((d) => d.endpoint_id === filter.endpoint_id);
    if (typeof filter.status === 'string') rows = rows.filter((d) => d.status === filter.status);
    rows = [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at));
    const [from, to] = range;
    const items = rows.slice(from, to + 1);
    const span = items.length ? `${from}-${from + items.length - 1}` : '*';
    return json(200, items, { 'Content-Range': `webhook-deliveries ${span}/*`, 'X-Has-Next-Page': String(rows.length > to + 1) });
  }

  function route(req: RecordedRequest): Answer | null {
    const { method, path } = req;
    if (!path.startsWith('/api/webhook-')) return null;
    if (role() !== 'admin') return json(403, { message: 'Only admins manage webhook endpoints' });
    if (method === 'GET' && path === '/api/webhook-deliveries') return listDeliveries(req.query);
    if (method === 'GET' && path === '/api/webhook-endpoints') return page('webhook-endpoints', endpoints, readList(req.query).range);
    if (method === 'POST' && path === '/api/webhook-endpoints') return create(req);
    const replay = path.match(/^\/api\/webhook-endpoints\/([^/]+)\/deliveries\/([^/]+)\/replay$/);
    if (method === 'POST' && replay) {
      const endpoint = endpoints.find((e) => e.id === replay[1]);
      const delivery = deliveries.find((d) => d.id === replay[2] && d.endpoint_id === replay[1]);
      if (!endpoint || !delivery) return json(404, { message: 'Delivery not found' });
      if (delivery.status === 'pending') return json(409, { message: 'The delivery is still pending' });
      if (endpoint.disabled_at) return json(409, { message: 'The endpoint is disabled' });
      Object.assign(delivery, { status: 'pending', attempt_count: 0, next_attempt_at: new Date().toISOString(), delivered_at: null });
      return json(202, delivery);
    }
    const secret = path.match(/^\/api\/webhook-endpoints\/([^/]+)\/secret$/);
    if (method === 'GET' && secret) {
      const value = secrets.get(secret[1] ?? '');
      return value ? json(200, { secret: value }) : json(404, { message: 'Webhook endpoint not found' });
    }
    const one = path.match(/^\/api\/webhook-endpoints\/([^/]+)$/);
    if (!one) return null;
    const index = endpoints.findIndex((e) => e.id === one[1]);
    const endpoint = endpoints[index];
    if (!endpoint) return json(404, { message: 'Webhook endpoint not found' });
    if (method === 'GET') return json(200, endpoint);
    if (method === 'PUT') {
      const body = (req.body ?? {}) as { url?: string; event_types?: string[] | null; description?: string | null; disabled?: boolean };
      const now = new Date().toISOString();
      if (body.url !== undefined) endpoint.url = body.url;
      if (body.event_types !== undefined) endpoint.event_types = body.event_types ?? ['*'];
      if (body.description !== undefined) endpoint.description = body.description;
      if (body.disabled === true && !endpoint.disabled) Object.assign(endpoint, { disabled: true, disabled_at: now, disabled_reason: 'disabled by the team' });
      if (body.disabled === false) Object.assign(endpoint, { disabled: false, disabled_at: null, disabled_reason: null });
      endpoint.updated_at = now;
      return json(200, endpoint);
    }
    if (method === 'DELETE') {
      endpoints.splice(index, 1);
      return json(200, { id: endpoint.id });
    }
    return null;
  }

  return { route, endpoints, deliveries };
}
