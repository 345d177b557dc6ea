/**
 * Lab results through the BFF against the real service: an order's results (not-ready, other
 * team), the result PDF, acknowledging a critical value (who, once, audited), the critical filter
 * of the orders list, a patient's biomarkers, the team's partial-results setting, and the roles.
 */
import { gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../server/contract';
import type { CriticalAcknowledgement, OrderResults, PatientBiomarkerHistory, PatientBiomarkers, TeamSettingsRecord } from '../../server/bff/api';
import { auditEvents } from '../../server/bff/db/schema';
import { UNKNOWN_UUID, listQuery, startBff, type BffFixture, type Session } from './harness';
import { labTestId, startLabService, type LabServiceFixture, type WireOrder } from './ordersFixture';

let service: LabServiceFixture;
let bff: BffFixture;
let s: Record<'admin' | 'coordinator' | 'lab_ops' | 'reviewer', Session>;
let patientId: string;
const o = {} as Record<'pending' | 'normal' | 'critical' | 'foreign', WireOrder>;

const KIT = labTestId('quest', 'Thyroid Check');
const PANEL = labTestId('quest', 'Annual Wellness');

const drive = async (order: WireOrder, finalStatus: string, body: Record<string, unknown>, team = service.team) => {
  const r = await service.call(team, 'POST', `/v3/order/${order.id}/test?final_status=${finalStatus}`, body);
  if (r.status !== 200) throw new Error(`driving answered ${r.status}: ${JSON.stringify(r.body)}`);
};

beforeAll(async () => {
  service = await startLabService();
  [patientId] = (await service.addUsers(service.team, [{ clientUserId: 'pt-results-bff' }])) as [string];
  const [foreignUser] = await service.addUsers(service.otherTeam, [{ clientUserId: 'pt-results-foreign' }]);
  o.pending = await service.placeOrder(service.team, patientId, { lab_test_id: KIT });
  o.normal = await service.placeOrder(service.team, patientId, { lab_test_id: KIT });
  o.critical = await service.placeOrder(service.team, patientId, { lab_test_id: PANEL });
  o.foreign = await service.placeOrder(service.otherTeam, foreignUser!, { lab_test_id: PANEL });
  await drive(o.normal, 'completed.testkit.completed', { interpretation: 'normal' });
  await drive(o.critical, 'completed.walk_in_test.completed', { interpretation: 'critical' });
  await drive(o.foreign, 'completed.walk_in_test.completed', { interpretation: 'critical' }, service.otherTeam);

  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  const sessions = await Promise.all((['admin', 'coordinator', 'lab_ops', 'reviewer'] as const).map((who) => bff.login(who)));
  s = { admin: sessions[0]!, coordinator: sessions[1]!, lab_ops: sessions[2]!, reviewer: sessions[3]! };
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

async function lastAuditId(): Promise<number> {
  const rows = await bff.db.select({ id: auditEvents.id }).from(auditEvents);
  return rows.reduce((max, r) => Math.max(max, Number(r.id)), 0);
}
const auditSince = (id: number) => bff.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(auditEvents.id);

describe('an order’s results', () => {
  it('answers the results with the acknowledgement state of a critical value, audited by order and patient', async () => {
    const before = await lastAuditId();
    const r = await bff.get<OrderResults>(`/api/orders/${o.critical.id}/results`, s.lab_ops);
    expect(r.status).toBe(200);
    expect(r.body.metadata.interpretation).toBe('critical');
    expect(r.body.results.some((x) => x.interpretation === 'critical')).toBe(true);
    expect(r.body.critical_acknowledgement).toBeNull();
    const [event] = await auditSince(before);
    expect(event).toMatchObject({ resource: 'order_results', action: 'read', outcome: 'ok', recordIds: [o.critical.id], patientIds: [patientId] });
    // The trail holds ids, never values.
    expect(JSON.stringify(event)).not.toMatch(/"result"|mg\/dL/);
  });

  it('says "not ready" for an order the lab has not reported on, and 404 for another team’s or an unknown order', async () => {
    const pending = await bff.get(`/api/orders/${o.pending.id}/results`, s.coordinator);
    expect(pending.status).toBe(404);
    expect(pending.body).toMatchObject({ code: 'results_not_ready' });
    expect(pending.body.message).toMatch(/No results yet/);
    for (const id of [o.foreign.id, UNKNOWN_UUID, 'not-a-uuid']) {
      const r = await bff.get(`/api/orders/${id}/results`, s.coordinator);
      expect(r.status).toBe(404);
      expect((r.body as { code?: string }).code).toBeUndefined();
    }
  });

  it('streams the result report as a PDF that is not cached, audited by order and patient', async () => {
    const before = await lastAuditId();
    const r = await bff.request({ method: 'GET', url: `/api/orders/${o.normal.id}/results.pdf`, session: s.coordinator });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.raw.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [download] = await auditSince(before);
    expect(download).toMatchObject({ resource: 'order_results', action: 'download', recordIds: [o.normal.id], patientIds: [patientId] });
    expect((await bff.request({ method: 'GET', url: `/api/orders/${o.pending.id}/results.pdf`, session: s.coordinator })).status).toBe(404);
  });

  it('keeps results from roles without results:read', async () => {
    const r = await bff.get(`/api/orders/${o.normal.id}/results`, s.reviewer);
    expect(r.status).toBe(403);
  });
});

describe('acknowledging a critical value', () => {
  it('lists the critical order under critical_unacknowledged until a coordinator acknowledges it, who is recorded', async () => {
    const pending = await bff.get<Order[]>(`/api/orders${listQuery({ filter: { critical_unacknowledged: true } })}`, s.lab_ops);
    expect(pending.status).toBe(200);
    expect(pending.body.map((x) => x.id)).toEqual([o.critical.id]);
    // "Needs attention" holds it too (none of these orders is in a problem status).
    const attention = await bff.get<Order[]>(`/api/orders${listQuery({ filter: { needs_attention: true } })}`, s.lab_ops);
    expect(attention.body.map((x) => x.id)).toEqual([o.critical.id]);

    expect((await bff.request({ method: 'POST', url: `/api/orders/${o.critical.id}/critical-acknowledgement`, session: s.lab_ops, payload: {} })).status).toBe(403);

    const before = await lastAuditId();
    const first = await bff.request<CriticalAcknowledgement>({ method: 'POST', url: `/api/orders/${o.critical.id}/critical-acknowledgement`, session: s.coordinator, payload: { note: 'Patient called, sent to ED' } });
    expect(first.status).toBe(201);
    expect(first.body.acknowledged_by).toContain(bff.staff.coordinator.email);
    expect(first.body.note).toBe('Patient called, sent to ED');
    const again = await bff.request<CriticalAcknowledgement>({ method: 'POST', url: `/api/orders/${o.critical.id}/critical-acknowledgement`, session: s.admin, payload: {} });
    expect(again.status).toBe(200);
    expect(again.body.acknowledged_by).toContain(bff.staff.coordinator.email);
    const events = await auditSince(before);
    expect(events.map((e) => [e.action, e.staffId, (e.detail as { first?: boolean }).first, e.patientIds])).toEqual([
      ['acknowledge', bff.staff.coordinator.id, true, [patientId]],
      ['acknowledge', bff.staff.admin.id, false, [patientId]],
    ]);
    // The note is free text about a patient: never in the trail.
    expect(JSON.stringify(events)).not.toContain('sent to ED');

    const after = await bff.get<Order[]>(`/api/orders${listQuery({ filter: { critical_unacknowledged: true } })}`, s.lab_ops);
    expect(after.body).toEqual([]);
    expect((await bff.get<Order[]>(`/api/orders${listQuery({ filter: { needs_attention: true } })}`, s.lab_ops)).body).toEqual([]);
    const results = await bff.get<OrderResults>(`/api/orders/${o.critical.id}/results`, s.lab_ops);
    expect(results.body.critical_acknowledgement?.acknowledged_by).toContain(bff.staff.coordinator.email);
  });

  it('refuses an order without a critical value (409) and an order without results (404 not ready)', async () => {
    expect((await bff.request({ method: 'POST', url: `/api/orders/${o.normal.id}/critical-acknowledgement`, session: s.coordinator, payload: {} })).status).toBe(409);
    const pending = await bff.request({ method: 'POST', url: `/api/orders/${o.pending.id}/critical-acknowledgement`, session: s.coordinator, payload: {} });
    expect(pending.status).toBe(404);
    expect((pending.body as { code?: string }).code).toBe('results_not_ready');
  });
});

describe('a critical value that the report no longer summarises as critical', () => {
  // Another patient, so the biomarker history below stays that of the first one.
  let otherPatient: string;
  beforeAll(async () => {
    [otherPatient] = (await service.addUsers(service.team, [{ clientUserId: 'pt-results-bff-2' }])) as [string];
  });

  it('still carries the acknowledgement state, lists the order as unacknowledged, and takes the acknowledgement', async () => {
    const order = await service.placeOrder(service.team, otherPatient, { lab_test_id: PANEL });
    await drive(order, 'sample_with_lab.walk_in_test.partial_results', { interpretation: 'critical' });
    const partial = await bff.get<OrderResults>(`/api/orders/${order.id}/results`, s.coordinator);
    expect(partial.body.metadata.status).toBe('partial');
    expect(partial.body.results.some((x) => x.interpretation === 'critical')).toBe(true);
    // The final report is summarised as "unknown"; the critical value released with the partial one stands.
    await drive(order, 'completed.walk_in_test.completed', { interpretation: 'unknown' });
    const final = await bff.get<OrderResults>(`/api/orders/${order.id}/results`, s.coordinator);
    expect(final.body.metadata.status).toBe('final');
    expect(final.body.results.some((x) => x.interpretation === 'critical')).toBe(true);
    expect(final.body.critical_acknowledgement).toBeNull();
    const waiting = await bff.get<Order[]>(`/api/orders${listQuery({ filter: { critical_unacknowledged: true } })}`, s.coordinator);
    expect(waiting.body.map((x) => x.id)).toEqual([order.id]);
    const ack = await bff.request({ method: 'POST', url: `/api/orders/${order.id}/critical-acknowledgement`, session: s.coordinator, payload: {} });
    expect(ack.status).toBe(201);
  });

  it('records exactly one first acknowledgement when two coordinators acknowledge at once', async () => {
    const order = await service.placeOrder(service.team, otherPatient, { lab_test_id: PANEL });
    await drive(order, 'completed.walk_in_test.completed', { interpretation: 'critical' });
    const before = await lastAuditId();
    const answers = await Promise.all(
      [s.coordinator, s.admin].map((session) => bff.request({ method: 'POST', url: `/api/orders/${order.id}/critical-acknowledgement`, session, payload: {} })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    const events = await auditSince(before);
    expect(events.map((e) => (e.detail as { first?: boolean }).first).sort()).toEqual([false, true]);
  });
});

describe('a patient’s biomarkers', () => {
  it('answers the latest value per analyte and an analyte’s history, audited by patient', async () => {
    const before = await lastAuditId();
    const summary = await bff.get<PatientBiomarkers>(`/api/users/${patientId}/biomarkers`, s.coordinator);
    expect(summary.status).toBe(200);
    // TSH: in the thyroid kit and in the wellness panel, both completed.
    const tsh = summary.body.biomarkers.find((b) => b.loinc === '3016-3');
    expect(tsh?.count).toBe(2);
    const history = await bff.get<PatientBiomarkerHistory>(`/api/users/${patientId}/biomarkers/3016-3`, s.coordinator);
    expect(history.status).toBe(200);
    expect(history.body.unit).toBe('mIU/L');
    expect(history.body.observations.map((x) => x.order_id).sort()).toEqual([o.normal.id, o.critical.id].sort());
    expect((await auditSince(before)).map((e) => [e.resource, e.patientIds])).toEqual([
      ['biomarkers', [patientId]],
      ['biomarkers', [patientId]],
    ]);
    // Not a LOINC code: no such history (the path names nothing).
    expect((await bff.get(`/api/users/${patientId}/biomarkers/glucose`, s.coordinator)).status).toBe(404);
    expect((await bff.get(`/api/users/${UNKNOWN_UUID}/biomarkers`, s.coordinator)).status).toBe(404);
  });
});

describe('team settings', () => {
  it('lets admins switch partial-results webhooks on and off; nobody else', async () => {
    expect((await bff.get<TeamSettingsRecord>('/api/team-settings', s.admin)).body).toEqual({ partial_results_webhooks: false });
    const on = await bff.request<TeamSettingsRecord>({ method: 'PUT', url: '/api/team-settings', session: s.admin, payload: { partial_results_webhooks: true } });
    expect(on.body).toEqual({ partial_results_webhooks: true });
    expect((await service.call(service.team, 'GET', '/v2/team/settings')).body).toEqual({ partial_results_webhooks: true });
    const bad = await bff.request({ method: 'PUT', url: '/api/team-settings', session: s.admin, payload: { partial_results_webhooks: 'yes' } });
    expect(bad.status).toBe(422);
    expect((bad.body as { errors?: Record<string, string> }).errors).toHaveProperty('partial_results_webhooks');
    expect((await bff.request({ method: 'PUT', url: '/api/team-settings', session: s.coordinator, payload: { partial_results_webhooks: false } })).status).toBe(403);
    await bff.request({ method: 'PUT', url: '/api/team-settings', session: s.admin, payload: { partial_results_webhooks: false } });
  });
});
