/**
 * The `webhook-endpoints` and `webhook-deliveries` resources through the BFF's HTTP API against
 * the real service, with a real receiver on 127.0.0.1 and the service's own dispatch and delivery
 * jobs: admins only, the secret shown once and revealed on demand (audited), update, the delivery
 * log with cached cursors, replay, delete, the audit trail and the logs.
 */
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents } from '../../server/bff/db/schema';
import { ServiceClient } from '../../server/bff/upstream/client';
import { WebhookReceiver } from '../service/webhookReceiver';
import { UNKNOWN_UUID, listQuery, startBff, storeKinds, type Answer, type BffFixture, type Session } from './harness';
import { startLabService, type LabServiceFixture } from './ordersFixture';
import { deliverDueWebhooks } from './webhookJobs';
import { captureLogs } from '../support/logCapture';

interface EndpointBody {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  disabled: boolean;
  secret?: string;
}
interface DeliveryBody {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  subject_id: string | null;
  status: string;
  attempt_count: number;
  attempts: { status_code: number | null }[];
}
interface ErrorBody {
  message: string;
  code?: string;
  errors?: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(storeKinds)('webhook endpoints through the BFF (%s)', (kind) => {
  let service: LabServiceFixture;
  let bff: BffFixture;
  let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer' | 'unknown', Session>;
  let patient: string;
  const receivers: WebhookReceiver[] = [];
  /** Every secret answered, to prove none reaches the audit trail or the logs. */
  const secrets = new Set<string>();

  beforeAll(async () => {
    service = await startLabService();
    [patient] = (await service.addUsers(service.team, [{ clientUserId: `pt-hooks-${kind}` }])) as [string];
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    const [admin, coordinator, labOps, reviewer, unknown] = await Promise.all(
      (['admin', 'coordinator', 'lab_ops', 'reviewer', 'unknown'] as const).map((who) => bff.login(who)),
    );
    s = { admin: admin!, coordinator: coordinator!, lab_ops: labOps!, reviewer: reviewer!, unknown: unknown! };
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await bff?.close();
    await service?.close();
  });

  // --- helpers -------------------------------------------------------------------------------

  const receiver = async () => {
    const r = await WebhookReceiver.start();
    receivers.push(r);
    return r;
  };
  const create = async (body: Record<string, unknown>, session: Session = s.admin) => {
    const r = await bff.request<EndpointBody & ErrorBody>({ method: 'POST', url: '/api/webhook-endpoints', session, payload: body });
    if (r.body?.secret) secrets.add(r.body.secret);
    return r;
  };
  const createFor = async (rx: WebhookReceiver, extra: Record<string, unknown> = {}) => {
    const r = await create({ url: rx.url(), event_types: ['labtest.order.*'], ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  const put = (id: string, body: unknown, session: Session = s.admin) =>
    bff.request<EndpointBody & ErrorBody>({ method: 'PUT', url: `/api/webhook-endpoints/${id}`, session, payload: body as object });
  const deliveries = (filter: Record<string, unknown>, q: { sort?: unknown; range?: unknown } = {}, session: Session = s.admin) =>
    bff.get<DeliveryBody[]>(`/api/webhook-deliveries${listQuery({ range: [0, 24], ...q, filter })}`, session);
  const replay = (endpointId: string, deliveryId: string, session: Session = s.admin) =>
    bff.request<DeliveryBody & ErrorBody>({ method: 'POST', url: `/api/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/replay`, session });
  const idsOf = (r: Answer<DeliveryBody[]>) => r.body.map((d) => d.id);
  const maxAuditId = async () => (await bff.db.select({ id: auditEvents.id }).from(auditEvents)).reduce((m, r) => Math.max(m, Number(r.id)), 0);

  const deliver = () => deliverDueWebhooks(service.db);

  // --- permissions ---------------------------------------------------------------------------

  describe('permissions', () => {
    it('answers 401 without a session and 403 to every role but admin', async () => {
      expect((await bff.get('/api/webhook-endpoints')).status).toBe(401);
      expect((await bff.get(`/api/webhook-deliveries${listQuery({ filter: { endpoint_id: UNKNOWN_UUID } })}`)).status).toBe(401);
      expect((await bff.request({ method: 'POST', url: '/api/webhook-endpoints', payload: { url: 'https://example.com/h' } })).status).toBe(401);
      for (const who of ['coordinator', 'lab_ops', 'reviewer', 'unknown'] as const) {
        expect((await bff.get('/api/webhook-endpoints', s[who])).status, who).toBe(403);
        expect((await bff.get(`/api/webhook-endpoints/${UNKNOWN_UUID}/secret`, s[who])).status, who).toBe(403);
        expect((await deliveries({ endpoint_id: UNKNOWN_UUID }, {}, s[who])).status, who).toBe(403);
        expect((await create({ url: 'https://example.com/h' }, s[who])).status, who).toBe(403);
        expect((await put(UNKNOWN_UUID, { disabled: true }, s[who])).status, who).toBe(403);
        expect((await bff.request({ method: 'DELETE', url: `/api/webhook-endpoints/${UNKNOWN_UUID}`, session: s[who] })).status, who).toBe(403);
        expect((await replay(UNKNOWN_UUID, UNKNOWN_UUID, s[who])).status, who).toBe(403);
      }
    });

    it('needs the CSRF token for changes', async () => {
      const before = (await bff.get<EndpointBody[]>('/api/webhook-endpoints', s.admin)).body.length;
      const r = await bff.request({ method: 'POST', url: '/api/webhook-endpoints', session: s.admin, csrf: false, payload: { url: 'https://example.com/h' } });
      expect(r.status).toBe(403);
      expect((await bff.get<EndpointBody[]>('/api/webhook-endpoints', s.admin)).body).toHaveLength(before);
    });
  });

  // --- endpoints -----------------------------------------------------------------------------

  describe('endpoints', () => {
    it('creates an endpoint and shows its secret once; the secret is revealed again on demand, audited', async () => {
      const from = await maxAuditId();
      const rx = await receiver();
      const r = await create({ url: rx.url(), event_types: ['labtest.order.*'], description: 'Ops pager' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.body).toMatchObject({ url: rx.url(), event_types: ['labtest.order.*'], description: 'Ops pager', disabled: false, disabled_at: null });
      expect(r.body.id).toMatch(UUID);
      expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);

      const one = await bff.get<EndpointBody>(`/api/webhook-endpoints/${r.body.id}`, s.admin);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: r.body.id, disabled: false });
      expect(one.body).not.toHaveProperty('secret');
      const all = await bff.get<EndpointBody[]>(`/api/webhook-endpoints${listQuery({ sort: ['created_at', 'ASC'], range: [0, 24] })}`, s.admin);
      expect(all.body.map((e) => e.id)).toContain(r.body.id);
      expect(all.raw.body).not.toContain(r.body.secret!);
      expect(all.headers['content-range']).toMatch(/^webhook-endpoints 0-\d+\/\d+$/);

      const revealed = await bff.get<{ secret: string }>(`/api/webhook-endpoints/${r.body.id}/secret`, s.admin);
      expect(revealed.status).toBe(200);
      expect(revealed.body).toEqual({ secret: r.body.secret });
      expect(revealed.headers['cache-control']).toBe('no-store');

      const rows = await bff.db.select().from(auditEvents).where(and(gt(auditEvents.id, from), eq(auditEvents.resource, 'webhook_endpoints')));
      expect(rows.map((x) => [x.action, x.recordIds])).toEqual([
        ['create', [r.body.id]],
        ['reveal', [r.body.id]],
      ]);
      expect(rows.every((x) => x.staffId === bff.staff.admin.id && x.outcome === 'ok')).toBe(true);
    });

    it('answers 422 at the field for a bad URL or an empty event type list; 404 for unknown endpoints', async () => {
      const url = await create({ url: 'ftp://example.com/hooks' });
      expect(url.status).toBe(422);
      expect(url.body.errors).toHaveProperty('url');
      const types = await create({ url: 'https://example.com/hooks', event_types: [] });
      expect(types.status).toBe(422);
      expect(types.body.errors).toHaveProperty('event_types');
      for (const id of [UNKNOWN_UUID, 'not-a-uuid']) {
        expect((await bff.get(`/api/webhook-endpoints/${id}`, s.admin)).body).toEqual({ message: 'Webhook endpoint not found' });
        expect((await bff.get(`/api/webhook-endpoints/${id}/secret`, s.admin)).status).toBe(404);
        expect((await put(id, { disabled: true })).status).toBe(404);
        expect((await bff.request({ method: 'DELETE', url: `/api/webhook-endpoints/${id}`, session: s.admin })).status).toBe(404);
      }
      expect((await bff.get(`/api/webhook-endpoints${listQuery({ sort: ['secret', 'ASC'] })}`, s.admin)).status).toBe(400);
    });

    it('updates from the whole record react-admin sends back: only changed fields go upstream', async () => {
      const rx = await receiver();
      const created = await createFor(rx, { description: 'Before' });
      const { secret: _secret, ...record } = created;
      const patch = vi.spyOn(ServiceClient.prototype, 'updateWebhookEndpoint');

      const same = await put(created.id, record);
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ id: created.id, description: 'Before', disabled: false });
      expect(patch).not.toHaveBeenCalled();

      const disabled = await put(created.id, { ...record, disabled: true, description: 'After' });
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
      expect(disabled.body).toMatchObject({ disabled: true, description: 'After', url: rx.url() });
      expect(disabled.body.disabled_at).not.toBeNull();
      expect(patch).toHaveBeenCalledTimes(1);
      expect(patch.mock.calls[0]![1]).toEqual({ disabled: true, description: 'After' });
      expect((await bff.get<EndpointBody[]>(`/api/webhook-endpoints${listQuery({ filter: { disabled: true } })}`, s.admin)).body.map((e) => e.id)).toContain(created.id);

      const enabled = await put(created.id, { ...disabled.body, disabled: false });
      expect(enabled.body).toMatchObject({ disabled: false, disabled_at: null });
      const bad = await put(created.id, { disabled: 'yes' });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual({ disabled: 'must be true or false' });
      const badUrl = await put(created.id, { url: 'not a url' });
      expect(badUrl.status).toBe(422);
      expect(badUrl.body.errors).toHaveProperty('url');

      const rows = await bff.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'update'), eq(auditEvents.resource, 'webhook_endpoints')));
      const mine = rows.filter((x) => x.recordIds[0] === created.id && x.outcome === 'ok').map((x) => x.detail);
      expect(mine).toEqual([{ fields: [] }, { fields: ['description', 'disabled'], disabled: true }, { fields: ['disabled'], disabled: false }]);
    });

