/**
 * A patient's biomarker history (extension) through HTTP: order results and completed lab reports
 * merged per analyte, values in another unit normalised with UCUM (both kept), reports that do not
 * name the patient held for review, and approving over a mismatch only with an explicit, recorded
 * confirmation.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedLabReportData } from '../../server/contract';
import { jobs } from '../../server/service/db/schema';
import { createParsingJob, PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { runParseJob } from '../../server/service/domain/parsingJobs/run';
import type { ParseOutcome } from '../../server/service/reader/types';
import { sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { expect422, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';
import { createBody, insertLabAccount } from './orderFixtures';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const GLUCOSE = '2345-7';

const report = (metadata: Partial<ParsedLabReportData['metadata']>, glucose: { value: string; units: string; min?: number; max?: number }): ParseOutcome => ({
  ok: true,
  data: {
    metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1985-12-10', lab_name: 'Outside Lab', date_collected: '03/14/2026', ...metadata },
    results: [
      {
        test_name: 'Glucose, fasting',
        value: glucose.value,
        type: 'numeric',
        units: glucose.units,
        ...(glucose.min !== undefined ? { min_reference_range: glucose.min } : {}),
        ...(glucose.max !== undefined ? { max_reference_range: glucose.max } : {}),
        interpretation: 'normal',
        loinc_matches: [{ loinc_code: GLUCOSE, loinc_name: 'Glucose [Mass/volume] in Serum or Plasma', display_name: 'Glucose', confidence_score: 0.97 }],
      },
    ],
  },
  reviewReasons: { results: [[]], report: [] },
  needsReview: false,
  stats: { pages: 1, ocrPages: 0, meanOcrConfidence: null },
});

describe.each(storeKinds)('biomarker history (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  let userId: string;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    other = await svc().createTeam();
    userId = await svc().createUser(team, { client_user_id: `pt-history-${kind}` });
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest' });
    const order = await svc().api(team.apiKey).post('/v3/order', createBody(userId, sharedLabTestId('quest_essential_metabolic_health')));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const done = await svc().api(team.apiKey).post(`/v3/order/${order.body.order.id}/test?final_status=completed.walk_in_test.completed`, { interpretation: 'normal' });
    expect(done.status).toBe(200);
  });

  /** Uploads a report for the patient and reads it with a stand-in reader answering `outcome`. */
  async function readReport(outcome: ParseOutcome): Promise<string> {
    const job = await createParsingJob(svc().db, team.teamId, userId, { bytes: new Uint8Array(PNG) as Buffer, filename: 'report.png' }, false);
    const [queued] = await svc().db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), sql`${jobs.payload}->>'job_id' = ${job.id}`));
    await runParseJob(svc().db, queued!.payload, { jobId: queued!.id, attempt: 1 }, async () => outcome);
    return job.id;
  }

  it('merges an order’s glucose and a report’s glucose in mmol/L into one history in mg/dL, keeping both values', async () => {
    const jobId = await readReport(report({}, { value: '5.5', units: 'mmol/L', min: 3.9, max: 5.5 }));
    const job = await svc().api(team.apiKey).get(`/lab_report/v1/parser/job/${jobId}`);
    expect(job.body).toMatchObject({ status: 'completed', patient_check: { status: 'match' } });

    const history = await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`);
    expect(history.status).toBe(200);
    expect(history.body.unit).toBe('mg/dL');
    const [fromReport, fromOrder] = history.body.observations;
    expect(history.body.observations).toHaveLength(2);
    // Oldest first: the report was collected on 14 March 2026, the order today.
    expect(fromReport).toMatchObject({ source: 'lab_report', parsing_job_id: jobId, order_id: null, result: '5.5', value: 5.5, unit: 'mmol/L', normalized_unit: 'mg/dL' });
    expect(fromReport.observed_at.slice(0, 10)).toBe('2026-03-14');
    expect(fromReport.normalized_value).toBeCloseTo(99.1, 1);
    expect(fromReport.normalized_min_range_value).toBeCloseTo(70.3, 1);
    expect(fromReport.normalized_max_range_value).toBeCloseTo(99.1, 1);
    expect(fromOrder).toMatchObject({ source: 'order', unit: 'mg/dL', normalized_unit: 'mg/dL' });
    expect(fromOrder.normalized_value).toBe(fromOrder.value);

    const summary = await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers`);
    const glucose = summary.body.biomarkers.find((b: { loinc: string }) => b.loinc === GLUCOSE);
    expect(glucose).toMatchObject({ count: 2, unit: 'mg/dL', latest: { source: 'order' } });
    expect(glucose.previous_value).toBeCloseTo(99.1, 1);
    expect(['up', 'down', 'flat']).toContain(glucose.trend);
  });

  it('holds a report that names someone else for review, with a reason that says what to check; its values stay out of the history', async () => {
    const before = (await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations.length;
    const jobId = await readReport(report({ patient_first_name: 'Grace', patient_last_name: 'Hopper', dob: '12/09/1906' }, { value: '140', units: 'mg/dL' }));
    const job = (await svc().api(team.apiKey).get(`/lab_report/v1/parser/job/${jobId}`)).body;
    expect(job).toMatchObject({ status: 'started', stage: 'awaiting_review', needs_human_review: true });
    const reason = job.review_reasons.report.find((r: { code: string }) => r.code === 'patient_mismatch');
    expect(reason.message).toMatch(/The report is for Grace Hopper, born 12\/09\/1906, but this patient's orders are for Ada Lovelace, born 1985-12-10 \(name and date of birth differ\)/);
    expect(job.patient_check).toMatchObject({ status: 'mismatch', differences: ['name', 'date of birth'] });
    expect((await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations).toHaveLength(before);

    // Approving needs an explicit confirmation; it is then recorded and the values join the history.
    const refused = await svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${jobId}/review`, { decision: 'approve', reviewer: 'rev-1' });
    expect(expect422(refused, ['body', 'confirm_patient_mismatch'])[0]!.type).toBe('value_error.patient_mismatch');
    const approved = await svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${jobId}/review`, { decision: 'approve', reviewer: 'rev-1', confirm_patient_mismatch: true });
    expect(approved.status).toBe(200);
    expect(approved.body.review).toMatchObject({ decision: 'approve', patient_mismatch_confirmed: true });
    const after = (await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations;
    expect(after).toHaveLength(before + 1);
    expect(after.find((o: { parsing_job_id: string }) => o.parsing_job_id === jobId)).toMatchObject({ result: '140', interpretation: 'normal' });
  });

  it('still asks for a confirmation when the review corrects the name to match: the name as read counts too', async () => {
    const jobId = await readReport(report({ patient_first_name: 'Adda', dob: '1985-12-10' }, { value: '92', units: 'mg/dL' }));
    expect((await svc().api(team.apiKey).get(`/lab_report/v1/parser/job/${jobId}`)).body.patient_check.status).toBe('mismatch');
    const corrected = { decision: 'approve', metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1985-12-10', lab_name: 'Outside Lab' } };
    expect422(await svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${jobId}/review`, corrected), ['body', 'confirm_patient_mismatch']);
    const approved = await svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${jobId}/review`, { ...corrected, confirm_patient_mismatch: true });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.review).toMatchObject({ patient_mismatch_confirmed: true, extracted_metadata: { patient_first_name: 'Adda' } });
  });

  it('answers 404 for another team’s or an unknown user, and 422 for what is not a LOINC code', async () => {
    expect((await svc().api(other.apiKey).get(`/v2/user/${userId}/biomarkers`)).status).toBe(404);
    expect((await svc().api(team.apiKey).get(`/v2/user/${UNKNOWN_UUID}/biomarkers/${GLUCOSE}`)).status).toBe(404);
    expect422(await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/glucose`), ['path', 'loinc']);
  });

  it('knows nothing for a patient without results', async () => {
    const lonely = await svc().createUser(team, { client_user_id: `pt-lonely-${kind}` });
    expect((await svc().api(team.apiKey).get(`/v2/user/${lonely}/biomarkers`)).body).toEqual({ user_id: lonely, biomarkers: [] });
    expect((await svc().api(team.apiKey).get(`/v2/user/${lonely}/biomarkers/${GLUCOSE}`)).body.observations).toEqual([]);
  });
});
