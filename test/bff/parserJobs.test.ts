/**
 * The `parser-jobs` resource through the BFF's HTTP API against the real service (behind a
 * counting proxy, so upstream calls can be counted): permissions, the streamed multipart upload
 * and its limits, the list with cached cursors and partial pagination, the review queue, getOne,
 * the file passthrough, reviews, the audit trail and the logs.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { and, eq, gt, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARSER_MAX_FILE_BYTES } from '../../server/contract';
import { auditEvents, cursorCache } from '../../server/bff/db/schema';
import { jobs, parsingJobs } from '../../server/service/db/schema';
import { PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { runParseJob, type Parse } from '../../server/service/domain/parsingJobs/run';
import type { ParseOutcome } from '../../server/service/reader/types';
import { UPLOAD_MAX_BODY_BYTES } from '../../server/bff/resources/parserJobUpload';
import { multipart, smallReportPdf, type FilePart } from '../service/parserJobMultipart';
import { captureLogs } from '../support/logCapture';
import { endToEndHeaders } from '../support/proxyHeaders';
import {
  UNKNOWN_UUID,
  listQuery,
  sleep,
  startBff,
  startFakeUpstream,
  startService,
  storeKinds,
  type Answer,
  type BffFixture,
  type ServiceFixture,
  type Session,
} from './harness';

interface Job {
  id: string;
  job_id: string;
  status: string;
  stage: string;
  user_id: string;
  needs_human_review: boolean;
  is_reviewed: boolean;
  review_requested: boolean;
  data?: { metadata: Record<string, string>; results: Record<string, unknown>[] } | null;
  review_reasons?: { results: { code: string; message: string }[][]; report: unknown[] } | null;
  review?: { decision: string; reviewer: string | null; notes: string | null } | null;
  file: { name: string; content_type: string; size: number };
  failure_reason: string | null;
}
interface CodedError {
  message: string;
  code?: string;
  errors?: Record<string, string>;
}

/** What the fake parser finds: a value the reviewer has to correct (45 for 4.5). */
const DOUBTFUL: ParseOutcome = {
  ok: true,
  data: {
    metadata: { patient_first_name: 'Jane', patient_last_name: 'Quixotic', dob: '1980-04-02', lab_name: 'Labcorp', specimen_number: '123' },
    results: [
      { test_name: 'Potassium', value: '45', type: 'numeric', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.2, interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false },
    ],
  },
  reviewReasons: { results: [[{ code: 'decimal_suspect', message: '45 mmol/L is implausible for potassium; 4.5?' }]], report: [] },
  needsReview: true,
  stats: { pages: 1, ocrPages: 0, meanOcrConfidence: null },
};
const fakeParse =
  (outcome: ParseOutcome): Parse =>
  async () =>
    outcome;

/** A file name that names the patient: it must never reach the audit trail or the logs. */
const PATIENT_FILE_NAME = 'Quixotic Jane - potassium.pdf';

// --- a counting proxy in front of the service ----------------------------------------------------

interface CountingProxy {
  url: string;
  calls: { method: string; path: string; query: URLSearchParams }[];
  count(method: string, path: string): number;
  close(): Promise<void>;
}

