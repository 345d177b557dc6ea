import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../store/db';
import { enqueueJob, type JobContext } from '../../jobs/queue';
import { jobs, orders, type ServiceSchema } from '../../db/schema';
import type { OrderRow } from './present';
import { FINAL_TOPS, HAPPY_PATHS, orderStatus, type Step, type Top } from './statuses';
import { moveOrder } from './transitions';
import { activeAppointmentEnd } from '../appointments/followOrder';

/**
 * The background order lifecycle: an `order.advance` job moves an order one step along its
 * collection method's path, with realistic randomness (parcels get stuck, samples get lost), and
 * enqueues the next step in the same transaction. The same status graph plans the sandbox's
 * `/test` walks (simulate.ts) and the demo seed's histories.
 */

type Db = Database<ServiceSchema>;

/** Random numbers in [0, 1): Math.random in production, a seeded generator in tests. */
export type Rand = () => number;

export const ORDER_ADVANCE_KIND = 'order.advance';
/** The order's visit is booked: the lifecycle moves on only once its time has come. */
const APPOINTMENT_SCHEDULED = 'appointment_scheduled';

/**
 * The pace of the simulated lifecycle, in one place: how long an order sits in a status before its
 * next step. Demo-friendly: a testkit goes from ordered to completed in 3 to 19 minutes, about 10 on average.
 */
export const LIFECYCLE_PACE = { minMs: 20_000, maxMs: 180_000 } as const;

/** The odds of the unhappy branches (the rest of each step follows the happy path). */
export const LIFECYCLE_ODDS = {
  /** testkit: the outbound parcel gets stuck, from transit_customer and from out_for_delivery. */
  problemToCustomer: 0.07,
  problemOutForDelivery: 0.04,
  /** A parcel stuck on its way to the customer: most are delivered after all, the rest fail. */
  customerProblemRecovers: 0.75,
  /** testkit: the return parcel gets stuck on its way to the lab. */
  problemToLab: 0.08,
  /** A parcel stuck on its way to the lab: delivered after all, lost, or undeliverable (the rest). */
  labProblemRecovers: 0.7,
  labProblemLost: 0.15,
  /** The lab rejects the sample (haemolysed, too little, too old). */
  sampleErrorTestkit: 0.03,
  sampleErrorDraw: 0.03,
} as const;

interface Edge {
  to: Step;
  /** Weight of this step when the lifecycle moves on its own; 0: only an outside event (a booking, the sandbox) takes it. */
  weight: number;
  /** Whether the step is on the method's happy path (the sandbox prefers those when it plans a walk). */
  happy: boolean;
}

interface Node {
  top: Top;
  next: Edge[];
}

/** Per collection method: each low-level status (unique within a method) and where it can go. */
export type StatusGraph = Record<string, Node>;

const ORDERED: Step = { top: 'received', low: 'ordered' };
const st = (top: Top, low: string): Step => ({ top, low });

interface Branch {
  from: string;
  to: Step;
  /** Probability among the lifecycle's own moves out of `from`; 0 for outside-event-only steps. */
  p: number;
}

/**
 * Besides HAPPY_PATHS: the alternative intake statuses, problems in transit, failures and appointment
 * detours of each method (wire-facts §4.5 lists every OrderStatus; cancellation is handled apart, as
 * any open order can be cancelled).
 */
