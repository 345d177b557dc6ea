import { and, asc, eq } from 'drizzle-orm';
import type { BiomarkerResult, LabResultsMetadata, LabResultsRaw, MissingBiomarkerResult } from '../../../contract';
import type { Database } from '../../../store/db';
import { biomarkerResults, labs, labTests, orderResults, orders, type ServiceSchema } from '../../db/schema';
import { ServiceError } from '../errors';
import { findOrderRow, type OrderRow } from '../orders/present';
import { orderStatus } from '../orders/statuses';
import { performingLab } from './performingLabs';

type Db = Database<ServiceSchema>;
export type OrderResultsRow = typeof orderResults.$inferSelect;
export type BiomarkerRow = typeof biomarkerResults.$inferSelect;

const SEVERITY: Record<string, number> = { normal: 0, unknown: 0, abnormal: 1, critical: 2 };

/** The order's interpretation: its worst result (an interpretation this service does not know counts as unknown). */
export function worstInterpretation(values: (string | null | undefined)[]): 'normal' | 'abnormal' | 'critical' {
  const worst = Math.max(0, ...values.map((v) => SEVERITY[v ?? 'normal'] ?? 0));
  return worst === 2 ? 'critical' : worst === 1 ? 'abnormal' : 'normal';
}

/** Whole years between a YYYY-MM-DD birth date and a moment; null when the date is not one. */
export function ageAt(dob: string | undefined | null, at: Date): number | null {
  const m = dob ? /^(\d{4})-(\d{2})-(\d{2})/.exec(dob) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = at.getUTCFullYear() - y;
  if (at.getUTCMonth() + 1 < mo || (at.getUTCMonth() + 1 === mo && at.getUTCDate() < d)) age -= 1;
  return age;
}

export function presentBiomarker(r: BiomarkerRow): BiomarkerResult {
  return {
    name: r.name,
    slug: r.slug,
    result: r.result,
    type: r.type,
    unit: r.unit,
    timestamp: r.observedAt.toISOString(),
    notes: r.notes,
    reference_range: r.referenceRange,
    min_range_value: r.minRangeValue,
    max_range_value: r.maxRangeValue,
    is_above_max_range: r.isAboveMaxRange,
    is_below_min_range: r.isBelowMinRange,
    interpretation: r.interpretation,
    loinc: r.loinc,
    loinc_slug: r.loincSlug,
    provider_id: (r.sourceMarkers?.[0]?.provider_id as string | undefined) ?? null,
    source_markers: (r.sourceMarkers as BiomarkerResult['source_markers']) ?? null,
    performing_laboratory: r.performingLaboratory,
    source_sample_id: r.sourceSampleId,
  };
}

export function presentMetadata(row: OrderResultsRow): LabResultsMetadata {
  const m = row.metadata as Record<string, string | null>;
  return {
    age: String(m.age ?? ''),
    dob: String(m.dob ?? ''),
    'clia_#': m['clia_#'] ?? null,
    patient: String(m.patient ?? ''),
    provider: m.provider ?? null,
    laboratory: m.laboratory ?? null,
    date_reported: row.reportedAt.toISOString(),
    date_collected: row.collectedAt?.toISOString() ?? null,
    specimen_number: row.specimenNumber,
    date_received: row.receivedAt?.toISOString() ?? null,
    status: row.status,
    interpretation: row.interpretation,
    patient_id: m.patient_id ?? null,
    account_id: m.account_id ?? null,
  };
}

/** The order's results row, or a 404 that says why there is none yet (another team's order is an unknown one). */
export async function findResults(db: Db, teamId: string, orderId: string): Promise<{ order: OrderRow; row: OrderResultsRow }> {
  const order = await findOrderRow(db, teamId, orderId);
  const [row] = await db.select().from(orderResults).where(eq(orderResults.orderId, order.id));
  if (!row) {
    const status = orderStatus(order.status, order.collectionMethod, order.lowLevelStatus);
    const why =
      order.status === 'cancelled' || order.status === 'failed'
        ? `the order ended as ${status} without results`
        : `the order is ${status}; results arrive after the laboratory has tested the sample`;
    throw new ServiceError(404, `No results for this order yet: ${why}`);
  }
  return { order, row };
}

export async function getResultsMetadata(db: Db, teamId: string, orderId: string): Promise<LabResultsMetadata> {
  return presentMetadata((await findResults(db, teamId, orderId)).row);
}

export async function getLabResults(db: Db, teamId: string, orderId: string): Promise<LabResultsRaw> {
  const { order, row } = await findResults(db, teamId, orderId);
  const values = await db.select().from(biomarkerResults).where(eq(biomarkerResults.orderId, order.id)).orderBy(asc(biomarkerResults.position));
  const [lab] = await db
    .select({ slug: labs.slug, name: labs.name, firstLine: labs.firstLineAddress, city: labs.city, zip: labs.zipcode })
    .from(orders)
    .innerJoin(labTests, eq(labTests.id, orders.labTestId))
    .innerJoin(labs, eq(labs.id, labTests.labId))
    .where(and(eq(orders.id, order.id)));
  const performing = lab ? performingLab(lab.slug) : null;
  return {
    metadata: presentMetadata(row),
    results: values.map(presentBiomarker),
    missing_results: row.missingResults as MissingBiomarkerResult[],
    sample_information: {
      [row.specimenNumber]: {
        sample_id: row.specimenNumber,
        control_number: order.id.slice(0, 8).toUpperCase(),
        date_collected: row.collectedAt?.toISOString() ?? null,
        date_received: row.receivedAt?.toISOString() ?? null,
        date_reported: row.reportedAt.toISOString(),
        performing_laboratories:
          lab && performing
            ? {
                [lab.slug]: {
                  name: lab.name,
                  phone_number: performing.phone || null,
                  medical_director: performing.director,
                  address: { first_line: lab.firstLine, city: lab.city, state: performing.state, zip: lab.zip, country: 'US' },
                },
              }
            : null,
      },
    },
  };
}

