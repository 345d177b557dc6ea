import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { appointments, biomarkerResults, labs, labTests, markers, orderEvents, orderResults, teams, type ServiceSchema } from '../../db/schema';
import { emitEvent } from '../../webhooks/outbox';
import type { OrderRow } from '../orders/present';
import { normaliseValue } from '../biomarkers/units';
import { ANALYTE_PROFILES, interpretValue, type Patient, type Sex } from './analytes';
import { criticalCapable, seededRandom, simulateValues, type FixedValue, type Rand, type SimulatedValue, type Want } from './simulateValues';
import { notCalculatedReason, notPerformedReason, type MissingReason, type PrintedInput } from './missingResults';
import { performingLab } from './performingLabs';
import { ageAt, worstInterpretation } from './presentResults';

/**
 * The simulated laboratory: when an order's sample is resulted (it enters `partial_results` or
 * `completed`), the lab reports values for the order's markers. Partial results release the
 * quicker tests first; the final report releases the rest, with the odd result missing. Values
 * already released never change, and what is calculated later is calculated from them as printed.
 * An order that ends (cancelled, failed) with partial results closes its report: final, the tests
 * never performed listed as not resulted. Runs inside the transaction that moves the order, so the
 * results, the order's interpretation and the webhook events exist together or not at all.
 */

type Db = Database<ServiceSchema>;

/** `closed`: the order ended without completing; a partial report becomes final with what it has. */
export type ResultStage = 'partial' | 'final' | 'closed';

/** What the sandbox asks the results to say (POST /v3/order/{id}/test); the lifecycle asks nothing. */
export interface ResultRequest {
  interpretation?: 'normal' | 'abnormal' | 'critical' | 'unknown' | null;
  resultTypes?: string[] | null;
  hasMissingResults?: boolean | null;
}

export const CRITICAL_EVENT = 'labtest.result.critical';
export const PARTIAL_RESULTS_EVENT = 'labtest.result.partial';

/** How often the lifecycle's own orders turn out critical, abnormal or with a result missing. */
export const RESULT_ODDS = { critical: 0.04, abnormal: 0.35, missing: 0.06 } as const;

/** The result stage a status produces: partial results, the final report, the close of a report the order left partial, or none. */
export function resultStageOf(top: string, low: string): ResultStage | null {
  if (low === 'partial_results') return 'partial';
  if (top === 'completed') return 'final';
  if (top === 'cancelled' || top === 'failed') return 'closed';
  return null;
}

interface ExpectedResult {
  name: string;
  slug: string;
  loinc: string | null;
  loincSlug: string | null;
  unit: string | null;
  providerId: string | null;
  required: boolean;
  sources: { marker_id: number; name: string; slug: string; provider_id: string | null }[];
  tat: number;
}

/** The order's expected results, one per analyte (a glucose in a CMP and on its own is reported once, under both markers). */
function expectedResults(markerRows: (typeof markers.$inferSelect)[], order: number[]): ExpectedResult[] {
  const byKey = new Map<string, ExpectedResult>();
  const sorted = [...markerRows].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  for (const m of sorted) {
    const source = { marker_id: m.id, name: m.name, slug: m.slug, provider_id: m.providerId };
    for (const raw of m.expectedResults) {
      const r = raw as { name: string; slug: string; provider_id?: string; required?: boolean; loinc?: { code?: string; slug?: string; unit?: string | null } | null };
      const loinc = r.loinc?.code ?? null;
      const key = loinc ?? `slug:${r.slug}`;
      const known = byKey.get(key);
      if (known) {
        known.sources.push(source);
        known.tat = Math.min(known.tat, m.commonTatDays ?? 1);
        continue;
      }
      byKey.set(key, {
        name: r.name,
        slug: r.slug,
        loinc,
        loincSlug: r.loinc?.slug ?? null,
        unit: r.loinc?.unit ?? null,
        providerId: r.provider_id ?? null,
        required: r.required ?? true,
        sources: [source],
        tat: m.commonTatDays ?? 1,
      });
    }
  }
  return [...byKey.values()];
}

const keyOf = (e: { loinc: string | null; slug: string }) => e.loinc ?? `slug:${e.slug}`;

const inputsOf = (loinc: string | null) => (loinc ? (ANALYTE_PROFILES[loinc]?.calculatedFrom ?? []) : []);

