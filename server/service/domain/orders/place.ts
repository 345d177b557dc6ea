import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { HealthInsurance, Order, OrderSet } from '../../../contract';
import type { Database } from '../../../store/db';
import { enqueueJob } from '../../jobs/queue';
import { labs, labTests, markers, orderEvents, orders, users, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import { Invalid, NotFound } from '../errors';
import { checkAoeAnswers, insuranceRecord, recordConsents, type AoeAnswerInput } from './clinical';
import { presentOrders, type OrderRow } from './present';
import {
  checkAccountBilling,
  checkGivenLabAccount,
  checkItemsOfAccountLab,
  describeOffenders,
  pickLabAccount,
  type AccountUse,
  type LabAccountRow,
} from './resolveLabAccount';
import { orderStatus } from './statuses';

type Db = Database<ServiceSchema>;
type LabRow = typeof labs.$inferSelect;
type LabTestRow = typeof labTests.$inferSelect;
type MarkerRow = typeof markers.$inferSelect;

/** Job kind of the order lifecycle (its handler lives with the lifecycle work): moves an order one step on. */
export const ORDER_ADVANCE_JOB = 'order.advance';
/** A new order's first lifecycle step runs this long after it is placed (or at activate_by, when later). */
export const ORDER_ADVANCE_DELAY_MS = 5_000;

/** What both create and import place: the bodies mapped onto one shape. */
export interface NewOrder {
  userId: string;
  labTestId?: string | null;
  orderSet?: z.infer<typeof OrderSet> | null;
  collectionMethod?: string | null;
  billingType?: string | null;
  labAccountId?: string | null;
  patientDetails: Record<string, unknown>;
  patientAddress: Record<string, unknown> & { state: string };
  physician?: Record<string, unknown> | null;
  icdCodes?: string[] | null;
  healthInsurance?: HealthInsurance | null;
  consents?: { consentType: string; version?: string | null; timeOfConsent?: string | null }[] | null;
  aoeAnswers?: AoeAnswerInput[] | null;
  priority?: boolean | null;
  activateBy?: string | null;
  passthrough?: string | null;
  clinicalNotes?: string | null;
  sampleId?: string | null;
  updateReason?: string | null;
  originalOrderId?: string | null;
}

export interface PlaceOptions {
  origin: 'created' | 'imported';
  /** Which lab account statuses are accepted. */
  use: AccountUse;
  /** INCORRECT_LAB: the account of the replaced order, never used again. */
  excludeAccountId?: string | null;
}

export interface Placed {
  row: OrderRow;
  order: Order;
  account: LabAccountRow;
}

const uniq = <T>(xs: T[]) => [...new Set(xs)];
const list = (xs: (string | number)[]) => xs.join(', ');

/** The user must be the team's; another team's user is answered like an unknown one. */
export async function checkTeamUser(db: Db, teamId: string, userId: string) {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.teamId, teamId), eq(users.id, userId)));
  if (!user) throw new NotFound('User');
}

/** Lab tests the team may order: the shared catalogue (team_id null) and the team's own. */
const orderableBy = (teamId: string) => or(isNull(labTests.teamId), eq(labTests.teamId, teamId));

interface Items {
  panels: LabTestRow[];
  markers: MarkerRow[];
  /** add_on.provider_ids, resolved once the lab is known */
  providerIds: string[];
  /** The lab test the order uses as it is (lab_test_id, or an order set of exactly one lab test). */
  single: LabTestRow | null;
}

