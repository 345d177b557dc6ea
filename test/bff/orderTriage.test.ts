/**
 * Order triage against the real service: claims (409 naming the owner, force), staff notes (audited
 * with the patient, never sent to the service), resolutions that leave the queue until the status
 * changes, reshipping a lost kit, bulk actions with a partial failure, the role refusal, and the
 * queue's sort by time in status. The BFF reaches the service through a recording proxy, so a test
 * can read every body the BFF sent upstream.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkResult, OrderNoteRecord, OrderTriageState, ReplaceKitResult, TriageOrderRecord } from '../../server/bff/api';
import { auditEvents } from '../../server/bff/db/schema';
import { listQuery, startBff, UNKNOWN_UUID, type BffFixture, type Session } from './harness';
import { labTestId, startLabService, type LabServiceFixture, type WireOrder } from './ordersFixture';

let service: LabServiceFixture;
let bff: BffFixture;
let proxy: http.Server;
/** Every request body the BFF sent to the service. */
const upstreamBodies: string[] = [];
let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer', Session>;
const KIT = labTestId('quest', 'Thyroid Check');
/** Driven to their statuses in this order, so `first` has been in its status longest. */
const o: Record<'first' | 'second' | 'third' | 'lost' | 'fine', WireOrder> = {} as never;

/** Forwards to the service and keeps each request's body. */
async function startRecordingProxy(target: string): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    upstreamBodies.push(body.toString('utf8'));
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
    const answer = await fetch(target + req.url, { method: req.method, headers, body: body.length ? body : undefined });
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(k))));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  service = await startLabService();
  const [u0, u1] = (await service.addUsers(service.team, [{ clientUserId: 'pt-triage-0' }, { clientUserId: 'pt-triage-1' }])) as [string, string];
  for (const [key, user] of [['first', u0], ['second', u1], ['third', u0], ['lost', u1], ['fine', u0]] as const) {
    o[key] = await service.placeOrder(service.team, user, { lab_test_id: KIT });
  }
  await service.driveOrder(service.team, o.first.id, 'collecting_sample.testkit.problem_in_transit_lab');
  await service.driveOrder(service.team, o.second.id, 'collecting_sample.testkit.problem_in_transit_customer');
  await service.driveOrder(service.team, o.third.id, 'collecting_sample.testkit.problem_in_transit_lab');
  await service.driveOrder(service.team, o.lost.id, 'failed.testkit.lost');
  await service.driveOrder(service.team, o.fine.id, 'collecting_sample.testkit.transit_customer');
  proxy = await startRecordingProxy(service.url);
  const { port } = proxy.address() as AddressInfo;
  bff = await startBff('pglite', { serviceBaseUrl: `http://127.0.0.1:${port}`, serviceApiKey: service.team.apiKey });
  const [admin, coordinator, labOps, reviewer] = await Promise.all((['admin', 'coordinator', 'lab_ops', 'reviewer'] as const).map((w) => bff.login(w)));
  s = { admin: admin!, coordinator: coordinator!, lab_ops: labOps!, reviewer: reviewer! };
});
afterAll(async () => {
  await bff?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await service?.close();
});

const post = <T>(url: string, session: Session, payload?: unknown) => bff.request<T>({ method: 'POST', url, session, payload });
const queue = (sort?: { field: string; order: string }) =>
  bff.get<TriageOrderRecord[]>(`/api/orders${listQuery({ filter: { needs_attention: true }, ...(sort ? { sort: [sort.field, sort.order] } : {}) })}`, s.lab_ops);
const queueIds = async () => (await queue()).body.map((r) => r.id);
const lastAuditId = async () => (await bff.db.select({ id: auditEvents.id }).from(auditEvents)).reduce((m, r) => Math.max(m, Number(r.id)), 0);
const auditSince = (id: number) => bff.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(auditEvents.id);

