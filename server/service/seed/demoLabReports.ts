import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { orders, parsingJobs, users, type ServiceSchema } from '../db/schema';
import { createParsingJob } from '../domain/parsingJobs/create';
import { simpleReportPdf, type SimpleReport } from './labReportPdf';

const CMP: SimpleReport['panels'][number] = {
  name: 'Comp. Metabolic Panel (14)',
  rows: [
    ['Glucose', '92', 'mg/dL', '70-99'],
    ['BUN', '14', 'mg/dL', '6-24'],
    ['Creatinine', '0.91', 'mg/dL', '0.57-1.00'],
    ['Sodium', '141', 'mmol/L', '134-144'],
    ['Potassium', '4.4', 'mmol/L', '3.5-5.2'],
    ['Chloride', '101', 'mmol/L', '96-106'],
    ['Calcium', '9.6', 'mg/dL', '8.7-10.2'],
    ['Albumin', '4.6', 'g/dL', '3.9-4.9'],
  ],
};

/** Reports a reviewer would meet on a normal day: one clean, two with doubtful values, one asked to be checked. */
const REPORTS: { report: Omit<SimpleReport, 'patient'>; review: boolean }[] = [
  { report: { lab: 'Laboratory Corporation of America (Labcorp)', specimen: '041-288-1190-0', collected: '11/02/2026', reported: '11/04/2026', panels: [CMP] }, review: false },
  {
    // OCR-style slip on a printed report: potassium without its decimal point.
    report: {
      lab: 'Laboratory Corporation of America (Labcorp)',
      specimen: '041-301-7724-0',
      collected: '11/09/2026',
      reported: '11/10/2026',
      panels: [{ ...CMP, rows: CMP.rows.map((r) => (r[0] === 'Potassium' ? ['Potassium', '45 H', 'mmol/L', '3.5-5.2'] : r)) }],
    },
    review: false,
  },
  {
    report: {
      lab: 'Laboratory Corporation of America (Labcorp)',
      specimen: '041-315-0042-0',
      collected: '11/12/2026',
      reported: '11/13/2026',
      panels: [
        {
          name: 'CBC With Differential/Platelet',
          rows: [
            ['WBC', '6.1', 'x10E3/uL', '3.4-10.8'],
            ['Hemoglobin', '13.9 L', 'g/dL', '12.6-17.7'],
            ['Hematocrit', '41.8', '%', '37.5-51.0'],
            ['Platelets', '251', 'x10E3/uL', '150-450'],
          ],
        },
      ],
    },
    review: false,
  },
  {
    report: {
      lab: 'Laboratory Corporation of America (Labcorp)',
      specimen: '041-322-5510-0',
      collected: '11/16/2026',
      reported: '11/17/2026',
      panels: [
        {
          name: 'Lipid Panel',
          rows: [
            ['Cholesterol, Total', '212 H', 'mg/dL', '100-199'],
            ['Triglycerides', '148', 'mg/dL', '0-149'],
            ['HDL Cholesterol', '52', 'mg/dL', '>39'],
            ['LDL Chol Calc (NIH)', '133 H', 'mg/dL', '0-99'],
          ],
        },
      ],
    },
    review: true,
  },
];

/** For a patient without orders (nothing to compare a report with): such a report waits for review. */
const NAMES = [
  { first: 'Jane', last: 'Okafor', dob: '04/02/1980' },
  { first: 'Marcus', last: 'Lindqvist', dob: '11/23/1967' },
  { first: 'Priya', last: 'Raman', dob: '07/14/1991' },
  { first: 'Tomas', last: 'Ferreira', dob: '02/09/1975' },
];

type PrintedPatient = SimpleReport['patient'];

/** The name and birth date a lab prints for this patient: those of their latest order, in US form. */
function printedFrom(details: Record<string, unknown>): PrintedPatient | null {
  const { first_name: first, last_name: last, dob } = details as { first_name?: string; last_name?: string; dob?: string };
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(dob ?? '');
  return first && last && m ? { first, last, dob: `${m[2]}/${m[3]}/${m[1]}` } : null;
}

/**
 * The patients the reports are for: those with orders first, each report printed with the name on
 * their latest order (a lab prints what it was sent), so the patient check finds them the same person.
 */
async function reportPatients(db: Database<ServiceSchema>, teamId: string, count: number): Promise<{ id: string; printed: PrintedPatient }[]> {
  const ordered = await db
    .select({ userId: orders.userId, details: orders.patientDetails })
    .from(orders)
    .where(eq(orders.teamId, teamId))
    .orderBy(desc(orders.createdAt));
  const chosen = new Map<string, PrintedPatient>();
  for (const o of ordered) {
    if (chosen.size >= count) break;
    if (chosen.has(o.userId)) continue;
    const printed = printedFrom(o.details);
    if (printed) chosen.set(o.userId, printed);
  }
  const picked = [...chosen].map(([id, printed]) => ({ id, printed }));
  if (picked.length < count) {
    const people = await db.select({ id: users.id }).from(users).where(eq(users.teamId, teamId)).orderBy(users.createdOn);
    for (const p of people) {
      if (picked.length >= count) break;
      if (!chosen.has(p.id)) picked.push({ id: p.id, printed: NAMES[picked.length]! });
    }
  }
  return picked;
}

/**
 * Sample lab reports for the demo team, once (when it has no parsing jobs): they go through the
 * real pipeline in the background like any upload, so the review queue has work on a fresh start.
 */
export async function seedDemoLabReports(db: Database<ServiceSchema>, teamId: string): Promise<number> {
  const [existing] = await db.select({ id: parsingJobs.id }).from(parsingJobs).where(eq(parsingJobs.teamId, teamId)).limit(1);
  if (existing) return 0;
  const people = await reportPatients(db, teamId, REPORTS.length);
  if (people.length < REPORTS.length) return 0;
  for (const [i, { report, review }] of REPORTS.entries()) {
    const pdf = await simpleReportPdf({ ...report, patient: people[i]!.printed });
    await createParsingJob(db, teamId, people[i]!.id, { bytes: pdf, filename: `lab-report-${report.specimen}.pdf` }, review);
  }
  return REPORTS.length;
}