/** Resolves lab_test_id or the order set's lab tests and add-on markers; unknown ids are 422 naming them. */
async function resolveItems(db: Db, teamId: string, input: NewOrder): Promise<Items> {
  const set = input.orderSet;
  const setTestIds = uniq(set?.lab_test_ids ?? []);
  const setMarkerIds = uniq(set?.add_on?.marker_ids ?? []);
  const providerIds = uniq(set?.add_on?.provider_ids ?? []);
  if (input.labTestId) {
    if (setTestIds.length || setMarkerIds.length || providerIds.length) {
      throw new Invalid(['body', 'order_set'], 'give either lab_test_id or an order_set with lab tests and add-on markers, not both', 'value_error.lab_test_and_order_set');
    }
    const [test] = await db
      .select()
      .from(labTests)
      .where(and(eq(labTests.id, input.labTestId), orderableBy(teamId)));
    if (!test) throw new Invalid(['body', 'lab_test_id'], `unknown lab test ${input.labTestId}`, 'value_error.unknown_lab_test');
    checkActive([test], ['body', 'lab_test_id']);
    return { panels: [test], markers: [], providerIds: [], single: test };
  }
  if (!setTestIds.length && !setMarkerIds.length) {
    throw new Invalid(['body', 'order_set'], 'the order set needs lab_test_ids or add_on.marker_ids', 'value_error.empty_order_set');
  }
  const panels = setTestIds.length ? await db.select().from(labTests).where(and(inArray(labTests.id, setTestIds), orderableBy(teamId))) : [];
  const unknownTests = setTestIds.filter((id) => !panels.some((p) => p.id === id));
  if (unknownTests.length) {
    throw new Invalid(['body', 'order_set', 'lab_test_ids'], `unknown lab tests: ${list(unknownTests)}`, 'value_error.unknown_lab_test');
  }
  checkActive(panels, ['body', 'order_set', 'lab_test_ids']);
  const markerRows = setMarkerIds.length ? await db.select().from(markers).where(inArray(markers.id, setMarkerIds)) : [];
  const unknownMarkers = setMarkerIds.filter((id) => !markerRows.some((m) => m.id === id));
  if (unknownMarkers.length) {
    throw new Invalid(['body', 'order_set', 'add_on', 'marker_ids'], `unknown markers: ${list(unknownMarkers)}`, 'value_error.unknown_marker');
  }
  // Keep the caller's order.
  const sortedPanels = setTestIds.map((id) => panels.find((p) => p.id === id)!);
  const sortedMarkers = setMarkerIds.map((id) => markerRows.find((m) => m.id === id)!);
  const single = sortedPanels.length === 1 && sortedMarkers.length === 0 && providerIds.length === 0 ? sortedPanels[0]! : null;
  return { panels: sortedPanels, markers: sortedMarkers, providerIds, single };
}

function checkActive(tests: LabTestRow[], loc: (string | number)[]) {
  const inactive = tests.filter((t) => t.status !== 'active');
  if (inactive.length) {
    throw new Invalid(loc, `lab tests not orderable (not active): ${inactive.map((t) => `"${t.name}" (${t.id}, ${t.status})`).join('; ')}`, 'value_error.lab_test_inactive');
  }
}

function checkMarkersOrderable(markerRows: MarkerRow[], loc: (string | number)[]) {
  const bad = markerRows.filter((m) => !m.isOrderable || !m.aLaCarteEnabled);
  if (bad.length) {
    throw new Invalid(loc, `markers that cannot be ordered as add-ons: ${bad.map((m) => `"${m.name}" (marker ${m.id})`).join('; ')}`, 'value_error.marker_not_orderable');
  }
}

/** The collection method: the one asked for, else the lab tests' own, else the lab's first; it must be one the lab offers. */
function collectionMethodFor(input: NewOrder, lab: LabRow, panels: LabTestRow[]): string {
  const panelMethods = uniq(panels.map((p) => p.method));
  const method =
    input.collectionMethod ??
    (panelMethods.length === 1 ? panelMethods[0]! : undefined) ??
    (lab.collectionMethods.includes('walk_in_test') ? 'walk_in_test' : lab.collectionMethods[0]) ??
    'walk_in_test';
  const offered = uniq([...lab.collectionMethods, ...panelMethods]);
  if (offered.length && !offered.includes(method)) {
    throw new Invalid(['body', 'collection_method'], `lab ${lab.slug} does not offer ${method}; it offers ${list(offered)}`, 'value_error.collection_method');
  }
  return method;
}

const sumPrice = (panels: LabTestRow[], markerRows: MarkerRow[]) =>
  Math.round((panels.reduce((s, p) => s + p.price, 0) + markerRows.reduce((s, m) => s + (Number.parseFloat(m.price ?? '') || 0), 0)) * 100) / 100;
const maxOf = (xs: (number | null)[]) => {
  const nums = xs.filter((x): x is number => typeof x === 'number');
  return nums.length ? Math.max(...nums) : null;
};

/**
 * The team's auto-generated lab test for an order set: the union of the lab tests' markers and the
 * add-on markers. A test the team already has with the same markers, lab and method is reused.
 */