const O = LIFECYCLE_ODDS;
const BRANCHES: Record<string, Branch[]> = {
  testkit: [
    { from: 'ordered', to: st('received', 'requisition_bypassed'), p: 0 },
    { from: 'ordered', to: st('received', 'awaiting_registration'), p: 0 },
    { from: 'requisition_bypassed', to: st('collecting_sample', 'transit_customer'), p: 1 },
    // A kit handed out in person: the patient registers it, then posts the sample.
    { from: 'awaiting_registration', to: st('received', 'registered'), p: 1 },
    { from: 'registered', to: st('collecting_sample', 'transit_lab'), p: 1 },
    { from: 'transit_customer', to: st('collecting_sample', 'problem_in_transit_customer'), p: O.problemToCustomer },
    { from: 'out_for_delivery', to: st('collecting_sample', 'problem_in_transit_customer'), p: O.problemOutForDelivery },
    { from: 'problem_in_transit_customer', to: st('collecting_sample', 'with_customer'), p: O.customerProblemRecovers },
    { from: 'problem_in_transit_customer', to: st('failed', 'failure_to_deliver_to_customer'), p: 1 - O.customerProblemRecovers },
    { from: 'transit_lab', to: st('collecting_sample', 'problem_in_transit_lab'), p: O.problemToLab },
    { from: 'problem_in_transit_lab', to: st('sample_with_lab', 'delivered_to_lab'), p: O.labProblemRecovers },
    { from: 'problem_in_transit_lab', to: st('failed', 'failure_to_deliver_to_lab'), p: 1 - O.labProblemRecovers - O.labProblemLost },
    { from: 'problem_in_transit_lab', to: st('failed', 'lost'), p: O.labProblemLost },
    { from: 'delivered_to_lab', to: st('failed', 'sample_error'), p: O.sampleErrorTestkit },
  ],
  walk_in_test: [
    { from: 'ordered', to: st('received', 'requisition_bypassed'), p: 0 },
    { from: 'requisition_bypassed', to: st('collecting_sample', 'appointment_pending'), p: 1 },
    // The patient walks in at the appointment; the sample is drawn there and may be rejected by the lab.
    { from: 'appointment_scheduled', to: st('failed', 'sample_error'), p: O.sampleErrorDraw },
    { from: 'appointment_scheduled', to: st('collecting_sample', 'appointment_cancelled'), p: 0 },
    { from: 'appointment_scheduled', to: st('collecting_sample', 'redraw_available'), p: 0 },
    { from: 'appointment_cancelled', to: st('collecting_sample', 'appointment_scheduled'), p: 0 },
    { from: 'redraw_available', to: st('collecting_sample', 'appointment_scheduled'), p: 0 },
  ],
  at_home_phlebotomy: [
    { from: 'ordered', to: st('received', 'requisition_bypassed'), p: 0 },
    { from: 'requisition_bypassed', to: st('collecting_sample', 'appointment_pending'), p: 1 },
    { from: 'appointment_scheduled', to: st('collecting_sample', 'appointment_cancelled'), p: 0 },
    { from: 'appointment_cancelled', to: st('collecting_sample', 'appointment_scheduled'), p: 0 },
    { from: 'draw_completed', to: st('failed', 'sample_error'), p: O.sampleErrorDraw },
  ],
  on_site_collection: [
    { from: 'ordered', to: st('received', 'requisition_bypassed'), p: 0 },
    { from: 'requisition_bypassed', to: st('sample_with_lab', 'draw_completed'), p: 0 },
    { from: 'draw_completed', to: st('failed', 'sample_error'), p: O.sampleErrorDraw },
  ],
};

/**
 * Statuses where the lifecycle waits for an outside event instead of moving on by itself:
 * appointments (booking enqueues the next advance, issue 4) and on-site draws (draw_completed).
 */
const WAITS_FOR: Record<string, Set<string>> = {
  testkit: new Set(),
  walk_in_test: new Set(['appointment_pending']),
  at_home_phlebotomy: new Set(['appointment_pending']),
  on_site_collection: new Set(['requisition_created']),
};

function buildGraph(method: string): StatusGraph {
  const graph: StatusGraph = {};
  const node = (step: Step) => (graph[step.low] ??= { top: step.top, next: [] });
  const path = [ORDERED, ...(HAPPY_PATHS[method] ?? [])];
  path.forEach((step) => node(step));
  const branches = BRANCHES[method] ?? [];
  const waits = WAITS_FOR[method] ?? new Set<string>();
  for (let i = 0; i + 1 < path.length; i++) {
    const from = path[i]!;
    const branchOdds = branches.filter((b) => b.from === from.low).reduce((sum, b) => sum + b.p, 0);
    node(from).next.push({ to: path[i + 1]!, weight: waits.has(from.low) ? 0 : Math.max(0, 1 - branchOdds), happy: true });
  }
  for (const b of branches) {
    node(b.to);
    const from = graph[b.from];
    if (!from) throw new Error(`lifecycle: ${method} branch from ${b.from}, a status no earlier step reaches`);
    from.next.push({ to: b.to, weight: waits.has(b.from) ? 0 : b.p, happy: false });
  }
  return graph;
}

