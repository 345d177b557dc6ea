import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, isNull, like, notLike, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '../../server/service/app';
import { jobs, serviceSchema, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, type ServiceSchema } from '../../server/service/db/schema';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { WEBHOOK_DELIVER_KIND, WEBHOOK_DISPATCH_KIND, type WebhookWorkerOptions } from '../../server/service/webhooks/kinds';
import { emitEvent } from '../../server/service/webhooks/outbox';
import { ensureWebhookDispatcher } from '../../server/service/webhooks/dispatcher';
import { openStore, type Store } from '../../server/store/db';
import { JobWorker } from '../../server/service/jobs/queue';
import { ADMIN_TOKEN, expectDetail, migrationsFolder, openTestStore, storeKinds, useService, type Team } from './harness';
import { createBody, insertCatalogue, insertLabAccount, teamWithUser, type Catalogue } from './orderFixtures';
import { WebhookReceiver, type ReceivedWebhook } from './webhookReceiver';

const ENDPOINTS = '/v2/webhooks/endpoints';

describe.each(storeKinds)('webhook delivery (%s)', (kind) => {
  const svc = useService(kind);
  /** The service as started with WEBHOOK_ALLOW_PRIVATE_URLS=true (the receivers listen on 127.0.0.1). */
  let app: FastifyInstance;
  let cat: Catalogue;
  const receivers: WebhookReceiver[] = [];
  const extraApps: FastifyInstance[] = [];

  beforeAll(async () => {
    app = await buildServiceApp({ db: svc().db, adminToken: ADMIN_TOKEN, webhookAllowPrivateUrls: true });
    await app.ready();
    cat = await insertCatalogue(svc().db);
  });
  afterEach(async () => {
    while (receivers.length) await receivers.pop()!.close();
  });
  afterAll(async () => {
    for (const a of extraApps) await a.close();
    await app?.close();
  });

  const db = () => svc().db;
  const WORKER_DEFAULTS: WebhookWorkerOptions = { allowPrivateUrls: true, timeoutMs: 5000, dispatchIntervalMs: 3_600_000, random: () => 0.5 };
  /** A worker as the service runs it (every job kind), with the dispatcher's own polling put far out: the tests kick it. */
  const worker = (opts: WebhookWorkerOptions = {}) => new JobWorker(db(), jobHandlers(db(), { webhooks: { ...WORKER_DEFAULTS, ...opts } }));

  /** Order lifecycle and other jobs are not what these tests drive: finish them unrun. */
  const retireOtherJobs = () =>
    db()
      .update(jobs)
      .set({ doneAt: sql`now()`, lastError: 'cleared by the webhook test' })
      .where(and(notLike(jobs.kind, 'webhook.%'), isNull(jobs.doneAt), isNull(jobs.failedAt)));

  /** Runs what is due now (the dispatcher made due first) until nothing is; no real waiting for backoff. */
  async function run(w: JobWorker = worker()) {
    await retireOtherJobs();
    await db()
      .update(jobs)
      .set({ runAt: sql`now() - interval '1 second'` })
      .where(and(eq(jobs.kind, WEBHOOK_DISPATCH_KIND), isNull(jobs.doneAt), isNull(jobs.failedAt)));
    for (let round = 0; round < 50; round++) if ((await w.runDueOnce()) === 0) return;
    throw new Error('jobs still due after 50 rounds');
  }

  /** The endpoint's pending deliveries become due now (their backoff "has passed"), then run. */
  async function retry(endpointId: string, w?: JobWorker) {
    const pending = db()
      .select({ jobId: webhookDeliveries.jobId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
    await db()
      .update(jobs)
      .set({ runAt: sql`now() - interval '1 second'` })
      .where(and(inArray(jobs.id, pending), isNull(jobs.doneAt)));
    await run(w);
  }

  async function receiver(respond?: (req: ReceivedWebhook, index: number) => { status: number; headers?: Record<string, string>; hang?: boolean }) {
    const r = await WebhookReceiver.start(respond);
    receivers.push(r);
    return r;
  }

  interface Setup {
    team: Team;
    userId: string;
    endpoint: { id: string; secret: string };
  }

  async function setup(url: string, body: Record<string, unknown> = {}): Promise<Setup> {
    const { team, userId } = await teamWithUser(svc());
    await insertLabAccount(db(), team.teamId, { lab: 'quest' });
    const r = await svc().inject({ method: 'POST', url: ENDPOINTS, key: team.apiKey, payload: { url, ...body } }, app);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { team, userId, endpoint: { id: r.body.id, secret: r.body.secret } };
  }

  async function createOrder(s: Setup): Promise<string> {
    const r = await svc().api(s.team.apiKey).post('/v3/order/create', createBody(s.userId, cat.questPanel));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.order.id as string;
  }

  async function cancelOrder(s: Setup, orderId: string) {
    const r = await svc().api(s.team.apiKey).post(`/v3/order/${orderId}/cancel`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }

  const deliveries = async (s: Setup, query = '') => {
    const r = await svc().api(s.team.apiKey).get(`${ENDPOINTS}/${s.endpoint.id}/deliveries${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const endpoint = async (s: Setup) => (await svc().api(s.team.apiKey).get(`${ENDPOINTS}/${s.endpoint.id}`)).body;
  const headersOf = (req: ReceivedWebhook) => ({
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  });

  it('delivers an order event signed per Standard Webhooks: it verifies with the standardwebhooks package, a tampered body does not', async () => {
    const rx = await receiver();
    const s = await setup(rx.url());
    const before = Math.floor(Date.now() / 1000);
    const orderId = await createOrder(s);
    await run();

    expect(rx.received).toHaveLength(1);
    const req = rx.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hooks');
    expect(req.headers['content-type']).toBe('application/json');
    const ts = Number(req.headers['webhook-timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(String(req.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);

    const verified = new Webhook(s.endpoint.secret).verify(req.body, headersOf(req)) as Record<string, unknown>;
    expect(Object.keys(verified).sort()).toEqual(['client_user_id', 'data', 'event_type', 'team_id', 'user_id']);
    expect(verified).toMatchObject({ event_type: 'labtest.order.created', user_id: s.userId, team_id: s.team.teamId });
    expect((verified.data as { id: string }).id).toBe(orderId);

    const tampered = req.body.replace('labtest.order.created', 'labtest.order.updated');
    expect(tampered).not.toBe(req.body);
    expect(() => new Webhook(s.endpoint.secret).verify(tampered, headersOf(req))).toThrow();
    // Another endpoint's secret does not verify it either.
    const otherSecret = (await svc().inject({ method: 'POST', url: ENDPOINTS, key: s.team.apiKey, payload: { url: rx.url('/x') } }, app)).body.secret;
    expect(() => new Webhook(otherSecret).verify(req.body, headersOf(req))).toThrow();

    const log = await deliveries(s);
    expect(log.data).toHaveLength(1);
    const d = log.data[0];
    expect(d).toMatchObject({
      endpoint_id: s.endpoint.id,
      event_id: req.headers['webhook-id'],
      event_type: 'labtest.order.created',
      subject_id: orderId,
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
      last_status_code: 204,
    });
    expect(d.delivered_at).not.toBeNull();
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ status_code: 204, error: null });
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    // The single delivery reads the same.
    expect((await svc().api(s.team.apiKey).get(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${d.id}`)).body).toEqual(d);
    // Nothing more to send.
    await run();
    expect(rx.received).toHaveLength(1);
  });

  it('retries a failing receiver with backoff: 500, 500, then 200 on the third attempt with the same webhook-id', async () => {
    const rx = await receiver((_req, i) => ({ status: i < 2 ? 500 : 200 }));
    const s = await setup(rx.url());
    await createOrder(s);

    const t1 = Date.now();
    await run();
    expect(rx.received).toHaveLength(1);
    let [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 500 });
    expect(d.attempts[0]).toMatchObject({ status_code: 500, error: 'HTTP 500' });
    // First retry after 5 s (jitter at its middle here).
    const wait1 = new Date(d.next_attempt_at).getTime() - t1;
    expect(wait1).toBeGreaterThanOrEqual(4000);
    expect(wait1).toBeLessThanOrEqual(6000 + (Date.now() - t1));
    // The job is not due before then: running now sends nothing.
    await run();
    expect(rx.received).toHaveLength(1);
    const [job] = await db().select().from(jobs).where(eq(jobs.id, (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.id)))[0]!.jobId!));
    expect(job!.runAt.toISOString()).toBe(d.next_attempt_at);

    const t2 = Date.now();
    await retry(s.endpoint.id);
    expect(rx.received).toHaveLength(2);
    [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'pending', attempt_count: 2 });
    // Second retry after 5 minutes.
    const wait2 = new Date(d.next_attempt_at).getTime() - t2;
    expect(wait2).toBeGreaterThanOrEqual(240_000);
    expect(wait2).toBeLessThanOrEqual(360_000 + (Date.now() - t2));

    await retry(s.endpoint.id);
    expect(rx.received).toHaveLength(3);
    [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 3, last_status_code: 200, next_attempt_at: null });
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    const times = d.attempts.map((a: { attempted_at: string }) => new Date(a.attempted_at).getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    const ids = new Set(rx.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toBe(d.event_id);
    for (const req of rx.received) expect(() => new Webhook(s.endpoint.secret).verify(req.body, headersOf(req))).not.toThrow();
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
  });

  it('gives up after 8 attempts (failed), and the retry schedule spans about a day', async () => {
    const rx = await receiver(() => ({ status: 503 }));
    const s = await setup(rx.url());
    await createOrder(s);
    await run();
    let planned = 0;
    for (let i = 1; i < 8; i++) {
      const [d] = (await deliveries(s)).data;
      expect(d.status).toBe('pending');
      planned += new Date(d.next_attempt_at).getTime() - new Date(d.attempts[d.attempts.length - 1].attempted_at).getTime();
      await retry(s.endpoint.id);
    }
    expect(rx.received).toHaveLength(8);
    const [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'failed', attempt_count: 8, next_attempt_at: null, last_status_code: 503 });
    expect(d.attempts).toHaveLength(8);
    // 5 s + 5 min + 30 min + 2 h + 5 h + 8 h + 8 h (jitter at its middle).
    expect(planned / 3_600_000).toBeGreaterThan(20);
    expect(planned / 3_600_000).toBeLessThan(30);
    await retry(s.endpoint.id);
    expect(rx.received).toHaveLength(8);
  });

  it('410 Gone disables the endpoint and stops its pending deliveries; later events are not sent', async () => {
    const rx = await receiver((req) => ({ status: JSON.parse(req.body).event_type === 'labtest.order.created' ? 500 : 410 }));
    const s = await setup(rx.url());
    const a = await createOrder(s); // created: 500, stays pending
    await run();
    await cancelOrder(s, a); // updated: waits for created (same order)
    const b = await createOrder(s);
    await cancelOrder(s, b);
    await run();
    // b's created failed (500) and its update waits; nothing answered 410 yet.
    expect(rx.bodies().map((x) => x.event_type)).toEqual(['labtest.order.created', 'labtest.order.created']);

    // An event about a third subject goes out at once, and is answered 410.
    await emitEvent(db(), s.team.teamId, 'labtest.order.updated', s.userId, { id: 'third-subject' });
    await run();
    expect(rx.received).toHaveLength(3);
    expect(rx.received[2]!.body).toContain('third-subject');

    const ep = await endpoint(s);
    expect(ep.disabled_at).not.toBeNull();
    expect(ep.disabled_reason).toMatch(/410/);
    const log = (await deliveries(s)).data as { id: string; status: string; subject_id: string; last_status_code: number | null; next_attempt_at: string | null }[];
    const gone = log.find((d) => d.subject_id === 'third-subject')!;
    expect(gone).toMatchObject({ status: 'failed', last_status_code: 410 });
    const others = log.filter((d) => d.subject_id !== 'third-subject');
    expect(others).toHaveLength(4);
    for (const d of others) expect(d).toMatchObject({ status: 'cancelled', next_attempt_at: null });

    // Nothing is sent any more: neither retries nor new events.
    await retry(s.endpoint.id);
    await createOrder(s);
    await run();
    expect(rx.received).toHaveLength(3);
    expect((await deliveries(s)).data).toHaveLength(5);
    // A replay needs the endpoint enabled again.
    const blocked = await svc().api(s.team.apiKey).post(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${others[0]!.id}/replay`);
    expectDetail(blocked, 409);
  });

  it('honours Retry-After in seconds and as an HTTP date, never earlier than the schedule', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    const rx = await receiver((_req, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '120' } } : i === 1 ? { status: 429, headers: { 'retry-after': inAnHour } } : { status: 200 }));
    const s = await setup(rx.url());
    await createOrder(s);

    const t1 = Date.now();
    await run();
    let [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'pending', last_status_code: 503 });
    let wait = new Date(d.next_attempt_at).getTime() - t1;
    expect(wait).toBeGreaterThanOrEqual(119_000);
    expect(wait).toBeLessThanOrEqual(121_000 + (Date.now() - t1));

    const t2 = Date.now();
    await retry(s.endpoint.id);
    [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'pending', last_status_code: 429 });
    wait = new Date(d.next_attempt_at).getTime() - t2;
    expect(wait).toBeGreaterThanOrEqual(3_590_000);
    expect(wait).toBeLessThanOrEqual(3_601_000 + (Date.now() - t2));

    await retry(s.endpoint.id);
    [d] = (await deliveries(s)).data;
    expect(d.status).toBe('succeeded');
  });

  it('keeps emission order per subject: a later event about the same order waits while the earlier one is failing; other subjects go on', async () => {
    let failing = true;
    const rx = await receiver((req) => {
      const body = JSON.parse(req.body);
      return { status: failing && body.event_type === 'labtest.order.created' && body.data.id === firstOrder ? 500 : 200 };
    });
    const s = await setup(rx.url());
    let firstOrder = '';
    firstOrder = await createOrder(s);
    await cancelOrder(s, firstOrder); // updated, same subject
    const secondOrder = await createOrder(s);
    await run();

    const seen = () => rx.bodies().map((b) => `${b.data.id === firstOrder ? 'first' : 'second'}:${b.event_type.split('.').pop()}`);
    // first:created failed; first:updated held back; second:created delivered.
    expect(seen()).toEqual(['first:created', 'second:created']);
    let log = (await deliveries(s)).data as { subject_id: string; event_type: string; status: string; attempt_count: number }[];
    const firstUpdated = () => log.find((d) => d.subject_id === firstOrder && d.event_type === 'labtest.order.updated')!;
    expect(firstUpdated()).toMatchObject({ status: 'pending', attempt_count: 0 });

    await retry(s.endpoint.id); // still failing: the update still waits
    expect(seen()).toEqual(['first:created', 'second:created', 'first:created']);
    log = (await deliveries(s)).data;
    expect(firstUpdated()).toMatchObject({ status: 'pending', attempt_count: 0 });

    failing = false;
    await retry(s.endpoint.id);
    expect(seen()).toEqual(['first:created', 'second:created', 'first:created', 'first:created', 'first:updated']);
    log = (await deliveries(s)).data;
    expect(log.every((d) => d.status === 'succeeded')).toBe(true);
    expect(secondOrder).not.toBe(firstOrder);
  });

  it('sends only the event types an endpoint asked for; any event type flows', async () => {
    const rxUpdated = await receiver();
    const rxReports = await receiver();
    const rxAll = await receiver();
    const s = await setup(rxUpdated.url(), { event_types: ['labtest.order.updated'] });
    const post = (url: string, event_types?: string[]) =>
      svc().inject({ method: 'POST', url: ENDPOINTS, key: s.team.apiKey, payload: { url, ...(event_types ? { event_types } : {}) } }, app);
    expect((await post(rxReports.url(), ['lab_report.*'])).status).toBe(201);
    expect((await post(rxAll.url())).status).toBe(201);

    const orderId = await createOrder(s);
    await cancelOrder(s, orderId);
    await emitEvent(db(), s.team.teamId, 'lab_report.parsing_job.created', s.userId, { id: 'pj-1', status: 'started' });
    await emitEvent(db(), s.team.teamId, 'lab_report.parsing_job.updated', s.userId, { id: 'pj-1', status: 'completed' });
    await emitEvent(db(), s.team.teamId, 'brand_new.kind_of.event', s.userId, { id: 'x-1' });
    await run();

    const types = (rx: WebhookReceiver) => rx.bodies().map((b) => b.event_type);
    expect(types(rxUpdated)).toEqual(['labtest.order.updated']);
    expect(types(rxReports)).toEqual(['lab_report.parsing_job.created', 'lab_report.parsing_job.updated']);
    expect(types(rxAll)).toEqual([
      'labtest.order.created',
      'labtest.order.updated',
      'lab_report.parsing_job.created',
      'lab_report.parsing_job.updated',
      'brand_new.kind_of.event',
    ]);
    // Each endpoint signs with its own secret.
    const req = rxUpdated.received[0]!;
    expect(() => new Webhook(s.endpoint.secret).verify(req.body, headersOf(req))).not.toThrow();
  });

  it('does not send to another team, nor events from before the endpoint existed', async () => {
    const rx = await receiver();
    const early = await teamWithUser(svc());
    await insertLabAccount(db(), early.team.teamId, { lab: 'quest' });
    await emitEvent(db(), early.team.teamId, 'labtest.order.updated', early.userId, { id: 'before' });
    const r = await svc().inject({ method: 'POST', url: ENDPOINTS, key: early.team.apiKey, payload: { url: rx.url() } }, app);
    expect(r.status).toBe(201);
    const s = await setup(rx.url('/other-team'));
    await emitEvent(db(), s.team.teamId, 'labtest.order.updated', s.userId, { id: 'other-team-event' });
    await emitEvent(db(), early.team.teamId, 'labtest.order.updated', early.userId, { id: 'after' });
    await run();
    const byPath = (p: string) => rx.received.filter((x) => x.path === p).map((x) => JSON.parse(x.body).data.id);
    expect(byPath('/hooks')).toEqual(['after']);
    expect(byPath('/other-team')).toEqual(['other-team-event']);
  });

  it('replays a delivery: sent again with the same webhook-id, logged as another attempt', async () => {
    const rx = await receiver();
    const s = await setup(rx.url());
    await createOrder(s);
    await run();
    const [d] = (await deliveries(s)).data;
    expect(d.status).toBe('succeeded');

    const api = svc().api(s.team.apiKey);
    const replay = await api.post(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${d.id}/replay`);
    expect(replay.status, JSON.stringify(replay.body)).toBe(202);
    expect(replay.body).toMatchObject({ id: d.id, status: 'pending', attempt_count: 0, delivered_at: null });
    // Already pending: 409.
    expectDetail(await api.post(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${d.id}/replay`), 409);
    await run();
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body);
    expect(() => new Webhook(s.endpoint.secret).verify(rx.received[1]!.body, headersOf(rx.received[1]!))).not.toThrow();
    const after = (await api.get(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${d.id}`)).body;
    expect(after).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(after.attempts).toHaveLength(2);
    // Another team cannot replay it.
    const other = await svc().createTeam();
    expectDetail(await svc().api(other.apiKey).post(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${d.id}/replay`), 404);
  });

  it('survives a restart: events pending when the app closes are delivered by the next one, and an in-flight delivery after its lease runs out', async () => {
    const rx = await receiver();
    const s = await setup(rx.url());
    await createOrder(s);
    // The process goes away before any worker ran: close the app, build a new one on the same store.
    await app.close();
    app = await buildServiceApp({ db: db(), adminToken: ADMIN_TOKEN, webhookAllowPrivateUrls: true });
    await app.ready();
    await run(worker());
    expect(rx.bodies().map((b) => b.event_type)).toEqual(['labtest.order.created']);

    // A delivery whose worker died mid-call: its job is still leased.
    const orderId = await createOrder(s);
    await run(worker());
    expect(rx.received).toHaveLength(2);
    await cancelOrder(s, orderId);
    // Dispatch without delivering: a worker that only knows the dispatcher.
    const dispatchOnly = new JobWorker(db(), { [WEBHOOK_DISPATCH_KIND]: jobHandlers(db(), { webhooks: WORKER_DEFAULTS })[WEBHOOK_DISPATCH_KIND]! }, { batchSize: 1 });
    await db().update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(and(eq(jobs.kind, WEBHOOK_DISPATCH_KIND), isNull(jobs.doneAt)));
    await retireOtherJobs();
    expect(await dispatchOnly.runDueOnce()).toBe(1);
    const [pending] = await db()
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, s.endpoint.id), eq(webhookDeliveries.status, 'pending')));
    expect(pending).toBeDefined();
    await db()
      .update(jobs)
      .set({ lockedBy: 'w-dead', lockedUntil: sql`now() + interval '1 hour'`, attempts: 1 })
      .where(eq(jobs.id, pending!.jobId!));
    // While the lease holds, nobody else sends it.
    await run(worker());
    expect(rx.received).toHaveLength(2);
    // The lease runs out: the next worker sends it.
    await db().update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, pending!.jobId!));
    await run(worker());
    expect(rx.bodies().map((b) => b.event_type)).toEqual(['labtest.order.created', 'labtest.order.created', 'labtest.order.updated']);
  });

  it('a pending delivery whose job was lost gets a new one from the dispatcher sweep', async () => {
    const rx = await receiver();
    const s = await setup(rx.url());
    await createOrder(s);
    const dispatchOnly = new JobWorker(db(), { [WEBHOOK_DISPATCH_KIND]: jobHandlers(db(), { webhooks: WORKER_DEFAULTS })[WEBHOOK_DISPATCH_KIND]! });
    await db().update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(and(eq(jobs.kind, WEBHOOK_DISPATCH_KIND), isNull(jobs.doneAt)));
    await dispatchOnly.runDueOnce();
    const [d] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, s.endpoint.id));
    await db().update(jobs).set({ failedAt: sql`now()`, lastError: 'store trouble' }).where(eq(jobs.id, d!.jobId!));
    await run(worker({ sweepIntervalMs: 0 }));
    expect(rx.received).toHaveLength(1);
    expect((await deliveries(s)).data[0].status).toBe('succeeded');
  });

  it('counts a timeout as a failed attempt, does not follow redirects, and checks the address at delivery time', async () => {
    const hanging = await receiver(() => ({ status: 200, hang: true }));
    const s = await setup(hanging.url());
    await createOrder(s);
    await run(worker({ timeoutMs: 300 }));
    expect(hanging.received).toHaveLength(1);
    let [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null });
    expect(d.attempts[0]).toMatchObject({ status_code: null, error: 'timeout' });

    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: target.url() } }));
    const r = await setup(redirecting.url());
    await createOrder(r);
    await run();
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    [d] = (await deliveries(r)).data;
    expect(d).toMatchObject({ status: 'pending', last_status_code: 307 });
    expect(d.attempts[0].error).toBe('redirect not followed');

    // Created while private URLs were allowed, delivered by a service that does not allow them: refused, never sent.
    const guarded = await receiver();
    const g = await setup(guarded.url());
    await createOrder(g);
    await run(worker({ allowPrivateUrls: false }));
    expect(guarded.received).toHaveLength(0);
    [d] = (await deliveries(g)).data;
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null });
    expect(d.attempts[0].error).toBe('address not allowed');

    // A closed port: connection refused, retried.
    const closed = await receiver();
    const c = await setup(closed.url());
    await closed.close();
    receivers.splice(receivers.indexOf(closed), 1);
    await createOrder(c);
    await run();
    [d] = (await deliveries(c)).data;
    expect(d.attempts[0].error).toBe('connection refused');
    expect(d.status).toBe('pending');
  });

  it('disabling or deleting an endpoint stops its pending deliveries', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    const s = await setup(rx.url());
    await createOrder(s);
    await run();
    expect(rx.received).toHaveLength(1);
    const api = svc().api(s.team.apiKey);
    expect((await api.patch(`${ENDPOINTS}/${s.endpoint.id}`, { disabled: true })).status).toBe(200);
    let [d] = (await deliveries(s)).data;
    expect(d).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    const [job] = await db().select().from(jobs).where(eq(jobs.id, (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.id)))[0]!.jobId!));
    expect(job!.doneAt).not.toBeNull();
    await retry(s.endpoint.id);
    expect(rx.received).toHaveLength(1);

    // Enabled again: a replay goes out; new events flow again.
    rx.respond = () => ({ status: 200 });
    expect((await api.patch(`${ENDPOINTS}/${s.endpoint.id}`, { disabled: false })).status).toBe(200);
    expect((await api.post(`${ENDPOINTS}/${s.endpoint.id}/deliveries/${d.id}/replay`)).status).toBe(202);
    await createOrder(s);
    await run();
    expect(rx.received).toHaveLength(3);
    [d] = (await deliveries(s)).data;
    expect(d.status).toBe('succeeded');

    rx.respond = () => ({ status: 500 });
    await createOrder(s);
    await run();
    expect(rx.received).toHaveLength(4);
    const pendingJob = (await db().select().from(webhookDeliveries).where(and(eq(webhookDeliveries.endpointId, s.endpoint.id), eq(webhookDeliveries.status, 'pending'))))[0]!.jobId!;
    expect((await api.delete(`${ENDPOINTS}/${s.endpoint.id}`)).status).toBe(204);
    expect(await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, s.endpoint.id))).toEqual([]);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, s.endpoint.id))).toEqual([]);
    const [gone] = await db().select().from(jobs).where(eq(jobs.id, pendingJob));
    expect(gone!.doneAt).not.toBeNull();
    await run();
    expect(rx.received).toHaveLength(4);
  });

  it('pages the delivery log newest first with a signed cursor and a status filter', async () => {
    const rx = await receiver((req) => ({ status: JSON.parse(req.body).data.id === 'p-2' ? 500 : 200 }));
    const s = await setup(rx.url());
    for (const id of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5']) await emitEvent(db(), s.team.teamId, 'labtest.order.updated', s.userId, { id });
    await run();
    const page1 = await deliveries(s, '?limit=2');
    expect(page1.data.map((d: { subject_id: string }) => d.subject_id)).toEqual(['p-5', 'p-4']);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = await deliveries(s, `?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`);
    expect(page2.data.map((d: { subject_id: string }) => d.subject_id)).toEqual(['p-3', 'p-2']);
    const page3 = await deliveries(s, `?limit=2&cursor=${encodeURIComponent(page2.next_cursor)}`);
    expect(page3.data.map((d: { subject_id: string }) => d.subject_id)).toEqual(['p-1']);
    expect(page3.next_cursor).toBeNull();

    const pending = await deliveries(s, '?status=pending');
    expect(pending.data.map((d: { subject_id: string }) => d.subject_id)).toEqual(['p-2']);
    const api = svc().api(s.team.apiKey);
    // A cursor of another filter, or tampered with, is 422.
    const wrongFilter = await api.get(`${ENDPOINTS}/${s.endpoint.id}/deliveries?status=pending&cursor=${encodeURIComponent(page1.next_cursor)}`);
    expect(wrongFilter.status).toBe(422);
    const tampered = page1.next_cursor.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    expect((await api.get(`${ENDPOINTS}/${s.endpoint.id}/deliveries?cursor=${encodeURIComponent(tampered)}`)).status).toBe(422);
  });

  it('never writes the secret or the payload into the job table', async () => {
    const rx = await receiver();
    const s = await setup(rx.url());
    await emitEvent(db(), s.team.teamId, 'labtest.order.updated', s.userId, { id: 'private-subject', note: 'glucose 180 mg/dL' });
    await run();
    expect(rx.received).toHaveLength(1);
    const rows = await db().select().from(jobs).where(like(jobs.kind, 'webhook.%'));
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(s.endpoint.secret.slice(6));
    expect(dump).not.toContain('glucose');
    expect(rows.filter((r) => r.kind === WEBHOOK_DELIVER_KIND).every((r) => Object.keys(r.payload).join() === 'delivery_id')).toBe(true);
  });
});

describe.each(storeKinds)('webhook delivery with two workers (%s)', (kind) => {
  // On PostgreSQL the second worker has a store (pool) of its own, as another process would.
  let first: Awaited<ReturnType<typeof openTestStore>>;
  let second: Store<ServiceSchema> | null = null;
  let app: FastifyInstance;
  let rx: WebhookReceiver;

  beforeAll(async () => {
    first = await openTestStore(kind);
    second = kind === 'postgres' ? await openStore({ part: 'service', schema: serviceSchema, migrationsFolder, databaseUrl: first.database.databaseUrl }) : null;
    app = await buildServiceApp({ db: first.store.db, adminToken: ADMIN_TOKEN, webhookAllowPrivateUrls: true });
    await app.ready();
    rx = await WebhookReceiver.start(() => ({ status: 200 }));
  });
  afterAll(async () => {
    await rx?.close();
    await app?.close();
    await second?.close();
    await first?.store.close();
    await first?.database.drop();
  });

  it('delivers every event exactly once, in order per subject, and keep one dispatcher', async () => {
    const db = first.store.db;
    const other = second?.db ?? db;
    const created = await app.inject({ method: 'POST', url: '/admin/v1/teams', headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { name: 'Race' } });
    const team = created.json() as { team_id: string; api_key: string };
    const user = await app.inject({ method: 'POST', url: '/v2/user', headers: { 'x-service-api-key': team.api_key }, payload: { client_user_id: 'race-1' } });
    const userId = user.json().user_id as string;
    const ep = await app.inject({ method: 'POST', url: ENDPOINTS, headers: { 'x-service-api-key': team.api_key }, payload: { url: rx.url() } });
    expect(ep.statusCode).toBe(201);
    const secret = ep.json().secret as string;
    // Both processes start: still one dispatcher job.
    await Promise.all([ensureWebhookDispatcher(db), ensureWebhookDispatcher(other)]);
    const dispatchers = await db.select().from(jobs).where(and(eq(jobs.kind, WEBHOOK_DISPATCH_KIND), isNull(jobs.doneAt)));
    expect(dispatchers).toHaveLength(1);

    const subjects = ['s-a', 's-b', 's-c'];
    for (let n = 0; n < 10; n++) {
      for (const id of subjects) await emitEvent(db, team.team_id, 'lab_report.parsing_job.updated', userId, { id, n });
    }
    const opts: WebhookWorkerOptions = { allowPrivateUrls: true, timeoutMs: 5000, dispatchIntervalMs: 3_600_000 };
    const workers = [
      new JobWorker(db, jobHandlers(db, { webhooks: opts }), { batchSize: 3 }),
      new JobWorker(other, jobHandlers(other, { webhooks: opts }), { batchSize: 3 }),
    ];
    const loop = async (w: JobWorker) => {
      for (let i = 0; i < 200 && (await w.runDueOnce()) > 0; i++);
    };
    for (let round = 0; round < 30; round++) {
      // Make everything due (the dispatcher and deliveries waiting on their subject), then race.
      await db
        .update(jobs)
        .set({ runAt: sql`now() - interval '1 second'` })
        .where(and(like(jobs.kind, 'webhook.%'), isNull(jobs.doneAt), isNull(jobs.failedAt)));
      await Promise.all(workers.map(loop));
      const pending = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
      if (pending.length === 0 && rx.received.length > 0) break;
    }
    expect(rx.received).toHaveLength(30);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(30);
    for (const id of subjects) {
      const ns = rx.bodies().filter((b) => b.data.id === id).map((b) => b.data.n);
      expect(ns, id).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    for (const r of rx.received) {
      expect(() => new Webhook(secret).verify(r.body, { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) })).not.toThrow();
    }
    const attempts = await db.select().from(webhookDeliveryAttempts);
    expect(attempts).toHaveLength(30);
  });
});
