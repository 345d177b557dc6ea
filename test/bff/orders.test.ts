/**
 * The `orders` resource against the real service: list mapping (page/size), filters, sorts,
 * the needs-attention view, getOne/getMany, create (validation errors on fields, idempotency),
 * cancel, the requisition PDF, permissions and the audit trail.
 */
import { randomUUID } from 'node:crypto';
import { gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabAccount, Order } from '../../server/contract';
import { auditEvents } from '../../server/bff/db/schema';
import { UNKNOWN_UUID, listQuery, startBff, type Answer, type BffFixture, type Session } from './harness';
import { labTestId, orderBody, startLabService, type LabServiceFixture, type WireOrder } from './ordersFixture';
import { captureLogs } from '../support/logCapture';

let service: LabServiceFixture;
let bff: BffFixture;
let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer' | 'unknown', Session>;
let userIds: string[];
let accounts: LabAccount[];
/** Orders placed in this order (so newest last); keyed by what they are for. */
const o: Record<'walkIn' | 'problem' | 'lost' | 'completed' | 'transit' | 'phlebotomy', WireOrder> = {} as never;
let foreignOrder: WireOrder;

const patient = (first_name: string, last_name: string) => ({
  first_name,
  last_name,
  dob: '1975-01-02',
  gender: 'other',
  phone_number: '+15555550111',
  email: `${first_name.toLowerCase()}@example.com`,
});
const KIT = labTestId('quest', 'Thyroid Check');
const PHLEBOTOMY = labTestId('quest', 'Lipid Panel');

