import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { appointments, biomarkerResults, labs, labTests, type ServiceSchema } from '../../db/schema';
import { zipArea } from '../appointments/zips';
import { performingLab } from './performingLabs';
import { findResults } from './presentResults';
import { renderResultReport, type ReportSection } from './reportPdf';

type Db = Database<ServiceSchema>;

/** The report's clock: the zone of the visit, else of the patient's zip code, else Eastern (where the labs are). */
function reportZone(appointmentZone: string | null | undefined, zip: unknown): string {
  if (appointmentZone) return appointmentZone;
  if (typeof zip === 'string') {
    const area = zipArea(zip);
    if (area) return area.zone;
  }
  return 'America/New_York';
}

/** `GET /v3/order/{id}/result/pdf`: the lab's result report as a PDF, grouped by the markers ordered. */
export async function resultReportPdf(db: Db, teamId: string, orderId: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  const { order, row } = await findResults(db, teamId, orderId);
  const values = await db.select().from(biomarkerResults).where(eq(biomarkerResults.orderId, order.id)).orderBy(asc(biomarkerResults.position));
  const [test] = await db.select().from(labTests).where(eq(labTests.id, order.labTestId));
  const [lab] = await db.select().from(labs).where(eq(labs.id, test!.labId));
  const appointment = order.appointmentId ? (await db.select().from(appointments).where(eq(appointments.id, order.appointmentId)))[0] : undefined;
  const performing = performingLab(lab!.slug);
  const meta = row.metadata as Record<string, string | null>;
  const pd = order.patientDetails as { gender?: string };

  const sections = new Map<string, ReportSection>();
  for (const v of values) {
    const marker = (v.sourceMarkers?.[0]?.name as string | undefined) ?? 'Results';
    const section = sections.get(marker) ?? { name: marker, rows: [] };
    section.rows.push({
      name: v.name,
      result: v.result,
      type: v.type,
      unit: v.unit,
      referenceRange: v.referenceRange,
      interpretation: v.interpretation,
      isAboveMaxRange: v.isAboveMaxRange,
      isBelowMinRange: v.isBelowMinRange,
      notes: v.notes,
    });
    sections.set(marker, section);
  }
  const missing = (row.missingResults as { name: string; inferred_failure_type: string; note?: string | null }[]).map((m) => ({
    name: m.name,
    reason: m.inferred_failure_type,
    note: m.note ?? null,
  }));
  const comments: string[] = [];
  if (row.interpretation === 'critical') comments.push('A critical value was reported. The ordering provider’s office is notified per laboratory policy.');
  if (row.status !== 'final') comments.push('Preliminary report: further results to follow.');
  else if (order.status === 'cancelled' || order.status === 'failed') {
    comments.push(`Final report: the order was ${order.status === 'cancelled' ? 'cancelled' : 'ended'} before every test was performed; those are listed as not reported.`);
  }

  const bytes = await renderResultReport({
    status: row.status,
    laboratory: { name: lab!.name, address: `${lab!.firstLineAddress}, ${lab!.city}, ${performing.state} ${lab!.zipcode}`.replace(', ,', ','), clia: performing.clia, director: performing.director, phone: performing.phone || null },
    patient: { name: String(meta.patient ?? ''), dob: String(meta.dob ?? ''), sex: pd.gender ?? 'unknown', age: String(meta.age ?? ''), patientId: order.userId },
    specimenNumber: row.specimenNumber,
    accountId: order.labAccountId,
    orderingProvider: meta.provider ?? null,
    labTestName: test!.name,
    collectedAt: row.collectedAt,
    receivedAt: row.receivedAt,
    reportedAt: row.reportedAt,
    timeZone: reportZone(appointment?.ianaTimezone, (order.patientAddress as { zip?: unknown }).zip),
    sections: [...sections.values()],
    missing,
    comments,
  });
  return { bytes, fileName: `results-${row.specimenNumber}.pdf` };
}