/** The status graph of each collection method. */
export const LIFECYCLE: Record<string, StatusGraph> = Object.fromEntries(Object.keys(HAPPY_PATHS).map((m) => [m, buildGraph(m)]));

/** Cancellation statuses: any open order can be cancelled (testkits can also be marked do_not_process). */
const CANCEL_LOWS: Record<string, string[]> = {
  testkit: ['cancelled', 'do_not_process'],
  walk_in_test: ['cancelled'],
  at_home_phlebotomy: ['cancelled'],
  on_site_collection: ['cancelled'],
};

/** Every OrderStatus (`<top>.<method>.<low>`) of a collection method; empty for an unknown method. */
export function orderStatusesOf(method: string): string[] {
  const graph = LIFECYCLE[method];
  if (!graph) return [];
  return [
    ...Object.entries(graph).map(([low, n]) => orderStatus(n.top, method, low)),
    ...(CANCEL_LOWS[method] ?? []).map((low) => orderStatus('cancelled', method, low)),
  ];
}

export type NextStep = { kind: 'move'; to: Step } | { kind: 'final' } | { kind: 'waiting' } | { kind: 'unknown' };

/**
 * The lifecycle's next step from an order's status: a weighted random choice among the moves it takes
 * on its own. Final statuses stay; statuses that wait for an outside event answer `waiting`;
 * statuses (or methods) the graph does not know, as the enums may grow, answer `unknown`.
 */
export function nextStep(method: string, top: string, low: string, random: Rand): NextStep {
  if (FINAL_TOPS.has(top)) return { kind: 'final' };
  const node = LIFECYCLE[method]?.[low];
  if (!node || node.top !== top) return { kind: 'unknown' };
  const moves = node.next.filter((e) => e.weight > 0);
  const total = moves.reduce((sum, e) => sum + e.weight, 0);
  if (total <= 0) return { kind: 'waiting' };
  let r = random() * total;
  for (const e of moves) {
    r -= e.weight;
    if (r < 0) return { kind: 'move', to: e.to };
  }
  return { kind: 'move', to: moves[moves.length - 1]!.to };
}

/** Whether the lifecycle moves an order in this status on its own. */
export function movesOnItsOwn(method: string, top: string, low: string): boolean {
  return nextStep(method, top, low, () => 0).kind === 'move';
}

/**
 * How long an order sits in a status before its next step, within LIFECYCLE_PACE: requisitions are
 * quick, a parcel in trouble takes its time, the rest anywhere in the range.
 */
export function dwellMs(low: string, random: Rand): number {
  const { minMs, maxMs } = LIFECYCLE_PACE;
  const [lo, hi] = low === 'ordered' ? [minMs, 2 * minMs] : low.startsWith('problem_') ? [(minMs + maxMs) / 2, maxMs] : [minMs, maxMs];
  return Math.round(lo + random() * (hi - lo));
}

/**
 * Enqueues the order's next `order.advance` (inside the caller's transaction), carrying the status it
 * expects to find, unless the order is final or waits for an outside event. Returns the job id or null.
 * Order creation and appointment booking use this to start or resume the lifecycle.
 */
export async function scheduleAdvance(
  tx: Db,
  order: Pick<OrderRow, 'id' | 'collectionMethod' | 'status' | 'lowLevelStatus'>,
  opts: { random?: Rand; runAt?: Date; afterJob?: number } = {},
): Promise<number | null> {
  if (!movesOnItsOwn(order.collectionMethod, order.status, order.lowLevelStatus)) return null;
  const random = opts.random ?? Math.random;
  const payload: Record<string, unknown> = { order_id: order.id, from: order.lowLevelStatus };
  if (opts.afterJob !== undefined) payload.after_job = opts.afterJob;
  let runAt = opts.runAt ?? new Date(Date.now() + dwellMs(order.lowLevelStatus, random));
  // A scheduled visit happens at its time: the draw (or the walk-in's sample) never comes earlier.
  const visitEnds = order.lowLevelStatus === APPOINTMENT_SCHEDULED ? await activeAppointmentEnd(tx, order.id) : null;
  if (visitEnds && visitEnds > runAt) runAt = visitEnds;
  return enqueueJob(tx, ORDER_ADVANCE_KIND, payload, { runAt });
}