/**
 * The partial batch: whole markers with the shortest turnaround, at most half of them; a single
 * marker releases the first half of its results. Something is always left for the final report. A
 * calculated result waits for its inputs: it is never printed before a value of the order it is
 * calculated from.
 */
function partialBatch(pending: ExpectedResult[]): ExpectedResult[] {
  if (pending.length < 2) return [];
  let batch: ExpectedResult[];
  const markerIds = [...new Set(pending.map((e) => e.sources[0]!.marker_id))];
  if (markerIds.length >= 2) {
    const tatOf = (id: number) => Math.min(...pending.filter((e) => e.sources[0]!.marker_id === id).map((e) => e.tat));
    const quickest = [...markerIds].sort((a, b) => tatOf(a) - tatOf(b)).slice(0, Math.floor(markerIds.length / 2));
    batch = pending.filter((e) => quickest.includes(e.sources[0]!.marker_id));
  } else {
    batch = pending.slice(0, Math.floor(pending.length / 2));
  }
  const later = new Set(pending.filter((e) => !batch.includes(e)).map((e) => e.loinc));
  return batch.filter((e) => !inputsOf(e.loinc).some((i) => later.has(i)));
}

function sexOf(gender: unknown): Sex {
  return gender === 'female' || gender === 'male' || gender === 'other' ? gender : 'unknown';
}

