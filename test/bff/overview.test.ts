/**
 * `GET /api/overview` against the real service: the counts of seeded queues (orders needing
 * attention by reason, unacknowledged critical results, the review queue and its oldest wait,
 * appointment requests, today's and tomorrow's appointments, failed webhook deliveries), each queue
 * only for the roles that may see it, "today" in the zone asked for, and the audit written once per
 * session per hour rather than on every refresh; a queue whose service call fails says why and the
 * others still count.
 */
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Overview } from '../../server/bff/api';
import { auditEvents } from '../../server/bff/db/schema';
import { appointments, parsingJobs, webhookDeliveries, webhookOutbox } from '../../server/service/db/schema';
import { CHICAGO, placeHomeOrder } from './appointmentsFixture';
import { startFailingProxy } from './failingProxy';
import { startBff, type BffFixture, type Session } from './harness';
import { labTestId, startLabService, type LabServiceFixture, type WireOrder } from './ordersFixture';

let service: LabServiceFixture;
let bff: BffFixture;
let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer', Session>;
let patientId: string;
let requested: WireOrder;
let hookEndpointId: string;

const KIT = labTestId('quest', 'Thyroid Check');
const KOLKATA = 'Asia/Kolkata'; // UTC+05:30 all year: its midnights can be computed by hand
const OLDEST_REPORT = '2026-01-02T08:00:00.000Z';

/** The next midnight in Kolkata after now, computed apart from the BFF's zone code. */
function kolkataNextMidnight(now = Date.now()): number {
  const offset = 5.5 * 3_600_000;
  const local = new Date(now + offset);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1) - offset;
}

