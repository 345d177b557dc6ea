import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, orders } from '../../server/service/db/schema';
import {
  advanceOrder,
  dwellMs,
  LIFECYCLE,
  LIFECYCLE_PACE,
  nextStep,
  ORDER_ADVANCE_KIND,
  orderStatusesOf,
  scheduleAdvance,
  type Rand,
} from '../../server/service/domain/orders/lifecycle';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { seededRandom } from '../../server/lib/random';
import { enqueueJob, JobWorker } from '../../server/service/jobs/queue';
import { storeKinds, useService } from './harness';
import {
  clearJobs,
  drain,
  ensureLab,
  eventStatuses,
  insertLabTests,
  insertOrder,
  insertUser,
  jobsOf,
  makeDue,
  orderRow,
  outboxOf,
  pendingJobsOf,
} from './lifecycleFixtures';

const always = (v: number): Rand => () => v;
const tk = (top: string, low: string) => `${top}.testkit.${low}`;

/** Every OrderStatus of wire-facts §4.5, spelled out. */
const WIRE_STATUSES: Record<string, string[]> = {
  walk_in_test: [
    'received.ordered', 'received.requisition_created', 'received.requisition_bypassed', 'completed.completed', 'sample_with_lab.partial_results',
    'failed.sample_error', 'cancelled.cancelled', 'collecting_sample.appointment_pending', 'collecting_sample.appointment_scheduled',
    'collecting_sample.appointment_cancelled', 'collecting_sample.redraw_available',
  ],
  at_home_phlebotomy: [
    'received.ordered', 'received.requisition_created', 'received.requisition_bypassed', 'collecting_sample.appointment_pending',
    'collecting_sample.appointment_scheduled', 'collecting_sample.draw_completed', 'collecting_sample.appointment_cancelled', 'completed.completed',
    'sample_with_lab.partial_results', 'cancelled.cancelled', 'failed.sample_error',
  ],
  testkit: [
    'received.ordered', 'received.awaiting_registration', 'received.requisition_created', 'received.requisition_bypassed', 'received.registered',
    'collecting_sample.transit_customer', 'collecting_sample.out_for_delivery', 'collecting_sample.with_customer', 'collecting_sample.transit_lab',
    'collecting_sample.problem_in_transit_customer', 'collecting_sample.problem_in_transit_lab', 'sample_with_lab.delivered_to_lab',
    'completed.completed', 'failed.failure_to_deliver_to_customer', 'failed.failure_to_deliver_to_lab', 'failed.sample_error', 'failed.lost',
    'cancelled.cancelled', 'cancelled.do_not_process',
  ],
  on_site_collection: [
    'received.ordered', 'received.requisition_created', 'received.requisition_bypassed', 'sample_with_lab.draw_completed',
    'sample_with_lab.partial_results', 'completed.completed', 'cancelled.cancelled', 'failed.sample_error',
  ],
};

