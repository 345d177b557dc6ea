/**
 * Group commit of the audit trail (server/bff/audit/chain.ts): events appended while a batch is
 * written go together in the next transaction, in the order they were appended. Every request's
 * event is there exactly once, the chain verifies, and an event the store refuses fails only its
 * own request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent, batchesWritten, verifyChain } from '../../server/bff/audit/chain';
import { auditEvents } from '../../server/bff/db/schema';
import { startBff, startService, storeKinds, type BffFixture, type ServiceFixture, type Session } from './harness';

let service: ServiceFixture;

beforeAll(async () => {
  service = await startService();
  await service.addUsers(service.team, [{ clientUserId: 'batch-patient-1' }, { clientUserId: 'batch-patient-2' }]);
});
afterAll(async () => {
  await service?.close();
});

const event = (marker: string) => ({
  staffId: null,
  staffEmail: 'batch@labdesk.test',
  staffRole: 'admin',
  action: 'read',
  resource: 'group-commit-test',
  recordIds: [marker],
  patientIds: [],
  detail: { marker },
  outcome: 'ok',
  statusCode: null,
  ip: '127.0.0.1',
});

describe.each(storeKinds)('audit events committed in groups (%s)', (kind) => {
  let bff: BffFixture;
  let coordinator: Session;

  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    coordinator = await bff.login('coordinator');
  });
  afterAll(async () => {
    await bff?.close();
  });

  const rows = () => bff.db.select().from(auditEvents).orderBy(auditEvents.id);

  it('records each of many concurrent requests exactly once, in one verifiable chain', async () => {
    const n = 60;
    // Each request's range is its own marker: the list's audit detail names it.
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => bff.get(`/api/users?range=${encodeURIComponent(JSON.stringify([i, i]))}`, coordinator)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const all = await rows();
    const lists = all.filter((r) => r.resource === 'users' && r.action === 'list');
    const markers = lists.map((r) => JSON.stringify((r.detail as { range: unknown }).range));
    expect([...markers].sort()).toEqual(Array.from({ length: n }, (_, i) => JSON.stringify([i, i])).sort());
    for (let i = 1; i < all.length; i++) {
      expect(all[i]!.prevHash).toBe(all[i - 1]!.hash);
      // Appended in order, chained in order: no event's time is before its predecessor's.
      expect(all[i]!.at.getTime()).toBeGreaterThanOrEqual(all[i - 1]!.at.getTime());
    }
    expect(await verifyChain(bff.db)).toEqual({ ok: true, checked: all.length });
  });

  it('writes events appended while a batch is in flight as the next batch, in the order appended', async () => {
    const before = batchesWritten(bff.db);
    const markers = Array.from({ length: 40 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    // All appended in one tick: the first starts a batch alone, the other 39 wait and go together.
    await Promise.all(markers.map((m) => appendEvent(bff.db, event(m))));
    expect(batchesWritten(bff.db) - before).toBe(2);
    const written = (await rows()).filter((r) => r.resource === 'group-commit-test');
    expect(written.map((r) => r.recordIds[0])).toEqual(markers);
    expect((await verifyChain(bff.db)).ok).toBe(true);
  });

  it('fails only the event the store refuses; the rest of its batch is committed and chained', async () => {
    const good = ['g1', 'g2', 'g3', 'g4'];
    const results = await Promise.allSettled([
      appendEvent(bff.db, event('first')),
      appendEvent(bff.db, event(good[0]!)),
      appendEvent(bff.db, event(good[1]!)),
      // `action` is required: the store refuses this row, and with it the batch's transaction.
      appendEvent(bff.db, { ...event('refused'), action: null as unknown as string }),
      appendEvent(bff.db, event(good[2]!)),
      appendEvent(bff.db, event(good[3]!)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const written = (await rows()).filter((r) => r.resource === 'group-commit-test').map((r) => r.recordIds[0]);
    expect(written.slice(-5)).toEqual(['first', ...good]);
    expect(written).not.toContain('refused');
    expect((await verifyChain(bff.db)).ok).toBe(true);
  });
});
