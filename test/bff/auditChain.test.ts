/**
 * The audit trail is tamper-evident: append-only in the store, each event hashed over its content
 * and its predecessor's hash. Editing or removing an event in the store is named by
 * `GET /api/audit-events/verify`; the trail exports as CSV with the list's filters.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/bff/db/schema';
import { listQuery, startBff, startService, storeKinds, type BffFixture, type ServiceFixture, type Session } from './harness';

let service: ServiceFixture;
let userId: string;

beforeAll(async () => {
  service = await startService();
  [userId] = (await service.addUsers(service.team, [{ clientUserId: 'chain-patient' }])) as [string];
});
afterAll(async () => {
  await service?.close();
});

describe.each(storeKinds)('the audit trail’s chain (%s)', (kind) => {
  let bff: BffFixture;
  let admin: Session;
  let coordinator: Session;

  beforeAll(async () => {
    bff = await startBff(kind, { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
    admin = await bff.login('admin');
    coordinator = await bff.login('coordinator');
  });
  afterAll(async () => {
    await bff?.close();
  });

  const verify = async () => (await bff.get<{ ok: boolean; checked: number; first_broken_id?: string }>('/api/audit-events/verify', admin)).body;
  const ids = async () => (await bff.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(auditEvents.id)).map((r) => r.id);

  it('chains every event, also when many are written at once', async () => {
    await Promise.all(Array.from({ length: 24 }, () => bff.get(`/api/users/${userId}`, coordinator)));
    const rows = await bff.db.select().from(auditEvents).orderBy(auditEvents.id);
    expect(rows.length).toBeGreaterThan(24);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
    expect(rows.filter((r) => r.action === 'read').every((r) => r.staffRole === 'coordinator' && r.patientIds[0] === userId)).toBe(true);
    const check = await verify();
    expect(check).toEqual({ ok: true, checked: rows.length });
  });

  it('cannot be changed or shortened through the store’s ordinary statements', async () => {
    const [first] = await ids();
    await expect(bff.db.update(auditEvents).set({ action: 'nothing to see' }).where(eq(auditEvents.id, first!))).rejects.toThrow();
    await expect(bff.db.delete(auditEvents).where(eq(auditEvents.id, first!))).rejects.toThrow();
    expect((await verify()).ok).toBe(true);
  });

  it('is refused to anyone but admins, and the check itself is recorded', async () => {
    expect((await bff.get('/api/audit-events/verify', coordinator)).status).toBe(403);
    expect((await bff.get('/api/audit-events/export', coordinator)).status).toBe(403);
    const [last] = await bff.db.select().from(auditEvents).orderBy(sql`${auditEvents.id} desc`).limit(1);
    expect(last).toMatchObject({ action: 'export', resource: 'audit_events', outcome: 'denied', staffRole: 'coordinator' });
  });

  it('exports the events the filters match as CSV, oldest first, without running as formulas', async () => {
    const r = await bff.get<string>(`/api/audit-events/export${listQuery({ filter: { patient_id: userId } }).replace(/&?(sort|range)=[^&]*/g, '')}`, admin);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="labdesk-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = r.raw.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,staff_id,staff_email,staff_role,action,resource,record_ids,patient_ids,outcome,status_code,ip,detail,hash');
    expect(lines.length).toBeGreaterThan(24);
    expect(lines.slice(1).every((l) => l.includes(userId))).toBe(true);
    const exported = lines.slice(1).map((l) => Number(l.split(',')[0]));
    expect([...exported].sort((a, b) => a - b)).toEqual(exported);
    // A resource name an attacker chose cannot become a formula in a spreadsheet.
    await bff.get(`/api/audit-events${listQuery({ filter: { resource: '=HYPERLINK("x")' } })}`, admin);
    const all = (await bff.get<string>('/api/audit-events/export', admin)).raw.body;
    expect(all).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('names the first event edited or removed in the store', async () => {
    const all = await ids();
    const victim = all[Math.floor(all.length / 2)]!;
    const [{ staffEmail: original }] = (await bff.db.select({ staffEmail: auditEvents.staffEmail }).from(auditEvents).where(eq(auditEvents.id, victim))) as [{ staffEmail: string | null }];
    // Someone with the store's keys: the append-only trigger is switched off first.
    await bff.db.execute(sql`alter table bff.audit_events disable trigger audit_events_append_only`);
    await bff.db.update(auditEvents).set({ staffEmail: 'someone.else@labdesk.test' }).where(eq(auditEvents.id, victim));
    expect(await verify()).toMatchObject({ ok: false, first_broken_id: String(victim) });

    // Put back as it was: intact again. Then remove an event: its successor no longer links.
    await bff.db.update(auditEvents).set({ staffEmail: original }).where(eq(auditEvents.id, victim));
    expect((await verify()).ok).toBe(true);
    await bff.db.delete(auditEvents).where(eq(auditEvents.id, victim));
    await bff.db.execute(sql`alter table bff.audit_events enable trigger audit_events_append_only`);
    const next = all[all.indexOf(victim) + 1]!;
    expect(await verify()).toMatchObject({ ok: false, first_broken_id: String(next) });
  });
});