/** A stable seed per order, so a plan made at the partial stage is the same plan at the final one. */
function seedOf(orderId: string): number {
  let h = 2166136261;
  for (const ch of orderId) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

const pick = <T>(items: T[], rand: Rand): T | undefined => items[Math.floor(rand() * items.length)];

interface Plan {
  target: 'normal' | 'abnormal' | 'critical' | 'unknown';
  missing: boolean;
}

function planFor(order: OrderRow, request: ResultRequest): Plan {
  const rand = seededRandom(seedOf(order.id));
  const r = rand();
  const target = request.interpretation ?? (r < RESULT_ODDS.critical ? 'critical' : r < RESULT_ODDS.critical + RESULT_ODDS.abnormal ? 'abnormal' : 'normal');
  const missing = request.hasMissingResults ?? rand() < RESULT_ODDS.missing;
  return { target, missing };
}

/**
 * Missing results of the final report: a hemolysed sample loses its potassium, otherwise one test
 * runs short of specimen. (What is calculated from them is not calculated either: see releaseResults.)
 */
function chooseMissing(batch: ExpectedResult[], rand: Rand): Map<string, MissingReason> {
  const missing = new Map<string, MissingReason>();
  const measured = batch.filter((e) => e.loinc && ANALYTE_PROFILES[e.loinc] && !ANALYTE_PROFILES[e.loinc]!.calculatedFrom);
  const potassium = measured.find((e) => e.loinc === '2823-3');
  if (potassium && rand() < 0.6) {
    missing.set(keyOf(potassium), { type: 'patient_condition_failure', note: 'Specimen hemolyzed; potassium not reported. Please recollect.' });
  } else {
    const victim = pick(measured.length ? measured : batch, rand);
    if (victim) missing.set(keyOf(victim), { type: 'quantity_not_sufficient_failure', note: 'Quantity not sufficient to perform the test. Please recollect.' });
  }
  return missing;
}

/** A missing result as the wire carries it (MissingBiomarkerResult). */
function missingEntry(e: ExpectedResult, m: MissingReason): Record<string, unknown> {
  return { name: e.name, slug: e.slug, inferred_failure_type: m.type, note: m.note, loinc: e.loinc, loinc_slug: e.loincSlug, provider_id: e.providerId, source_markers: e.sources };
}

/** The numeric values the lab has printed for the order, by LOINC: what later calculations start from. */
function printedValues(released: (typeof biomarkerResults.$inferSelect)[]): Record<string, FixedValue> {
  const out: Record<string, FixedValue> = {};
  for (const r of released) {
    if (!r.loinc || r.value === null || (r.type !== 'numeric' && r.type !== 'range')) continue;
    const censored = r.result.startsWith('<') ? 'below' : r.result.startsWith('>') ? 'above' : undefined;
    out[r.loinc] = censored ? { value: r.value, censored } : { value: r.value };
  }
  return out;
}

/** Comment results the lab adds to a marker's report (the sandbox's `comment` result type). */
function commentFor(markerName: string): string {
  const n = markerName.toLowerCase();
  if (n.includes('lipid')) return 'Desirable total cholesterol is below 200 mg/dL. LDL cholesterol goals depend on the patient’s cardiovascular risk.';
  if (n.includes('a1c')) return 'A1c of 5.7-6.4% indicates increased risk of diabetes; 6.5% or higher is consistent with diabetes.';
  if (n.includes('metabolic')) return 'eGFR calculated with the CKD-EPI 2021 equation, without a race coefficient.';
  if (n.includes('thyroid') || n.includes('tsh')) return 'Thyroid results can be affected by biotin supplements taken within 72 hours of collection.';
  return 'Specimen received in acceptable condition. Results reviewed by the laboratory.';
}

interface NewRow {
  expected: ExpectedResult | null;
  name: string;
  slug: string;
  loinc: string | null;
  loincSlug: string | null;
  type: string;
  result: string;
  unit: string | null;
  value: number | null;
  range: { low?: number; high?: number; text: string } | null;
  interpretation: string | null;
  isAbove: boolean | null;
  isBelow: boolean | null;
  notes: string | null;
  sources: ExpectedResult['sources'];
}

function fromSimulated(e: ExpectedResult, v: SimulatedValue): NewRow {
  return {
    expected: e,
    name: e.name,
    slug: e.slug,
    loinc: e.loinc,
    loincSlug: e.loincSlug,
    type: v.type,
    result: v.result,
    unit: v.unit,
    value: v.value,
    range: v.range,
    interpretation: v.interpretation,
    isAbove: v.isAboveMaxRange,
    isBelow: v.isBelowMinRange,
    notes: null,
    sources: e.sources,
  };
}

/** The values wanted for a batch, so the report says what the plan (or the sandbox) asks. */
function wantsFor(batch: ExpectedResult[], plan: Plan, request: ResultRequest, patient: Patient, alreadyCritical: boolean, rand: Rand): Record<string, Want> {
  const loincs = batch.map((e) => e.loinc).filter((c): c is string => !!c && !!ANALYTE_PROFILES[c]);
  const measured = loincs.filter((c) => !ANALYTE_PROFILES[c]!.calculatedFrom);
  const want: Record<string, Want> = Object.fromEntries(measured.map((c) => [c, 'normal' as Want]));
  if (plan.target === 'critical' && !alreadyCritical) {
    const chosen = pick(criticalCapable(measured), rand);
    if (chosen) want[chosen] = 'critical';
  }
  if (plan.target === 'abnormal' || plan.target === 'critical') {
    const candidates = measured.filter((c) => want[c] === 'normal');
    const count = Math.min(candidates.length, 1 + Math.floor(rand() * 3));
    for (let i = 0; i < count; i++) {
      const c = candidates.splice(Math.floor(rand() * candidates.length), 1)[0]!;
      want[c] = 'abnormal';
    }
  }
  if (request.resultTypes?.includes('range')) {
    // A value below the measuring range ("<0.3") where that is still within the reference range.
    const quiet = measured.filter((c) => {
      const low = ANALYTE_PROFILES[c]!.reportable?.[0];
      return want[c] === 'normal' && low !== undefined && interpretValue(c, low, patient) === 'normal';
    });
    const chosen = pick(quiet, rand);
    if (chosen) want[chosen] = 'below_reportable';
  }
  return want;
}

async function loadContext(tx: Db, order: OrderRow) {
  const [test] = await tx.select().from(labTests).where(eq(labTests.id, order.labTestId));
  const [lab] = await tx.select().from(labs).where(eq(labs.id, test!.labId));
  const markerRows = test!.markerIds.length ? await tx.select().from(markers).where(inArray(markers.id, test!.markerIds)) : [];
  const events = await tx.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.id));
  const appointment = order.appointmentId ? (await tx.select().from(appointments).where(eq(appointments.id, order.appointmentId)))[0] : undefined;
  const [existing] = await tx.select().from(orderResults).where(eq(orderResults.orderId, order.id));
  const released = await tx.select().from(biomarkerResults).where(eq(biomarkerResults.orderId, order.id));
  const [team] = await tx.select({ partial: teams.partialResultsWebhooks }).from(teams).where(eq(teams.id, order.teamId));
  return { test: test!, lab: lab!, markerRows, events, appointment, existing, released, partialWebhooks: team?.partial ?? false };
}

