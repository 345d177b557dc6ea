/**
 * Whether a lab report is the patient's, through HTTP: a review cannot approve a report read as
 * someone else by correcting its header (the header as read counts too, and is kept with the
 * review), a header the review blanks needs a confirmation, and a report that cannot be compared
 * (a patient without orders, a header that cannot be read) waits for a reviewer who confirms it.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedLabReportData } from '../../server/contract';
import { jobs } from '../../server/service/db/schema';
import { createParsingJob, PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { runParseJob } from '../../server/service/domain/parsingJobs/run';
import type { ParseOutcome } from '../../server/service/reader/types';
import { sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { expect422, storeKinds, useService, type Team } from './harness';
import { createBody, insertLabAccount } from './orderFixtures';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const GLUCOSE = '2345-7';
type Metadata = ParsedLabReportData['metadata'];

/** A clean report (no doubtful value) whose header says `metadata` over Ada Lovelace's, as her orders name her. */
const report = (metadata: Partial<Metadata> = {}, value = '93'): ParseOutcome => ({
  ok: true,
  data: {
    metadata: { patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1985-12-10', lab_name: 'Outside Lab', date_collected: '2026-02-01', ...metadata },
    results: [
      {
        test_name: 'Glucose',
        value,
        type: 'numeric',
        units: 'mg/dL',
        interpretation: 'normal',
        loinc_matches: [{ loinc_code: GLUCOSE, loinc_name: 'Glucose [Mass/volume] in Serum or Plasma', confidence_score: 0.97 }],
      },
    ],
  },
  reviewReasons: { results: [[]], report: [] },
  needsReview: false,
  stats: { pages: 1, ocrPages: 0, meanOcrConfidence: null },
});

const header = (over: Partial<Metadata>): Metadata => ({ patient_first_name: 'Ada', patient_last_name: 'Lovelace', dob: '1985-12-10', lab_name: 'Outside Lab', ...over });

describe.each(storeKinds)('the patient check of lab reports (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  /** Ada Lovelace, born 1985-12-10, on her order. */
  let ada: string;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    ada = await svc().createUser(team, { client_user_id: `pt-check-${kind}` });
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest' });
    const order = await svc().api(team.apiKey).post('/v3/order', createBody(ada, sharedLabTestId('quest_essential_metabolic_health')));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
  });

  /** Uploads a report for the patient and reads it with a stand-in reader answering `outcome`. */
  async function readReport(outcome: ParseOutcome, opts: { userId?: string; reviewRequested?: boolean } = {}): Promise<string> {
    const job = await createParsingJob(svc().db, team.teamId, opts.userId ?? ada, { bytes: new Uint8Array(PNG) as Buffer, filename: 'report.png' }, opts.reviewRequested ?? false);
    const [queued] = await svc().db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), sql`${jobs.payload}->>'job_id' = ${job.id}`));
    await runParseJob(svc().db, queued!.payload, { jobId: queued!.id, attempt: 1 }, async () => outcome);
    return job.id;
  }
  const getJob = async (id: string) => (await svc().api(team.apiKey).get(`/lab_report/v1/parser/job/${id}`)).body;
  const review = (id: string, body: Record<string, unknown>) => svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${id}/review`, body);
  const historyOf = async (userId: string) => (await svc().api(team.apiKey).get(`/v2/user/${userId}/biomarkers/${GLUCOSE}`)).body.observations as { parsing_job_id: string | null }[];

  describe('in review', () => {
    it('needs a confirmation to approve a report read as someone else, even when the review corrects the name to match', async () => {
      const jobId = await readReport(report({ patient_first_name: 'Grace', patient_last_name: 'Hopper' }));
      expect(await getJob(jobId)).toMatchObject({ stage: 'awaiting_review', patient_check: { status: 'mismatch' } });

      const corrected = { decision: 'approve', reviewer: 'rev-2', metadata: header({}) };
      const refused = await review(jobId, corrected);
      const [problem] = expect422(refused, ['body', 'confirm_patient_mismatch']);
      expect(problem!.type).toBe('value_error.patient_mismatch');
      expect(problem!.msg).toMatch(/As read, the report was for Grace Hopper, born 1985-12-10, .*corrected in review to Ada Lovelace/);

      const approved = await review(jobId, { ...corrected, confirm_patient_mismatch: true });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      // The header as read stays with the review: data holds the corrected one now.
      expect(approved.body.data.metadata).toMatchObject({ patient_first_name: 'Ada', patient_last_name: 'Lovelace' });
      expect(approved.body.review).toMatchObject({ patient_mismatch_confirmed: true, extracted_metadata: { patient_first_name: 'Grace', patient_last_name: 'Hopper', dob: '1985-12-10' } });
      // The job's check shows both: the corrected header and the header as read.
      expect((await getJob(jobId)).patient_check).toMatchObject({
        status: 'mismatch',
        report: { first_name: 'Ada', last_name: 'Lovelace' },
        extracted: { status: 'mismatch', report: { first_name: 'Grace', last_name: 'Hopper' }, differences: ['name'] },
      });
    });

    it('needs a confirmation when the review blanks a name or date of birth the reader read', async () => {
      const jobId = await readReport(report({ patient_first_name: 'Grace' }), { reviewRequested: true });
      // Blanking the first name leaves Lovelace, born 1985-12-10 alone: the reader's "Grace" still counts.
      expect422(await review(jobId, { decision: 'approve', metadata: header({ patient_first_name: '' }) }), ['body', 'confirm_patient_mismatch']);

      const matching = await readReport(report(), { reviewRequested: true });
      const [problem] = expect422(await review(matching, { decision: 'approve', metadata: header({ dob: '' }) }), ['body', 'confirm_patient_mismatch']);
      expect(problem!.type).toBe('value_error.patient_unverified');
      expect(problem!.msg).toMatch(/The review removed the report's date of birth/);
      const approved = await review(matching, { decision: 'approve', metadata: header({ dob: '' }), confirm_patient_mismatch: true });
      expect(approved.status).toBe(200);
      expect(approved.body.review).toMatchObject({ patient_identity_confirmed: true, extracted_metadata: { dob: '1985-12-10' } });
      expect(approved.body.review.patient_mismatch_confirmed).toBeUndefined();
      expect((await getJob(matching)).patient_check).toMatchObject({ status: 'unknown', removed: ['date of birth'], extracted: { status: 'match' } });
    });

    it('approves a matching report without a confirmation, keeping the header as read', async () => {
      const jobId = await readReport(report({ patient_first_name: 'ADA', patient_last_name: 'LOVELACE' }), { reviewRequested: true });
      const approved = await review(jobId, { decision: 'approve', metadata: header({}) });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body.review).toMatchObject({ extracted_metadata: { patient_first_name: 'ADA', patient_last_name: 'LOVELACE' } });
      expect(approved.body.review.patient_mismatch_confirmed).toBeUndefined();
      expect(approved.body.review.patient_identity_confirmed).toBeUndefined();
      expect((await getJob(jobId)).patient_check).toMatchObject({ status: 'match', extracted: { status: 'match' } });
    });
  });

  describe('a report that cannot be compared', () => {
    it('waits for review when the patient has no orders, saying what to check, and is approved only with a confirmation', async () => {
      const lonely = await svc().createUser(team, { client_user_id: `pt-check-lonely-${kind}` });
      const jobId = await readReport(report({ patient_first_name: 'Jane', patient_last_name: 'Okafor', dob: '04/02/1980' }), { userId: lonely });
      const job = await getJob(jobId);
      expect(job).toMatchObject({ status: 'started', stage: 'awaiting_review', needs_human_review: true, patient_check: { status: 'unknown', patient: [] } });
      const reason = job.review_reasons.report.find((r: { code: string }) => r.code === 'patient_unverified');
      expect(reason.message).toMatch(/^No identity to compare: .*Check this report \(for Jane Okafor, born 04\/02\/1980\) belongs to this patient/);
      expect(await historyOf(lonely)).toEqual([]);

      const [problem] = expect422(await review(jobId, { decision: 'approve' }), ['body', 'confirm_patient_mismatch']);
      expect(problem!.type).toBe('value_error.patient_unverified');
      const approved = await review(jobId, { decision: 'approve', confirm_patient_mismatch: true });
      expect(approved.status).toBe(200);
      expect(approved.body.review).toMatchObject({ patient_identity_confirmed: true });
      expect((await historyOf(lonely)).map((o) => o.parsing_job_id)).toEqual([jobId]);
    });

    it('waits for review when the report’s name and date of birth cannot be read', async () => {
      const jobId = await readReport(report({ patient_first_name: '', patient_last_name: '', dob: '' }));
      const job = await getJob(jobId);
      expect(job).toMatchObject({ stage: 'awaiting_review', patient_check: { status: 'unknown' } });
      expect(job.review_reasons.report).toContainEqual({
        code: 'patient_unverified',
        message: expect.stringMatching(/^The report's patient name and date of birth could not be read: check this report belongs to Ada Lovelace, born 1985-12-10/),
      });
      expect((await historyOf(ada)).map((o) => o.parsing_job_id)).not.toContain(jobId);
    });

    it('still completes a report that names the patient, with an initial or without accents', async () => {
      for (const first of ['A.', 'ÁDA']) {
        const jobId = await readReport(report({ patient_first_name: first }));
        expect(await getJob(jobId), first).toMatchObject({ status: 'completed', stage: 'done', patient_check: { status: 'match' } });
        expect((await historyOf(ada)).map((o) => o.parsing_job_id)).toContain(jobId);
      }
    });
  });
});