describe('claims', () => {
  it('claims for the signed-in member; someone else’s claim is 409 naming them, until forced', async () => {
    const mine = await post<OrderTriageState>(`/api/orders/${o.first.id}/triage/claim`, s.lab_ops);
    expect(mine.status).toBe(200);
    expect(mine.body.owner?.id).toBe(bff.staff.lab_ops.id);
    expect(mine.body.claimed_at).not.toBeNull();

    const refused = await post<{ message: string; code: string }>(`/api/orders/${o.first.id}/triage/claim`, s.coordinator);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('claimed_by_other');
    expect(refused.body.message).toContain(bff.staff.lab_ops.name || bff.staff.lab_ops.email);
    expect((await post(`/api/orders/${o.first.id}/triage/unclaim`, s.coordinator)).status).toBe(409);

    const taken = await post<OrderTriageState>(`/api/orders/${o.first.id}/triage/claim`, s.coordinator, { force: true });
    expect(taken.status).toBe(200);
    expect(taken.body.owner?.id).toBe(bff.staff.coordinator.id);

    const listed = (await queue()).body.find((r) => r.id === o.first.id);
    expect(listed?.triage?.owner?.id).toBe(bff.staff.coordinator.id);

    const released = await post<OrderTriageState>(`/api/orders/${o.first.id}/triage/unclaim`, s.coordinator);
    expect(released.body.owner).toBeNull();
  });

  it('answers 404 for an unknown order and refuses the reviewer role', async () => {
    expect((await post(`/api/orders/${UNKNOWN_UUID}/triage/claim`, s.lab_ops)).status).toBe(404);
    expect((await post(`/api/orders/${o.first.id}/triage/claim`, s.reviewer)).status).toBe(403);
    expect((await bff.get(`/api/orders/${o.first.id}/notes`, s.reviewer)).status).toBe(403);
    expect((await post(`/api/orders/triage/bulk-claim`, s.reviewer, { ids: [o.first.id] })).status).toBe(403);
  });
});