beforeAll(async () => {
  service = await startLabService();
  userIds = await service.addUsers(service.team, [{ clientUserId: 'pt-orders-0' }, { clientUserId: 'pt-orders-1' }, { clientUserId: 'pt-orders-2' }]);
  const [foreignUser] = await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-foreign' }]);
  const [u0, u1, u2] = userIds as [string, string, string];
  o.walkIn = await service.placeOrder(service.team, u0);
  o.problem = await service.placeOrder(service.team, u0, { lab_test_id: KIT, patient_details: patient('Grace', 'Hopper') });
  o.lost = await service.placeOrder(service.team, u1, { lab_test_id: KIT, patient_details: patient('Alan', 'Turing') });
  o.completed = await service.placeOrder(service.team, u1, { patient_details: patient('Katherine', 'Johnson') });
  o.transit = await service.placeOrder(service.team, u1, { lab_test_id: KIT, patient_details: patient('Edsger', 'Dijkstra') });
  o.phlebotomy = await service.placeOrder(service.team, u2, { lab_test_id: PHLEBOTOMY, patient_details: patient('Barbara', 'Liskov') });
  await service.driveOrder(service.team, o.problem.id, 'collecting_sample.testkit.problem_in_transit_lab');
  await service.driveOrder(service.team, o.lost.id, 'failed.testkit.lost');
  await service.driveOrder(service.team, o.completed.id, 'completed.walk_in_test.completed');
  await service.driveOrder(service.team, o.transit.id, 'collecting_sample.testkit.transit_customer');
  foreignOrder = await service.placeOrder(service.otherTeam, foreignUser!);
  accounts = (await service.call<{ data: LabAccount[] }>(service.team, 'GET', '/v3/lab_test/lab_account')).body.data;

  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  const [admin, coordinator, labOps, reviewer, unknown] = await Promise.all(
    (['admin', 'coordinator', 'lab_ops', 'reviewer', 'unknown'] as const).map((who) => bff.login(who)),
  );
  s = { admin: admin!, coordinator: coordinator!, lab_ops: labOps!, reviewer: reviewer!, unknown: unknown! };
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

const list = (q: Parameters<typeof listQuery>[0], session: Session = s.lab_ops) => bff.get<Order[]>(`/api/orders${listQuery(q)}`, session);
const idsOf = (r: Answer<Order[]>) => r.body.map((x) => x.id);
const placedNewestFirst = () => [o.phlebotomy, o.transit, o.completed, o.lost, o.problem, o.walkIn].map((x) => x.id);
const create = (payload: unknown, headers: Record<string, string> = {}, session: Session = s.coordinator) =>
  bff.request<Order>({ method: 'POST', url: '/api/orders', session, payload: payload as object, headers });

async function lastEventId(): Promise<number> {
  const rows = await bff.db.select({ id: auditEvents.id }).from(auditEvents);
  return rows.reduce((max, r) => Math.max(max, Number(r.id)), 0);
}
const eventsSince = (id: number) => bff.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(auditEvents.id);

describe('orders list', () => {
  it('lists the team’s orders newest first by default, with the service’s total', async () => {
    const r = await bff.get<Order[]>('/api/orders', s.lab_ops);
    expect(r.status).toBe(200);
    expect(r.headers['content-range']).toBe('orders 0-5/6');
    expect(idsOf(r)).toEqual(placedNewestFirst());
    expect(idsOf(r)).not.toContain(foreignOrder.id);
    const problem = r.body.find((x) => x.id === o.problem.id)!;
    expect(problem).toMatchObject({ status: 'collecting_sample', low_level_status: 'problem_in_transit_lab' });
    expect(problem.events.map((e) => e.status)).toContain('collecting_sample.testkit.problem_in_transit_lab');
    expect(r.raw.body).not.toContain(service.team.apiKey);
  });

  it('walks pages over the upstream’s page/size pagination without gaps or overlap', async () => {
    const pages = [await list({ range: [0, 1] }), await list({ range: [2, 3] }), await list({ range: [4, 5] }), await list({ range: [6, 7] })];
    expect(pages.map((p) => p.headers['content-range'])).toEqual(['orders 0-1/6', 'orders 2-3/6', 'orders 4-5/6', 'orders */6']);
    expect(pages.flatMap(idsOf)).toEqual(placedNewestFirst());
    // An unaligned range reads the pages that cover it.
    expect(idsOf(await list({ range: [1, 4] }))).toEqual(placedNewestFirst().slice(1, 5));
  });

  it('maps the sorts id, created_at, patient_name and last_status in both directions', async () => {
    expect(idsOf(await list({ sort: ['created_at', 'ASC'] }))).toEqual([...placedNewestFirst()].reverse());
    expect(idsOf(await list({ sort: ['id', 'ASC'] }))).toEqual([...placedNewestFirst()].reverse());
    expect(idsOf(await list({ sort: ['id', 'DESC'] }))).toEqual(placedNewestFirst());
    const byName = await list({ sort: ['patient_name', 'ASC'] });
    expect(byName.body.map((x) => x.patient_details?.last_name)).toEqual(['Dijkstra', 'Hopper', 'Johnson', 'Liskov', 'Lovelace', 'Turing']);
    const byNameDesc = await list({ sort: ['patient_name', 'DESC'] });
    expect(byNameDesc.body.map((x) => x.patient_details?.last_name)[0]).toBe('Turing');
    const byStatus = await list({ sort: ['last_status', 'DESC'] });
    expect(byStatus.status).toBe(200);
    // The transit order was the last to change status.
    expect(byStatus.body[0]!.id).toBe(o.transit.id);
  });

  it('refuses sorts the service cannot do with 400 {message}', async () => {
    for (const sort of [['status', 'ASC'], ['low_level_status', 'DESC'], ['billing_type', 'ASC'], ['created_at', 'SIDEWAYS']]) {
      const r = await bff.get(`/api/orders${listQuery({ sort })}`, s.lab_ops);
      expect(r.status, JSON.stringify(sort)).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
  });

  it('filters by status (one or several), collection method, user and search', async () => {
    expect(idsOf(await list({ filter: { status: 'ordered' } })).sort()).toEqual([o.walkIn.id, o.phlebotomy.id].sort());
    expect(idsOf(await list({ filter: { status: ['lost', 'completed'] } })).sort()).toEqual([o.lost.id, o.completed.id].sort());
    // Unknown: the service refuses it like an unknown body enum, and the dashboard is told which field.
    const unknown = await list({ filter: { status: 'awaiting_courier' } });
    expect(unknown.status).toBe(422);
    expect(Object.keys((unknown.body as unknown as { errors: Record<string, string> }).errors)[0]).toMatch(/^status/);
    expect(idsOf(await list({ filter: { collection_method: 'testkit' } })).sort()).toEqual([o.problem.id, o.lost.id, o.transit.id].sort());
    expect(idsOf(await list({ filter: { collection_method: ['at_home_phlebotomy', 'walk_in_test'] } })).sort()).toEqual(
      [o.walkIn.id, o.completed.id, o.phlebotomy.id].sort(),
    );
    expect(idsOf(await list({ filter: { user_id: userIds[1] } })).sort()).toEqual([o.lost.id, o.completed.id, o.transit.id].sort());
    expect(idsOf(await list({ filter: { q: 'hopper' } }))).toEqual([o.problem.id]);
    expect(idsOf(await list({ filter: { q: 'pt-orders-2' } }))).toEqual([o.phlebotomy.id]);
    expect(idsOf(await list({ filter: { q: 'Turing', collection_method: 'testkit', user_id: userIds[1] } }))).toEqual([o.lost.id]);
  });

  it('filters by creation date range (dates are whole UTC days; instants pass as given)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await list({ filter: { start_date: today, end_date: today } })).headers['content-range']).toBe('orders 0-5/6');
    expect((await list({ filter: { start_date: '2099-01-01' } })).body).toEqual([]);
    expect((await list({ filter: { end_date: '2000-01-01' } })).body).toEqual([]);
    const afterThird = new Date(Date.parse(o.completed.created_at) - 1).toISOString();
    expect(idsOf(await list({ filter: { start_date: afterThird } }))).toEqual(placedNewestFirst().slice(0, 3));
    for (const filter of [{ start_date: 'yesterday' }, { end_date: '2026-02-30' }, { start_date: '2026-05-02', end_date: '2026-05-01' }]) {
      const r = await bff.get(`/api/orders${listQuery({ filter })}`, s.lab_ops);
      expect(r.status, JSON.stringify(filter)).toBe(400);
      expect(r.body.message).toMatch(/date/);
    }
  });

  it('answers malformed filters with 400 naming the filter', async () => {
    for (const [filter, name] of [
      [{ user_id: 'not-a-uuid' }, 'user_id'],
      [{ status: 42 }, 'status'],
      [{ needs_attention: 'maybe' }, 'needs_attention'],
    ] as const) {
      const r = await bff.get(`/api/orders${listQuery({ filter })}`, s.lab_ops);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(name);
    }
  });
});

describe('needs attention', () => {
  it('lists orders with problems in transit or failures only', async () => {
    const r = await list({ filter: { needs_attention: true } });
    expect(r.status).toBe(200);
    expect(idsOf(r)).toEqual([o.lost.id, o.problem.id]);
    expect(r.headers['content-range']).toBe('orders 0-1/2');
    expect(r.body.map((x) => x.low_level_status).sort()).toEqual(['lost', 'problem_in_transit_lab']);
  });

  it('combines with other filters; a status outside the problem set matches nothing', async () => {
    expect(idsOf(await list({ filter: { needs_attention: true, status: ['lost', 'ordered'] } }))).toEqual([o.lost.id]);
    expect(idsOf(await list({ filter: { needs_attention: true, user_id: userIds[0] } }))).toEqual([o.problem.id]);
    const none = await list({ filter: { needs_attention: true, status: 'ordered' } });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers['content-range']).toBe('orders */0');
    // false is the same as leaving the filter out.
    expect((await list({ filter: { needs_attention: false } })).headers['content-range']).toBe('orders 0-5/6');
  });
});

describe('orders getOne and getMany', () => {
  it('answers one order with its events, patient, address with access notes and clinical notes', async () => {
    const r = await bff.get<Order>(`/api/orders/${o.walkIn.id}`, s.lab_ops);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: o.walkIn.id,
      user_id: userIds[0],
      clinical_notes: 'Patient prefers morning draws.',
      patient_address: expect.objectContaining({ zip: '73301', access_notes: 'Gate code 4711' }),
      patient_details: expect.objectContaining({ last_name: 'Lovelace' }),
    });
    expect(r.body.events[0]!.status).toBe('received.walk_in_test.ordered');
    expect(accounts.map((a) => a.id)).toContain(r.body.lab_account_id);
  });

  it('answers 404 for an unknown, another team’s or a malformed id', async () => {
    for (const id of [UNKNOWN_UUID, foreignOrder.id, 'not-a-uuid']) {
      const r = await bff.get(`/api/orders/${id}`, s.lab_ops);
      expect(r.status, id).toBe(404);
      expect(r.body).toEqual({ message: 'Order not found' });
    }
  });

  it('getMany answers the known ids only', async () => {
    const r = await list({ filter: { id: [o.lost.id, foreignOrder.id, UNKNOWN_UUID, o.walkIn.id] } });
    expect(r.status).toBe(200);
    expect(idsOf(r)).toEqual([o.lost.id, o.walkIn.id]);
  });
});

