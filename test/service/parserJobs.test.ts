/**
 * Lab-report parsing jobs through HTTP: upload limits and sniffing, the durable parse (fake and
 * real parser), review, the review queue's cursor pagination, webhook events, restarts, and
 * other teams' jobs. Runs on the embedded store and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARSER_MAX_FILE_BYTES } from '../../server/contract';
import { jobs, parsingJobs, webhookOutbox } from '../../server/service/db/schema';
import { PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { runParseJob, type Parse } from '../../server/service/domain/parsingJobs/run';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { closeParser } from '../../server/service/reader';
import type { ParseOutcome } from '../../server/service/reader/types';
import { JobWorker } from '../../server/service/jobs/queue';
import { expect422, storeKinds, useService, type ServiceHarness, type Team } from './harness';
import { multipart, smallReportPdf } from './parserJobMultipart';
import { encryptedPdf } from '../fixtures/lab-reports/special';
import { seededRandom } from '../../server/lib/random';
import { sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { createBody, insertLabAccount, patientDetails } from './orderFixtures';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

const CLEAN: ParseOutcome = {
  ok: true,
  data: {
    metadata: { patient_first_name: 'Jane', patient_last_name: 'Doe', dob: '1980-04-02', lab_name: 'Labcorp', specimen_number: '123' },
    results: [
      { test_name: 'Glucose', value: '92', type: 'numeric', units: 'mg/dL', min_reference_range: 70, max_reference_range: 99, interpretation: 'normal', is_above_max_range: false, is_below_min_range: false },
    ],
  },
  reviewReasons: { results: [[]], report: [] },
  needsReview: false,
  stats: { pages: 1, ocrPages: 0, meanOcrConfidence: null },
};
const DOUBTFUL: ParseOutcome = {
  ...CLEAN,
  data: {
    ...CLEAN.data,
    results: [{ test_name: 'Potassium', value: '45', type: 'numeric', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.2, interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false }],
  },
  reviewReasons: { results: [[{ code: 'decimal_suspect', message: '45 mmol/L is implausible for potassium; 4.5?' }]], report: [] },
  needsReview: true,
} as ParseOutcome;

const fakeParse = (outcome: ParseOutcome): Parse => async (_bytes, opts) => {
  opts.onProgress?.(0.5, 'read');
  return outcome;
};

describe.each(storeKinds)('lab-report parsing jobs (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  let userId: string;
  let otherUserId: string;

  /** An order naming the patient as the reports do (Jane Doe), so their reports can be checked against it. */
  const placeOrder = async (t: Team, patient: string) => {
    await insertLabAccount(svc().db, t.teamId, { lab: 'quest' });
    const details = patientDetails({ first_name: 'Jane', last_name: 'Doe', dob: '1980-04-02' });
    const order = await svc().api(t.apiKey).post('/v3/order', createBody(patient, sharedLabTestId('quest_essential_metabolic_health'), { patient_details: details }));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
  };

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    other = await svc().createTeam();
    userId = await svc().createUser(team, { client_user_id: `parse-${kind}-1` });
    otherUserId = await svc().createUser(other, { client_user_id: `parse-${kind}-2` });
    await placeOrder(team, userId);
  });
  afterAll(async () => {
    await closeParser();
  });

  const upload = (s: ServiceHarness, fields: Record<string, string>, files: Parameters<typeof multipart>[1], key = team.apiKey) => {
    const body = multipart(fields, files);
    return s.inject({ method: 'POST', url: '/lab_report/v1/parser/job', key, payload: body.payload, headers: body.headers });
  };
  const uploadPdf = async (extra: Record<string, string> = {}) => {
    const r = await upload(svc(), { user_id: userId, ...extra }, [{ bytes: await smallReportPdf(), filename: 'report.pdf', contentType: 'application/pdf' }]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { id: string; job_id: string; status: string; stage: string };
  };
  const getJob = (id: string, key = team.apiKey) => svc().api(key).get(`/lab_report/v1/parser/job/${id}`);
  const run = async (id: string, parse: Parse) => {
    const [job] = await svc().db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), sql`${jobs.payload}->>'job_id' = ${id}`));
    await runParseJob(svc().db, job!.payload, { jobId: job!.id, attempt: 1 }, parse);
  };
  const events = async (id: string) =>
    (await svc().db.select().from(webhookOutbox).where(sql`${webhookOutbox.payload}->'data'->>'id' = ${id}`).orderBy(webhookOutbox.id)).map(
      (e) => (e.payload as { event_type: string; data: { stage: string } }),
    );

  it('accepts a PDF as multipart, answers at once with a queued job, and records the created event', async () => {
    const job = await uploadPdf();
    expect(job.id).toBe(job.job_id);
    expect(job.status).toBe('started');
    expect(job.stage).toBe('queued');
    const r = await getJob(job.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: job.id, status: 'started', needs_human_review: false, is_reviewed: false, data: null, user_id: userId });
    expect(r.body.file).toEqual({ name: 'report.pdf', content_type: 'application/pdf', size: expect.any(Number) });
    const ev = await events(job.id);
    expect(ev.map((e) => e.event_type)).toEqual(['lab_report.parsing_job.created']);
    expect(ev[0]).toMatchObject({ user_id: userId, client_user_id: `parse-${kind}-1`, team_id: team.teamId });
  });

  it('reads the type from the content: a PDF named .png is a PDF, a PNG declared as PDF is a PNG, text is 415', async () => {
    const pdf = await upload(svc(), { user_id: userId }, [{ bytes: await smallReportPdf(), filename: 'scan.png', contentType: 'image/png' }]);
    expect(pdf.status).toBe(200);
    expect(pdf.body.file.content_type).toBe('application/pdf');
    const png = await upload(svc(), { user_id: userId }, [{ bytes: PNG_1x1, filename: 'report.pdf', contentType: 'application/pdf' }]);
    expect(png.status).toBe(200);
    expect(png.body.file.content_type).toBe('image/png');
    const jpeg = await upload(svc(), { user_id: userId }, [{ bytes: Buffer.concat([JPEG_HEAD, Buffer.alloc(64)]), filename: 'x' }]);
    expect(jpeg.status).toBe(200);
    expect(jpeg.body.file.content_type).toBe('image/jpeg');
    const text = await upload(svc(), { user_id: userId }, [{ bytes: Buffer.from('Glucose 92 mg/dL 70-99\n'), filename: 'report.pdf', contentType: 'application/pdf' }]);
    expect(text.status).toBe(415);
    expect(text.body.detail).toMatch(/PDF, JPEG or PNG/);
    const gif = await upload(svc(), { user_id: userId }, [{ bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), filename: 'a.pdf' }]);
    expect(gif.status).toBe(415);
  });

  it('takes exactly 10 MB and refuses one byte more with 413', async () => {
    const head = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
    const exact = Buffer.concat([head, Buffer.alloc(PARSER_MAX_FILE_BYTES - head.length, 0x20)]);
    expect(exact.length).toBe(PARSER_MAX_FILE_BYTES);
    const ok = await upload(svc(), { user_id: userId }, [{ bytes: exact, filename: 'big.pdf' }]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.file.size).toBe(PARSER_MAX_FILE_BYTES);
    const over = await upload(svc(), { user_id: userId }, [{ bytes: Buffer.concat([exact, Buffer.from(' ')]), filename: 'big.pdf' }]);
    expect(over.status).toBe(413);
    expect(over.body.detail).toMatch(/10 MB/);
    const count = await svc().db.select({ n: sql<number>`count(*)::int` }).from(parsingJobs).where(eq(parsingJobs.fileSize, PARSER_MAX_FILE_BYTES + 1));
    expect(count[0]!.n).toBe(0);
  });

  it('answers 422 at the field for a missing file, a missing or foreign user_id, and a bad needs_human_review', async () => {
    const pdf = await smallReportPdf();
    expect422(await upload(svc(), { user_id: userId }, []), ['body', 'file']);
    expect422(await upload(svc(), {}, [{ bytes: pdf }]), ['body', 'user_id']);
    expect422(await upload(svc(), { user_id: 'not-a-uuid' }, [{ bytes: pdf }]), ['body', 'user_id']);
    expect422(await upload(svc(), { user_id: otherUserId }, [{ bytes: pdf }]), ['body', 'user_id']);
    expect422(await upload(svc(), { user_id: userId, needs_human_review: 'yes' }, [{ bytes: pdf }]), ['body', 'needs_human_review']);
    expect422(await upload(svc(), { user_id: userId }, [{ bytes: Buffer.alloc(0) }]), ['body', 'file']);
    const json = await svc().api(team.apiKey).post('/lab_report/v1/parser/job', { user_id: userId });
    expect(json.status).toBe(415);
  });

  it('completes a clean report, with progress on the way and an updated event', async () => {
    const job = await uploadPdf();
    await run(job.id, fakeParse(CLEAN));
    const r = await getJob(job.id);
    expect(r.body).toMatchObject({ status: 'completed', stage: 'done', progress: 1, needs_human_review: false, is_reviewed: false, failure_reason: null });
    expect(r.body.data).toEqual(CLEAN.ok ? CLEAN.data : null);
    expect((await events(job.id)).map((e) => e.event_type)).toEqual(['lab_report.parsing_job.created', 'lab_report.parsing_job.updated']);
  });

  it('sends a doubtful report to review: not completed, needs_human_review, reasons per value', async () => {
    const job = await uploadPdf();
    await run(job.id, fakeParse(DOUBTFUL));
    const r = await getJob(job.id);
    expect(r.body).toMatchObject({ status: 'started', stage: 'awaiting_review', needs_human_review: true, is_reviewed: false });
    expect(r.body.review_reasons.results[0][0].code).toBe('decimal_suspect');
    expect((await events(job.id)).at(-1)?.data.stage).toBe('awaiting_review');
  });

  it('sends a clean report to review when the caller asked for it', async () => {
    const job = await uploadPdf({ needs_human_review: 'true' });
    expect((await getJob(job.id)).body).toMatchObject({ needs_human_review: true, review_requested: true });
    await run(job.id, fakeParse(CLEAN));
    expect((await getJob(job.id)).body).toMatchObject({ status: 'started', stage: 'awaiting_review', needs_human_review: true });
  });

  it('fails a job with the reason the parser gives, and after three crashes of the runner', async () => {
    const broken = await uploadPdf();
    await run(broken.id, fakeParse({ ok: false, failureReason: 'the PDF is encrypted' }));
    expect((await getJob(broken.id)).body).toMatchObject({ status: 'failed', stage: 'failed', failure_reason: 'the PDF is encrypted' });

    const crashing = await uploadPdf();
    const crash: Parse = async () => {
      throw new Error('worker died');
    };
    const [row] = await svc().db.select().from(jobs).where(sql`${jobs.payload}->>'job_id' = ${crashing.id}`);
    await expect(runParseJob(svc().db, row!.payload, { jobId: row!.id, attempt: 1 }, crash)).rejects.toThrow('worker died');
    expect((await getJob(crashing.id)).body.stage).toBe('parsing');
    await runParseJob(svc().db, row!.payload, { jobId: row!.id, attempt: 3 }, crash);
    const r = await getJob(crashing.id);
    expect(r.body.status).toBe('failed');
    expect(r.body.failure_reason).toMatch(/kept failing/);
  });

  it('approves a review with corrections: completed, is_reviewed, flags worked out again from the corrected value', async () => {
    const job = await uploadPdf();
    await run(job.id, fakeParse(DOUBTFUL));
    const extracted = (await getJob(job.id)).body.data;
    const corrected = { ...extracted.results[0], value: '4.5' };
    const r = await svc()
      .api(team.apiKey)
      .post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve', results: [corrected], reviewer: 'staff-7', notes: 'decimal point' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'completed', stage: 'done', is_reviewed: true, needs_human_review: true });
    expect(r.body.data.results[0]).toMatchObject({ value: '4.5', is_above_max_range: false, is_below_min_range: false, interpretation: 'normal' });
    expect(r.body.review).toMatchObject({ decision: 'approve', reviewer: 'staff-7', notes: 'decimal point' });
    const again = await svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect((await events(job.id)).map((e) => e.event_type)).toEqual([
      'lab_report.parsing_job.created',
      'lab_report.parsing_job.updated',
      'lab_report.parsing_job.updated',
    ]);
  });

  it('rejects a review: failed with the notes as the reason', async () => {
    const job = await uploadPdf();
    await run(job.id, fakeParse(DOUBTFUL));
    const r = await svc().api(team.apiKey).post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'reject', notes: 'not a lab report' });
    expect(r.body).toMatchObject({ status: 'failed', is_reviewed: true, failure_reason: 'Rejected in review: not a lab report' });
  });

  it('refuses reviews of jobs still parsing, bad bodies, and other teams', async () => {
    const job = await uploadPdf();
    const api = svc().api(team.apiKey);
    expect((await api.post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve' })).status).toBe(409);
    await run(job.id, fakeParse(DOUBTFUL));
    expect422(await api.post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'maybe' }), ['body', 'decision']);
    expect422(await api.post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve', notes: 'x'.repeat(1001) }), ['body', 'notes']);
    expect422(await api.post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve', results: [] }), ['body', 'results']);
    expect422(await api.post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve', results: [{ test_name: '', value: '1' }] }), ['body', 'results', 0, 'test_name']);
    expect((await svc().api(other.apiKey).post(`/lab_report/v1/parser/job/${job.id}/review`, { decision: 'approve' })).status).toBe(404);
    expect((await getJob(job.id, other.apiKey)).status).toBe(404);
    expect((await svc().api(other.apiKey).get(`/lab_report/v1/parser/job/${job.id}/file`)).status).toBe(404);
    expect422(await api.get('/lab_report/v1/parser/job/not-a-uuid'), ['path', 'job_id']);
  });

  it('serves the original file back, byte for byte, with its sniffed type', async () => {
    const pdf = await smallReportPdf();
    const created = await upload(svc(), { user_id: userId }, [{ bytes: pdf, filename: 'C:\\scans\\Lab report 1.pdf' }]);
    const r = await svc().inject({ method: 'GET', url: `/lab_report/v1/parser/job/${created.body.id}/file`, key: team.apiKey });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['cache-control']).toBe('private, no-store');
    expect(r.headers['content-disposition']).toBe('inline; filename="Lab report 1.pdf"');
    expect(Buffer.compare(r.raw.rawPayload, pdf)).toBe(0);
  });

  it('lists the review queue oldest first over signed cursors, filtered, and only the team\'s own jobs', async () => {
    const s = svc();
    const queueTeam = await s.createTeam();
    const queueUser = await s.createUser(queueTeam, { client_user_id: `queue-${kind}` });
    await placeOrder(queueTeam, queueUser);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = multipart({ user_id: queueUser }, [{ bytes: await smallReportPdf() }]);
      const r = await s.inject({ method: 'POST', url: '/lab_report/v1/parser/job', key: queueTeam.apiKey, payload: body.payload, headers: body.headers });
      ids.push(r.body.id);
    }
    for (const id of ids.slice(0, 4)) await run(id, fakeParse(DOUBTFUL));
    await run(ids[4]!, fakeParse(CLEAN));
    const api = s.api(queueTeam.apiKey);
    const queue = '/lab_report/v1/parser/jobs?stage=awaiting_review&is_reviewed=false&order=asc&limit=3';
    const p1 = await api.get(queue);
    expect(p1.status, JSON.stringify(p1.body)).toBe(200);
    expect(p1.body.data.map((j: { id: string }) => j.id)).toEqual(ids.slice(0, 3));
    expect(p1.body.data[0].data).toBeUndefined();
    const p2 = await api.get(`${queue}&next_cursor=${encodeURIComponent(p1.body.next_cursor)}`);
    expect(p2.body.data.map((j: { id: string }) => j.id)).toEqual([ids[3]]);
    expect(p2.body.next_cursor).toBeNull();

    const all = await api.get('/lab_report/v1/parser/jobs');
    expect(all.body.data.map((j: { id: string }) => j.id)).toEqual([...ids].reverse());
    const done = await api.get('/lab_report/v1/parser/jobs?status=completed');
    expect(done.body.data.map((j: { id: string }) => j.id)).toEqual([ids[4]]);

    expect422(await api.get(`/lab_report/v1/parser/jobs?order=desc&next_cursor=${encodeURIComponent(p1.body.next_cursor)}`), ['query', 'next_cursor']);
    expect422(await s.api(team.apiKey).get(`${queue}&next_cursor=${encodeURIComponent(p1.body.next_cursor)}`), ['query', 'next_cursor']);
    expect422(await api.get(`${queue}&next_cursor=${encodeURIComponent(`${p1.body.next_cursor}x`)}`), ['query', 'next_cursor']);
    expect422(await api.get('/lab_report/v1/parser/jobs?limit=101'), ['query', 'limit']);
    expect((await api.get('/lab_report/v1/parser/jobs?limit=100')).status).toBe(200);
    expect422(await api.get('/lab_report/v1/parser/jobs?needs_human_review=maybe'), ['query', 'needs_human_review']);
    const foreign = await s.api(team.apiKey).get('/lab_report/v1/parser/jobs?limit=100');
    expect(foreign.body.data.some((j: { id: string }) => ids.includes(j.id))).toBe(false);
  });

  it('ends a broken PDF as a failed job with a reason, through the real parser, without harming the worker', async () => {
    const pdf = await smallReportPdf();
    const broken = pdf.subarray(0, Math.floor(pdf.length / 3)); // truncated mid-stream: starts like a PDF
    const r = await upload(svc(), { user_id: userId }, [{ bytes: broken, filename: 'truncated.pdf' }]);
    expect(r.status).toBe(200);
    const [row] = await svc().db.select().from(jobs).where(sql`${jobs.payload}->>'job_id' = ${r.body.id}`);
    await runParseJob(svc().db, row!.payload, { jobId: row!.id, attempt: 1 });
    const job = await getJob(r.body.id);
    expect(job.body).toMatchObject({ status: 'failed', stage: 'failed', data: null });
    expect(job.body.failure_reason).toMatch(/\w+/);
    expect((await events(r.body.id)).at(-1)?.event_type).toBe('lab_report.parsing_job.updated');
  });

  it('ends an encrypted PDF as a failed job that says so', async () => {
    const r = await upload(svc(), { user_id: userId }, [{ bytes: encryptedPdf(seededRandom(5)), filename: 'locked.pdf' }]);
    expect(r.status).toBe(200);
    expect(r.body.file.content_type).toBe('application/pdf');
    const [row] = await svc().db.select().from(jobs).where(sql`${jobs.payload}->>'job_id' = ${r.body.id}`);
    await runParseJob(svc().db, row!.payload, { jobId: row!.id, attempt: 1 });
    const job = await getJob(r.body.id);
    expect(job.body).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(job.body.failure_reason).toMatch(/encrypt|password/i);
  });

  it('finishes a parse interrupted by a restart: the lease runs out and a new worker parses it with the real parser', async () => {
    const job = await uploadPdf();
    // A worker claimed the job and died mid-parse (its lease already ran out).
    await svc().db.execute(sql`UPDATE ${jobs} SET attempts = 1, locked_by = 'dead-worker', locked_until = now() - interval '1 second' WHERE ${jobs.payload}->>'job_id' = ${job.id}`);
    await svc().db.update(parsingJobs).set({ stage: 'parsing', progress: 0.4 }).where(eq(parsingJobs.id, job.id));
    const restarted = await svc().buildApp();
    const worker = new JobWorker(svc().db, jobHandlers(svc().db), { kinds: [PARSE_JOB_KIND] });
    // Earlier tests left their parse jobs queued (they ran the parse directly): drain them all.
    for (let i = 0; i < 20 && (await worker.runDueOnce()) > 0; i++);
    const r = await svc().inject({ method: 'GET', url: `/lab_report/v1/parser/job/${job.id}`, key: team.apiKey }, restarted);
    expect(['completed', 'started']).toContain(r.body.status);
    expect(['done', 'awaiting_review']).toContain(r.body.stage);
    const byName = Object.fromEntries((r.body.data.results as { test_name: string; value: string }[]).map((x) => [x.test_name, x.value]));
    expect(byName).toMatchObject({ Glucose: '92', Sodium: '141', Potassium: '5.6' });
    expect(r.body.data.metadata).toMatchObject({ patient_first_name: 'JANE', patient_last_name: 'DOE', specimen_number: '123-456-7890-0' });
  }, 120_000);
});