const AdvancePayload = z.object({
  order_id: z.uuid(),
  /** The low-level status the job expects; absent in a first job enqueued without it. */
  from: z.string().optional(),
  /** The job that enqueued this one. */
  after_job: z.number().optional(),
});

export type AdvanceOutcome =
  | { kind: 'moved'; to: string; nextJobId: number | null }
  | { kind: 'gone' | 'cancelled' | 'stale' | 'final' | 'waiting' | 'unknown' };

/** Locks the order row for the rest of the transaction; undefined when there is no such order. */
export async function lockOrder(tx: Db, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

/**
 * Whether the running job was cancelled meanwhile (the sandbox marks pending lifecycle jobs done while
 * holding the order lock, and a job already leased may be waiting for that lock).
 */
export async function jobWasCancelled(tx: Db, ctx: JobContext | undefined): Promise<boolean> {
  if (!ctx) return false;
  const [job] = await tx.select({ doneAt: jobs.doneAt, failedAt: jobs.failedAt }).from(jobs).where(eq(jobs.id, ctx.jobId));
  return !!job && (job.doneAt !== null || job.failedAt !== null);
}

/**
 * The `order.advance` job: in one transaction, locks the order, moves it one step (row, event and
 * `labtest.order.updated` outbox event, via moveOrder) and enqueues the next step.
 *
 * Idempotent: the payload's `from` is the status the job expects; when the order has moved on (a
 * duplicate run after a lease ran out, a sandbox walk, a cancellation) the job does nothing. A job
 * without `from` (the first one of an order) does nothing when it already enqueued its successor.
 */
export async function advanceOrder(db: Db, rawPayload: Record<string, unknown>, ctx: JobContext | undefined, random: Rand): Promise<AdvanceOutcome> {
  const parsed = AdvancePayload.safeParse(rawPayload);
  if (!parsed.success) throw new Error(`invalid ${ORDER_ADVANCE_KIND} payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const payload = parsed.data;
  return db.transaction(async (tx): Promise<AdvanceOutcome> => {
    const order = await lockOrder(tx, payload.order_id);
    if (!order) return { kind: 'gone' };
    if (await jobWasCancelled(tx, ctx)) return { kind: 'cancelled' };
    if (payload.from !== undefined && payload.from !== order.lowLevelStatus) return { kind: 'stale' };
    if (payload.from === undefined && ctx) {
      const [successor] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, ORDER_ADVANCE_KIND), sql`${jobs.payload}->>'after_job' = ${String(ctx.jobId)}`))
        .limit(1);
      if (successor) return { kind: 'stale' };
    }
    // The visit was moved to a later time meanwhile: wait for it (a fresh job at the new time).
    if (order.lowLevelStatus === APPOINTMENT_SCHEDULED) {
      const visitEnds = await activeAppointmentEnd(tx, order.id);
      if (visitEnds && visitEnds.getTime() > Date.now()) {
        await enqueueJob(tx, ORDER_ADVANCE_KIND, { order_id: order.id, from: order.lowLevelStatus }, { runAt: visitEnds });
        return { kind: 'waiting' };
      }
    }
    const next = nextStep(order.collectionMethod, order.status, order.lowLevelStatus, random);
    if (next.kind !== 'move') return next;
    const moved = await moveOrder(tx, order, next.to.top, next.to.low);
    const nextJobId = await scheduleAdvance(tx, moved, { random, afterJob: ctx?.jobId });
    return { kind: 'moved', to: orderStatus(next.to.top, order.collectionMethod, next.to.low), nextJobId };
  });
}