describe('the lifecycle status graph', () => {
  it('knows exactly the 49 OrderStatus values of the wire, per collection method', () => {
    let total = 0;
    for (const [method, statuses] of Object.entries(WIRE_STATUSES)) {
      const expected = statuses.map((s) => {
        const [top, low] = s.split('.');
        return `${top}.${method}.${low}`;
      });
      expect(orderStatusesOf(method).sort()).toEqual(expected.sort());
      total += expected.length;
    }
    expect(total).toBe(49);
    expect(orderStatusesOf('drone_delivery')).toEqual([]);
  });

  it('follows the happy path when the dice say so, and takes the problem branches otherwise', () => {
    expect(nextStep('testkit', 'received', 'ordered', always(0))).toEqual({ kind: 'move', to: { top: 'received', low: 'requisition_created' } });
    expect(nextStep('testkit', 'collecting_sample', 'transit_customer', always(0))).toEqual({ kind: 'move', to: { top: 'collecting_sample', low: 'out_for_delivery' } });
    expect(nextStep('testkit', 'collecting_sample', 'transit_customer', always(0.99))).toEqual({
      kind: 'move',
      to: { top: 'collecting_sample', low: 'problem_in_transit_customer' },
    });
    expect(nextStep('testkit', 'collecting_sample', 'transit_lab', always(0.99))).toEqual({ kind: 'move', to: { top: 'collecting_sample', low: 'problem_in_transit_lab' } });
    // Stuck on the way to the customer: usually back on track, sometimes a failure.
    expect(nextStep('testkit', 'collecting_sample', 'problem_in_transit_customer', always(0.1))).toEqual({ kind: 'move', to: { top: 'collecting_sample', low: 'with_customer' } });
    expect(nextStep('testkit', 'collecting_sample', 'problem_in_transit_customer', always(0.9))).toEqual({
      kind: 'move',
      to: { top: 'failed', low: 'failure_to_deliver_to_customer' },
    });
    // Stuck on the way to the lab: delivered after all, undeliverable, or lost.
    expect(nextStep('testkit', 'collecting_sample', 'problem_in_transit_lab', always(0.1))).toEqual({ kind: 'move', to: { top: 'sample_with_lab', low: 'delivered_to_lab' } });
    expect(nextStep('testkit', 'collecting_sample', 'problem_in_transit_lab', always(0.75))).toEqual({ kind: 'move', to: { top: 'failed', low: 'failure_to_deliver_to_lab' } });
    expect(nextStep('testkit', 'collecting_sample', 'problem_in_transit_lab', always(0.95))).toEqual({ kind: 'move', to: { top: 'failed', low: 'lost' } });
    expect(nextStep('testkit', 'sample_with_lab', 'delivered_to_lab', always(0.999))).toEqual({ kind: 'move', to: { top: 'failed', low: 'sample_error' } });
    for (const method of ['at_home_phlebotomy', 'on_site_collection']) {
      expect(nextStep(method, method === 'on_site_collection' ? 'sample_with_lab' : 'collecting_sample', 'draw_completed', always(0.999))).toEqual({
        kind: 'move',
        to: { top: 'failed', low: 'sample_error' },
      });
    }
  });

  it('waits at appointments and on-site draws, leaves final and unknown statuses alone', () => {
    expect(nextStep('walk_in_test', 'collecting_sample', 'appointment_pending', always(0.5))).toEqual({ kind: 'waiting' });
    expect(nextStep('at_home_phlebotomy', 'collecting_sample', 'appointment_pending', always(0.5))).toEqual({ kind: 'waiting' });
    expect(nextStep('on_site_collection', 'received', 'requisition_created', always(0.5))).toEqual({ kind: 'waiting' });
    expect(nextStep('walk_in_test', 'collecting_sample', 'appointment_cancelled', always(0.5))).toEqual({ kind: 'waiting' });
    // Once booked, the lifecycle goes on.
    expect(nextStep('at_home_phlebotomy', 'collecting_sample', 'appointment_scheduled', always(0))).toEqual({ kind: 'move', to: { top: 'collecting_sample', low: 'draw_completed' } });
    expect(nextStep('testkit', 'completed', 'completed', always(0))).toEqual({ kind: 'final' });
    expect(nextStep('testkit', 'failed', 'lost', always(0))).toEqual({ kind: 'final' });
    expect(nextStep('testkit', 'collecting_sample', 'teleported', always(0))).toEqual({ kind: 'unknown' });
    expect(nextStep('testkit', 'received', 'transit_lab', always(0))).toEqual({ kind: 'unknown' });
    expect(nextStep('drone_delivery', 'received', 'ordered', always(0))).toEqual({ kind: 'unknown' });
  });

  it('every move out of a status adds up to certainty, and every status is reachable from ordered', () => {
    for (const [method, graph] of Object.entries(LIFECYCLE)) {
      for (const [low, node] of Object.entries(graph)) {
        const total = node.next.reduce((s, e) => s + e.weight, 0);
        if (total > 0) expect(total, `${method}.${low}`).toBeCloseTo(1, 9);
      }
      const seen = new Set(['ordered']);
      const queue = ['ordered'];
      while (queue.length) {
        for (const e of graph[queue.shift()!]!.next) {
          if (seen.has(e.to.low)) continue;
          seen.add(e.to.low);
          queue.push(e.to.low);
        }
      }
      expect([...seen].sort(), method).toEqual(Object.keys(graph).sort());
    }
  });

  it('spaces steps within the pace (20 s to 3 min)', () => {
    expect(LIFECYCLE_PACE).toEqual({ minMs: 20_000, maxMs: 180_000 });
    const rng = seededRandom(5);
    for (const low of ['ordered', 'requisition_created', 'transit_customer', 'problem_in_transit_lab', 'delivered_to_lab']) {
      for (let i = 0; i < 50; i++) {
        const ms = dwellMs(low, rng.next);
        expect(ms).toBeGreaterThanOrEqual(20_000);
        expect(ms).toBeLessThanOrEqual(180_000);
      }
    }
    expect(dwellMs('ordered', always(1))).toBe(40_000);
    expect(dwellMs('problem_in_transit_customer', always(0))).toBe(100_000);
  });
});

