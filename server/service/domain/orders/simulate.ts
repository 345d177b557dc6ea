import { and, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INTERPRETATIONS, RESULT_TYPES, type PostOrderResponse } from '../../../contract';
import type { Database } from '../../../store/db';
import { enqueueJob, type JobContext } from '../../jobs/queue';
import { jobs, type ServiceSchema } from '../../db/schema';
import { Invalid } from '../errors';
import { jobWasCancelled, LIFECYCLE, lockOrder, ORDER_ADVANCE_KIND, orderStatusesOf } from './lifecycle';
import { presentOrders, type OrderRow } from './present';
import { FINAL_TOPS, orderStatus, parseOrderStatus, type Step, type Top } from './statuses';
import { moveOrder } from './transitions';
import { orderCanBeCritical, type ResultRequest } from '../results/produce';
import { lockTeamOrder } from './lockOrder';

/**
 * The sandbox's `POST /v3/order/:order_id/test`: drives an order to a chosen status along a plausible
 * walk (the happy path, plus the problem branch when the target is a problem or a failure), at once
 * or one step every `delay` seconds through durable `order.simulate_step` jobs.
 */

type Db = Database<ServiceSchema>;
type PostOrderAnswer = z.infer<typeof PostOrderResponse>;

export const SIMULATE_STEP_KIND = 'order.simulate_step';


/** What the results of a simulated order say (the sandbox body). */
export interface SimulatedResult {
  interpretation?: (typeof INTERPRETATIONS)[number] | null;
  result_types?: string[] | null;
  has_missing_results?: boolean | null;
}

/** The sandbox is for predictable tests: normal results and none missing unless asked (the lifecycle's own orders vary). */
const resultRequest = (r: SimulatedResult): ResultRequest => ({
  interpretation: r.interpretation ?? 'normal',
  resultTypes: r.result_types ?? null,
  hasMissingResults: r.has_missing_results ?? false,
});

/** Cost of a step when planning: the happy path is preferred to detours. */
const HAPPY_COST = 1;
const DETOUR_COST = 3;

/**
 * The steps from `current` to `target` (excluding the current status, ending with the target): the
 * cheapest walk through the method's status graph, so a plausible one. [] when the order is already
 * there; null when the target cannot be reached (it lies behind, or the current status is unknown).
 * Any open order can be cancelled in one step.
 */
export function planSteps(method: string, current: Step | { top: string; low: string }, target: Step): Step[] | null {
  const graph = LIFECYCLE[method];
  if (!graph) return null;
  if (current.top === target.top && current.low === target.low) return [];
  if (FINAL_TOPS.has(current.top)) return null;
  if (target.top === 'cancelled') return orderStatusesOf(method).includes(orderStatus(target.top, method, target.low)) ? [target] : null;
  const start = graph[current.low];
  const goal = graph[target.low];
  if (!start || start.top !== current.top || !goal || goal.top !== target.top) return null;

  // Dijkstra over a graph of a dozen nodes: a linear scan for the next node is plenty.
  const cost = new Map<string, number>([[current.low, 0]]);
  const previous = new Map<string, string>();
  const done = new Set<string>();
  for (;;) {
    let here: string | undefined;
    for (const [low, c] of cost) if (!done.has(low) && (here === undefined || c < cost.get(here)!)) here = low;
    if (here === undefined) return null;
    if (here === target.low) break;
    done.add(here);
    const node = graph[here]!;
    if (FINAL_TOPS.has(node.top)) continue;
    for (const edge of node.next) {
      const c = cost.get(here)! + (edge.happy ? HAPPY_COST : DETOUR_COST);
      if (c < (cost.get(edge.to.low) ?? Infinity)) {
        cost.set(edge.to.low, c);
        previous.set(edge.to.low, here);
      }
    }
  }
  const steps: Step[] = [];
  for (let low = target.low; low !== current.low; low = previous.get(low)!) steps.unshift({ top: graph[low]!.top, low });
  return steps;
}

/** Marks the order's pending lifecycle and simulation jobs done; returns how many there were. */
export async function cancelLifecycleJobs(tx: Db, orderId: string, reason: string): Promise<number> {
  const cancelled = await tx
    .update(jobs)
    .set({ doneAt: sql`now()`, lastError: `cancelled: ${reason}`, lockedUntil: null, lockedBy: null })
    .where(
      and(
        inArray(jobs.kind, [ORDER_ADVANCE_KIND, SIMULATE_STEP_KIND]),
        isNull(jobs.doneAt),
        isNull(jobs.failedAt),
        sql`${jobs.payload}->>'order_id' = ${orderId}`,
      ),
    )
    .returning({ id: jobs.id });
  return cancelled.length;
}

const StepSchema = z.object({ top: z.string(), low: z.string() });
const SimulateStepPayload = z.object({
  order_id: z.uuid(),
  top: z.string(),
  low: z.string(),
  /** The low-level status the step expects to find. */
  from: z.string(),
  /** The steps after this one, each `delay_seconds` after the previous. */
  rest: z.array(StepSchema).default([]),
  delay_seconds: z.number().min(0).default(0),
  interpretation: z.enum(INTERPRETATIONS).nullable().optional(),
  result_types: z.array(z.string()).nullable().optional(),
  has_missing_results: z.boolean().nullable().optional(),
});
type SimulateStepPayload = z.infer<typeof SimulateStepPayload>;

function enqueueStep(tx: Db, payload: SimulateStepPayload) {
  return enqueueJob(tx, SIMULATE_STEP_KIND, payload as unknown as Record<string, unknown>, {
    runAt: new Date(Date.now() + payload.delay_seconds * 1000),
  });
}