async function requestAppointment(order: WireOrder) {
  const r = await service.call<{ id: string }>(service.team, 'POST', `/v3/order/${order.id}/phlebotomy/appointment/request`, {
    address: CHICAGO,
    provider: 'provider_1',
  });
  if (r.status !== 200) throw new Error(`request answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An appointment with a time, in a status: requested through the service, then given its time in the service's table. */
async function appointmentAt(startMs: number, status: string) {
  const order = await placeHomeOrder(service, service.team, patientId);
  const a = await requestAppointment(order);
  await service.db
    .update(appointments)
    .set({ status, startAt: new Date(startMs), endAt: new Date(startMs + 30 * 60_000) })
    .where(eq(appointments.id, a.id));
}

async function reviewJob(teamId: string, userId: string, createdAt: string, isReviewed = false) {
  await service.db.insert(parsingJobs).values({
    teamId,
    userId,
    status: 'started',
    stage: isReviewed ? 'completed' : 'awaiting_review',
    needsHumanReview: true,
    isReviewed,
    fileName: 'report.pdf',
    contentType: 'application/pdf',
    fileSize: 1000,
    createdAt: new Date(createdAt),
  });
}

async function deliveries(endpointId: string, statuses: string[]) {
  for (const status of statuses) {
    const [event] = await service.db
      .insert(webhookOutbox)
      .values({ teamId: service.team.teamId, eventType: 'labtest.order.updated', payload: {}, dispatchedAt: new Date() })
      .returning();
    await service.db.insert(webhookDeliveries).values({
      teamId: service.team.teamId,
      endpointId,
      seq: event!.id,
      eventId: event!.eventId,
      eventType: event!.eventType,
      status,
      attemptCount: 1,
    });
  }
}

/** The order stuck in transit to the lab (the last one driven). */
let stuckOrderId = '';

beforeAll(async () => {
  service = await startLabService();
  [patientId] = (await service.addUsers(service.team, [{ clientUserId: 'pt-overview' }])) as [string];
  const [foreignUser] = (await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-overview-foreign' }])) as [string];

  // Orders needing attention: two lost, one stuck in transit to the lab; one fine; another team's lost one.
  for (const status of ['failed.testkit.lost', 'failed.testkit.lost', 'collecting_sample.testkit.problem_in_transit_lab']) {
    stuckOrderId = (await service.placeOrder(service.team, patientId, { lab_test_id: KIT })).id;
    await service.driveOrder(service.team, stuckOrderId, status);
  }
  await service.placeOrder(service.team, patientId);
  await service.driveOrder(service.otherTeam, (await service.placeOrder(service.otherTeam, foreignUser, { lab_test_id: KIT })).id, 'failed.testkit.lost');
  // One critical result nobody has acknowledged.
  const critical = await service.placeOrder(service.team, patientId, { lab_test_id: labTestId('quest', 'Annual Wellness') });
  const drove = await service.call(service.team, 'POST', `/v3/order/${critical.id}/test?final_status=completed.walk_in_test.completed`, { interpretation: 'critical' });
  if (drove.status !== 200) throw new Error(`driving answered ${drove.status}`);

  // The review queue: two waiting (the older one first), one reviewed, one of another team.
  await reviewJob(service.team.teamId, patientId, '2026-01-03T08:00:00.000Z');
  await reviewJob(service.team.teamId, patientId, OLDEST_REPORT);
  await reviewJob(service.team.teamId, patientId, '2026-01-01T08:00:00.000Z', true);
  await reviewJob(service.otherTeam.teamId, foreignUser, '2025-12-01T08:00:00.000Z');

  // Appointments: one request waiting for a time; a minute either side of Kolkata's next midnight; a cancelled one.
  requested = await placeHomeOrder(service, service.team, patientId);
  await requestAppointment(requested);
  const midnight = kolkataNextMidnight();
  await appointmentAt(midnight - 60_000, 'confirmed');
  await appointmentAt(midnight + 60_000, 'confirmed');
  await appointmentAt(midnight - 60_000, 'cancelled');

  // Webhooks: one endpoint with two failed deliveries and one that arrived.
  const endpoint = await service.call<{ id: string }>(service.team, 'POST', '/v2/webhooks/endpoints', { url: 'https://example.com/labdesk-hook' });
  if (endpoint.status !== 201 && endpoint.status !== 200) throw new Error(`endpoint answered ${endpoint.status}`);
  hookEndpointId = endpoint.body.id;
  await deliveries(hookEndpointId, ['failed', 'succeeded', 'failed']);

  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  const sessions = await Promise.all((['admin', 'coordinator', 'lab_ops', 'reviewer'] as const).map((who) => bff.login(who)));
  s = { admin: sessions[0]!, coordinator: sessions[1]!, lab_ops: sessions[2]!, reviewer: sessions[3]! };
}, 120_000);
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

const overview = (session: Session | null, zone = KOLKATA) => bff.get<Overview>(`/api/overview?time_zone=${encodeURIComponent(zone)}`, session);
const QUEUE_KEYS = [
  'orders_needing_attention',
  'critical_results_unacknowledged',
  'reports_awaiting_review',
  'appointment_requests_waiting',
  'appointments_upcoming',
  'failed_webhook_deliveries',
];
/** A queue that was counted: the test fails when it is missing or says it could not be counted. */
function counted<Q extends object>(queue: Q | undefined): Exclude<Q, { error: string }> {
  expect(queue).toBeDefined();
  expect(queue).not.toHaveProperty('error');
  return queue as Exclude<Q, { error: string }>;
}
const queuesOf = (o: Overview) => QUEUE_KEYS.filter((k) => k in o);

describe('the overview', () => {
  it('counts each of the team’s queues for an admin', async () => {
    const r = await overview(s.admin);
    expect(r.status).toBe(200);
    const o = r.body;
    expect(Math.abs(Date.parse(o.generated_at) - Date.now())).toBeLessThan(60_000);
    const orders = counted(o.orders_needing_attention);
    expect(orders.count).toBe(3);
    expect(orders.by_reason).toEqual(
      expect.arrayContaining([
        { reason: 'lost', count: 2 },
        { reason: 'problem_in_transit_lab', count: 1 },
      ]),
    );
    expect(orders.by_reason).toHaveLength(2);
    expect(o.critical_results_unacknowledged).toEqual({ count: 1, capped: false });
    expect(o.reports_awaiting_review).toEqual({ count: 2, capped: false, oldest_created_at: OLDEST_REPORT });
    expect(o.appointment_requests_waiting).toEqual({ count: 1, capped: false });
    expect(o.failed_webhook_deliveries).toEqual({ count: 2, capped: false, endpoints: [{ id: hookEndpointId, count: 2 }] });
  });

  it('counts today’s and tomorrow’s appointments in the zone asked for (a minute either side of midnight)', async () => {
    const midnight = kolkataNextMidnight();
    const { today, tomorrow } = counted((await overview(s.coordinator)).body.appointments_upcoming);
    expect(today).toMatchObject({ count: 1, capped: false, to: new Date(midnight - 1).toISOString() });
    expect(tomorrow).toMatchObject({ count: 1, capped: false, from: new Date(midnight).toISOString() });
    expect(tomorrow.date > today.date).toBe(true);

    // In UTC-12 the two minutes fall on one calendar day: both today, both tomorrow, or neither.
    const west = counted((await overview(s.coordinator, 'Etc/GMT+12')).body.appointments_upcoming);
    expect([west.today.count, west.tomorrow.count]).not.toContain(1);
  });

  it('gives each role only its queues: a reviewer the review queue, a coordinator no webhooks', async () => {
    expect(queuesOf((await overview(s.reviewer)).body)).toEqual(['reports_awaiting_review']);
    expect(queuesOf((await overview(s.coordinator)).body)).toEqual([
      'orders_needing_attention',
      'critical_results_unacknowledged',
      'appointment_requests_waiting',
      'appointments_upcoming',
    ]);
    expect(queuesOf((await overview(s.lab_ops)).body)).toEqual(['orders_needing_attention', 'appointments_upcoming']);
  });

  it('counts each queue on its own: one failing service call marks its queue only, the others still count', async () => {
    const proxy = await startFailingProxy(service.url, ['/v2/webhooks/endpoints', '/lab_report/v1/parser/jobs']);
    try {
      const app = await bff.buildApp({ serviceBaseUrl: proxy.url });
      const r = await bff.get<Overview>(`/api/overview?time_zone=${KOLKATA}`, await bff.login('admin', app), app);
      expect(r.status).toBe(200);
      expect(proxy.failed.length).toBeGreaterThan(0);
      expect(r.body.failed_webhook_deliveries).toEqual({ error: expect.stringMatching(/try again/) });
      expect(r.body.reports_awaiting_review).toEqual({ error: expect.stringMatching(/try again/) });
      expect(r.body.orders_needing_attention).toMatchObject({ count: 3 });
      expect(r.body.critical_results_unacknowledged).toEqual({ count: 1, capped: false });
      expect(r.body.appointment_requests_waiting).toEqual({ count: 1, capped: false });
      expect(r.body.appointments_upcoming).toHaveProperty('today.count', 1);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a zone that is not an IANA zone, and anyone signed out', async () => {
    const bad = await overview(s.admin, 'Mars/Olympus_Mons');
    expect(bad.status).toBe(422);
    expect((bad.body as unknown as { errors: Record<string, string> }).errors).toHaveProperty('time_zone');
    expect((await overview(null)).status).toBe(401);
  });

  it('is audited once per session per hour, not on every refresh', async () => {
    // Sessions that outlive an hour without activity, so the clock can move on under one.
    const app = await bff.buildApp({ sessionPolicy: { idleMs: 3 * 3_600_000, absoluteMs: 12 * 3_600_000 } });
    const session = await bff.login('lab_ops', app);
    const ask = (who: Session) => bff.get<Overview>(`/api/overview?time_zone=${KOLKATA}`, who, app);
    const mine = () =>
      bff.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.resource, 'overview'), eq(auditEvents.staffId, session.user.id), gt(auditEvents.id, 0)));
    const before = (await mine()).length;
    for (let i = 0; i < 3; i++) expect((await ask(session)).status).toBe(200);
    const written = (await mine()).slice(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ action: 'read', outcome: 'ok', patientIds: [], recordIds: [] });
    expect(written[0]!.detail).toMatchObject({ queues: ['orders_needing_attention', 'appointments_upcoming'] });

    // Another session of the same member is recorded on its own.
    await ask(await bff.login('lab_ops', app));
    expect((await mine()).length).toBe(before + 2);

    // An hour later the same session is recorded again (the trail is append-only: the clock moves instead).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
    try {
      expect((await ask(session)).status).toBe(200);
      expect((await ask(session)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect((await mine()).length).toBe(before + 3);
  });

  it('counts the queue the link opens: an order resolved for the status it is still in is not counted', async () => {
    const resolved = await bff.request({ method: 'POST', url: `/api/orders/${stuckOrderId}/triage/resolve`, session: s.lab_ops, payload: { outcome: 'lab_contacted', note: 'Courier traced the box' } });
    expect(resolved.status).toBe(200);
    const orders = counted((await overview(s.lab_ops)).body.orders_needing_attention);
    expect(orders).toEqual({ count: 2, by_reason: [{ reason: 'lost', count: 2 }] });
  });
});