async function startCountingProxy(target: string): Promise<CountingProxy> {
  const calls: CountingProxy['calls'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    calls.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams });
    const upstream = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.on('error', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    count: (method, path) => calls.filter((c) => c.method === method && c.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const LIST_PATH = '/lab_report/v1/parser/jobs';
const CREATE_PATH = '/lab_report/v1/parser/job';

describe.each(storeKinds)('parser-jobs through the BFF (%s)', (kind) => {
  let service: ServiceFixture;
  let proxy: CountingProxy;
  let bff: BffFixture;
  let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer' | 'unknown', Session>;
  let patient: string;
  let foreignUser: string;
  let pdf: Buffer;

  beforeAll(async () => {
    service = await startService();
    [patient] = await service.addUsers(service.team, [{ clientUserId: `pt-parse-${kind}` }]) as [string];
    [foreignUser] = await service.addUsers(service.otherTeam, [{ clientUserId: `pt-parse-foreign-${kind}` }]) as [string];
    proxy = await startCountingProxy(service.url);
    bff = await startBff(kind, { serviceBaseUrl: proxy.url, serviceApiKey: service.team.apiKey });
    const [admin, coordinator, labOps, reviewer, unknown] = await Promise.all(
      (['admin', 'coordinator', 'lab_ops', 'reviewer', 'unknown'] as const).map((who) => bff.login(who)),
    );
    s = { admin: admin!, coordinator: coordinator!, lab_ops: labOps!, reviewer: reviewer!, unknown: unknown! };
    pdf = await smallReportPdf();
  });
  afterAll(async () => {
    await bff?.close();
    await proxy?.close();
    await service?.close();
  });

  // --- helpers -------------------------------------------------------------------------------

  const upload = (fields: Record<string, string>, files: FilePart[], session: Session | null = s.coordinator, extra: { csrf?: boolean; headers?: Record<string, string> } = {}) => {
    const form = multipart(fields, files);
    return bff.request<Job & CodedError>({
      method: 'POST',
      url: '/api/parser-jobs',
      session,
      csrf: extra.csrf,
      payload: form.payload,
      headers: { ...form.headers, ...extra.headers },
    });
  };
  const uploadPdf = async (userId = patient, session: Session = s.coordinator, fileName = 'report.pdf') => {
    const r = await upload({ user_id: userId }, [{ bytes: pdf, filename: fileName, contentType: 'application/pdf' }], session);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  /** Runs the job's queued parse with a fake parser (no worker runs in these tests). */
  const parse = async (jobId: string, outcome: ParseOutcome = DOUBTFUL) => {
    const [row] = await service.db.select().from(jobs).where(and(eq(jobs.kind, PARSE_JOB_KIND), sql`${jobs.payload}->>'job_id' = ${jobId}`));
    await runParseJob(service.db, row!.payload, { jobId: row!.id, attempt: 1 }, fakeParse(outcome));
  };
  const list = (q: Parameters<typeof listQuery>[0], session: Session = s.lab_ops) => bff.get<Job[]>(`/api/parser-jobs${listQuery(q)}`, session);
  const review = (id: string, body: unknown, session: Session = s.reviewer, csrf?: boolean) =>
    bff.request<Job & CodedError>({ method: 'POST', url: `/api/parser-jobs/${id}/review`, session, csrf, payload: body as object });
  const idsOf = (r: Answer<Job[]>) => r.body.map((j) => j.id);
  const maxAuditId = async () => (await bff.db.select({ id: auditEvents.id }).from(auditEvents)).reduce((m, r) => Math.max(m, Number(r.id)), 0);

  // --- permissions ---------------------------------------------------------------------------

  describe('permissions', () => {
    let job: Job;
    beforeAll(async () => {
      job = await uploadPdf();
    });

    it('answers 401 without a session on every route', async () => {
      expect((await bff.get('/api/parser-jobs')).status).toBe(401);
      expect((await bff.get(`/api/parser-jobs/${job.id}`)).status).toBe(401);
      expect((await bff.get(`/api/parser-jobs/${job.id}/file`)).status).toBe(401);
      expect((await upload({ user_id: patient }, [{ bytes: pdf }], null)).status).toBe(401);
      expect((await review(job.id, { decision: 'approve' }, null as unknown as Session)).status).toBe(401);
    });

    it('lets every staff role read and upload, and only reviewers and admins review', async () => {
      for (const who of ['admin', 'coordinator', 'lab_ops', 'reviewer'] as const) {
        expect((await list({ range: [0, 0] }, s[who])).status, who).toBe(200);
        expect((await bff.get(`/api/parser-jobs/${job.id}`, s[who])).status, who).toBe(200);
      }
      expect((await uploadPdf(patient, s.lab_ops)).status).toBe('started');
      expect((await uploadPdf(patient, s.reviewer)).status).toBe('started');
      const denied = await review(job.id, { decision: 'approve' }, s.coordinator);
      expect(denied.status).toBe(403);
      expect((await review(job.id, { decision: 'approve' }, s.lab_ops)).status).toBe(403);
    });

    it('refuses unknown roles everything', async () => {
      expect((await list({}, s.unknown)).status).toBe(403);
      expect((await bff.get(`/api/parser-jobs/${job.id}`, s.unknown)).status).toBe(403);
      expect((await bff.get(`/api/parser-jobs/${job.id}/file`, s.unknown)).status).toBe(403);
      expect((await upload({ user_id: patient }, [{ bytes: pdf }], s.unknown)).status).toBe(403);
      expect((await review(job.id, { decision: 'approve' }, s.unknown)).status).toBe(403);
    });

    it('needs the CSRF token to upload and to review, and sends nothing upstream without it', async () => {
      const posts = proxy.count('POST', CREATE_PATH);
      const r = await upload({ user_id: patient }, [{ bytes: pdf }], s.coordinator, { csrf: false });
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/CSRF/);
      expect((await review(job.id, { decision: 'approve' }, s.reviewer, false)).status).toBe(403);
      expect(proxy.count('POST', CREATE_PATH)).toBe(posts);
    });
  });

  // --- upload --------------------------------------------------------------------------------

  describe('upload', () => {
    it('streams a real PDF on to the service: 201 with the queued job', async () => {
      const r = await upload({ user_id: patient, needs_human_review: 'true' }, [{ bytes: pdf, filename: 'report.pdf', contentType: 'application/pdf' }]);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toMatchObject({ status: 'started', stage: 'queued', user_id: patient, needs_human_review: true, review_requested: true, is_reviewed: false });
      expect(r.body.id).toBe(r.body.job_id);
      expect(r.body.file).toEqual({ name: 'report.pdf', content_type: 'application/pdf', size: pdf.length });
      const [row] = await service.db.select().from(parsingJobs).where(eq(parsingJobs.id, r.body.id));
      expect(row).toMatchObject({ teamId: service.team.teamId, stage: 'queued', fileSize: pdf.length });
    });

    it('takes a file of exactly 10 MB and answers 413 for one byte more', async () => {
      const head = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
      const exact = Buffer.concat([head, Buffer.alloc(PARSER_MAX_FILE_BYTES - head.length, 0x20)]);
      const ok = await upload({ user_id: patient }, [{ bytes: exact, filename: 'big.pdf' }]);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.file.size).toBe(PARSER_MAX_FILE_BYTES);

      const over = await upload({ user_id: patient }, [{ bytes: Buffer.concat([exact, Buffer.from(' ')]), filename: 'big.pdf' }]);
      expect(over.status, JSON.stringify(over.body)).toBe(413);
      expect(over.body.message).toMatch(/10 MB/);
      const stored = await service.db.select({ n: sql<number>`count(*)::int` }).from(parsingJobs).where(eq(parsingJobs.fileSize, PARSER_MAX_FILE_BYTES + 1));
      expect(stored[0]!.n).toBe(0);
    });

    it('refuses a body far over the limit by its Content-Length, without calling the service', async () => {
      const posts = proxy.count('POST', CREATE_PATH);
      const r = await upload({ user_id: patient }, [{ bytes: Buffer.alloc(PARSER_MAX_FILE_BYTES + 200_000, 0x25), filename: 'huge.pdf' }]);
      expect(r.status).toBe(413);
      expect(r.body.message).toMatch(/10 MB/);
      expect(r.headers.connection).toBe('close');
      expect(proxy.count('POST', CREATE_PATH)).toBe(posts);
    });

    it('cuts a chunked upload off once it passes the limit: 413, and no job', async () => {
      const before = await service.db.select({ n: sql<number>`count(*)::int` }).from(parsingJobs);
      const form = multipart({ user_id: patient }, [{ bytes: Buffer.alloc(PARSER_MAX_FILE_BYTES + 500_000, 0x25), filename: 'huge.pdf' }]);
      let pulled = 0;
      const chunks = (function* () {
        for (let i = 0; i < form.payload.length; i += 64 * 1024) {
          const chunk = form.payload.subarray(i, i + 64 * 1024);
          pulled += chunk.length;
          yield chunk;
        }
      })();
      const r = await bff.request<CodedError>({
        method: 'POST',
        url: '/api/parser-jobs',
        session: s.coordinator,
        payload: Readable.from(chunks),
        headers: { ...form.headers, 'transfer-encoding': 'chunked' },
      });
      expect(r.status).toBe(413);
      expect(r.body.message).toMatch(/10 MB/);
      expect(pulled).toBeGreaterThan(PARSER_MAX_FILE_BYTES);
      const after = await service.db.select({ n: sql<number>`count(*)::int` }).from(parsingJobs);
      expect(after[0]!.n).toBe(before[0]!.n);
    });

    it('answers 415 for a text file (by content) and for a body that is not multipart', async () => {
      const text = await upload({ user_id: patient }, [{ bytes: Buffer.from('Glucose 92 mg/dL 70-99\n'), filename: 'report.pdf', contentType: 'application/pdf' }]);
      expect(text.status).toBe(415);
      expect(text.body.message).toMatch(/PDF, JPEG or PNG/);
      const json = await bff.request<CodedError>({ method: 'POST', url: '/api/parser-jobs', session: s.coordinator, payload: { user_id: patient } });
      expect(json.status).toBe(415);
      expect(json.body.message).toMatch(/multipart\/form-data/);
      const noBoundary = await bff.request<CodedError>({
        method: 'POST',
        url: '/api/parser-jobs',
        session: s.coordinator,
        payload: 'x',
        headers: { 'content-type': 'multipart/form-data' },
      });
      expect(noBoundary.status).toBe(415);
    });

    it('answers 422 at the form field: missing or foreign user_id, missing file, bad needs_human_review', async () => {
      const missing = await upload({}, [{ bytes: pdf }]);
      expect(missing.status).toBe(422);
      expect(Object.keys(missing.body.errors ?? {})).toEqual(['user_id']);
      const foreign = await upload({ user_id: foreignUser }, [{ bytes: pdf }]);
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors?.user_id).toMatch(/not a user of this team/);
      const noFile = await upload({ user_id: patient }, []);
      expect(noFile.status).toBe(422);
      expect(noFile.body.errors?.file).toBeDefined();
      const flag = await upload({ user_id: patient, needs_human_review: 'yes' }, [{ bytes: pdf }]);
      expect(flag.status).toBe(422);
      expect(flag.body.errors?.needs_human_review).toBeDefined();
    });
  });

  // --- list ----------------------------------------------------------------------------------

  describe('list', () => {
    let walker: string;
    let created: Job[];
    beforeAll(async () => {
      [walker] = (await service.addUsers(service.team, [{ clientUserId: `pt-walk-${kind}` }])) as [string];
      created = [];
      for (let i = 0; i < 7; i++) created.push(await uploadPdf(walker));
    });

    it('walks pages of 3 with partial pagination, one upstream call per page thanks to the cached cursors', async () => {
      const newestFirst = created.map((j) => j.id).reverse();
      const page = async (first: number) => {
        const before = proxy.count('GET', LIST_PATH);
        const r = await list({ sort: ['created_at', 'DESC'], range: [first, first + 2], filter: { user_id: walker } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return { r, calls: proxy.count('GET', LIST_PATH) - before };
      };
      const p0 = await page(0);
      expect(idsOf(p0.r)).toEqual(newestFirst.slice(0, 3));
      expect(p0.r.headers['content-range']).toBe('parser-jobs 0-2/*');
      expect(p0.r.headers['x-has-next-page']).toBe('true');
      expect(p0.r.body.every((j) => j.data === undefined)).toBe(true);
      expect(p0.calls).toBe(1);

      const p1 = await page(3);
      expect(idsOf(p1.r)).toEqual(newestFirst.slice(3, 6));
      expect(p1.r.headers['content-range']).toBe('parser-jobs 3-5/*');
      expect(p1.r.headers['x-has-next-page']).toBe('true');
      expect(p1.calls).toBe(1);

      const p2 = await page(6);
      expect(idsOf(p2.r)).toEqual(newestFirst.slice(6));
      expect(p2.r.headers['content-range']).toBe('parser-jobs 6-6/*');
      expect(p2.r.headers['x-has-next-page']).toBe('false');
      expect(p2.calls).toBe(1);
      const last = proxy.calls.filter((c) => c.path === LIST_PATH).at(-1)!;
      expect(last.query.get('next_cursor')).toBeTruthy();
      expect(last.query.get('user_id')).toBe(walker);
      expect(last.query.get('order')).toBe('desc');

      // The cursors live in the BFF's store: another BFF process (or a restart) reads page 2 in one call too.
      const other = await bff.buildApp();
      const session = await bff.login('lab_ops', other);
      const before = proxy.count('GET', LIST_PATH);
      const again = await bff.get<Job[]>(`/api/parser-jobs${listQuery({ sort: ['id', 'DESC'], range: [6, 8], filter: { user_id: walker } })}`, session, other);
      expect(idsOf(again)).toEqual(newestFirst.slice(6));
      expect(proxy.count('GET', LIST_PATH) - before).toBe(1);
    });

    it('reads a page it has no cursor for by walking from the first page, and sorts oldest first with ASC', async () => {
      const before = proxy.count('GET', LIST_PATH);
      const r = await list({ sort: ['created_at', 'ASC'], range: [4, 5], filter: { user_id: walker } });
      expect(idsOf(r)).toEqual(created.slice(4, 6).map((j) => j.id));
      expect(r.headers['x-has-next-page']).toBe('true');
      expect(proxy.count('GET', LIST_PATH) - before).toBe(3);
      const next = await list({ sort: ['created_at', 'ASC'], range: [6, 7], filter: { user_id: walker } });
      expect(idsOf(next)).toEqual([created[6]!.id]);
      expect(next.headers['x-has-next-page']).toBe('false');
      expect(proxy.count('GET', LIST_PATH) - before).toBe(4);
    });

    it('starts over from the first page when the service no longer takes a cached cursor', async () => {
      // Tamper with every cached cursor of this list (as a rotated signing key would make them).
      await bff.db.update(cursorCache).set({ cursor: sql`replace(${cursorCache.cursor}, '",', 'x",')` }).where(like(cursorCache.cursor, '["%'));
      const r = await list({ sort: ['created_at', 'DESC'], range: [3, 5], filter: { user_id: walker } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(idsOf(r)).toEqual(created.map((j) => j.id).reverse().slice(3, 6));
    });

    it('filters: the review queue is oldest first, status and stage pass through, contradictions match nothing', async () => {
      const [queueUser] = (await service.addUsers(service.team, [{ clientUserId: `pt-queue-${kind}` }])) as [string];
      const jobsOf = [await uploadPdf(queueUser), await uploadPdf(queueUser), await uploadPdf(queueUser), await uploadPdf(queueUser)];
      await parse(jobsOf[0]!.id);
      await parse(jobsOf[1]!.id);
      await parse(jobsOf[3]!.id);

      const queue = await list({ range: [0, 9], filter: { queue: true, user_id: queueUser } });
      expect(idsOf(queue)).toEqual([jobsOf[0]!.id, jobsOf[1]!.id, jobsOf[3]!.id]);
      expect(queue.headers['x-has-next-page']).toBe('false');
      const sent = proxy.calls.filter((c) => c.path === LIST_PATH).at(-1)!.query;
      expect(Object.fromEntries(sent)).toMatchObject({ stage: 'awaiting_review', is_reviewed: 'false', order: 'asc', user_id: queueUser });

      const newest = await list({ sort: ['created_at', 'DESC'], range: [0, 9], filter: { queue: true, user_id: queueUser } });
      expect(idsOf(newest)).toEqual([jobsOf[3]!.id, jobsOf[1]!.id, jobsOf[0]!.id]);

      const queued = await list({ range: [0, 9], filter: { stage: 'queued', user_id: queueUser } });
      expect(idsOf(queued)).toEqual([jobsOf[2]!.id]);
      const started = await list({ range: [0, 9], filter: { status: ['started', 'completed'], needs_human_review: true, user_id: queueUser } });
      expect(idsOf(started)).toEqual([jobsOf[3]!.id, jobsOf[1]!.id, jobsOf[0]!.id]);

      const before = proxy.count('GET', LIST_PATH);
      const none = await list({ range: [0, 9], filter: { queue: true, stage: 'done', user_id: queueUser } });
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
      expect(none.headers['content-range']).toBe('parser-jobs */*');
      expect(proxy.count('GET', LIST_PATH)).toBe(before);
    });

    it('answers 400 for a sort it cannot do and for malformed filters', async () => {
      const sort = await list({ sort: ['status', 'ASC'], range: [0, 9] });
      expect(sort.status).toBe(400);
      expect((sort.body as unknown as CodedError).message).toMatch(/created_at/);
      const bad = await list({ range: [0, 9], filter: { user_id: 'not-a-uuid' } });
      expect(bad.status).toBe(400);
      expect((bad.body as unknown as CodedError).errors).toEqual({ 'filter.user_id': 'must be a uuid' });
      expect((await list({ range: [0, 9], filter: { is_reviewed: 'maybe' } })).status).toBe(400);
    });

    it('answers getMany with the jobs it finds, without their data', async () => {
      const r = await list({ filter: { id: [created[0]!.id, UNKNOWN_UUID, 'junk', created[1]!.id] } });
      expect(r.status).toBe(200);
      expect(idsOf(r).sort()).toEqual([created[0]!.id, created[1]!.id].sort());
      expect(r.headers['content-range']).toBe('parser-jobs 0-1/2');
    });
  });

  // --- one job, its file, its review ----------------------------------------------------------

  describe('getOne, file and review', () => {
    it('answers one job with its data and review reasons; 404 for unknown, malformed and other teams\' jobs', async () => {
      const job = await uploadPdf();
      await parse(job.id);
      const r = await bff.get<Job>(`/api/parser-jobs/${job.id}`, s.reviewer);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: job.id, status: 'started', stage: 'awaiting_review', needs_human_review: true, is_reviewed: false });
      expect(r.body.data?.results[0]).toMatchObject({ test_name: 'Potassium', value: '45' });
      expect(r.body.review_reasons?.results[0]?.[0]?.code).toBe('decimal_suspect');

      const foreign = multipart({ user_id: foreignUser }, [{ bytes: pdf }]);
      const made = await fetch(`${service.url}${CREATE_PATH}`, {
        method: 'POST',
        headers: { 'x-service-api-key': service.otherTeam.apiKey, ...foreign.headers },
        body: foreign.payload,
      });
      const foreignJob = (await made.json()) as Job;
      for (const id of [UNKNOWN_UUID, 'not-a-uuid', foreignJob.id]) {
        const missing = await bff.get(`/api/parser-jobs/${id}`, s.reviewer);
        expect(missing.status, id).toBe(404);
        expect(missing.body).toEqual({ message: 'Parsing job not found' });
        expect((await bff.get(`/api/parser-jobs/${id}/file`, s.reviewer)).status, id).toBe(404);
        expect((await review(id, { decision: 'approve' })).status, id).toBe(404);
      }
    });

    it('serves the uploaded file byte for byte, inline, uncached and unsniffed', async () => {
      const job = await uploadPdf(patient, s.coordinator, PATIENT_FILE_NAME);
      const r = await bff.get(`/api/parser-jobs/${job.id}/file`, s.lab_ops);
      expect(r.status).toBe(200);
      expect(Buffer.compare(r.raw.rawPayload, pdf)).toBe(0);
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(r.headers['content-disposition']).toBe('inline');
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-length']).toBe(String(pdf.length));
      expect(String(r.headers['content-security-policy'])).toMatch(/default-src 'none'/);
      expect(JSON.stringify(r.headers)).not.toContain('Quixotic');

      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
      const image = await upload({ user_id: patient }, [{ bytes: png, filename: 'scan.pdf', contentType: 'application/pdf' }]);
      const served = await bff.get(`/api/parser-jobs/${image.body.id}/file`, s.reviewer);
      expect(served.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(served.raw.rawPayload, png)).toBe(0);
    });

    it('approves with a corrected value: completed, reviewed, the reviewer is the signed-in staff member', async () => {
      const job = await uploadPdf();
      await parse(job.id);
      const extracted = (await bff.get<Job>(`/api/parser-jobs/${job.id}`, s.reviewer)).body.data!;
      const corrected = { ...extracted.results[0], value: '4.5' };
      const approval = { id: job.id, decision: 'approve', results: [corrected], notes: 'decimal point', reviewer: 'someone-else' };
      // The patient has no orders to compare the report with: the reviewer confirms it is theirs.
      const unconfirmed = await review(job.id, approval);
      expect(unconfirmed.status).toBe(422);
      expect(unconfirmed.body).toMatchObject({ code: 'patient_mismatch', errors: { confirm_patient_mismatch: expect.stringMatching(/^No identity to compare: /) } });
      const r = await review(job.id, { ...approval, confirm_patient_mismatch: true });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ status: 'completed', stage: 'done', is_reviewed: true });
      expect(r.body.data?.results[0]).toMatchObject({ value: '4.5', is_above_max_range: false, interpretation: 'normal' });
      expect(r.body.review).toMatchObject({ decision: 'approve', reviewer: bff.staff.reviewer.id, notes: 'decimal point' });

      const again = await review(job.id, { decision: 'approve' }, s.admin);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'not_reviewable', message: expect.stringMatching(/reviewed already/) });
    });

    it('rejects: failed; a job still queued is not reviewable; bad reviews are 422 at their field', async () => {
      const queued = await uploadPdf();
      const early = await review(queued.id, { decision: 'approve' });
      expect(early.status).toBe(409);
      expect(early.body.code).toBe('not_reviewable');

      const job = await uploadPdf();
      await parse(job.id);
      const bad = await review(job.id, { decision: 'approve', results: [{ test_name: '', value: '1' }] });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toHaveProperty(['results.0.test_name']);
      const long = await review(job.id, { decision: 'approve', notes: 'x'.repeat(1001) });
      expect(long.body.errors).toHaveProperty('notes');
      expect((await review(job.id, { decision: 'maybe' })).body.errors).toHaveProperty('decision');
      expect((await review(job.id, ['approve'])).status).toBe(422);

      const rejected = await review(job.id, { decision: 'reject', notes: 'not a lab report' }, s.admin);
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ status: 'failed', is_reviewed: true, review: { decision: 'reject', reviewer: bff.staff.admin.id } });
    });
  });

  describe('the parse queue', () => {
    it("answers the team's queue for the list's status line, to everyone who may read jobs", async () => {
      const before = await bff.get<{ available: boolean; queued: number }>('/api/parser-jobs/queue', s.lab_ops);
      expect(before.status).toBe(200);
      expect(before.headers['cache-control']).toBe('no-store');
      await uploadPdf();
      await uploadPdf();
      const after = await bff.get<{ available: boolean; queued: number; parsing: number; oldestWaitSeconds: number | null }>('/api/parser-jobs/queue', s.reviewer);
      // No parse worker runs in these suites: what is uploaded stays queued.
      expect(after.body).toMatchObject({ available: true, queued: before.body.queued + 2, parsing: 0, oldestWaitSeconds: expect.any(Number) });
      expect((await bff.get('/api/parser-jobs/queue', null as unknown as Session)).status).toBe(401);
      expect((await bff.get('/api/parser-jobs/queue', s.unknown)).status).toBe(403);
    });

    it('says the queue is not available where the service has no such endpoint (another deployment)', async () => {
      const fake = await startFakeUpstream(() => ({ status: 404, body: { detail: 'Not Found' } }));
      try {
        const app = await bff.buildApp({ serviceBaseUrl: fake.url });
        const session = await bff.login('reviewer', app);
        const r = await bff.get('/api/parser-jobs/queue', session, app);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ available: false });
      } finally {
        await fake.close();
      }
    });
  });

  describe('another deployment', () => {
    it('caps what it forwards itself: a chunked upload past 10 MB + 64 KiB is cut off with 413 whatever the upstream does', async () => {
      // An upstream that reads every byte it gets and would accept anything; bytes counted per request.
      const requests: { received: number; ended: boolean }[] = [];
      const server = http.createServer((req, res) => {
        const seen = { received: 0, ended: false };
        requests.push(seen);
        req.on('data', (c: Buffer) => (seen.received += c.length));
        req.on('end', () => {
          seen.ended = true;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: randomUUID(), job_id: randomUUID(), status: 'started', needs_human_review: false, is_reviewed: false }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const app = await bff.buildApp({ serviceBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
        const session = await bff.login('coordinator', app);
        const form = multipart({ user_id: patient }, [{ bytes: Buffer.alloc(PARSER_MAX_FILE_BYTES + 200_000, 0x25), filename: 'huge.pdf' }]);
        const chunks = (function* () {
          for (let i = 0; i < form.payload.length; i += 64 * 1024) yield form.payload.subarray(i, i + 64 * 1024);
        })();
        const r = await bff.request<CodedError>({
          method: 'POST',
          url: '/api/parser-jobs',
          session,
          payload: Readable.from(chunks),
          headers: { ...form.headers, 'transfer-encoding': 'chunked' },
          app,
        });
        expect(r.status).toBe(413);
        expect(r.body.message).toMatch(/10 MB/);
        await sleep(100);
        expect(requests).toHaveLength(1);
        expect(requests[0]!.ended).toBe(false);
        expect(requests[0]!.received).toBeLessThanOrEqual(UPLOAD_MAX_BODY_BYTES);
        // Streamed: the upstream had much of it while the browser was still sending (nothing waited for the whole body).
        expect(requests[0]!.received).toBeGreaterThan(1_000_000);

        // Within the cap it is forwarded whole.
        const small = multipart({ user_id: patient }, [{ bytes: pdf, filename: 'report.pdf' }]);
        const ok = await bff.request({ method: 'POST', url: '/api/parser-jobs', session, payload: small.payload, headers: small.headers, app });
        expect(ok.status).toBe(201);
        expect(requests[1]).toEqual({ received: small.payload.length, ended: true });
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });


    it('answers 502 rather than serve an upstream file that is not a PDF, JPEG or PNG', async () => {
      const fake = await startFakeUpstream(() => ({ status: 200, body: '<script>alert(1)</script>', raw: true }));
      try {
        const app = await bff.buildApp({ serviceBaseUrl: fake.url });
        const session = await bff.login('reviewer', app);
        const r = await bff.get(`/api/parser-jobs/${randomUUID()}/file`, session, app);
        expect(r.status).toBe(502);
        expect(r.raw.body).not.toContain('<script>');
      } finally {
        await fake.close();
      }
    });
  });

  // --- audit and logs ------------------------------------------------------------------------

  describe('audit trail and logs', () => {
    it('audits uploads, lists, reads, downloads and reviews with ids only', async () => {
      const from = await maxAuditId();
      const job = await uploadPdf(patient, s.coordinator, PATIENT_FILE_NAME);
      await parse(job.id);
      expect((await list({ range: [0, 4], filter: { user_id: patient } }, s.reviewer)).status).toBe(200);
      expect((await bff.get(`/api/parser-jobs/${job.id}`, s.reviewer)).status).toBe(200);
      expect((await bff.get(`/api/parser-jobs/${job.id}/file`, s.reviewer)).status).toBe(200);
      const extracted = (await bff.get<Job>(`/api/parser-jobs/${job.id}`, s.reviewer)).body.data!;
      const r = await review(job.id, { decision: 'approve', results: [{ ...extracted.results[0], value: '4.7' }], notes: 'Quixotic called back', confirm_patient_mismatch: true });
      expect(r.status).toBe(200);
      expect((await upload({ user_id: patient }, [{ bytes: Buffer.from('plain text'), filename: PATIENT_FILE_NAME }])).status).toBe(415);

      const rows = await bff.db.select().from(auditEvents).where(gt(auditEvents.id, from)).orderBy(auditEvents.id);
      const of = (action: string, resource = 'parser_jobs') => rows.filter((x) => x.action === action && x.resource === resource);
      expect(of('upload')[0]).toMatchObject({ recordIds: [job.id], outcome: 'ok', staffId: bff.staff.coordinator.id, patientIds: [patient], detail: { content_type: 'application/pdf' } });
      expect(of('upload')[1]).toMatchObject({ recordIds: [], outcome: 'failed', statusCode: 415 });
      expect(of('list')[0]!.recordIds).toContain(job.id);
      expect(of('list')[0]!.detail).toMatchObject({ user_id: patient, queue: false });
      expect(of('read')[0]).toMatchObject({ recordIds: [job.id] });
      expect(of('download', 'parser_job_files')[0]).toMatchObject({ recordIds: [job.id], staffId: bff.staff.reviewer.id });
      expect(of('review')[0]).toMatchObject({ recordIds: [job.id], detail: { decision: 'approve', status: 'completed' } });

      // Times left out: a timestamp may well contain "4.7".
      const trail = JSON.stringify(rows.map((x) => ({ action: x.action, resource: x.resource, ids: x.recordIds, detail: x.detail })));
      for (const secret of [PATIENT_FILE_NAME, 'Quixotic', 'Jane', 'Potassium', '4.7', 'mmol', 'called back']) expect(trail).not.toContain(secret);
    });

    it('logs paths only: no filter values, file names or review notes', async () => {
      const { lines, stream } = captureLogs();
      const app = await bff.buildApp({ logger: { level: 'trace', stream } });
      const session = await bff.login('reviewer', app);
      const form = multipart({ user_id: patient }, [{ bytes: pdf, filename: PATIENT_FILE_NAME }]);
      const up = await bff.request<Job>({ method: 'POST', url: '/api/parser-jobs', session, payload: form.payload, headers: form.headers, app });
      expect(up.status).toBe(201);
      await parse(up.body.id);
      const r = await bff.get(`/api/parser-jobs${listQuery({ range: [0, 4], filter: { user_id: patient } })}`, session, app);
      expect(r.status).toBe(200);
      await bff.request({ method: 'POST', url: `/api/parser-jobs/${up.body.id}/review`, session, payload: { decision: 'reject', notes: 'Quixotic sent the wrong page' }, app });
      const log = lines.join('');
      expect(log).toContain('/api/parser-jobs');
      for (const secret of [PATIENT_FILE_NAME, 'Quixotic', patient, 'filter=']) expect(log).not.toContain(secret);
    });
  });
});
