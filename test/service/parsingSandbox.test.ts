/**
 * Parsing as the service runs it: uploads through HTTP, reader processes, parse workers that
 * claim fairly across teams. A second team's hostile and heavy files neither stall the service's
 * event loop nor hold up the first team's report, fail with sentences a reviewer understands,
 * and the queue is visible to the team and to operators.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../server/service/db/schema';
import { PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { parsePerTeam, ReaderPool } from '../../server/service/sandbox/readerPool';
import { JobWorker } from '../../server/service/jobs/queue';
import { blankPagesPdf, inflationBombPdf, wideImagePdf, widePng } from '../fixtures/hostileFiles';
import { ADMIN_TOKEN, storeKinds, useService, type Team } from './harness';
import { multipart, smallReportPdf } from './parserJobMultipart';

describe.each(storeKinds)('parsing in the sandbox, fair across teams (%s)', (kind) => {
  const svc = useService(kind);
  const readers = new ReaderPool({ size: 2 });
  let workers: JobWorker[] = [];
  let teamA: Team;
  let teamB: Team;
  let userA: string;
  let userB: string;

  beforeAll(async () => {
    teamA = await svc().createTeam();
    teamB = await svc().createTeam();
    userA = await svc().createUser(teamA, { client_user_id: `sandbox-${kind}-a` });
    userB = await svc().createUser(teamB, { client_user_id: `sandbox-${kind}-b` });
  });
  afterAll(async () => {
    await readers.close();
    await Promise.all(workers.map((w) => w.stop()));
  });

  const upload = async (team: Team, userId: string, bytes: Uint8Array, filename: string) => {
    const body = multipart({ user_id: userId }, [{ bytes, filename }]);
    const r = await svc().inject({ method: 'POST', url: '/lab_report/v1/parser/job', key: team.apiKey, payload: body.payload, headers: body.headers });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as string;
  };
  const job = async (team: Team, id: string) => (await svc().api(team.apiKey).get(`/lab_report/v1/parser/job/${id}`)).body;
  const settled = (j: { stage: string }) => ['done', 'failed', 'awaiting_review'].includes(j.stage);

  it("reads team B's hostile backlog beside team A's report without stalling the service, each failure in a sentence", async () => {
    // Team B uploads first: heavy and hostile files. Team A's small report comes last.
    const heavy = await upload(teamB, userB, await blankPagesPdf(40), 'blank.pdf');
    const png = await upload(teamB, userB, await widePng(12_000, 200), 'wide.png');
    const pdf = await upload(teamB, userB, await wideImagePdf(14_400, 400), 'wide.pdf');
    const bomb = await upload(teamB, userB, await inflationBombPdf(1024 * 1024 * 1024), 'bomb.pdf');
    const small = await upload(teamA, userA, await smallReportPdf(), 'report.pdf');

    // The queue as each team sees it, before any reader runs.
    expect((await svc().api(teamB.apiKey).get('/lab_report/v1/parser/queue')).body).toMatchObject({ queued: 4, parsing: 0, oldest_wait_seconds: expect.any(Number) });
    expect((await svc().api(teamA.apiKey).get('/lab_report/v1/parser/queue')).body).toMatchObject({ queued: 1, parsing: 0 });

    const loop = monitorEventLoopDelay({ resolution: 20 });
    loop.enable();
    const handlers = jobHandlers(svc().db, { parse: readers.parse });
    workers = Array.from({ length: readers.size }, () =>
      new JobWorker(svc().db, handlers, { kinds: [PARSE_JOB_KIND], pollMs: 100, leaseMs: 600_000, fair: { perKey: parsePerTeam(readers.size) } }),
    );
    workers.forEach((w) => w.start());

    const ids = [heavy, png, pdf, bomb];
    const until = Date.now() + 120_000;
    let states: Record<string, { stage: string; status: string; failure_reason: string | null }> = {};
    while (Date.now() < until) {
      states = Object.fromEntries(await Promise.all([...ids, small].map(async (id) => [id, await job(id === small ? teamA : teamB, id)])));
      if (Object.values(states).every(settled)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    loop.disable();

    expect(states[small]).toMatchObject({ status: expect.stringMatching(/completed|started/), stage: expect.stringMatching(/done|awaiting_review/) });
    expect(states[heavy]!.stage).toMatch(/done|awaiting_review/); // 40 blank pages: read, nothing found
    expect(states[png]).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/^The image \(12000 × 200 pixels\) is too long and narrow/) });
    expect(states[pdf]).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/^Page 1 is 14400 × 400 points/) });
    expect(states[bomb]).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/^The PDF holds a compressed stream that expands to more than 64 MB/) });
    for (const s of Object.values(states)) if (s.failure_reason) expect(s.failure_reason).toMatch(/^[A-Z].*\.$/);

    // Team A's report was claimed while team B's first file was still being read, not after B's backlog.
    const claims = await svc().db.select().from(jobs).where(eq(jobs.kind, PARSE_JOB_KIND)).orderBy(asc(jobs.claimedAt));
    const order = claims.map((c) => String(c.payload.job_id));
    expect(order.indexOf(small)).toBeLessThan(order.indexOf(png));

    // The event loop never stopped answering while documents were read (it was silent 83 s before).
    expect(loop.max / 1e6).toBeLessThan(1000);

    expect((await svc().api(teamB.apiKey).get('/lab_report/v1/parser/queue')).body).toMatchObject({ queued: 0, parsing: 0, oldest_queued_at: null });
  });

  it("shows operators the queue across teams and what the readers did", async () => {
    const app = await svc().buildApp({ adminToken: ADMIN_TOKEN, readers });
    const r = await app.inject({ method: 'GET', url: '/admin/v1/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      parse_queue: { queued: 0, parsing: 0, oldest_wait_seconds: null, teams_waiting: 0 },
      readers: { size: 2, parsed: 5, stopped_for_memory: 0, crashed: 0, peak_reader_bytes: expect.any(Number) },
      memory: { rss_bytes: expect.any(Number) },
    });
    expect((await app.inject({ method: 'GET', url: '/admin/v1/metrics' })).statusCode).toBe(401);
  });
});
