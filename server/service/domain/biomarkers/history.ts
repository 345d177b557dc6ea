import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { BiomarkerHistory, BiomarkerObservation, BiomarkerSummaries } from '../../../contract';
import type { Database } from '../../../store/db';
import { biomarkerResults, orderResults, parsingJobs, type ServiceSchema } from '../../db/schema';
import { findUserRow } from '../users';
import { canonicalUnit, normaliseValue } from './units';

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

const valueOf = (r: Row) => r.normalizedValue ?? (r.normalizedUnit === null ? r.value : null);

/** The latest value of each analyte (by LOINC, or by printed name where no code is known) with its trend. */
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
    const [now, before] = [valueOf(latest), previous ? valueOf(previous) : null];
    const trend =
      now === null || before === null ? null : Math.abs(now - before) <= Math.abs(before) * FLAT_SHARE ? 'flat' : now > before ? 'up' : 'down';
    return {
      loinc: latest.loinc,
      slug: latest.loincSlug ?? latest.slug,
      name: latest.name,
      unit: (latest.loinc && canonicalUnit(latest.loinc)) ?? latest.unit,
      count: list.length,
      latest: present(latest),
      previous_value: before,
      trend: trend as 'up' | 'down' | 'flat' | null,
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
