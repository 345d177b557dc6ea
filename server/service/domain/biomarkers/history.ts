import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { BiomarkerHistory, BiomarkerObservation, BiomarkerSummaries } from '../../../contract';
import type { Database } from '../../../store/db';
import { biomarkerResults, orderResults, parsingJobs, type ServiceSchema } from '../../db/schema';
import { findUserRow } from '../users';
import { canonicalUnit, knowsAnalyte, normaliseValue, toUcum } from './units';

type Db = Database<ServiceSchema>;
type Row = typeof biomarkerResults.$inferSelect;

/** A change smaller than this share of the previous value is "flat" on a trend arrow. */
const FLAT_SHARE = 0.05;

function present(r: Row): BiomarkerObservation {
  const convert = (v: number | null) => (v === null || !r.loinc ? null : (normaliseValue(r.loinc, v, r.unit)?.value ?? null));
  return {
    id: r.id,
    source: r.source,
    order_id: r.orderId,
    parsing_job_id: r.parsingJobId,
    name: r.name,
    loinc: r.loinc,
    result: r.result,
    type: r.type,
    value: r.value,
    unit: r.unit,
    normalized_value: r.normalizedValue,
    normalized_unit: r.normalizedUnit,
    reference_range: r.referenceRange,
    min_range_value: r.minRangeValue,
    max_range_value: r.maxRangeValue,
    normalized_min_range_value: r.normalizedUnit ? convert(r.minRangeValue) : null,
    normalized_max_range_value: r.normalizedUnit ? convert(r.maxRangeValue) : null,
    is_above_max_range: r.isAboveMaxRange,
    is_below_min_range: r.isBelowMinRange,
    interpretation: r.interpretation,
    performing_laboratory: r.performingLaboratory,
    observed_at: r.observedAt.toISOString(),
  };
}

/**
 * The patient's values that count as history: every order result, and results of lab reports only
 * once they are completed (approved in review, or trusted by the reader). Values of a report sent
 * back to review or rejected never show.
 */
async function historyRows(db: Db, teamId: string, userId: string, loinc?: string): Promise<Row[]> {
  const rows = await db
    .select({ r: biomarkerResults })
    .from(biomarkerResults)
    .leftJoin(parsingJobs, eq(parsingJobs.id, biomarkerResults.parsingJobId))
    .leftJoin(orderResults, eq(orderResults.orderId, biomarkerResults.orderId))
    .where(
      and(
        eq(biomarkerResults.teamId, teamId),
        eq(biomarkerResults.userId, userId),
        loinc ? eq(biomarkerResults.loinc, loinc) : undefined,
        or(isNull(biomarkerResults.parsingJobId), eq(parsingJobs.stage, 'done')),
      ),
    )
    .orderBy(asc(biomarkerResults.observedAt), asc(biomarkerResults.id));
  return rows.map((x) => x.r);
}

/** A printed "<0.3" or ">90": a bound of the measuring range, not a value to compare. */
const BOUND = /^\s*(?:[<>]=?|≤|≥)/;

/** An analyte without one unit (no LOINC code, or one the unit table lacks) compares only within a printed unit. */
const asPrinted = (unit: string | null) => `printed:${toUcum(unit) ?? (unit ?? '').trim()}`;

/** The unit a group's trend and previous value are in: the analyte's one unit, else the latest value's printed unit. */
function unitKeyOf(latest: Row): string {
  return latest.loinc && knowsAnalyte(latest.loinc) ? (canonicalUnit(latest.loinc) ?? '') : asPrinted(latest.unit);
}

/**
 * The value as a trend compares it, with the unit it is in; null when it is no plain number (a range
 * such as "<0.3", a comment) or, for an analyte with one unit, when UCUM could not bring it there:
 * 5 "mg" of glucose says nothing next to 99 mg/dL, and neither does "<70".
 */
function comparable(r: Row): { value: number; unit: string } | null {
  if (r.value === null || r.type === 'range' || r.type === 'comment' || BOUND.test(r.result)) return null;
  if (r.loinc && knowsAnalyte(r.loinc)) {
    return r.normalizedValue === null || r.normalizedUnit === null ? null : { value: r.normalizedValue, unit: r.normalizedUnit };
  }
  return { value: r.value, unit: asPrinted(r.unit) };
}

/**
 * The latest value of each analyte (by LOINC, or by printed name where no code is known) with its
 * trend. The previous value is the one just before the latest, in the summary's unit; when it is
 * not comparable (a range, a unit that does not convert) there is no previous value rather than
 * one that is not like the latest, and no trend. A latest value that is not comparable has no trend.
 */
export async function biomarkerSummaries(db: Db, teamId: string, userId: string): Promise<z.infer<typeof BiomarkerSummaries>> {
  await findUserRow(db, teamId, userId);
  const rows = await historyRows(db, teamId, userId);
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    if (r.type === 'comment') continue;
    const key = r.loinc ?? `name:${r.slug}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const biomarkers = [...groups.values()].map((list) => {
    const latest = list[list.length - 1]!;
    const previous = list.length > 1 ? list[list.length - 2]! : null;
    const unitKey = unitKeyOf(latest);
    const [now, before] = [comparable(latest), previous && comparable(previous)];
    const previousValue = before?.unit === unitKey ? before.value : null;
    const trend: 'up' | 'down' | 'flat' | null =
      now?.unit !== unitKey || previousValue === null
        ? null
        : Math.abs(now.value - previousValue) <= Math.abs(previousValue) * FLAT_SHARE
          ? 'flat'
          : now.value > previousValue
            ? 'up'
            : 'down';
    return {
      loinc: latest.loinc,
      slug: latest.loincSlug ?? latest.slug,
      name: latest.name,
      unit: (latest.loinc && canonicalUnit(latest.loinc)) ?? latest.unit,
      count: list.length,
      latest: present(latest),
      previous_value: previousValue,
      trend,
    };
  });
  biomarkers.sort((a, b) => a.name.localeCompare(b.name));
  return { user_id: userId, biomarkers };
}

/** Every value of one analyte for the patient, oldest first, from orders and reports. */
export async function biomarkerHistory(db: Db, teamId: string, userId: string, loinc: string): Promise<z.infer<typeof BiomarkerHistory>> {
  await findUserRow(db, teamId, userId);
  const rows = await historyRows(db, teamId, userId, loinc);
  const latest = rows[rows.length - 1];
  return {
    user_id: userId,
    loinc,
    name: latest?.name ?? loinc,
    unit: canonicalUnit(loinc) ?? latest?.unit ?? null,
    observations: rows.map(present),
  };
}