export interface SimulateInput {
  finalStatus: string;
  delaySeconds: number;
  result: SimulatedResult;
}

/**
 * Drives the team's order to `finalStatus`. Another team's order is 404; a final order, a status
 * that is not one of the method's OrderStatus values, or one that cannot be reached from the current
 * status is 422. Pending lifecycle jobs of the order are cancelled: it stays at the target.
 */
export async function simulateOrder(db: Db, teamId: string, orderId: string, input: SimulateInput): Promise<PostOrderAnswer> {
  return db.transaction(async (tx) => {
    const order = await lockTeamOrder(tx, teamId, orderId);
    const method = order.collectionMethod;
    const current = orderStatus(order.status, method, order.lowLevelStatus);
    if (FINAL_TOPS.has(order.status)) {
      throw new Invalid(['path', 'order_id'], `the order is already ${current}, a final status; it cannot move any more`, 'value_error.order_final');
    }
    const valid = orderStatusesOf(method);
    if (!valid.includes(input.finalStatus)) {
      throw new Invalid(
        ['query', 'final_status'],
        valid.length
          ? `must be an OrderStatus of a ${method} order, one of: ${valid.join(', ')}`
          : `the order's collection method ${method} has no simulated statuses`,
        'value_error.enum',
      );
    }
    const unknownTypes = (input.result.result_types ?? []).filter((t) => !(RESULT_TYPES as readonly string[]).includes(t));
    if (unknownTypes.length) {
      throw new Invalid(['body', 'result_types'], `unknown result type ${unknownTypes.join(', ')}: use ${RESULT_TYPES.join(', ')}`, 'value_error.enum');
    }
    if (input.result.interpretation === 'critical') {
      const { possible, analytes } = await orderCanBeCritical(tx, order);
      if (!possible) {
        throw new Invalid(
          ['body', 'interpretation'],
          `none of this order's results has critical limits (${analytes.slice(0, 8).join(', ')}${analytes.length > 8 ? ', …' : ''}); a critical value needs a test such as glucose, potassium, sodium, calcium or a blood count`,
          'value_error.no_critical_limits',
        );
      }
    }
    const parsed = parseOrderStatus(input.finalStatus)!;
    const target: Step = { top: parsed.top as Top, low: parsed.low };
    const steps = planSteps(method, { top: order.status, low: order.lowLevelStatus }, target);
    if (steps === null) {
      throw new Invalid(['query', 'final_status'], `cannot move the order from ${current} to ${input.finalStatus}: orders only move forward`, 'value_error.unreachable_status');
    }
    await cancelLifecycleJobs(tx, order.id, 'superseded by a sandbox simulation');

    let row: OrderRow = order;
    let message: string;
    if (steps.length === 0) {
      message = `The order is already ${current}`;
    } else if (input.delaySeconds === 0) {
      for (const step of steps) {
        row = await moveOrder(tx, row, step.top, step.low, {}, resultRequest(input.result));
      }
      message = `Order moved to ${input.finalStatus} in ${steps.length} step${steps.length === 1 ? '' : 's'}`;
    } else {
      const [first, ...rest] = steps;
      await enqueueStep(tx, {
        order_id: order.id,
        top: first!.top,
        low: first!.low,
        from: order.lowLevelStatus,
        rest,
        delay_seconds: input.delaySeconds,
        interpretation: input.result.interpretation ?? null,
        result_types: input.result.result_types ?? null,
        has_missing_results: input.result.has_missing_results ?? null,
      });
      message = `${steps.length} step${steps.length === 1 ? '' : 's'} to ${input.finalStatus} scheduled, one every ${input.delaySeconds} s`;
    }
    const [presented] = await presentOrders(tx, [row]);
    return { order: presented!, status: 'success', message };
  });
}

export type SimulateStepOutcome = { kind: 'moved'; to: string; nextJobId: number | null } | { kind: 'gone' | 'cancelled' | 'stale' };

/**
 * The `order.simulate_step` job: applies one planned step and enqueues the next one, in one
 * transaction. A step whose order is no longer where it expects (a duplicate run, a cancellation, a
 * newer simulation) does nothing, which also ends the walk.
 */
export async function runSimulateStep(db: Db, rawPayload: Record<string, unknown>, ctx: JobContext | undefined): Promise<SimulateStepOutcome> {
  const parsed = SimulateStepPayload.safeParse(rawPayload);
  if (!parsed.success) throw new Error(`invalid ${SIMULATE_STEP_KIND} payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const p = parsed.data;
  return db.transaction(async (tx): Promise<SimulateStepOutcome> => {
    const order = await lockOrder(tx, p.order_id);
    if (!order) return { kind: 'gone' };
    if (await jobWasCancelled(tx, ctx)) return { kind: 'cancelled' };
    if (order.lowLevelStatus !== p.from || FINAL_TOPS.has(order.status)) return { kind: 'stale' };
    const step: Step = { top: p.top as Top, low: p.low };
    const isLast = p.rest.length === 0;
    const moved = await moveOrder(tx, order, step.top, step.low, {}, resultRequest(p));
    let nextJobId: number | null = null;
    if (!isLast) {
      const [next, ...rest] = p.rest;
      nextJobId = await enqueueStep(tx, { ...p, top: next!.top, low: next!.low, from: moved.lowLevelStatus, rest });
    }
    return { kind: 'moved', to: orderStatus(step.top, order.collectionMethod, step.low), nextJobId };
  });
}
