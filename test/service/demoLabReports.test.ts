/** The demo's sample lab reports go through the real pipeline and leave work in the review queue. */
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { parsingJobs } from '../../server/service/db/schema';
import { PARSE_JOB_KIND } from '../../server/service/domain/parsingJobs/create';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { closeParser } from '../../server/service/reader';
import { seedDemoLabReports } from '../../server/service/seed/demoLabReports';
import { JobWorker } from '../../server/service/jobs/queue';
import { sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { storeKinds, useService } from './harness';
import { createBody, insertLabAccount, patientDetails } from './orderFixtures';

describe.each(storeKinds)('demo lab reports (%s)', (kind) => {
  const svc = useService(kind);
  afterAll(async () => {
    await closeParser();
  });

  it('seeds four reports once; parsed, one completes and three wait for review (a dropped decimal, a contradicting flag, a requested check)', async () => {
    await syncLabCatalogue(svc().db);
    const team = await svc().createTeam();
    const users: string[] = [];
    for (let i = 0; i < 4; i++) users.push(await svc().createUser(team, { client_user_id: `demo-report-${kind}-${i}` }));
    // The last user has an order: the clean report is hers, printed with the name and birth date on
    // that order (as a lab prints what it was sent), so it completes. Reports for patients without
    // orders cannot be compared with anyone's and wait for a reviewer, however clean.
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest' });
    const details = patientDetails({ first_name: 'Grace', last_name: 'Hopper', dob: '1985-12-09' });
    const order = await svc().api(team.apiKey).post('/v3/order', createBody(users[3]!, sharedLabTestId('quest_essential_metabolic_health'), { patient_details: details }));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
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
    // The others' patients have no orders to compare the reports with: a reviewer confirms them.
    for (const r of reasons.slice(1)) expect(r).toContain('patient_unverified');
    expect(jobs[0]!.userId).toBe(users[3]);
    expect((jobs[0]!.data as { metadata: { patient_last_name: string; dob: string } }).metadata).toMatchObject({ patient_last_name: 'HOPPER', dob: '12/09/1985' });
    const cmp = (jobs[0]!.data as { results: { test_name: string; value: string }[] }).results;
    expect(cmp.map((r) => `${r.test_name} ${r.value}`)).toContain('Potassium 4.4');
  }, 120_000);

  it('waits for users: a team without four does not get them', async () => {
    const team = await svc().createTeam();
    await svc().createUser(team, { client_user_id: `demo-report-lonely-${kind}` });
    expect(await seedDemoLabReports(svc().db, team.teamId)).toBe(0);
  });
});