describe.each(storeKinds)('order.advance jobs (%s)', (kind) => {
  const svc = useService(kind);
  let teamId: string;
  let userId: string;
  let tests: Record<string, string>;

  // One job per round: jobs then run strictly in (run_at, id) order, so seeded dice give the same walks on every store.
  const worker = (random: Rand) => new JobWorker(svc().db, jobHandlers(svc().db, { random }), { batchSize: 1 });
  const newOrder = (method: string, top?: string, low?: string) => insertOrder(svc().db, { teamId, userId, labTestId: tests[method]!, method, top, low });
  const start = async (orderId: string, random: Rand = always(0)) => {
    const row = await orderRow(svc().db, orderId);
    return svc().db.transaction((tx) => scheduleAdvance(tx, row, { random }));
  };

  beforeAll(async () => {
    teamId = (await svc().createTeam()).teamId;
    userId = await insertUser(svc().db, teamId);
    await ensureLab(svc().db);
    tests = await insertLabTests(svc().db);
  });
  beforeEach(() => clearJobs(svc().db));

  it('walks a testkit to completed, one step per job: events, outbox rows and the next job in each step', async () => {
    const orderId = await newOrder('testkit');
    const firstJob = await start(orderId);
    expect(firstJob).toEqual(expect.any(Number));
    const [queued] = await jobsOf(svc().db, orderId);
    expect(queued!.kind).toBe(ORDER_ADVANCE_KIND);
    expect(queued!.payload).toEqual({ order_id: orderId, from: 'ordered' });
    // Not due yet: the first step comes 20 to 40 s after the order.
    const w = worker(always(0));
    expect(await w.runDueOnce()).toBe(0);
    const lead = queued!.runAt.getTime() - Date.now();
    expect(lead).toBeGreaterThan(15_000);
    expect(lead).toBeLessThanOrEqual(40_000);

    // One step per run.
    await makeDue(svc().db);
    expect(await w.runDueOnce()).toBe(1);
    expect((await orderRow(svc().db, orderId)).lowLevelStatus).toBe('requisition_created');
    const [next] = await pendingJobsOf(svc().db, orderId);
    expect(next!.payload).toEqual({ order_id: orderId, from: 'requisition_created', after_job: queued!.id });
    const wait = next!.runAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(15_000);
    expect(wait).toBeLessThanOrEqual(LIFECYCLE_PACE.maxMs);

    expect(await drain(svc().db, w)).toBe(6);
    const row = await orderRow(svc().db, orderId);
    expect([row.status, row.lowLevelStatus]).toEqual(['completed', 'completed']);
    const expected = [
      tk('received', 'ordered'),
      tk('received', 'requisition_created'),
      tk('collecting_sample', 'transit_customer'),
      tk('collecting_sample', 'out_for_delivery'),
      tk('collecting_sample', 'with_customer'),
      tk('collecting_sample', 'transit_lab'),
      tk('sample_with_lab', 'delivered_to_lab'),
      tk('completed', 'completed'),
    ];
    expect(await eventStatuses(svc().db, orderId)).toEqual(expected);

    const outbox = await outboxOf(svc().db, orderId);
    expect(outbox.map((o) => o.eventType)).toEqual(Array(7).fill('labtest.order.updated'));
    expect(outbox.every((o) => o.teamId === teamId && o.payload.user_id === userId && o.payload.team_id === teamId)).toBe(true);
    const data = outbox.map((o) => o.payload.data as { status: string; low_level_status: string; events: { status: string }[] });
    expect(data.map((d) => `${d.status}.testkit.${d.low_level_status}`)).toEqual(expected.slice(1));
    expect(data[6]!.events.map((e) => e.status)).toEqual(expected);

    // Seven jobs, each done once, none pending or failed.
    const all = await jobsOf(svc().db, orderId);
    expect(all).toHaveLength(7);
    expect(all.every((j) => j.doneAt !== null && j.failedAt === null && j.attempts === 1 && j.lastError === null)).toBe(true);
    expect(all.map((j) => j.payload.from)).toEqual(['ordered', 'requisition_created', 'transit_customer', 'out_for_delivery', 'with_customer', 'transit_lab', 'delivered_to_lab']);
  });

  it('reaches the problem branches with seeded randomness; every walk is a path of the graph and ends final', async () => {
    const rng = seededRandom(20260601);
    // Biased dice: now and then a roll that takes the unhappy branch wherever there is one.
    const random: Rand = () => (rng.chance(0.3) ? 0.995 : rng.next() * 0.6);
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const id = await newOrder('testkit');
      await start(id, random);
      ids.push(id);
    }
    await drain(svc().db, worker(random));
    const walks = await Promise.all(ids.map((id) => eventStatuses(svc().db, id)));
    const lows = walks.map((w) => w.map((s) => s.split('.')[2]!));
    const graph = LIFECYCLE.testkit!;
    for (const walk of lows) {
      for (let i = 0; i + 1 < walk.length; i++) {
        expect(graph[walk[i]!]!.next.some((e) => e.to.low === walk[i + 1] && e.weight > 0), `${walk[i]} -> ${walk[i + 1]}`).toBe(true);
      }
      expect(['completed', 'failure_to_deliver_to_customer', 'failure_to_deliver_to_lab', 'lost', 'sample_error']).toContain(walk[walk.length - 1]);
    }
    const steps = new Set(lows.flatMap((w) => w.slice(1).map((low, i) => `${w[i]}>${low}`)));
    expect(steps).toContain('transit_customer>problem_in_transit_customer');
    expect(steps).toContain('problem_in_transit_customer>with_customer');
    expect(steps).toContain('transit_lab>problem_in_transit_lab');
    expect(steps).toContain('problem_in_transit_lab>delivered_to_lab');
    expect(lows.some((w) => w[w.length - 1] !== 'completed')).toBe(true);
    expect(lows.some((w) => w[w.length - 1] === 'completed')).toBe(true);
    for (const id of ids) expect(await pendingJobsOf(svc().db, id)).toEqual([]);
  });

  it('with the production dice, a seeded run is repeatable', async () => {
    const run = async () => {
      const rng = seededRandom(77);
      const ids = [];
      for (let i = 0; i < 4; i++) {
        const id = await newOrder('testkit');
        await start(id, rng.next);
        ids.push(id);
      }
      await drain(svc().db, worker(rng.next));
      return Promise.all(ids.map((id) => eventStatuses(svc().db, id)));
    };
    expect(await run()).toEqual(await run());
  });

  it('stops lab orders where an outside event must come: appointments and on-site draws', async () => {
    const w = worker(always(0));
    const walkIn = await newOrder('walk_in_test');
    const atHome = await newOrder('at_home_phlebotomy');
    const onSite = await newOrder('on_site_collection');
    for (const id of [walkIn, atHome, onSite]) await start(id);
    await drain(svc().db, w);
    expect(await eventStatuses(svc().db, walkIn)).toEqual(['received.walk_in_test.ordered', 'received.walk_in_test.requisition_created', 'collecting_sample.walk_in_test.appointment_pending']);
    expect(await eventStatuses(svc().db, atHome)).toEqual([
      'received.at_home_phlebotomy.ordered',
      'received.at_home_phlebotomy.requisition_created',
      'collecting_sample.at_home_phlebotomy.appointment_pending',
    ]);
    expect(await eventStatuses(svc().db, onSite)).toEqual(['received.on_site_collection.ordered', 'received.on_site_collection.requisition_created']);
    for (const id of [walkIn, atHome, onSite]) expect(await pendingJobsOf(svc().db, id)).toEqual([]);
    // Nothing to schedule while waiting.
    expect(await start(atHome)).toBeNull();

    // A booking (issue 4) moves the order on and enqueues the next advance; the lifecycle resumes.
    await svc().db.update(orders).set({ lowLevelStatus: 'appointment_scheduled' }).where(eq(orders.id, atHome));
    expect(await start(atHome)).toEqual(expect.any(Number));
    await drain(svc().db, w);
    expect((await eventStatuses(svc().db, atHome)).slice(3)).toEqual([
      'collecting_sample.at_home_phlebotomy.draw_completed',
      'sample_with_lab.at_home_phlebotomy.partial_results',
      'completed.at_home_phlebotomy.completed',
    ]);
  });

  it('a duplicate or re-run job never doubles a step', async () => {
    const w = worker(always(0));
    const orderId = await newOrder('testkit', 'collecting_sample', 'transit_customer');
    const row = await orderRow(svc().db, orderId);
    // Two jobs expecting the same status (e.g. enqueued twice): only one moves the order.
    await svc().db.transaction(async (tx) => {
      await scheduleAdvance(tx, row, { runAt: new Date(Date.now() - 1000) });
      await scheduleAdvance(tx, row, { runAt: new Date(Date.now() - 1000) });
    });
    expect(await w.runDueOnce()).toBe(1);
    expect(await w.runDueOnce()).toBe(1);
    expect(await eventStatuses(svc().db, orderId)).toEqual([tk('collecting_sample', 'transit_customer'), tk('collecting_sample', 'out_for_delivery')]);
    const pending = await pendingJobsOf(svc().db, orderId);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.payload.from).toBe('out_for_delivery');

    // A job whose lease ran out after it had committed (the worker crashed before marking it done) runs again: nothing happens.
    const [first] = await jobsOf(svc().db, orderId);
    await svc().db.update(jobs).set({ doneAt: null, lockedUntil: sql`now() - interval '1 second'`, lockedBy: 'w-crashed' }).where(eq(jobs.id, first!.id));
    await svc().db.update(jobs).set({ runAt: sql`now() + interval '1 hour'` }).where(eq(jobs.id, pending[0]!.id));
    expect(await w.runDueOnce()).toBe(1);
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(2);
    expect(await pendingJobsOf(svc().db, orderId)).toHaveLength(1);
    const [rerun] = await jobsOf(svc().db, orderId);
    expect(rerun!.attempts).toBe(2);
    expect(rerun!.doneAt).not.toBeNull();

    // Called directly, a stale job says so.
    expect(await advanceOrder(svc().db, { order_id: orderId, from: 'transit_customer' }, undefined, always(0))).toEqual({ kind: 'stale' });
  });

  it('a first job without `from` (as order creation enqueues it) moves once, even when it runs twice', async () => {
    const w = worker(always(0));
    const orderId = await newOrder('testkit');
    const jobId = await svc().db.transaction((tx) => enqueueJob(tx, ORDER_ADVANCE_KIND, { order_id: orderId }, { runAt: new Date(Date.now() - 1000) }));
    expect(await w.runDueOnce()).toBe(1);
    expect(await eventStatuses(svc().db, orderId)).toEqual([tk('received', 'ordered'), tk('received', 'requisition_created')]);
    const [next] = await pendingJobsOf(svc().db, orderId);
    expect(next!.payload).toEqual({ order_id: orderId, from: 'requisition_created', after_job: jobId });
    await svc().db.update(jobs).set({ runAt: sql`now() + interval '1 hour'` }).where(eq(jobs.id, next!.id));
    // Lease ran out after the commit: the same job again.
    await svc().db.update(jobs).set({ doneAt: null, lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, jobId));
    expect(await w.runDueOnce()).toBe(1);
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(2);
    expect(await pendingJobsOf(svc().db, orderId)).toHaveLength(1);
  });

  it('leaves unknown statuses, unknown methods, final orders and deleted orders alone; the job completes', async () => {
    const w = worker(always(0));
    const unknownLow = await newOrder('testkit', 'collecting_sample', 'teleported');
    const unknownMethod = await newOrder('testkit');
    await svc().db.update(orders).set({ collectionMethod: 'drone_delivery' }).where(eq(orders.id, unknownMethod));
    const done = await newOrder('testkit', 'completed', 'completed');
    const cancelled = await newOrder('walk_in_test', 'cancelled', 'cancelled');
    const ids = [unknownLow, unknownMethod, done, cancelled];
    await svc().db.transaction(async (tx) => {
      for (const id of ids) await enqueueJob(tx, ORDER_ADVANCE_KIND, { order_id: id }, { runAt: new Date(Date.now() - 1000) });
      await enqueueJob(tx, ORDER_ADVANCE_KIND, { order_id: '0b9e3c1a-5f2d-4e8b-9a7c-6d5e4f3a2b1c', from: 'ordered' }, { runAt: new Date(Date.now() - 1000) });
    });
    expect(await drain(svc().db, w)).toBe(5);
    for (const id of ids) {
      expect(await eventStatuses(svc().db, id)).toHaveLength(1);
      const js = await jobsOf(svc().db, id);
      expect(js).toHaveLength(1);
      expect(js[0]!.doneAt).not.toBeNull();
      expect(js[0]!.failedAt).toBeNull();
      expect(js[0]!.lastError).toBeNull();
    }
    expect((await orderRow(svc().db, unknownLow)).lowLevelStatus).toBe('teleported');
    expect(await advanceOrder(svc().db, { order_id: unknownLow, from: 'teleported' }, undefined, always(0))).toEqual({ kind: 'unknown' });
    expect(await advanceOrder(svc().db, { order_id: done }, undefined, always(0))).toEqual({ kind: 'final' });
  });

  it('a malformed payload fails the job with its reason', async () => {
    const failures: string[] = [];
    const w = new JobWorker(svc().db, jobHandlers(svc().db, { random: always(0) }), { onError: (_k, e) => failures.push(String(e)) });
    const id = await svc().db.transaction((tx) => enqueueJob(tx, ORDER_ADVANCE_KIND, { order_id: 'not-a-uuid' }, { maxAttempts: 1 }));
    expect(await w.runDueOnce()).toBe(1);
    const [job] = await svc().db.select().from(jobs).where(eq(jobs.id, id));
    expect(job!.failedAt).not.toBeNull();
    expect(job!.lastError).toMatch(/invalid order\.advance payload.*order_id/);
    expect(failures).toHaveLength(1);
  });

  it('does not move an order whose job was cancelled while it waited for the order lock', async () => {
    const orderId = await newOrder('testkit', 'collecting_sample', 'with_customer');
    const row = await orderRow(svc().db, orderId);
    const jobId = await svc().db.transaction((tx) => scheduleAdvance(tx, row));
    await svc().db.update(jobs).set({ doneAt: sql`now()` }).where(eq(jobs.id, jobId!));
    expect(await advanceOrder(svc().db, { order_id: orderId, from: 'with_customer' }, { jobId: jobId!, attempt: 1 }, always(0))).toEqual({ kind: 'cancelled' });
    expect(await eventStatuses(svc().db, orderId)).toHaveLength(1);
  });
});