describe('notes', () => {
  it('keeps notes in the BFF, audits each read and write with the patient, and never sends them to the service', async () => {
    const before = await lastAuditId();
    const text = 'Courier says the parcel was left at reception 7731';
    const added = await post<OrderNoteRecord>(`/api/orders/${o.second.id}/notes`, s.lab_ops, { body: text });
    expect(added.status).toBe(201);
    expect(added.body.author?.id).toBe(bff.staff.lab_ops.id);
    const listed = await bff.get<OrderNoteRecord[]>(`/api/orders/${o.second.id}/notes`, s.coordinator);
    expect(listed.body.map((n) => n.body)).toEqual([text]);

    const events = await auditSince(before);
    const noteEvents = events.filter((e) => e.resource === 'order_notes');
    expect(noteEvents.map((e) => e.action)).toEqual(['create', 'list']);
    for (const e of noteEvents) {
      expect(e.patientIds).toEqual([o.second.user_id]);
      expect(e.recordIds).toEqual([o.second.id]);
      expect(JSON.stringify(e.detail)).not.toContain('7731');
    }
    expect(upstreamBodies.some((b) => b.includes('7731'))).toBe(false);
  });

  it('refuses an empty or overlong note on the field', async () => {
    const empty = await post<{ errors: Record<string, string> }>(`/api/orders/${o.second.id}/notes`, s.lab_ops, { body: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.body).toMatch(/empty/);
    const long = await post<{ errors: Record<string, string> }>(`/api/orders/${o.second.id}/notes`, s.lab_ops, { body: 'x'.repeat(2001) });
    expect(long.status).toBe(422);
    expect(long.body.errors.body).toContain('2000');
  });
});

describe('resolutions', () => {
  it('a resolved order leaves the queue, and returns when its status changes', async () => {
    expect(await queueIds()).toContain(o.third.id);
    const bad = await post<{ errors: Record<string, string> }>(`/api/orders/${o.third.id}/triage/resolve`, s.lab_ops, { outcome: 'shrugged', note: 'n' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.outcome).toContain('no_action_needed');
    const resolved = await post<OrderTriageState>(`/api/orders/${o.third.id}/triage/resolve`, s.lab_ops, { outcome: 'lab_contacted', note: 'Lab will trace it' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ outcome: 'lab_contacted', open: false, resolved_status: expect.stringContaining('problem_in_transit_lab') });
    expect(await queueIds()).not.toContain(o.third.id);

    await service.driveOrder(service.team, o.third.id, 'failed.testkit.lost');
    expect(await queueIds()).toContain(o.third.id);
    const state = await bff.get<OrderTriageState>(`/api/orders/${o.third.id}/triage`, s.lab_ops);
    expect(state.body).toMatchObject({ outcome: 'lab_contacted', open: true });
  });

  it('reships a lost kit through the service and records the resolution with the new order', async () => {
    const r = await post<ReplaceKitResult>(`/api/orders/${o.lost.id}/triage/reship`, s.lab_ops, { note: 'New kit to the same address' });
    expect(r.status).toBe(200);
    expect(r.body.triage).toMatchObject({ outcome: 'reshipped', open: false, replacement_order_id: r.body.order.id });
    const placed = await service.call<WireOrder>(service.team, 'GET', `/v3/order/${r.body.order.id}`);
    expect(placed.body).toMatchObject({ user_id: o.lost.user_id, lab_account_id: o.lost.lab_account_id });
    expect(await queueIds()).not.toContain(o.lost.id);
    // A second click is answered with the same new order, not a second kit.
    const again = await post<ReplaceKitResult>(`/api/orders/${o.lost.id}/triage/reship`, s.lab_ops, { note: 'again' });
    expect(again.body.order.id).toBe(r.body.order.id);
    // An order that needs no attention is not a lost kit.
    expect((await post(`/api/orders/${o.fine.id}/triage/reship`, s.lab_ops, { note: 'n' })).status).toBe(409);
  });
});

describe('bulk actions', () => {
  it('claims each selected order on its own: one failure is reported and undoes nothing', async () => {
    await post(`/api/orders/${o.second.id}/triage/claim`, s.coordinator);
    const r = await post<BulkResult>('/api/orders/triage/bulk-claim', s.lab_ops, { ids: [o.first.id, o.second.id, UNKNOWN_UUID] });
    expect(r.status).toBe(200);
    expect(r.body.results.map((x) => [x.id, x.ok, x.status])).toEqual([
      [o.first.id, true, 200],
      [o.second.id, false, 409],
      [UNKNOWN_UUID, false, 404],
    ]);
    expect(r.body.results[1]?.code).toBe('claimed_by_other');
    const first = await bff.get<OrderTriageState>(`/api/orders/${o.first.id}/triage`, s.lab_ops);
    expect(first.body.owner?.id).toBe(bff.staff.lab_ops.id);
  });

  it('resolves each selected order, reporting the ones it could not', async () => {
    const r = await post<BulkResult>('/api/orders/triage/bulk-resolve', s.coordinator, { ids: ['not-an-order', o.first.id], outcome: 'patient_contacted', note: 'Called' });
    expect(r.body.results.map((x) => x.ok)).toEqual([false, true]);
    expect(await queueIds()).not.toContain(o.first.id);
  });
});

describe('the queue', () => {
  it('sorts by time in status in the BFF, both ways, and only in the queue', async () => {
    const asc = (await queue({ field: 'time_in_status', order: 'ASC' })).body;
    const since = asc.map((r) => Date.parse(r.status_since ?? ''));
    expect(since.length).toBeGreaterThan(1);
    expect(since).toEqual([...since].sort((a, b) => b - a));
    const desc = (await queue({ field: 'time_in_status', order: 'DESC' })).body.map((r) => r.id);
    expect(desc).toEqual(asc.map((r) => r.id).reverse());
    const outside = await bff.get(`/api/orders${listQuery({ sort: ['time_in_status', 'ASC'] })}`, s.lab_ops);
    expect(outside.status).toBe(400);
  });
});

describe('cancelling with a reason', () => {
  it('keeps the reason as a note and sends the service no reason', async () => {
    const order = await service.placeOrder(service.team, o.fine.user_id, { lab_test_id: KIT });
    const r = await post<{ status: string }>(`/api/orders/${order.id}/cancel`, s.coordinator, { reason: 'Duplicate of another order 5521' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('cancelled');
    const notes = await bff.get<OrderNoteRecord[]>(`/api/orders/${order.id}/notes`, s.coordinator);
    expect(notes.body.map((n) => n.body)).toEqual(['Cancelled: Duplicate of another order 5521']);
    expect(upstreamBodies.some((b) => b.includes('5521'))).toBe(false);
  });
});
