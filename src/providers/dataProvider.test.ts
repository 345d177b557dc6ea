import { HttpError } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../server/bff/api';
import { dataProvider, parseContentRange, prefetchList } from './dataProvider';
import { forgetSession, rememberSession } from './session';

type Call = { url: string; init: RequestInit };

/** Stubs fetch with one canned answer and records what was asked. */
function answerWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, init });
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json', ...headers },
      });
    }),
  );
  return calls;
}

const headerOf = (call: Call | undefined, name: string) => new Headers(call?.init.headers).get(name);
const queryOf = (call: Call | undefined) => new URL(call?.url ?? '', 'http://x').searchParams;

beforeEach(() => forgetSession());
afterEach(() => vi.unstubAllGlobals());

describe('prefetchList', () => {
  const params = { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' as const }, filter: {} };

  it('hands its answer to the first getList with the same parameters, which then asks nothing', async () => {
    const calls = answerWith(200, [{ id: 'a' }], { 'Content-Range': 'users 0-0/1' });
    prefetchList('users', params);
    expect(await dataProvider.getList('users', params)).toEqual({ data: [{ id: 'a' }], total: 1 });
    expect(calls).toHaveLength(1);
    // Used once: the next getList asks the BFF again.
    await dataProvider.getList('users', params);
    expect(calls).toHaveLength(2);
  });

  it('is not used by a getList with other parameters', async () => {
    const calls = answerWith(200, [], { 'Content-Range': 'users 0-0/0' });
    prefetchList('users', params);
    await dataProvider.getList('users', { ...params, filter: { q: 'pt' } });
    expect(calls.map((c) => queryOf(c).get('filter'))).toEqual(['{}', '{"q":"pt"}']);
  });

  it('that failed (e.g. not signed in yet) leaves getList to ask again', async () => {
    const answers = [
      new Response(JSON.stringify({ message: 'Sign in first' }), { status: 401, headers: { 'Content-Type': 'application/json' } }),
      new Response(JSON.stringify([{ id: 'b' }]), { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': 'users 0-0/1' } }),
    ];
    const fetchMock = vi.fn(async () => answers.shift()!);
    vi.stubGlobal('fetch', fetchMock);
    prefetchList('users', params);
    expect(await dataProvider.getList('users', params)).toEqual({ data: [{ id: 'b' }], total: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('getList pagination', () => {
  const rows = [{ id: 'a' }, { id: 'b' }];
  const params = (page: number) => ({ pagination: { page, perPage: 25 }, sort: { field: 'id', order: 'ASC' as const }, filter: { q: 'pt' } });

  it('reads a total from Content-Range', async () => {
    answerWith(200, rows, { 'Content-Range': 'users 0-1/42' });
    expect(await dataProvider.getList('users', params(1))).toEqual({ data: rows, total: 42 });
  });

  it('turns "/*" and X-Has-Next-Page into partial pagination instead of a NaN total', async () => {
    answerWith(200, rows, { 'Content-Range': 'users 0-24/*', 'X-Has-Next-Page': 'true' });
    const result = await dataProvider.getList('users', params(1));
    expect(result).toEqual({ data: rows, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    expect(result).not.toHaveProperty('total');
  });

  it('knows the last page of a cursor-paginated list, and that it has a previous one', async () => {
    answerWith(200, rows, { 'Content-Range': 'parser-jobs 25-26/*', 'X-Has-Next-Page': 'false' });
    const result = await dataProvider.getList('parser-jobs', params(2));
    expect(result.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  it('keeps ra-data-simple-rest URL conventions', async () => {
    const calls = answerWith(200, rows, { 'Content-Range': 'users 25-49/80' });
    await dataProvider.getList('users', { ...params(2), sort: { field: 'created_on', order: 'DESC' } });
    expect(calls[0]?.url.startsWith('/api/users?')).toBe(true);
    const query = queryOf(calls[0]);
    expect(query.get('sort')).toBe('["created_on","DESC"]');
    expect(query.get('range')).toBe('[25,49]');
    expect(query.get('filter')).toBe('{"q":"pt"}');
    expect(calls[0]?.init.credentials).toBe('same-origin');
  });

  it('refuses an answer without Content-Range rather than inventing a total', async () => {
    answerWith(200, rows);
    await expect(dataProvider.getList('users', params(1))).rejects.toThrow(/Content-Range/);
  });

  it('parses the header forms the BFF uses', () => {
    expect(parseContentRange('users 0-24/120')).toBe(120);
    expect(parseContentRange('users */0')).toBe(0);
    expect(parseContentRange('users 0-24/*')).toBeNull();
    expect(() => parseContentRange('users 0-24/lots')).toThrow();
  });
});

describe('CSRF token', () => {
  beforeEach(() => rememberSession({ id: 's1', email: 'a@b.test', name: 'A', role: 'admin' }, 'tok-123'));

  it('goes with every mutation', async () => {
    const calls = answerWith(200, { id: 'u1' });
    await dataProvider.update('users', { id: 'u1', data: { ingestion_end: '2026-01-01' }, previousData: { id: 'u1' } });
    await dataProvider.create('users', { data: { client_user_id: 'pt-1' } });
    await dataProvider.delete('users', { id: 'u1', previousData: { id: 'u1' } });
    expect(calls.map((c) => [c.init.method, headerOf(c, 'x-csrf-token')])).toEqual([
      ['PUT', 'tok-123'],
      ['POST', 'tok-123'],
      ['DELETE', 'tok-123'],
    ]);
  });

  it('stays off reads', async () => {
    const calls = answerWith(200, { id: 'u1' });
    await dataProvider.getOne('users', { id: 'u1' });
    expect(headerOf(calls[0], 'x-csrf-token')).toBeNull();
  });
});

describe('errors', () => {
  it('carries field errors where react-admin puts them under the inputs', async () => {
    answerWith(400, { message: 'Invalid user', errors: { client_user_id: 'must not contain personally identifiable information' } });
    const error = await dataProvider.create('users', { data: { client_user_id: 'a@b.com' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid user',
      body: { errors: { client_user_id: 'must not contain personally identifiable information' } },
    });
  });

  it('keeps the status so the authProvider can tell 401 from 403', async () => {
    answerWith(403, { message: 'Your role cannot do this' });
    await expect(dataProvider.getOne('users', { id: 'u1' })).rejects.toMatchObject({ status: 403, message: 'Your role cannot do this' });
  });
});

describe('getMindfulnessMinutes', () => {
  it('asks the BFF for daily totals in the range', async () => {
    const calls = answerWith(200, { days: [], providers: [], sessions: 0 });
    await dataProvider.getMindfulnessMinutes('u 1', { start_date: '2026-05-01', end_date: '2026-05-31' });
    expect(calls[0]?.url).toBe('/api/users/u%201/mindfulness-minutes?start_date=2026-05-01&end_date=2026-05-31');
  });
});

describe('appointment calls', () => {
  beforeEach(() => rememberSession({ id: 's1', email: 'a@b.test', name: 'A', role: 'coordinator' }, 'tok-123'));

  it('reads "no appointment" (404) as null, not as an error', async () => {
    answerWith(404, { message: 'No appointment for this order' });
    await expect(dataProvider.getOrderAppointment('o 1')).resolves.toBeNull();
  });

  it('asks for availability of the order’s address with {} and the CSRF token', async () => {
    const calls = answerWith(200, { timezone: 'America/Chicago', slots: [] });
    await dataProvider.getAppointmentAvailability('o1', { start_date: '2026-11-09' });
    expect(calls[0]?.url).toBe('/api/orders/o1/appointment/availability?start_date=2026-11-09');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe('{}');
    expect(headerOf(calls[0], 'x-csrf-token')).toBe('tok-123');
  });

  it('keeps the BFF’s `code`, which tells an expired slot from a taken one', async () => {
    answerWith(410, { message: 'The booking key has expired', code: 'slot_expired', errors: { booking_key: 'has expired' } });
    await expect(dataProvider.bookAppointment('o1', { booking_key: 'k' })).rejects.toMatchObject({
      status: 410,
      body: { code: 'slot_expired', errors: { booking_key: 'has expired' } },
    });
  });
});

describe('order calls', () => {
  beforeEach(() => rememberSession({ id: 's1', email: 'a@b.test', name: 'A', role: 'coordinator' }, 'tok-123'));

  it('creates an order with the idempotency key given in meta', async () => {
    const calls = answerWith(201, { id: 'o1' });
    const result = await dataProvider.create('orders', { data: { user_id: 'u1' }, meta: { idempotencyKey: 'labdesk-abc-123' } });
    expect(result).toEqual({ data: { id: 'o1' } });
    expect(calls[0]?.url).toBe('/api/orders');
    expect(calls[0]?.init.body).toBe('{"user_id":"u1"}');
    expect(headerOf(calls[0], IDEMPOTENCY_HEADER)).toBe('labdesk-abc-123');
    expect(headerOf(calls[0], 'content-type')).toBe('application/json');
  });

  it('sends no idempotency key where meta has none', async () => {
    const calls = answerWith(201, { id: 'u1' });
    await dataProvider.create('users', { data: { client_user_id: 'pt-1' } });
    expect(headerOf(calls[0], IDEMPOTENCY_HEADER)).toBeNull();
  });

  it('cancels an order with a POST carrying the CSRF token, and answers the order', async () => {
    const calls = answerWith(200, { id: 'o 1', status: 'cancelled' });
    await expect(dataProvider.cancelOrder('o 1')).resolves.toEqual({ id: 'o 1', status: 'cancelled' });
    expect(calls[0]?.url).toBe('/api/orders/o%201/cancel');
    expect(calls[0]?.init.method).toBe('POST');
    expect(headerOf(calls[0], 'x-csrf-token')).toBe('tok-123');
  });
});