async function autoGeneratedLabTest(db: Db, teamId: string, lab: LabRow, method: string, panels: LabTestRow[], markerRows: MarkerRow[]): Promise<LabTestRow> {
  const markerIds = uniq([...panels.flatMap((p) => p.markerIds), ...markerRows.map((m) => m.id)]);
  const key = [...markerIds].sort((a, b) => a - b).join(',');
  const existing = await db
    .select()
    .from(labTests)
    .where(and(eq(labTests.teamId, teamId), eq(labTests.labId, lab.id), eq(labTests.method, method), eq(labTests.autoGenerated, true), eq(labTests.status, 'active')));
  const same = existing.find((t) => [...t.markerIds].sort((a, b) => a - b).join(',') === key);
  if (same) return same;
  const names = [...panels.map((p) => p.name), ...markerRows.map((m) => m.name)];
  const name = `Order set: ${names.join(', ')}`;
  const [created] = await db
    .insert(labTests)
    .values({
      teamId,
      labId: lab.id,
      slug: `order-set-${randomBytes(5).toString('hex')}`,
      name: name.length > 200 ? `${name.slice(0, 197)}...` : name,
      sampleType: panels[0]?.sampleType ?? 'serum',
      method,
      price: sumPrice(panels, markerRows),
      status: 'active',
      fasting: panels.some((p) => p.fasting),
      markerIds,
      autoGenerated: true,
      isDelegated: false,
      commonTatDays: maxOf([...panels.map((p) => p.commonTatDays), ...markerRows.map((m) => m.commonTatDays)]),
      worstCaseTatDays: maxOf([...panels.map((p) => p.worstCaseTatDays), ...markerRows.map((m) => m.worstCaseTatDays)]),
    })
    .returning();
  return created!;
}

/** When the first lifecycle step runs: a few seconds from now, or at activate_by when that is later. */
function advanceAt(activateBy: string | null | undefined): Date {
  const soon = new Date(Date.now() + ORDER_ADVANCE_DELAY_MS);
  const at = activateBy ? Date.parse(activateBy) : Number.NaN;
  return Number.isFinite(at) && at > soon.getTime() ? new Date(at) : soon;
}

/**
 * Places an order inside the caller's transaction: checks the user, resolves the lab test (or builds
 * one from the order set) and the lab account, then writes the order (received.ordered), its first
 * event, the `labtest.order.created` outbox event and the `order.advance` job.
 */