describe('order create', () => {
  it('places an order and answers 201 with the record, which then reads back', async () => {
    const r = await create(orderBody(userIds[2]!, { patient_details: patient('Mary', 'Jackson') }), { 'x-idempotency-key': randomUUID() });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ user_id: userIds[2], low_level_status: 'ordered', clinical_notes: 'Patient prefers morning draws.' });
    expect(typeof r.body.id).toBe('string');
    expect((await bff.get<Order>(`/api/orders/${r.body.id}`, s.lab_ops)).body.id).toBe(r.body.id);
  });

  it('places an order under a chosen lab account, with add-on markers of its lab', async () => {
    const labcorp = accounts.find((a) => a.lab === 'labcorp')!;
    const markers = (await bff.get<{ id: number }[]>(`/api/markers${listQuery({ filter: { lab_slug: 'labcorp' }, range: [0, 1] })}`, s.coordinator)).body;
    const r = await create(
      orderBody(userIds[2]!, {
        lab_test_id: undefined,
        lab_account_id: labcorp.id,
        order_set: { lab_test_ids: [labTestId('labcorp', 'Essential Metabolic Health')], add_on: { marker_ids: markers.map((m) => m.id) } },
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.lab_account_id).toBe(labcorp.id);
  });

  it('puts the service’s validation errors on the form fields (422 {message, errors})', async () => {
    const badZip = await create(orderBody(userIds[0]!, { patient_address: { ...(orderBody('x').patient_address as object), zip: '7330' } }));
    expect(badZip.status).toBe(422);
    expect(Object.keys(badZip.body as unknown as { errors: object }).sort()).toEqual(['errors', 'message']);
    const errors = (badZip.body as unknown as { errors: Record<string, string> }).errors;
    expect(errors['patient_address.zip']).toMatch(/five digits/);

    const longNotes = await create(orderBody(userIds[0]!, { clinical_notes: 'x'.repeat(1001) }));
    expect(longNotes.status).toBe(422);
    expect((longNotes.body as unknown as { errors: Record<string, string> }).errors.clinical_notes).toMatch(/1000/);

    const exactly = await create(orderBody(userIds[0]!, { clinical_notes: 'x'.repeat(1000) }));
    expect(exactly.status).toBe(201);

    // A lab account of another lab than the lab test's.
    const wrongLab = await create(orderBody(userIds[0]!, { lab_account_id: accounts.find((a) => a.lab === 'labcorp')!.id }));
    expect(wrongLab.status).toBe(422);
    expect(Object.keys((wrongLab.body as unknown as { errors: Record<string, string> }).errors)).toEqual(
      expect.arrayContaining([expect.stringMatching(/lab_account_id|lab_test_id/)]),
    );
  });

  it('passes the browser’s X-Idempotency-Key through: a double submit makes one order', async () => {
    const before = Number(String((await list({ range: [0, 0] })).headers['content-range']).split('/')[1]);
    const key = `labdesk-${randomUUID()}`;
    const body = orderBody(userIds[1]!, { patient_details: patient('Dorothy', 'Vaughan') });
    const [first, second] = await Promise.all([create(body, { 'x-idempotency-key': key }), create(body, { 'x-idempotency-key': key })].map(async (p) => p));
    // One of two concurrent submits may find the first still in flight (409); a later retry gets the order.
    const statuses = [first!.status, second!.status].sort();
    expect([[201, 201], [201, 409]]).toContainEqual(statuses);
    const retry = await create(body, { 'x-idempotency-key': key });
    expect(retry.status).toBe(201);
    const created = [first, second].find((r) => r!.status === 201)!;
    expect(retry.body.id).toBe(created.body.id);
    const after = Number(String((await list({ range: [0, 0] })).headers['content-range']).split('/')[1]);
    expect(after).toBe(before + 1);

    // The same key with another body is refused.
    const other = await create({ ...body, clinical_notes: 'something else' }, { 'x-idempotency-key': key });
    expect(other.status).toBe(422);
  });

  it('refuses an unusable idempotency key and a body that is not an object', async () => {
    const r = await create(orderBody(userIds[0]!), { 'x-idempotency-key': 'with space' });
    expect(r.status).toBe(400);
    expect((r.body as unknown as { message: string }).message).toMatch(/x-idempotency-key/);
    const arr = await bff.request({ method: 'POST', url: '/api/orders', session: s.coordinator, payload: [1, 2] as unknown as object });
    expect(arr.status).toBe(422);
  });
});

