/**
 * The triage actions on one order, each a whole step (read the order from the service, change the
 * BFF's row): the single routes call them once, the bulk routes once per id, so a bulk action's
 * result for an id is exactly what the single action would have answered.
 */
import type { Order } from '../../contract';
import { isUuid, NEEDS_ATTENTION_STATUSES, type OrderTriageState, type TriageOutcome } from '../api';
import type { StaffUser } from '../auth/staff';
import { BffError } from '../errors';
import type { Database } from '../../store/db';
import type { BffSchema } from '../db/schema';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { replacementBody, replacementKey, type KitAction } from './replaceKit';
import { currentStatusStart } from './statusSince';
import * as store from './store';

type Db = Database<BffSchema>;
export interface TriageContext {
  client: ServiceClient;
  db: Db;
  me: StaffUser;
}

/** The order as the service has it; unknown, another team's or malformed ids are all "not found". */
export async function orderOf(client: ServiceClient, id: string): Promise<Order> {
  if (!isUuid(id)) throw new BffError(404, 'Order not found');
  try {
    return await client.getOrder(id);
  } catch (err) {
    if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) throw new BffError(404, 'Order not found');
    throw err;
  }
}

const claimedByOther = (holder: { name: string; email: string } | null) =>
  new BffError(409, `Claimed by ${holder ? holder.name || holder.email : 'someone else'}: take it over to work on it`, undefined, 'claimed_by_other');

export async function stateOfOrder(ctx: TriageContext, order: Order): Promise<OrderTriageState> {
  return store.triageState(ctx.db, order.id, currentStatusStart(order.events));
}

export async function claimOrder(ctx: TriageContext, id: string, opts: { force?: boolean; team?: string }): Promise<{ order: Order; state: OrderTriageState }> {
  const order = await orderOf(ctx.client, id);
  const outcome = await store.claim(ctx.db, order.id, ctx.me.id, opts);
  if (!outcome.ok) throw claimedByOther(outcome.holder);
  return { order, state: await stateOfOrder(ctx, order) };
}

export async function unclaimOrder(ctx: TriageContext, id: string, force: boolean): Promise<{ order: Order; state: OrderTriageState }> {
  const order = await orderOf(ctx.client, id);
  const outcome = await store.unclaim(ctx.db, order.id, ctx.me.id, force);
  if (!outcome.ok) throw claimedByOther(outcome.holder);
  return { order, state: await stateOfOrder(ctx, order) };
}

export async function resolveOrder(ctx: TriageContext, id: string, outcome: TriageOutcome, note: string): Promise<{ order: Order; state: OrderTriageState }> {
  const order = await orderOf(ctx.client, id);
  await store.resolve(ctx.db, order.id, { outcome, note, staffId: ctx.me.id, status: currentStatusStart(order.events) });
  return { order, state: await stateOfOrder(ctx, order) };
}

/** Reship or recreate a kit that needs attention: the service places the new order, then the resolution is recorded. */
export async function replaceKit(
  ctx: TriageContext,
  id: string,
  action: KitAction,
  note: string,
): Promise<{ order: Order; replacement: Order; state: OrderTriageState }> {
  const order = await orderOf(ctx.client, id);
  const problems: readonly string[] = NEEDS_ATTENTION_STATUSES;
  if (order.lab_test.method !== 'testkit' || !problems.includes(order.low_level_status ?? '')) {
    throw new BffError(409, `Only a test kit that needs attention can be ${action === 'reship' ? 'reshipped' : 'recreated'}`);
  }
  const placed = await ctx.client.createOrder(replacementBody(order, action), replacementKey(order.id, action));
  // The original's status as the resolution saw it: a recreate that replaced it moved it to cancelled,
  // which is a change, so read it again rather than keep the old events.
  const after = action === 'recreate' ? await orderOf(ctx.client, order.id) : order;
  const outcome: TriageOutcome = action === 'reship' ? 'reshipped' : 'recreated';
  await store.resolve(ctx.db, order.id, { outcome, note, staffId: ctx.me.id, status: currentStatusStart(after.events), replacementOrderId: placed.order.id });
  return { order: after, replacement: placed.order, state: await stateOfOrder(ctx, after) };
}

export async function notesOf(ctx: TriageContext, id: string) {
  const order = await orderOf(ctx.client, id);
  return { order, notes: await store.listNotes(ctx.db, order.id) };
}

export async function addOrderNote(ctx: TriageContext, id: string, body: string) {
  const order = await orderOf(ctx.client, id);
  const { id: staffId, name, email } = ctx.me;
  return { order, note: await store.addNote(ctx.db, order.id, { id: staffId, name, email }, body) };
}
