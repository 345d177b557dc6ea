/**
 * A biomarker history compares like with like: the trend and the previous value use only plain
 * numbers in the analyte's one unit (never a value UCUM could not convert, nor a range such as
 * "<0.3"); a report's printed dates are read in the patient's zone; and a report's LOINC code counts
 * only when it is a real one (format and check digit), the reader's most confident match.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { biomarkerResults, jobs } from '../../server/service/db/schema';
import { createParsingJob, PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { runParseJob } from '../../server/service/domain/parsingJobs/run';
import type { LabReportResult, ParsedLabReportData, ParseOutcome } from '../../server/service/reader/types';
import { sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { storeKinds, useService, type Team } from './harness';
import { createBody, insertLabAccount } from './orderFixtures';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const GLUCOSE = '2345-7';
const HBA1C = '4548-4';
const HBA1C_HPLC = '17856-6';

const glucoseMatch = { loinc_code: GLUCOSE, loinc_name: 'Glucose [Mass/volume] in Serum or Plasma', display_name: 'Glucose', confidence_score: 0.97 };

/** One glucose as a report prints it. */
const glucose = (value: string, units: string, extra: Partial<LabReportResult> = {}): LabReportResult => ({
  test_name: 'Glucose',
  value,
  units,
  interpretation: 'normal',
  loinc_matches: [glucoseMatch],
  ...extra,
});

const outcome = (results: LabReportResult[], metadata: Partial<ParsedLabReportData['metadata']> = {}): ParseOutcome => ({
  ok: true,
  data: {
    metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1985-12-10', lab_name: 'Outside Lab', ...metadata },
    results,
  },
  reviewReasons: { results: results.map(() => []), report: [] },
  needsReview: false,
  stats: { pages: 1, ocrPages: 0, meanOcrConfidence: null },
});

interface Summary {
  loinc: string | null;
  name: string;
  unit: string | null;
  count: number;
  latest: { result: string; unit: string | null };
  previous_value: number | null;
  trend: 'up' | 'down' | 'flat' | null;
}

