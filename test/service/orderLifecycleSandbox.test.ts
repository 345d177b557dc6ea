import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Order } from '../../server/contract';
import { jobs } from '../../server/service/db/schema';
import { ORDER_ADVANCE_KIND, scheduleAdvance } from '../../server/service/domain/orders/lifecycle';
import { planSteps, SIMULATE_STEP_KIND } from '../../server/service/domain/orders/simulate';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { JobWorker } from '../../server/service/jobs/queue';
import { expect422, expectDetail, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';
import {
  clearJobs,
  drain,
  ensureLab,
  eventStatuses,
  insertLabAccount,
  insertLabTests,
  insertOrder,
  insertUser,
  jobsOf,
  makeDue,
  orderRow,
  outboxOf,
  pendingJobsOf,
} from './lifecycleFixtures';

const tk = (top: string, low: string) => `${top}.testkit.${low}`;
const TESTKIT_HAPPY = [
  tk('received', 'ordered'),
  tk('received', 'requisition_created'),
  tk('collecting_sample', 'transit_customer'),
  tk('collecting_sample', 'out_for_delivery'),
  tk('collecting_sample', 'with_customer'),
  tk('collecting_sample', 'transit_lab'),
  tk('sample_with_lab', 'delivered_to_lab'),
  tk('completed', 'completed'),
];

describe('sandbox walk planning', () => {
  const plan = (method: string, from: [string, string], to: [string, string]) =>
    planSteps(method, { top: from[0], low: from[1] }, { top: to[0] as never, low: to[1] })?.map((s) => `${s.top}.${s.low}`) ?? null;

  it('takes the happy path up to the step before the target, and the problem branch for problems and failures', () => {
    expect(plan('testkit', ['received', 'ordered'], ['failed', 'failure_to_deliver_to_customer'])).toEqual([
      'received.requisition_created',
      'collecting_sample.transit_customer',
      'collecting_sample.problem_in_transit_customer',
      'failed.failure_to_deliver_to_customer',
    ]);
    expect(plan('testkit', ['collecting_sample', 'problem_in_transit_customer'], ['completed', 'completed'])).toEqual([
      'collecting_sample.with_customer',
      'collecting_sample.transit_lab',
      'sample_with_lab.delivered_to_lab',
      'completed.completed',
    ]);
    expect(plan('testkit', ['received', 'ordered'], ['received', 'registered'])).toEqual(['received.awaiting_registration', 'received.registered']);
    expect(plan('walk_in_test', ['received', 'ordered'], ['completed', 'completed'])).toEqual([
      'received.requisition_created',
      'collecting_sample.appointment_pending',
      'collecting_sample.appointment_scheduled',
      'sample_with_lab.partial_results',
      'completed.completed',
    ]);
    expect(plan('on_site_collection', ['received', 'ordered'], ['failed', 'sample_error'])).toEqual([
      'received.requisition_created',
      'sample_with_lab.draw_completed',
      'failed.sample_error',
    ]);
    expect(plan('at_home_phlebotomy', ['collecting_sample', 'appointment_pending'], ['cancelled', 'cancelled'])).toEqual(['cancelled.cancelled']);
    expect(plan('testkit', ['collecting_sample', 'transit_lab'], ['collecting_sample', 'transit_lab'])).toEqual([]);
    // Backwards, from a final status, or from a status the graph does not know: no walk.
    expect(plan('testkit', ['collecting_sample', 'transit_lab'], ['received', 'requisition_created'])).toBeNull();
    expect(plan('testkit', ['completed', 'completed'], ['failed', 'lost'])).toBeNull();
    expect(plan('testkit', ['collecting_sample', 'teleported'], ['completed', 'completed'])).toBeNull();
  });
});

describe.each(storeKinds)('POST /v3/order/:order_id/test (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  let userId: string;
  let tests: Record<string, string>;
  let accountId: string;

  const worker = () => new JobWorker(svc().db, jobHandlers(svc().db, { random: () => 0 }), { batchSize: 50 });
  const newOrder = (method = 'testkit', top?: string, low?: string) =>
    insertOrder(svc().db, { teamId: team.teamId, userId, labTestId: tests[method]!, method, top, low, labAccountId: accountId });
  const simulate = (orderId: string, query: string, body?: unknown, key = team.apiKey) => svc().api(key).post(`/v3/order/${orderId}/test?${query}`, body);

  beforeAll(async () => {
    team = await svc().createTeam();
    other = await svc().createTeam();
    userId = await insertUser(svc().db, team.teamId);
    await ensureLab(svc().db);
    tests = await insertLabTests(svc().db);
    accountId = await insertLabAccount(svc().db, team.teamId);
  });
  beforeEach(() => clearJobs(svc().db));

  it('drives a testkit to completed.testkit.completed at once, with every intermediate event and webhook', async () => {
    const orderId = await newOrder();
    const r = await simulate(orderId, 'final_status=completed.testkit.completed', { interpretation: 'abnormal', has_missing_results: true, result_types: ['numeric'] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('success');
    expect(r.body.message).toMatch(/7 steps/);
    expect(() => Order.parse(r.body.order)).not.toThrow();
    const order = r.body.order;
    expect(order.id).toBe(orderId);
    expect([order.status, order.low_level_status]).toEqual(['completed', 'completed']);
    expect(order.interpretation).toBe('abnormal');
    expect(order.has_missing_results).toBe(true);
    expect(order.events.map((e: { status: string }) => e.status)).toEqual(TESTKIT_HAPPY);
    expect(order.last_event.status).toBe('completed.testkit.completed');
    expect(await eventStatuses(svc().db, orderId)).toEqual(TESTKIT_HAPPY);
    const outbox = await outboxOf(svc().db, orderId);
    expect(outbox).toHaveLength(7);
    expect(outbox.every((o) => o.eventType === 'labtest.order.updated')).toBe(true);
    expect((outbox[6]!.payload.data as { interpretation: string }).interpretation).toBe('abnormal');
  });

  it('without a body, a completed order is normal with no missing results', async () => {
    const orderId = await newOrder('testkit', 'sample_with_lab', 'delivered_to_lab');
    const r = await simulate(orderId, 'final_status=completed.testkit.completed&delay=0');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.order.interpretation).toBe('normal');
    expect(r.body.order.has_missing_results).toBe(false);
    const empty = await simulate(await newOrder('walk_in_test', 'sample_with_lab', 'partial_results'), 'final_status=completed.walk_in_test.completed', {});
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body.order.interpretation).toBe('normal');
    // No body but a JSON content type, as some clients send it; a malformed body is still refused.
    const url = `/v3/order/${await newOrder('testkit', 'sample_with_lab', 'delivered_to_lab')}/test?final_status=completed.testkit.completed`;
    const headers = { 'content-type': 'application/json' };
    const bare = await svc().inject({ method: 'POST', url, key: team.apiKey, headers });
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect422(await svc().inject({ method: 'POST', url: url.replace('completed.testkit', 'failed.testkit'), key: team.apiKey, headers, payload: '{"interpretation":' }), ['body']);
  });

  it('drives a testkit into collecting_sample.testkit.problem_in_transit_lab, cancels its lifecycle jobs, and it stays there', async () => {
    const orderId = await newOrder();
    const jobId = await svc().db.transaction(async (tx) => scheduleAdvance(tx, await orderRow(tx, orderId)));
    const r = await simulate(orderId, 'final_status=collecting_sample.testkit.problem_in_transit_lab');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect([r.body.order.status, r.body.order.low_level_status]).toEqual(['collecting_sample', 'problem_in_transit_lab']);
    expect(r.body.order.interpretation).toBeNull();
    expect(await eventStatuses(svc().db, orderId)).toEqual([...TESTKIT_HAPPY.slice(0, 6), tk('collecting_sample', 'problem_in_transit_lab')]);
    const [cancelled] = await svc().db.select().from(jobs).where(eq(jobs.id, jobId!));
    expect(cancelled!.doneAt).not.toBeNull();
    expect(cancelled!.lastError).toMatch(/^cancelled/);
    expect(await pendingJobsOf(svc().db, orderId)).toEqual([]);
    await drain(svc().db, worker());
    expect((await orderRow(svc().db, orderId)).lowLevelStatus).toBe('problem_in_transit_lab');
  });

  it('drives a testkit to failed.testkit.lost through the lab problem, and from a problem back to completed', async () => {
    const orderId = await newOrder('testkit', 'collecting_sample', 'with_customer');
    const r = await simulate(orderId, 'final_status=failed.testkit.lost');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect([r.body.order.status, r.body.order.low_level_status]).toEqual(['failed', 'lost']);
    expect(await eventStatuses(svc().db, orderId)).toEqual([
      tk('collecting_sample', 'with_customer'),
      tk('collecting_sample', 'transit_lab'),
      tk('collecting_sample', 'problem_in_transit_lab'),
      tk('failed', 'lost'),
    ]);

    const stuck = await newOrder('testkit', 'collecting_sample', 'problem_in_transit_customer');
    const back = await simulate(stuck, 'final_status=completed.testkit.completed');
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await eventStatuses(svc().db, stuck)).slice(1)).toEqual(TESTKIT_HAPPY.slice(4));
  });

  it('walks lab orders through their appointments and draws, and cancels in one step', async () => {
    const atHome = await newOrder('at_home_phlebotomy');
    const r = await simulate(atHome, 'final_status=failed.at_home_phlebotomy.sample_error');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await eventStatuses(svc().db, atHome)).toEqual([
      'received.at_home_phlebotomy.ordered',
      'received.at_home_phlebotomy.requisition_created',
      'collecting_sample.at_home_phlebotomy.appointment_pending',
      'collecting_sample.at_home_phlebotomy.appointment_scheduled',
      'collecting_sample.at_home_phlebotomy.draw_completed',
      'failed.at_home_phlebotomy.sample_error',
    ]);
    const kit = await newOrder('testkit', 'collecting_sample', 'out_for_delivery');
    const dnp = await simulate(kit, 'final_status=cancelled.testkit.do_not_process');
    expect(dnp.status, JSON.stringify(dnp.body)).toBe(200);
    expect(await eventStatuses(svc().db, kit)).toEqual([tk('collecting_sample', 'out_for_delivery'), tk('cancelled', 'do_not_process')]);
  });

  it('with delay > 0 answers at once and applies the steps later, one every `delay` seconds, as durable jobs', async () => {
    const orderId = await newOrder('testkit', 'collecting_sample', 'with_customer');
    const before = Date.now();
    const r = await simulate(orderId, 'final_status=completed.testkit.completed&delay=30', { interpretation: 'critical' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toMatch(/3 steps .* scheduled, one every 30 s/);
    expect(r.body.order.low_level_status).toBe('with_customer');
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(1);

    const [step] = await pendingJobsOf(svc().db, orderId);
    expect(step!.kind).toBe(SIMULATE_STEP_KIND);
    expect(step!.payload).toMatchObject({ order_id: orderId, top: 'collecting_sample', low: 'transit_lab', from: 'with_customer' });
    expect(step!.runAt.getTime() - before).toBeGreaterThanOrEqual(29_000);
    expect(step!.runAt.getTime() - before).toBeLessThanOrEqual(31_000 + 5_000);
    const w = worker();
    expect(await w.runDueOnce()).toBe(0);

    // Each step runs when due and enqueues the next one `delay` seconds later.
    await makeDue(svc().db);
    expect(await w.runDueOnce()).toBe(1);
    expect((await orderRow(svc().db, orderId)).lowLevelStatus).toBe('transit_lab');
    const [second] = await pendingJobsOf(svc().db, orderId);
    expect(second!.payload).toMatchObject({ low: 'delivered_to_lab', from: 'transit_lab' });
    const gap = second!.runAt.getTime() - Date.now();
    expect(gap).toBeGreaterThan(25_000);
    expect(gap).toBeLessThanOrEqual(30_000);
    expect(await w.runDueOnce()).toBe(0);

    expect(await drain(svc().db, w)).toBe(2);
    const row = await orderRow(svc().db, orderId);
    expect([row.status, row.lowLevelStatus, row.interpretation, row.hasMissingResults]).toEqual(['completed', 'completed', 'critical', false]);
    expect(await eventStatuses(svc().db, orderId)).toEqual(TESTKIT_HAPPY.slice(4));
    expect((await jobsOf(svc().db, orderId)).every((j) => j.doneAt !== null && j.failedAt === null)).toBe(true);
    expect(await outboxOf(svc().db, orderId)).toHaveLength(3);
  });

  it('a new simulation replaces a pending one; a duplicate step does nothing', async () => {
    const orderId = await newOrder();
    expect((await simulate(orderId, 'final_status=completed.testkit.completed&delay=60')).status).toBe(200);
    const [pending] = await pendingJobsOf(svc().db, orderId);
    const r = await simulate(orderId, 'final_status=collecting_sample.testkit.transit_customer&delay=0');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.order.low_level_status).toBe('transit_customer');
    expect(await pendingJobsOf(svc().db, orderId)).toEqual([]);
    // The replaced step, run anyway (as if its lease had run out mid-way), changes nothing.
    await svc().db.update(jobs).set({ doneAt: null, runAt: sql`now() - interval '1 second'` }).where(eq(jobs.id, pending!.id));
    expect(await worker().runDueOnce()).toBe(1);
    expect(await eventStatuses(svc().db, orderId)).toEqual(TESTKIT_HAPPY.slice(0, 3));
  });

  it('answers the current order when it is already at the target', async () => {
    const orderId = await newOrder('testkit', 'collecting_sample', 'transit_lab');
    const r = await simulate(orderId, 'final_status=collecting_sample.testkit.transit_lab');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toMatch(/already/);
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(1);
  });

  it('422 for a status that is not one of the method’s, listing the valid ones, or one that lies behind', async () => {
    const orderId = await newOrder('testkit', 'collecting_sample', 'transit_lab');
    for (const bad of ['completed.walk_in_test.completed', 'collecting_sample.testkit.completed', 'nonsense', 'completed.testkit.completed.x', 'completed']) {
      const r = await simulate(orderId, `final_status=${encodeURIComponent(bad)}`);
      const [issue] = expect422(r, ['query', 'final_status']);
      expect(issue!.msg).toContain('completed.testkit.completed');
      expect(issue!.msg).toContain('collecting_sample.testkit.problem_in_transit_lab');
      expect(issue!.msg).toContain('failed.testkit.lost');
      expect(issue!.msg).not.toContain('walk_in_test');
    }
    const behind = await simulate(orderId, 'final_status=received.testkit.requisition_created');
    expect(expect422(behind, ['query', 'final_status'])[0]!.msg).toMatch(/cannot move/);
    expect422(await simulate(orderId, ''), ['query', 'final_status']);
    expect422(await simulate(orderId, 'final_status=completed.testkit.completed&delay=-1'), ['query', 'delay']);
    expect422(await simulate(orderId, 'final_status=completed.testkit.completed&delay=soon'), ['query', 'delay']);
    expect422(await simulate(orderId, 'final_status=completed.testkit.completed', { interpretation: 'great' }), ['body', 'interpretation']);
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(1);
  });

  it('422 for an order already completed, cancelled or failed', async () => {
    for (const [top, low] of [
      ['completed', 'completed'],
      ['cancelled', 'cancelled'],
      ['failed', 'lost'],
    ]) {
      const orderId = await newOrder('testkit', top, low);
      const r = await simulate(orderId, 'final_status=completed.testkit.completed');
      expect(expect422(r, ['path', 'order_id'])[0]!.msg).toContain(`${top}.testkit.${low}`);
    }
  });

  it('404 for another team’s order and for an unknown one; 422 for a malformed id; 401 without a key', async () => {
    const orderId = await newOrder();
    expectDetail(await simulate(orderId, 'final_status=completed.testkit.completed', undefined, other.apiKey), 404);
    expectDetail(await simulate(UNKNOWN_UUID, 'final_status=completed.testkit.completed'), 404);
    expect422(await simulate('not-a-uuid', 'final_status=completed.testkit.completed'));
    expect((await svc().inject({ method: 'POST', url: `/v3/order/${orderId}/test?final_status=completed.testkit.completed` })).status).toBe(401);
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(1);
    expect((await jobsOf(svc().db, orderId)).filter((j) => j.kind === ORDER_ADVANCE_KIND || j.kind === SIMULATE_STEP_KIND)).toEqual([]);
  });

  it('is documented in the OpenAPI document', async () => {
    const r = await svc().inject({ method: 'GET', url: '/openapi.json' });
    const op = r.body.paths['/v3/order/{order_id}/test']?.post;
    expect(op).toBeDefined();
    const names = (op.parameters as { in: string; name: string }[]).map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(['path:order_id', 'query:final_status', 'query:delay']));
  });
});