/** When the sample was taken and reached the lab, read from the order's own history. */
function sampleTimes(order: OrderRow, ctx: Awaited<ReturnType<typeof loadContext>>, now: Date) {
  const at = (low: string) => ctx.events.find((e) => e.status.endsWith(`.${low}`))?.createdAt;
  const visit = ctx.appointment?.startAt && ctx.appointment.startAt <= now ? ctx.appointment.startAt : undefined;
  const collected = at('draw_completed') ?? at('transit_lab') ?? visit ?? at('partial_results') ?? now;
  const received = at('delivered_to_lab') ?? new Date(Math.min(now.getTime(), collected.getTime() + 3 * 3600_000));
  return { collected, received };
}

/**
 * Whether any of the order's analytes has critical limits: a value can only be critical against
 * one (the sandbox refuses `interpretation: critical` for an order of, say, a thyroid panel).
 */
export async function orderCanBeCritical(tx: Db, order: OrderRow): Promise<{ possible: boolean; analytes: string[] }> {
  const [test] = await tx.select().from(labTests).where(eq(labTests.id, order.labTestId));
  const markerRows = test && test.markerIds.length ? await tx.select().from(markers).where(inArray(markers.id, test.markerIds)) : [];
  const expected = expectedResults(markerRows, test?.markerIds ?? []);
  const measured = expected.map((e) => e.loinc).filter((c): c is string => !!c && !!ANALYTE_PROFILES[c] && !ANALYTE_PROFILES[c]!.calculatedFrom);
  // Nothing measurable at all: no value can contradict a critical report.
  return { possible: expected.length === 0 || criticalCapable(measured).length > 0, analytes: expected.map((e) => e.name) };
}

export interface ReleasedSummary {
  interpretation: string;
  hasMissingResults: boolean;
}

/**
 * Releases the results of a stage: inserts the new values, updates the order's report, and emits
 * `labtest.result.critical` (once per order) and, for teams that asked, `labtest.result.partial`.
 * Returns what the order row should say, or null when there is nothing to report yet.
 */