export async function placeOrder(tx: Db, teamId: string, input: NewOrder, opts: PlaceOptions): Promise<Placed> {
  await checkTeamUser(tx, teamId, input.userId);
  if (input.activateBy && !Number.isFinite(Date.parse(input.activateBy))) {
    throw new Invalid(['body', 'activate_by'], 'must be an ISO-8601 date or date-time', 'value_error.date');
  }

  const items = await resolveItems(tx, teamId, input);
  checkMarkersOrderable(items.markers, ['body', 'order_set', 'add_on', 'marker_ids']);
  const labRows = await tx.select().from(labs);
  const labById = new Map(labRows.map((l) => [l.id, l]));
  const labSlugById = new Map(labRows.map((l) => [l.id, l.slug]));

  // The lab account the caller names (top level or in the order set).
  const setAccountId = input.orderSet?.lab_account_id ?? null;
  if (input.labAccountId && setAccountId && input.labAccountId !== setAccountId) {
    throw new Invalid(['body', 'order_set', 'lab_account_id'], 'differs from lab_account_id; give one lab account', 'value_error.lab_account_conflict');
  }
  const givenId = input.labAccountId ?? setAccountId;
  const givenLoc = input.labAccountId ? ['body', 'lab_account_id'] : ['body', 'order_set', 'lab_account_id'];
  const given = givenId
    ? await checkGivenLabAccount(tx, { teamId, id: givenId, loc: givenLoc, use: opts.use, excludeAccountId: opts.excludeAccountId })
    : null;

  // Add-on markers named by provider id belong to the order's lab.
  let labIds = uniq([...items.panels.map((p) => p.labId), ...items.markers.map((m) => m.labId)]);
  const accountLabId = given ? labRows.find((l) => l.slug === given.labSlug)?.id : undefined;
  if (items.providerIds.length) {
    const labId = labIds.length === 1 ? labIds[0] : accountLabId;
    const found = labId === undefined ? [] : await tx.select().from(markers).where(and(eq(markers.labId, labId), inArray(markers.providerId, items.providerIds)));
    const unknown = items.providerIds.filter((pid) => !found.some((m) => m.providerId === pid));
    if (unknown.length) {
      throw new Invalid(['body', 'order_set', 'add_on', 'provider_ids'], `unknown marker provider ids${labId === undefined ? '' : ` for lab ${labSlugById.get(labId)}`}: ${list(unknown)}`, 'value_error.unknown_marker');
    }
    checkMarkersOrderable(found, ['body', 'order_set', 'add_on', 'provider_ids']);
    items.markers = uniq([...items.markers, ...found.filter((m) => !items.markers.some((x) => x.id === m.id))]);
    labIds = uniq([...labIds, ...found.map((m) => m.labId)]);
  }

  if (given) checkItemsOfAccountLab(given, givenLoc, items, labSlugById);
  if (labIds.length !== 1) {
    const byLab = labIds.map((id) => {
      const names = describeOffenders(
        items.panels.filter((p) => p.labId === id),
        items.markers.filter((m) => m.labId === id),
        labSlugById,
      );
      return `${labSlugById.get(id) ?? id}: ${names.join(', ')}`;
    });
    throw new Invalid(['body', 'order_set'], `all lab tests and markers of an order must be of one lab; these span ${labIds.length} labs: ${byLab.join(' | ')}`, 'value_error.multiple_labs');
  }
  const lab = labById.get(labIds[0]!);
  if (!lab) throw new Invalid(['body', 'order_set'], `lab ${labIds[0]} is not in the catalogue`, 'value_error.unknown_lab');

  const method = collectionMethodFor(input, lab, items.panels);
  const billingType = input.billingType ?? 'client_bill';
  const state = input.patientAddress.state;
  let account: LabAccountRow;
  if (given) {
    checkAccountBilling(given, givenLoc, billingType, state);
    account = given;
  } else {
    account = await pickLabAccount(tx, { teamId, lab, billingType, state, use: opts.use, excludeAccountId: opts.excludeAccountId });
  }

  const test = items.single ?? (await autoGeneratedLabTest(tx, teamId, lab, method, items.panels, items.markers));
  // An imported order was collected already: its questions were asked at the draw.
  const testMarkers = opts.origin === 'created' && test.markerIds.length ? await tx.select().from(markers).where(inArray(markers.id, test.markerIds)) : [];
  const aoeAnswers = opts.origin === 'created' ? checkAoeAnswers(testMarkers, input.aoeAnswers) : (input.aoeAnswers ?? []);
  const insurance = insuranceRecord(input.healthInsurance);

  const [row] = await tx
    .insert(orders)
    .values({
      teamId,
      userId: input.userId,
      labTestId: test.id,
      labAccountId: account.id,
      collectionMethod: method,
      status: 'received',
      lowLevelStatus: 'ordered',
      origin: opts.origin,
      patientDetails: input.patientDetails,
      patientAddress: input.patientAddress,
      physician: input.physician ?? null,
      billingType,
      icdCodes: input.icdCodes ?? null,
      consents: recordConsents(input.consents),
      aoeAnswers: aoeAnswers.length ? aoeAnswers : null,
      healthInsurance: insurance?.data ?? null,
      healthInsuranceId: insurance?.id ?? null,
      priority: input.priority ?? false,
      activateBy: input.activateBy ?? null,
      passthrough: input.passthrough ?? null,
      clinicalNotes: input.clinicalNotes ?? null,
      sampleId: input.sampleId ?? null,
      updateReason: input.updateReason ?? null,
      originalOrderId: input.originalOrderId ?? null,
    })
    .returning();
  await tx.insert(orderEvents).values({ orderId: row!.id, status: orderStatus('received', method, 'ordered') });
  const [order] = await presentOrders(tx, [row!]);
  await emitEvent(tx, teamId, 'labtest.order.created', input.userId, order as unknown as Record<string, unknown>);
  // `from` is the status the job expects to find (the lifecycle skips a job whose order moved on).
  await enqueueJob(tx, ORDER_ADVANCE_JOB, { order_id: row!.id, from: 'ordered' }, { runAt: advanceAt(input.activateBy) });
  return { row: row!, order: order!, account };
}
