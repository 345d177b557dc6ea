/** The demo's sample lab reports go through the real pipeline and leave work in the review queue. */
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { parsingJobs } from '../../server/service/db/schema';
import { PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { closeParser } from '../../server/service/reader';
import { seedDemoLabReports } from '../../server/service/seed/demoLabReports';
import { JobWorker } from '../../server/service/jobs/queue';
import { storeKinds, useService } from './harness';

describe.each(storeKinds)('demo lab reports (%s)', (kind) => {
  const svc = useService(kind);
  afterAll(async () => {
    await closeParser();
  });

  it('seeds four reports once; parsed, one completes and three wait for review (a dropped decimal, a contradicting flag, a requested check)', async () => {
    const team = await svc().createTeam();
    for (let i = 0; i < 4; i++) await svc().createUser(team, { client_user_id: `demo-report-${kind}-${i}` });
    expect(await seedDemoLabReports(svc().db, team.teamId)).toBe(4);
    expect(await seedDemoLabReports(svc().db, team.teamId)).toBe(0);

    const worker = new JobWorker(svc().db, jobHandlers(svc().db), { kinds: [PARSE_JOB_KIND] });
    for (let i = 0; i < 10 && (await worker.runDueOnce()) > 0; i++);
    const jobs = await svc().db.select().from(parsingJobs).where(eq(parsingJobs.teamId, team.teamId)).orderBy(parsingJobs.seq);
    expect(jobs.map((j) => j.stage)).toEqual(['done', 'awaiting_review', 'awaiting_review', 'awaiting_review']);
    const reasons = jobs.map((j) => JSON.stringify(j.reviewReasons));
    expect(reasons[1]).toContain('decimal_suspect');
    expect(reasons[2]).toContain('flag_inconsistent');
    expect(jobs[3]!.reviewRequested).toBe(true);
    const cmp = (jobs[0]!.data as { results: { test_name: string; value: string }[] }).results;
    expect(cmp.map((r) => `${r.test_name} ${r.value}`)).toContain('Potassium 4.4');
  }, 120_000);

  it('waits for users: a team without four does not get them', async () => {
    const team = await svc().createTeam();
    await svc().createUser(team, { client_user_id: `demo-report-lonely-${kind}` });
    expect(await seedDemoLabReports(svc().db, team.teamId)).toBe(0);
  });
});