    it('deletes an endpoint: {id}, then it is gone; audited', async () => {
      const created = await createFor(await receiver());
      const r = await bff.request<{ id: string }>({ method: 'DELETE', url: `/api/webhook-endpoints/${created.id}`, session: s.admin });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: created.id });
      expect((await bff.get(`/api/webhook-endpoints/${created.id}`, s.admin)).status).toBe(404);
      const rows = await bff.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'delete'), eq(auditEvents.resource, 'webhook_endpoints')));
      expect(rows.filter((x) => x.recordIds[0] === created.id).map((x) => x.outcome)).toEqual(['ok']);
      // The unknown id of the 404 test was audited as a failure (and the other roles' attempts as denials).
      const unknown = rows.filter((x) => x.recordIds[0] === UNKNOWN_UUID);
      expect(unknown.filter((x) => x.outcome !== 'denied').map((x) => [x.outcome, x.statusCode])).toEqual([['failed', 404]]);
      expect(unknown.filter((x) => x.outcome === 'denied').every((x) => x.statusCode === 403)).toBe(true);
    });
  });

  // --- deliveries ----------------------------------------------------------------------------

  describe('deliveries', () => {
    let rx: WebhookReceiver;
    let endpoint: EndpointBody;
    /** The service's own log of the endpoint, newest first. */
    let expected: string[];

    beforeAll(async () => {
      rx = await receiver();
      endpoint = await createFor(rx);
      for (let i = 0; i < 5; i++) await service.placeOrder(service.team, patient);
      await deliver();
      const direct = await service.call<{ data: DeliveryBody[] }>(service.team, 'GET', `/v2/webhooks/endpoints/${endpoint.id}/deliveries?limit=100`);
      expected = direct.body.data.map((d) => d.id);
    });

    it('lists the endpoint’s deliveries after order events, newest first, with partial pagination', async () => {
      expect(rx.received.length).toBeGreaterThanOrEqual(5);
      expect(expected.length).toBe(rx.received.length);
      const r = await deliveries({ endpoint_id: endpoint.id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(idsOf(r)).toEqual(expected);
      expect(r.headers['content-range']).toBe(`webhook-deliveries 0-${expected.length - 1}/*`);
      expect(r.headers['x-has-next-page']).toBe('false');
      expect(r.body[0]).toMatchObject({ endpoint_id: endpoint.id, status: 'succeeded', attempt_count: 1 });
      expect(r.body[0]!.event_type).toMatch(/^labtest\.order\./);
      expect(r.body[0]!.attempts[0]).toMatchObject({ status_code: 204 });
      expect((await deliveries({ endpoint_id: endpoint.id, status: 'failed' })).body).toEqual([]);
    });

    it('walks pages of 2 at one upstream call per page (cursors kept in the BFF store)', async () => {
      const calls = vi.spyOn(ServiceClient.prototype, 'listWebhookDeliveries');
      const pages: string[] = [];
      for (let first = 0; first < expected.length; first += 2) {
        const before = calls.mock.calls.length;
        const r = await deliveries({ endpoint_id: endpoint.id }, { sort: ['created_at', 'DESC'], range: [first, first + 1] });
        expect(r.status).toBe(200);
        expect(calls.mock.calls.length - before).toBe(1);
        expect(r.headers['x-has-next-page']).toBe(String(first + 2 < expected.length));
        pages.push(...idsOf(r));
      }
      expect(pages).toEqual(expected);
      // Straight to the third page of a fresh walk: one call, from the cached cursor.
      const before = calls.mock.calls.length;
      const third = await deliveries({ endpoint_id: endpoint.id }, { sort: ['id', 'ASC'], range: [4, 5] });
      expect(idsOf(third)).toEqual(expected.slice(4, 6));
      expect(calls.mock.calls.length - before).toBe(1);
    });

    it('needs endpoint_id, lists newest first only, and answers getMany', async () => {
      const none = await bff.get<ErrorBody>(`/api/webhook-deliveries${listQuery({ range: [0, 9] })}`, s.admin);
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual({ 'filter.endpoint_id': 'required' });
      expect((await deliveries({ endpoint_id: endpoint.id }, { sort: ['created_at', 'ASC'] })).status).toBe(400);
      expect((await deliveries({ endpoint_id: endpoint.id }, { sort: ['status', 'DESC'] })).status).toBe(400);
      expect((await deliveries({ endpoint_id: UNKNOWN_UUID })).status).toBe(404);
      const many = await deliveries({ endpoint_id: endpoint.id, id: [expected[0], UNKNOWN_UUID, expected[1]] });
      expect(idsOf(many)).toEqual([expected[0], expected[1]]);
    });

    it('replays a delivery: 202 pending, 409 while it is pending or the endpoint is disabled; audited', async () => {
      const from = await maxAuditId();
      const target = expected[0]!;
      const r = await replay(endpoint.id, target);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body).toMatchObject({ id: target, status: 'pending' });
      const again = await replay(endpoint.id, target);
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/pending/);
      expect((await replay(endpoint.id, UNKNOWN_UUID)).body).toEqual({ message: 'Webhook delivery not found' });

      const received = rx.received.length;
      await deliver();
      expect(rx.received.length).toBe(received + 1);
      const { secret: _secret, ...record } = endpoint;
      expect((await put(endpoint.id, { ...record, disabled: true })).status).toBe(200);
      const disabled = await replay(endpoint.id, target);
      expect(disabled.status).toBe(409);
      expect(disabled.body.message).toMatch(/disabled/);
      expect((await put(endpoint.id, { ...record, disabled: false })).status).toBe(200);

      const rows = await bff.db
        .select()
        .from(auditEvents)
        .where(and(gt(auditEvents.id, from), eq(auditEvents.action, 'replay')))
        .orderBy(auditEvents.id);
      expect(rows.map((x) => [x.outcome, x.statusCode, x.recordIds, x.detail.delivery_id])).toEqual([
        ['ok', null, [endpoint.id], target],
        ['failed', 409, [endpoint.id], target],
        ['failed', 404, [endpoint.id], UNKNOWN_UUID],
        ['failed', 409, [endpoint.id], target],
      ]);
    });
  });

  // --- audit and logs ------------------------------------------------------------------------

  describe('audit trail and logs', () => {
    it('keeps secrets, URLs and descriptions out of the audit trail and the logs', async () => {
      const { lines, stream } = captureLogs();
      const app = await bff.buildApp({ logger: { level: 'trace', stream } });
      const session = await bff.login('admin', app);
      const rx = await receiver();
      const made = await bff.request<EndpointBody>({
        method: 'POST',
        url: '/api/webhook-endpoints',
        session,
        payload: { url: rx.url('/hooks/tok-quixotic'), description: 'Quixotic pager' },
        app,
      });
      expect(made.status).toBe(201);
      secrets.add(made.body.secret!);
      const shown = await bff.request<{ secret: string }>({ url: `/api/webhook-endpoints/${made.body.id}/secret`, session, app });
      expect(shown.body.secret).toBe(made.body.secret);
      const log = lines.join('');
      expect(log).toContain(`"route":"/api/webhook-endpoints/:id/secret"`); // by its pattern: no id, no value

      const rows = await bff.db.select().from(auditEvents).where(eq(auditEvents.resource, 'webhook_endpoints'));
      const trail = JSON.stringify(rows);
      for (const secret of [...secrets, 'tok-quixotic', 'Quixotic pager', '127.0.0.1:']) {
        expect(trail).not.toContain(secret);
        expect(log).not.toContain(secret);
      }
      expect(secrets.size).toBeGreaterThan(3);
    });
  });
});
