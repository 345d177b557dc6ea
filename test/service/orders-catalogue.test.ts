/**
 * Orders against the real catalogue and the demo team's lab accounts (syncLabCatalogue,
 * ensureDemoLabAccounts), alongside this suite's own fixtures in the same store.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobs, labTests } from '../../server/service/db/schema';
import { jobHandlers } from '../../server/service/jobs/handlers';
import { JobWorker } from '../../server/service/jobs/queue';
import { ensureDemoLabAccounts, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { expect422, storeKinds, useService } from './harness';
import { createBody, importBody, insertCatalogue, patientAddress, pdfText, teamWithUser, type OrderTeam } from './orderFixtures';

describe.each(storeKinds)('orders with the synced catalogue and demo lab accounts (%s)', (kind) => {
  const svc = useService(kind);
  let t: OrderTeam;
  const shared: Record<string, string> = {};

  beforeAll(async () => {
    const db = svc().db;
    await syncLabCatalogue(db);
    // The suite fixtures go in beside the real catalogue without clashing.
    await insertCatalogue(db);
    t = await teamWithUser(svc());
    await ensureDemoLabAccounts(db, t.team.teamId);
    for (const [key, labId] of [
      ['quest', 1],
      ['sonora', 4],
    ] as const) {
      const [row] = await db
        .select({ id: labTests.id })
        .from(labTests)
        .where(and(isNull(labTests.teamId), eq(labTests.labId, labId), eq(labTests.name, 'Essential Metabolic Health')));
      shared[key] = row!.id;
    }
  });

  const api = () => svc().api(t.team.apiKey);

  it('picks the demo Quest account where it may bill, and prints its default notes after the order’s', async () => {
    const r = await api().post('/v3/order/create', createBody(t.userId, shared.quest, { patient_address: patientAddress({ state: 'CA', zip: '94105' }), clinical_notes: 'Order note.' }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const listed = await api().get('/v3/lab_test/lab_account');
    expect(listed.status).toBe(200);
    const accounts = listed.body.data as { id: string; lab: string }[];
    expect(r.body.order.lab_account_id).toBe(accounts.find((a) => a.lab === 'quest')!.id);
    const pdf = await svc().inject({ method: 'GET', url: `/v3/order/${r.body.order.id}/requisition/pdf`, key: t.team.apiKey });
    const text = pdfText(pdf.raw.rawPayload);
    expect(text).toContain('Order note.\nFasting specimens preferred.');
  });

  it('refuses a state the demo Quest account may not bill (NY)', async () => {
    const r = await api().post('/v3/order/create', createBody(t.userId, shared.quest));
    expect(expect422(r, ['body', 'lab_account_id'])[0]!.msg).toMatch(/quest .*client_bill .*NY/);
  });

  it('Sonora Quest (pending): refused by create, accepted by import', async () => {
    const address = patientAddress({ state: 'AZ', zip: '85004' });
    expect422(await api().post('/v3/order/create', createBody(t.userId, shared.sonora, { patient_address: address })), ['body', 'lab_account_id']);
    const r = await api().post('/v3/order/import', importBody(t.userId, { order_set: { lab_test_ids: [shared.sonora] }, patient_address: address }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.order.origin).toBe('imported');
  });

  it('the order.advance job enqueued at creation is run by the lifecycle: the order moves one step', async () => {
    const r = await api().post('/v3/order/create', createBody(t.userId, shared.quest, { patient_address: patientAddress({ state: 'CA', zip: '94105' }) }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.order.id as string;
    const db = svc().db;
    await db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(sql`${jobs.payload}->>'order_id' = ${id}`);
    const worker = new JobWorker(db, jobHandlers(db));
    await worker.runDueOnce();
    const [job] = await db.select().from(jobs).where(and(sql`${jobs.payload}->>'order_id' = ${id}`, eq(jobs.kind, 'order.advance'))).orderBy(jobs.id);
    expect(job!.doneAt).not.toBeNull();
    expect(job!.lastError).toBeNull();
    const got = await api().get(`/v3/order/${id}`);
    expect(got.body.events).toHaveLength(2);
    expect(got.body.low_level_status).not.toBe('ordered');
  });
});
