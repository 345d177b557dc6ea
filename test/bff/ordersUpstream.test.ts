/**
 * What exactly the BFF sends the service for orders, seen from a small fake upstream (node:http):
 * the idempotency header passed through, the list query mapping, calls it must not make, and
 * upstream answers it must not pass on (a non-PDF "requisition", a malformed order).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listQuery, startBff, type BffFixture, type Session } from './harness';
import { orderBody } from './ordersFixture';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; body: string | Buffer; type?: string };

let seen: Seen[] = [];
let answer: (req: Seen) => Reply = () => ({ status: 404, body: '{"detail":"Not found"}' });
let server: http.Server;
let bff: BffFixture;
let coordinator: Session;

const ORDER_ID = '3f1d2c4b-5a69-4788-9aab-bccddeeff001';
const USER_ID = '0b7e6a8e-1111-4000-8000-000000000001';
const now = '2026-05-04T15:00:00.000Z';
const wireOrder = {
  user_id: USER_ID,
  id: ORDER_ID,
  team_id: '5f0c9a52-0000-4000-8000-00000000000a',
  lab_test: { id: '9a9a9a9a-0000-4000-8000-000000000001', slug: 'panel', name: 'Panel', sample_type: 'serum', method: 'walk_in_test', price: 10, is_active: true, status: 'active' },
  details: { type: 'walk_in_test', data: null },
  created_at: now,
  updated_at: now,
  events: [{ id: 1, created_at: now, status: 'received.walk_in_test.ordered' }],
  status: 'received',
  low_level_status: 'ordered',
  has_abn: false,
};
const json = (status: number, body: unknown): Reply => ({ status, body: JSON.stringify(body), type: 'application/json' });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const s: Seen = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, { 'content-type': a.type ?? 'application/json' });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  bff = await startBff('pglite', { serviceBaseUrl: `http://127.0.0.1:${port}`, serviceApiKey: 'fake-upstream-key' });
  coordinator = await bff.login('coordinator');
});
afterEach(() => {
  seen = [];
});
afterAll(async () => {
  await bff?.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const create = (headers: Record<string, string> = {}, payload: object = orderBody(USER_ID)) =>
  bff.request<{ id: string; message?: string }>({ method: 'POST', url: '/api/orders', session: coordinator, payload, headers });

describe('order create upstream call', () => {
  it('passes the browser’s X-Idempotency-Key through unchanged, with the body as given (minus id)', async () => {
    answer = () => json(200, { order: wireOrder, status: 'ok', message: 'created' });
    const key = 'labdesk-0123456789abcdef0123456789abcdef-89abcdef01234567';
    const r = await create({ 'x-idempotency-key': key }, { id: 'ignored', ...orderBody(USER_ID, { clinical_notes: 'note' }) });
    expect(r.status).toBe(201);
    expect(r.body.id).toBe(ORDER_ID);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v3/order/create' });
    expect(seen[0]!.headers['x-idempotency-key']).toBe(key);
    expect(seen[0]!.headers['x-service-api-key']).toBe('fake-upstream-key');
    expect(JSON.parse(seen[0]!.body)).toEqual(orderBody(USER_ID, { clinical_notes: 'note' }));
    // The browser's session and CSRF token never travel upstream.
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers['x-csrf-token']).toBeUndefined();
  });

  it('sends a fresh key of its own when the browser sends none', async () => {
    answer = () => json(200, { order: wireOrder, status: 'ok', message: 'created' });
    await create();
    await create();
    const keys = seen.map((s) => s.headers['x-idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('keeps the service’s 409 (same key still in flight) and maps a 422 onto form fields', async () => {
    answer = () => json(409, { detail: 'A request with this X-Idempotency-Key is still in progress' });
    const busy = await create({ 'x-idempotency-key': 'k1' });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ message: 'A request with this X-Idempotency-Key is still in progress' });

    answer = () => json(422, { detail: [{ loc: ['body', 'patient_address', 'zip'], msg: 'must be five digits', type: 'value_error' }] });
    const invalid = await create({ 'x-idempotency-key': 'k2' });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({ message: 'patient_address.zip: must be five digits', errors: { 'patient_address.zip': 'must be five digits' } });
  });

  it('reports an answer that is not an order as 502, never passing it on', async () => {
    answer = () => json(200, { order: { id: ORDER_ID }, status: 'ok', message: 'created' });
    const r = await create();
    expect(r.status).toBe(502);
  });
});

describe('orders list upstream query', () => {
  it('maps filters, sort and range onto page/size, repeated status and order_type, search_input and dates', async () => {
    answer = () => json(200, { orders: [wireOrder], total: 31, page: 2, size: 10 });
    const r = await bff.get(
      `/api/orders${listQuery({
        sort: ['patient_name', 'ASC'],
        range: [10, 19],
        filter: { status: ['lost', 'sample_error'], collection_method: 'testkit', user_id: USER_ID, q: 'Hopper', start_date: '2026-05-01', end_date: '2026-05-02T12:00:00+02:00' },
      })}`,
      coordinator,
    );
    expect(r.status).toBe(200);
    expect(r.headers['content-range']).toBe('orders 10-10/31');
    expect(seen).toHaveLength(1);
    const q = seen[0]!.query;
    expect(seen[0]!.path).toBe('/v3/orders');
    expect(q.getAll('status')).toEqual(['lost', 'sample_error']);
    expect(q.getAll('order_type')).toEqual(['testkit']);
    expect(Object.fromEntries([...q.entries()].filter(([k]) => k !== 'status'))).toEqual({
      order_type: 'testkit',
      user_id: USER_ID,
      start_date: '2026-05-01T00:00:00.000Z',
      end_date: '2026-05-02T10:00:00.000Z',
      search_input: 'Hopper',
      order_key: 'patient_name',
      order_direction: 'asc',
      page: '2',
      size: '10',
    });
  });

  it('asks for every problem status for needs_attention, and does not call at all when nothing can match', async () => {
    answer = () => json(200, { orders: [], total: 0, page: 1, size: 25 });
    await bff.get(`/api/orders${listQuery({ filter: { needs_attention: true } })}`, coordinator);
    expect(seen[0]!.query.getAll('status').sort()).toEqual(
      ['failure_to_deliver_to_customer', 'failure_to_deliver_to_lab', 'lost', 'problem_in_transit_customer', 'problem_in_transit_lab', 'redraw_available', 'sample_error'],
    );
    expect(seen[0]!.query.get('order_key')).toBe('created_at');
    expect(seen[0]!.query.get('order_direction')).toBe('desc');
    seen = [];
    const none = await bff.get(`/api/orders${listQuery({ filter: { needs_attention: true, status: ['ordered', 'completed'] } })}`, coordinator);
    expect(none.status).toBe(200);
    expect(none.headers['content-range']).toBe('orders */0');
    expect(seen).toEqual([]);
  });

  it('says 501 for "critical results" where the service ignores the critical filter, and never lists its orders as critical', async () => {
    // This service answers any query with every order: it would not refuse a filter value that is not a boolean.
    answer = () => json(200, { orders: [wireOrder], total: 1, page: 1, size: 25 });
    const r = await bff.get(`/api/orders${listQuery({ filter: { critical_unacknowledged: true } })}`, coordinator);
    expect(r.status).toBe(501);
    expect(r.body.message).toMatch(/cannot list orders by unacknowledged critical result/);
    expect(seen.map((x) => x.query.get('critical_acknowledged'))).toEqual(['not-a-boolean']);
  });

  it('refuses an unsupported sort without calling the service', async () => {
    const r = await bff.get(`/api/orders${listQuery({ sort: ['billing_type', 'ASC'] })}`, coordinator);
    expect(r.status).toBe(400);
    expect(seen).toEqual([]);
  });
});

describe('requisition passthrough', () => {
  it('streams the upstream PDF bytes as they are', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200_000, 7), Buffer.from('\n%%EOF')]);
    answer = () => ({ status: 200, body: pdf, type: 'application/pdf' });
    const r = await bff.get(`/api/orders/${ORDER_ID}/requisition.pdf`, coordinator);
    expect(r.status).toBe(200);
    expect(Buffer.compare(r.raw.rawPayload, pdf)).toBe(0);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(seen[0]!.path).toBe(`/v3/order/${ORDER_ID}/requisition/pdf`);
  });

  it('never serves another kind of upstream content from the dashboard’s origin', async () => {
    answer = () => ({ status: 200, body: '<script>alert(1)</script>', type: 'text/html' });
    const r = await bff.get(`/api/orders/${ORDER_ID}/requisition.pdf`, coordinator);
    expect(r.status).toBe(502);
    expect(r.headers['content-type']).toMatch(/json/);
    expect(r.raw.body).not.toContain('<script>');
  });
});