export async function releaseResults(
  tx: Db,
  order: OrderRow,
  stage: ResultStage,
  request: ResultRequest = {},
  opts: { now?: Date; emitEvents?: boolean } = {},
): Promise<ReleasedSummary | null> {
  const now = opts.now ?? new Date();
  const emit = opts.emitEvents ?? true;
  if (stage === 'closed') {
    // Most orders end without a report (or with a final one): nothing to close, nothing more to read.
    const [report] = await tx.select({ status: orderResults.status }).from(orderResults).where(eq(orderResults.orderId, order.id));
    if (!report || report.status === 'final') return null;
  }
  const ctx = await loadContext(tx, order);
  const expected = expectedResults(ctx.markerRows, ctx.test.markerIds);
  const releasedKeys = new Set(ctx.released.map((r) => r.loinc ?? `slug:${r.slug}`));
  const missingBefore = (ctx.existing?.missingResults ?? []) as { slug: string; loinc?: string | null }[];
  for (const m of missingBefore) releasedKeys.add(m.loinc ?? `slug:${m.slug}`);
  const pending = expected.filter((e) => !releasedKeys.has(keyOf(e)));
  if (stage === 'closed') return closeReport(tx, order, ctx, pending, now);
  const batch = stage === 'partial' ? partialBatch(pending) : pending;
  if (stage === 'partial' && batch.length === 0) return null;

  const plan = planFor(order, request);
  const rand = seededRandom(seedOf(order.id) ^ (stage === 'partial' ? 0x5bd1e995 : 0x27d4eb2f));
  const patientDetails = order.patientDetails as { dob?: string; gender?: string; first_name?: string; last_name?: string };
  const { collected, received } = sampleTimes(order, ctx, now);
  const patient: Patient = { sex: sexOf(patientDetails.gender), ageYears: ageAt(patientDetails.dob, collected) ?? 40 };

  const missing = stage === 'final' && plan.missing && batch.length > 0 ? chooseMissing(batch, rand) : new Map<string, MissingReason>();
  const notResulted = new Set(missing.keys());
  const toMeasure = batch.filter((e) => !missing.has(keyOf(e)));
  const alreadyCritical = ctx.released.some((r) => r.interpretation === 'critical');
  const want = wantsFor(toMeasure, plan, request, patient, alreadyCritical, rand);
  // Values already printed are used as printed (so a calculated result of this batch is calculated
  // from them), and the inputs of calculated results are simulated even where the order does not
  // print them, so the reason a result is not calculable can be told.
  const fixed = printedValues(ctx.released);
  const batchLoincs = toMeasure.map((e) => e.loinc).filter((c): c is string => !!c);
  const loincs = [...new Set([...batchLoincs, ...batchLoincs.flatMap(inputsOf), ...Object.keys(fixed)])];
  const values = simulateValues({ loincs, patient, rand, want, fixed });
  const printedInput = (i: string): PrintedInput | undefined => (notResulted.has(i) ? undefined : values.get(i));

  const rows: NewRow[] = [];
  for (const e of toMeasure) {
    const v = e.loinc ? values.get(e.loinc) : undefined;
    const calculated = inputsOf(e.loinc).length > 0;
    // A calculated result whose input went missing is not calculated, even if the simulation could.
    if (v && !inputsOf(e.loinc).some((i) => notResulted.has(i))) rows.push(fromSimulated(e, v));
    else if (calculated) missing.set(keyOf(e), notCalculatedReason(e.loinc!, patient, printedInput));
    else missing.set(keyOf(e), { type: 'unknown_failure', note: 'The laboratory has no assay for this analyte.' });
  }
  const firstMarker = batch[0]?.sources[0];
  if (request.resultTypes?.includes('comment') && firstMarker && !ctx.released.some((r) => r.type === 'comment')) {
    rows.push({ expected: null, name: `${firstMarker.name} Comment`, slug: `${firstMarker.slug}_comment`, loinc: null, loincSlug: null, type: 'comment', result: commentFor(firstMarker.name), unit: null, value: null, range: null, interpretation: 'normal', isAbove: null, isBelow: null, notes: null, sources: [firstMarker] });
  }
  if (request.resultTypes?.includes('coded_value') && firstMarker && !rows.some((r) => r.type === 'coded_value') && !ctx.released.some((r) => r.type === 'coded_value')) {
    // No qualitative test in the order: the lab's coded specimen assessment stands in.
    rows.push({ expected: null, name: 'Specimen Integrity', slug: 'specimen_integrity', loinc: null, loincSlug: null, type: 'coded_value', result: 'Acceptable', unit: null, value: null, range: { text: 'Acceptable' }, interpretation: 'normal', isAbove: null, isBelow: null, notes: null, sources: [firstMarker] });
  }

  const labName = ctx.lab.name;
  const sampleId = order.sampleId ?? specimenNumberOf(order.id);
  const position0 = ctx.released.length;
  if (rows.length) {
    await tx.insert(biomarkerResults).values(
      rows.map((r, i) => {
        const normal = r.value !== null && r.loinc ? normaliseValue(r.loinc, r.value, r.unit) : null;
        return {
          teamId: order.teamId,
          userId: order.userId,
          source: 'order',
          orderId: order.id,
          position: position0 + i,
          name: r.name,
          slug: r.slug,
          loinc: r.loinc,
          loincSlug: r.loincSlug,
          result: r.result,
          type: r.type,
          unit: r.unit,
          value: r.value,
          referenceRange: r.range?.text ?? null,
          minRangeValue: r.range?.low ?? null,
          maxRangeValue: r.range?.high ?? null,
          isAboveMaxRange: r.isAbove,
          isBelowMinRange: r.isBelow,
          interpretation: r.interpretation,
          notes: r.notes,
          sourceMarkers: r.sources,
          performingLaboratory: labName,
          sourceSampleId: sampleId,
          normalizedValue: normal?.value ?? null,
          normalizedUnit: normal?.unit ?? null,
          observedAt: collected,
          reportedAt: now,
        };
      }),
    );
  }

  const newMissing: Record<string, unknown>[] = [...missing.entries()].map(([key, m]) => missingEntry(batch.find((x) => keyOf(x) === key)!, m));
  const interpretations = [...ctx.released.map((r) => r.interpretation), ...rows.map((r) => r.interpretation)];
  // A test with nothing the lab can measure (no expected results) reports what was asked: no value contradicts it.
  const nothingToMeasure = expected.length === 0;
  const worst = worstInterpretation(interpretations);
  // A report asked to say "unknown" still says critical once a critical value has been printed: someone must act on it.
  const interpretation = stage === 'final' && (plan.target === 'unknown' || nothingToMeasure) && worst !== 'critical' ? plan.target : worst;
  if (nothingToMeasure && stage === 'final' && plan.missing) {
    newMissing.push({ name: ctx.test.name, slug: ctx.test.slug, inferred_failure_type: 'unknown_failure', note: 'The laboratory reported no result for this test.', loinc: null, loinc_slug: null, provider_id: null, source_markers: [] });
  }
  const allMissing = [...(ctx.existing?.missingResults ?? []), ...newMissing];
  const pd = patientDetails;
  const lab = performingLab(ctx.lab.slug);
  const physician = order.physician as { first_name?: string; last_name?: string; npi?: string } | null;
  const metadata = {
    patient: `${pd.last_name ?? ''}, ${pd.first_name ?? ''}`.replace(/^, |, $/g, '').trim() || 'Unknown',
    dob: pd.dob ?? '',
    age: String(patient.ageYears),
    'clia_#': lab.clia,
    laboratory: labName,
    provider: physician?.last_name ? `${physician.first_name ?? ''} ${physician.last_name}`.trim() : null,
    patient_id: order.userId,
    account_id: order.labAccountId,
  };
  const values_ = {
    status: stage,
    specimenNumber: sampleId,
    metadata,
    missingResults: allMissing,
    interpretation,
    collectedAt: collected,
    receivedAt: received,
    reportedAt: now,
    updatedAt: now,
  };
  const [saved] = ctx.existing
    ? await tx.update(orderResults).set(values_).where(eq(orderResults.orderId, order.id)).returning()
    : await tx.insert(orderResults).values({ orderId: order.id, teamId: order.teamId, userId: order.userId, ...values_ }).returning();

  if ((rows.some((r) => r.interpretation === 'critical') || interpretation === 'critical') && !saved!.criticalNotifiedAt) {
    await tx.update(orderResults).set({ criticalNotifiedAt: now }).where(eq(orderResults.orderId, order.id));
    if (emit) await emitEvent(tx, order.teamId, CRITICAL_EVENT, order.userId, {
      order_id: order.id,
      sample_id: sampleId,
      status: stage,
      interpretation: 'critical',
      team_id: order.teamId,
      user_id: order.userId,
      created_at: saved!.createdAt.toISOString(),
      updated_at: now.toISOString(),
    });
  }
  if (emit && stage === 'partial' && ctx.partialWebhooks && rows.length) {
    await emitEvent(tx, order.teamId, PARTIAL_RESULTS_EVENT, order.userId, {
      order_id: order.id,
      sample_id: sampleId,
      status: 'partial',
      interpretation,
      results_count: ctx.released.length + rows.length,
      pending_count: pending.length - batch.length,
      team_id: order.teamId,
      user_id: order.userId,
      created_at: saved!.createdAt.toISOString(),
      updated_at: now.toISOString(),
    });
  }
  return { interpretation, hasMissingResults: allMissing.length > 0 };
}

/**
 * An order that ends (cancelled, failed) after partial results: the report is closed, `final`, and
 * every test not yet resulted is listed as never performed, so no reader waits for results that
 * will not come. An order without results keeps none. The order's `labtest.order.updated` (sent by
 * moveOrder) announces the change.
 */
async function closeReport(
  tx: Db,
  order: OrderRow,
  ctx: Awaited<ReturnType<typeof loadContext>>,
  pending: ExpectedResult[],
  now: Date,
): Promise<ReleasedSummary | null> {
  if (!ctx.existing) return null;
  const reason = notPerformedReason(order.status);
  const allMissing = [...ctx.existing.missingResults, ...pending.map((e) => missingEntry(e, reason))];
  await tx.update(orderResults).set({ status: 'final', missingResults: allMissing, reportedAt: now, updatedAt: now }).where(eq(orderResults.orderId, order.id));
  return { interpretation: ctx.existing.interpretation, hasMissingResults: allMissing.length > 0 };
}

/** A lab-style specimen number for orders without a sample id: stable per order. */
export function specimenNumberOf(orderId: string): string {
  const digits = String(seedOf(orderId)).padStart(10, '0').slice(-9);
  return `SP${digits}`;
}