describe('order cancel and requisition', () => {
  it('cancels an open order (pessimistic: the answer is the cancelled order); a final one is 422', async () => {
    const r = await bff.request<Order>({ method: 'POST', url: `/api/orders/${o.phlebotomy.id}/cancel`, session: s.coordinator });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: o.phlebotomy.id, status: 'cancelled', low_level_status: 'cancelled' });
    const again = await bff.request({ method: 'POST', url: `/api/orders/${o.phlebotomy.id}/cancel`, session: s.coordinator });
    expect(again.status).toBe(422);
    expect(again.body.message).toBeTruthy();
    for (const id of [UNKNOWN_UUID, foreignOrder.id, 'nope']) {
      expect((await bff.request({ method: 'POST', url: `/api/orders/${id}/cancel`, session: s.coordinator })).status, id).toBe(404);
    }
  });

  it('streams the requisition PDF as a download', async () => {
    const r = await bff.get(`/api/orders/${o.walkIn.id}/requisition.pdf`, s.lab_ops);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="requisition-${o.walkIn.id}.pdf"`);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.raw.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    for (const id of [UNKNOWN_UUID, foreignOrder.id, 'nope']) {
      const miss = await bff.get(`/api/orders/${id}/requisition.pdf`, s.lab_ops);
      expect(miss.status, id).toBe(404);
      expect(miss.headers['content-type']).toMatch(/json/);
    }
  });
});

describe('orders permissions', () => {
  const reads = () => [
    `/api/orders`,
    `/api/orders/${o.walkIn.id}`,
    `/api/orders/${o.walkIn.id}/requisition.pdf`,
  ];

  it('lets admins, coordinators and lab operations read orders; reviewers and unknown roles get 403', async () => {
    for (const url of reads()) {
      for (const who of ['admin', 'coordinator', 'lab_ops'] as const) expect((await bff.get(url, s[who])).status, `${who} ${url}`).toBe(200);
      for (const who of ['reviewer', 'unknown'] as const) {
        const r = await bff.get(url, s[who]);
        expect(r.status, `${who} ${url}`).toBe(403);
        expect(r.body.message).toMatch(/role/i);
      }
      expect((await bff.get(url, null)).status).toBe(401);
    }
  });

  it('lets only admins and coordinators place or cancel orders', async () => {
    for (const who of ['lab_ops', 'reviewer', 'unknown'] as const) {
      const c = await create(orderBody(userIds[0]!), {}, s[who]);
      expect(c.status, who).toBe(403);
      const x = await bff.request({ method: 'POST', url: `/api/orders/${o.transit.id}/cancel`, session: s[who] });
      expect(x.status, who).toBe(403);
    }
    const order = await bff.get<Order>(`/api/orders/${o.transit.id}`, s.admin);
    expect(order.body.status).toBe('collecting_sample'); // untouched
    // Mutations without the CSRF token are refused before anything else.
    expect((await bff.request({ method: 'POST', url: '/api/orders', session: s.coordinator, csrf: false, payload: orderBody(userIds[0]!) })).status).toBe(403);
    expect((await bff.request({ method: 'POST', url: `/api/orders/${o.transit.id}/cancel`, session: s.admin, csrf: 'wrong' })).status).toBe(403);
  });
});

describe('orders audit trail', () => {
  const names = ['Ada', 'Lovelace', 'Grace', 'Hopper', 'Turing', 'Gate code', 'ada@example.com', '73301', 'morning draws', 'Vaughan', 'Hedy', 'Lamarr'];

  it('records list, read, create, cancel and download with order ids only, never patient details', async () => {
    const since = await lastEventId();
    const listed = await list({ filter: { q: 'Hopper', needs_attention: true } }, s.lab_ops);
    await bff.get(`/api/orders/${o.lost.id}`, s.lab_ops);
    const created = await create(orderBody(userIds[0]!, { patient_details: patient('Hedy', 'Lamarr') }), { 'x-idempotency-key': randomUUID() });
    expect(created.status).toBe(201);
    await bff.request({ method: 'POST', url: `/api/orders/${created.body.id}/cancel`, session: s.coordinator });
    await bff.get(`/api/orders/${o.walkIn.id}/requisition.pdf`, s.lab_ops);
    const failed = await create(orderBody(userIds[0]!, { patient_address: { ...(orderBody('x').patient_address as object), zip: 'bad' } }));
    expect(failed.status).toBe(422);
    await create(orderBody(userIds[0]!), {}, s.lab_ops); // denied

    const events = await eventsSince(since);
    expect(events.map((e) => [e.staffId, e.action, e.resource, e.recordIds, e.outcome])).toEqual([
      [bff.staff.lab_ops.id, 'list', 'orders', idsOf(listed), 'ok'],
      [bff.staff.lab_ops.id, 'read', 'orders', [o.lost.id], 'ok'],
      [bff.staff.coordinator.id, 'create', 'orders', [created.body.id], 'ok'],
      [bff.staff.coordinator.id, 'cancel', 'orders', [created.body.id], 'ok'],
      [bff.staff.lab_ops.id, 'download', 'order_requisitions', [o.walkIn.id], 'ok'],
      [bff.staff.coordinator.id, 'create', 'orders', [], 'failed'],
      [bff.staff.lab_ops.id, 'create', 'orders', [], 'denied'],
    ]);
    expect(events[0]!.detail).toMatchObject({ needs_attention: true, search: true });
    expect(events[2]!.detail).toMatchObject({ client_idempotency_key: true });
    expect(events[2]!.patientIds).toEqual([userIds[0]]);
    expect(events[0]!.patientIds).toEqual([...new Set(listed.body.map((r) => r.user_id))]);
    expect(events[5]!.statusCode).toBe(422);
    const text = JSON.stringify(events);
    for (const n of names) expect(text, n).not.toContain(n);
  });

  it('keeps patient details and search text out of the logs', async () => {
    const { lines, stream } = captureLogs();
    const app = await bff.buildApp({ logger: { level: 'trace', stream } });
    const coordinator = await bff.login('coordinator', app);
    await bff.get(`/api/orders${listQuery({ filter: { q: 'Hopper' } })}`, coordinator, app);
    await bff.request({ method: 'POST', url: '/api/orders', session: coordinator, app, payload: orderBody(userIds[0]!, { patient_details: patient('Hedy', 'Lamarr') }) });
    await bff.request({
      method: 'POST',
      url: '/api/orders',
      session: coordinator,
      app,
      payload: orderBody(userIds[0]!, { patient_address: { ...(orderBody('x').patient_address as object), zip: 'bad' } }),
    });
    const log = lines.join('');
    expect(log).toContain('/api/orders'); // requests are logged…
    for (const n of [...names, 'q%22', 'filter=']) expect(log, n).not.toContain(n); // …without their query or body
  });
});
