/**
 * The triage rows and staff notes in the BFF's store. Claims are one statement each (an upsert that
 * only takes a free or own claim unless forced), so two people claiming at once cannot both win.
 */
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../store/db';
import type { OrderNoteRecord, OrderTriageState, TriageOutcome } from '../api';
import { orderNotes, orderTriage, staff, type BffSchema } from '../db/schema';
import type { StatusStart } from './statusSince';

type Db = Database<BffSchema>;
type TriageRow = typeof orderTriage.$inferSelect;
type StaffRef = { id: string; name: string; email: string };

const owner = alias(staff, 'owner');
const resolver = alias(staff, 'resolver');
const ref = (s: { id: string | null; name: string | null; email: string | null } | null): StaffRef | null =>
  s?.id ? { id: s.id, name: s.name ?? '', email: s.email ?? '' } : null;

async function rowsOf(db: Db, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({
      row: orderTriage,
      owner: { id: owner.id, name: owner.name, email: owner.email },
      resolver: { id: resolver.id, name: resolver.name, email: resolver.email },
    })
    .from(orderTriage)
    .leftJoin(owner, eq(owner.id, orderTriage.ownerId))
    .leftJoin(resolver, eq(resolver.id, orderTriage.resolvedBy))
    .where(inArray(orderTriage.orderId, orderIds));
}

/** Open unless resolved for the status the order is still in. */
export function isOpen(row: Pick<TriageRow, 'outcome' | 'resolvedStatusEventId'> | undefined, current: StatusStart | null): boolean {
  if (!row?.outcome) return true;
  return current === null || row.resolvedStatusEventId !== current.eventId;
}

function stateOf(r: Awaited<ReturnType<typeof rowsOf>>[number], current: StatusStart | null): OrderTriageState {
  const row = r.row;
  return {
    order_id: row.orderId,
    team: row.team,
    owner: ref(r.owner),
    claimed_at: row.claimedAt?.toISOString() ?? null,
    outcome: row.outcome,
    resolution_note: row.resolutionNote,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolved_by: ref(r.resolver),
    resolved_status: row.resolvedStatus,
    replacement_order_id: row.replacementOrderId,
    open: isOpen(row, current),
  };
}

/** Triage states of orders by id (orders never triaged are absent). */
export async function triageStates(db: Db, orders: { id: string; current: StatusStart | null }[]): Promise<Map<string, OrderTriageState>> {
  const current = new Map(orders.map((o) => [o.id, o.current]));
  const found = await rowsOf(db, orders.map((o) => o.id));
  return new Map(found.map((r) => [r.row.orderId, stateOf(r, current.get(r.row.orderId) ?? null)]));
}

export const emptyState = (orderId: string): OrderTriageState => ({
  order_id: orderId,
  team: null,
  owner: null,
  claimed_at: null,
  outcome: null,
  resolution_note: null,
  resolved_at: null,
  resolved_by: null,
  resolved_status: null,
  replacement_order_id: null,
  open: true,
});

export async function triageState(db: Db, orderId: string, current: StatusStart | null): Promise<OrderTriageState> {
  return (await triageStates(db, [{ id: orderId, current }])).get(orderId) ?? emptyState(orderId);
}

export type ClaimOutcome = { ok: true } | { ok: false; holder: StaffRef | null };

/** Takes the claim when it is free or already ours; with `force`, whoever holds it. */
export async function claim(db: Db, orderId: string, staffId: string, opts: { force?: boolean; team?: string }): Promise<ClaimOutcome> {
  const now = new Date();
  const taken = await db
    .insert(orderTriage)
    .values({ orderId, ownerId: staffId, claimedAt: now, team: opts.team ?? null })
    .onConflictDoUpdate({
      target: orderTriage.orderId,
      set: { ownerId: staffId, claimedAt: now, team: sql`coalesce(excluded.team, ${orderTriage.team})` },
      setWhere: opts.force ? undefined : or(isNull(orderTriage.ownerId), eq(orderTriage.ownerId, staffId)),
    })
    .returning({ orderId: orderTriage.orderId });
  if (taken.length > 0) return { ok: true };
  return { ok: false, holder: await holderOf(db, orderId) };
}

async function holderOf(db: Db, orderId: string): Promise<StaffRef | null> {
  const [r] = await rowsOf(db, [orderId]);
  return r ? ref(r.owner) : null;
}

/** Releases our claim (or, with `force`, anyone's). */
export async function unclaim(db: Db, orderId: string, staffId: string, force: boolean): Promise<ClaimOutcome> {
  const released = await db
    .update(orderTriage)
    .set({ ownerId: null, claimedAt: null })
    .where(and(eq(orderTriage.orderId, orderId), force ? undefined : or(isNull(orderTriage.ownerId), eq(orderTriage.ownerId, staffId))))
    .returning({ orderId: orderTriage.orderId });
  if (released.length > 0) return { ok: true };
  const holder = await holderOf(db, orderId);
  return holder ? { ok: false, holder } : { ok: true };
}

export interface Resolution {
  outcome: TriageOutcome;
  note: string;
  staffId: string;
  status: StatusStart | null;
  replacementOrderId?: string;
}

export async function resolve(db: Db, orderId: string, r: Resolution): Promise<void> {
  const values = {
    outcome: r.outcome,
    resolutionNote: r.note,
    resolvedAt: new Date(),
    resolvedBy: r.staffId,
    resolvedStatus: r.status?.status ?? null,
    resolvedStatusEventId: r.status?.eventId ?? null,
    replacementOrderId: r.replacementOrderId ?? null,
  };
  await db
    .insert(orderTriage)
    .values({ orderId, ...values })
    .onConflictDoUpdate({ target: orderTriage.orderId, set: values });
}

export async function listNotes(db: Db, orderId: string): Promise<OrderNoteRecord[]> {
  const rows = await db
    .select({ note: orderNotes, author: { id: staff.id, name: staff.name, email: staff.email } })
    .from(orderNotes)
    .leftJoin(staff, eq(staff.id, orderNotes.authorId))
    .where(eq(orderNotes.orderId, orderId))
    .orderBy(asc(orderNotes.createdAt), asc(orderNotes.id));
  return rows.map((r) => noteRecord(r.note, ref(r.author)));
}

export async function addNote(db: Db, orderId: string, author: StaffRef, body: string): Promise<OrderNoteRecord> {
  const [row] = await db.insert(orderNotes).values({ orderId, authorId: author.id, body }).returning();
  return noteRecord(row!, author);
}

const noteRecord = (n: typeof orderNotes.$inferSelect, author: StaffRef | null): OrderNoteRecord => ({
  id: n.id,
  order_id: n.orderId,
  author,
  body: n.body,
  created_at: n.createdAt.toISOString(),
});