describe.each(storeKinds)('biomarker history: like with like (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let n = 0;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest' });
  });

  /** A patient with an order naming them as the stand-in reports do (Ada Lovelace, 1985-12-10), so their reports complete. */
  const newPatient = async (body: Record<string, unknown> = {}) => {
    const userId = await svc().createUser(team, { client_user_id: `pt-units-${kind}-${++n}`, ...body });
    const order = await svc().api(team.apiKey).post('/v3/order', createBody(userId, sharedLabTestId('quest_essential_metabolic_health')));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    return userId;
  };

  /** Uploads a report for the patient, read (and completed) at once by a stand-in reader. */
  async function readReport(userId: string, answer: ParseOutcome): Promise<string> {
    const job = await createParsingJob(svc().db, team.teamId, userId, { bytes: new Uint8Array(PNG) as Buffer, filename: 'report.png' }, false);
    const [queued] = await svc().db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), sql`${jobs.payload}->>'job_id' = ${job.id}`));
    await runParseJob(svc().db, queued!.payload, { jobId: queued!.id, attempt: 1 }, async () => answer);
    const read = await svc().api(team.apiKey).get(`/lab_report/v1/parser/job/${job.id}`);
    expect(read.body.status, JSON.stringify(read.body)).toBe('completed');
    return job.id;
  }

  /** One report per value, collected on the dates given (oldest first). */
  async function history(userId: string, reports: [string, LabReportResult][]) {
    for (const [collected, result] of reports) await readReport(userId, outcome([result], { date_collected: collected }));
  }

  async function summaries(userId: string): Promise<Summary[]> {
    const r = await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.biomarkers;
  }
  const summaryOf = async (userId: string, loinc: string | null, name?: string) =>
    (await summaries(userId)).find((b) => b.loinc === loinc && (name === undefined || b.name === name));

  describe('trend and previous value', () => {
    it('compare values in the analyte’s unit: 5.5 mmol/L after 90 mg/dL is a rise to 99.1 mg/dL', async () => {
      const userId = await newPatient();
      await history(userId, [
        ['2026-01-10', glucose('90', 'mg/dL')],
        ['2026-02-10', glucose('5.5', 'mmol/L')],
      ]);
      expect(await summaryOf(userId, GLUCOSE)).toMatchObject({ count: 2, unit: 'mg/dL', previous_value: 90, trend: 'up' });
    });

    it('file a value coded by its SI property (glucose [Moles/volume], 15074-8) under the analyte, converted', async () => {
      const userId = await newPatient();
      const moles = { loinc_code: '15074-8', loinc_name: 'Glucose [Moles/volume] in Serum or Plasma', display_name: 'Glucose', confidence_score: 0.97 };
      await history(userId, [
        ['2026-01-10', glucose('90', 'mg/dL')],
        ['2026-02-10', glucose('5.5', 'mmol/L', { loinc_matches: [moles] })],
      ]);
      expect(await summaryOf(userId, GLUCOSE)).toMatchObject({ count: 2, unit: 'mg/dL', previous_value: 90, trend: 'up' });
      expect(await summaryOf(userId, '15074-8')).toBeUndefined();
    });

    it('give no trend when the latest value is in a unit that does not convert, and keep it listed', async () => {
      const userId = await newPatient();
      // "mg" is a mass, not a concentration: 5 of it says nothing next to 99 mg/dL.
      await history(userId, [
        ['2026-01-10', glucose('99', 'mg/dL')],
        ['2026-02-10', glucose('5', 'mg')],
      ]);
      const summary = await summaryOf(userId, GLUCOSE);
      expect(summary).toMatchObject({ count: 2, unit: 'mg/dL', latest: { result: '5', unit: 'mg' }, trend: null });
      // The value before it is in the summary's unit: it is still worth showing.
      expect(summary!.previous_value).toBe(99);
    });

    it('give no previous value (and no trend) when the value before is in a unit that does not convert', async () => {
      const userId = await newPatient();
      await history(userId, [
        ['2026-01-10', glucose('5', 'mg')],
        ['2026-02-10', glucose('99', 'mg/dL')],
      ]);
      expect(await summaryOf(userId, GLUCOSE)).toMatchObject({ count: 2, previous_value: null, trend: null });
    });

    it('do not read a range value such as "<70" as 70, either way round', async () => {
      const later = await newPatient();
      await history(later, [
        ['2026-01-10', glucose('99', 'mg/dL')],
        ['2026-02-10', glucose('<70', 'mg/dL')],
      ]);
      expect(await summaryOf(later, GLUCOSE)).toMatchObject({ count: 2, latest: { result: '<70' }, previous_value: 99, trend: null });

      const earlier = await newPatient();
      await history(earlier, [
        ['2026-01-10', glucose('>500', 'mg/dL')],
        ['2026-02-10', glucose('99', 'mg/dL')],
      ]);
      expect(await summaryOf(earlier, GLUCOSE)).toMatchObject({ count: 2, previous_value: null, trend: null });
    });

    it('do not read a range the reader typed as numeric as a number', async () => {
      const userId = await newPatient();
      await history(userId, [
        ['2026-01-10', glucose('99', 'mg/dL', { type: 'numeric' })],
        ['2026-02-10', glucose('< 70', 'mg/dL', { type: 'numeric' })],
      ]);
      expect(await summaryOf(userId, GLUCOSE)).toMatchObject({ trend: null });
      const observations = (await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations;
      expect(observations.map((o: { type: string }) => o.type)).toEqual(['numeric', 'range']);
    });

    it('compare a value without a LOINC code only with one printed in the same unit', async () => {
      const noCode = (value: string, units: string): LabReportResult => ({ test_name: 'Vitamin K1', value, units });
      const mixed = await newPatient();
      await history(mixed, [
        ['2026-01-10', noCode('0.8', 'ng/mL')],
        ['2026-02-10', noCode('2.1', 'nmol/L')],
      ]);
      expect(await summaryOf(mixed, null, 'Vitamin K1')).toMatchObject({ count: 2, unit: 'nmol/L', previous_value: null, trend: null });

      const same = await newPatient();
      await history(same, [
        ['2026-01-10', noCode('0.8', 'ng/mL')],
        ['2026-02-10', noCode('1.2', 'ng/ml')],
      ]);
      expect(await summaryOf(same, null, 'Vitamin K1')).toMatchObject({ count: 2, previous_value: 0.8, trend: 'up' });
    });
  });

  describe('printed dates', () => {
    it('are read in the patient’s zone, a date alone at local noon so its day never shifts', async () => {
      // Auckland is 13 hours ahead in March: noon there is 23:00 UTC the day before.
      const auckland = await newPatient({ fallback_time_zone: 'Pacific/Auckland' });
      await history(auckland, [['05-Mar-2024', glucose('90', 'mg/dL')]]);
      const [fromAuckland] = (await svc().api(team.apiKey).get(`/v2/user/${auckland}/biomarkers/${GLUCOSE}`)).body.observations;
      expect(fromAuckland.observed_at).toBe('2024-03-04T23:00:00.000Z');

      const chicago = await newPatient({ fallback_time_zone: 'America/Chicago' });
      await history(chicago, [['March 5, 2024 7:45 AM', glucose('90', 'mg/dL')]]);
      const [fromChicago] = (await svc().api(team.apiKey).get(`/v2/user/${chicago}/biomarkers/${GLUCOSE}`)).body.observations;
      expect(fromChicago.observed_at).toBe('2024-03-05T13:45:00.000Z');
    });

    it('are read as UTC for a patient with no zone on file', async () => {
      const userId = await newPatient();
      await history(userId, [['5 Mar 2024', glucose('90', 'mg/dL')]]);
      const [observation] = (await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations;
      expect(observation.observed_at).toBe('2024-03-05T12:00:00.000Z');
    });
  });

  describe('report LOINC codes', () => {
    const storedCodes = async (jobId: string) =>
      (await svc().db.select({ loinc: biomarkerResults.loinc, name: biomarkerResults.name }).from(biomarkerResults).where(eq(biomarkerResults.parsingJobId, jobId))).map((r) => r.loinc);

    it('are stored trimmed', async () => {
      const userId = await newPatient();
      const jobId = await readReport(userId, outcome([glucose('90', 'mg/dL', { loinc_matches: [{ ...glucoseMatch, loinc_code: ' 2345-7 ' }] })]));
      expect(await storedCodes(jobId)).toEqual([GLUCOSE]);
      expect((await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations).toHaveLength(1);
    });

    it('are not stored when not a LOINC code: the value is kept under its printed name', async () => {
      const userId = await newPatient();
      // 2345-8: glucose's number with a wrong check digit (an OCR slip); "glucose" is no code at all.
      const jobId = await readReport(
        userId,
        outcome([
          glucose('90', 'mg/dL', { loinc_matches: [{ ...glucoseMatch, loinc_code: '2345-8' }] }),
          { test_name: 'Potassium', value: '4.1', units: 'mmol/L', loinc_matches: [{ loinc_code: 'potassium', loinc_name: 'Potassium', confidence_score: 0.99 }] },
        ]),
      );
      expect(await storedCodes(jobId)).toEqual([null, null]);
      const names = (await summaries(userId)).map((b) => [b.loinc, b.name, b.latest.result]);
      expect(names).toEqual([
        [null, 'Glucose', '90'],
        [null, 'Potassium', '4.1'],
      ]);
    });

    it('name the analyte by the most confident of several matches', async () => {
      const userId = await newPatient();
      const jobId = await readReport(
        userId,
        outcome([
          {
            test_name: 'Hemoglobin A1c',
            value: '5.6',
            units: '%',
            loinc_matches: [
              { loinc_code: HBA1C_HPLC, loinc_name: 'Hemoglobin A1c/Hemoglobin.total in Blood by HPLC', confidence_score: 0.82 },
              { loinc_code: HBA1C, loinc_name: 'Hemoglobin A1c/Hemoglobin.total in Blood', display_name: 'Hemoglobin A1c', confidence_score: 0.96 },
            ],
          },
        ]),
      );
      expect(await storedCodes(jobId)).toEqual([HBA1C]);
      expect(await summaryOf(userId, HBA1C)).toMatchObject({ unit: '%', latest: { result: '5.6' } });
    });
  });
});
