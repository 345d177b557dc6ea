import { serialization } from '@tryvital/vital-node';
import { VitalError } from '@tryvital/vital-node';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { biomarkerResults, webhookOutbox } from '../../server/service/db/schema';
import { markerId, sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { ADMIN_TOKEN, expect422, storeKinds, UNKNOWN_UUID, useService, type Team } from './harness';
import { createBody, insertLabAccount, patientDetails, pdfText } from './orderFixtures';
import { sdkClient } from './sdkClient';

const WELLNESS = sharedLabTestId('quest_annual_wellness'); // walk-in: CBC, CMP, lipids, TSH, A1c, vitamin D
const THYROID_KIT = sharedLabTestId('quest_thyroid_check'); // testkit: TSH, free T4
const LIPIDS_AT_HOME = sharedLabTestId('quest_lipid_panel'); // at-home draw
const SEXUAL_HEALTH = sharedLabTestId('labcorp_sexual_health_screen'); // qualitative results
const MENS_HEALTH_AT_HOME = sharedLabTestId('quest_mens_health'); // at-home draw: hormones, PSA and a CBC

describe.each(storeKinds)('lab results (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let other: Team;
  let userId: string;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    other = await svc().createTeam();
    userId = await svc().createUser(team, { client_user_id: `pt-results-${kind}` });
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest' });
    await insertLabAccount(svc().db, team.teamId, { lab: 'labcorp' });
  });

  async function newOrder(labTestId: string, over: Record<string, unknown> = {}): Promise<string> {
    const r = await svc().api(team.apiKey).post('/v3/order', createBody(userId, labTestId, over));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.order.id as string;
  }
  const simulate = (orderId: string, finalStatus: string, body?: Record<string, unknown>) =>
    svc().api(team.apiKey).post(`/v3/order/${orderId}/test?final_status=${finalStatus}`, body ?? {});
  const results = (orderId: string, key = team.apiKey) => svc().api(key).get(`/v3/order/${orderId}/result`);
  const outbox = async (orderId: string, eventType: string) =>
    (await svc().db.select().from(webhookOutbox).where(and(eq(webhookOutbox.teamId, team.teamId), eq(webhookOutbox.eventType, eventType)))).filter(
      (e) => (e.payload as { data: { order_id?: string; id?: string } }).data.order_id === orderId || (e.payload as { data: { id?: string } }).data.id === orderId,
    );

  it('answers a clear 404 before the lab has reported, and for another team’s order', async () => {
    const orderId = await newOrder(WELLNESS);
    for (const path of ['result', 'result/metadata', 'result/pdf']) {
      const mine = await svc().api(team.apiKey).get(`/v3/order/${orderId}/${path}`);
      expect(mine.status).toBe(404);
      expect(mine.body.detail).toMatch(/No results for this order yet: the order is received\.walk_in_test\.ordered/);
      const theirs = await svc().api(other.apiKey).get(`/v3/order/${orderId}/${path}`);
      expect(theirs.status).toBe(404);
      expect(theirs.body.detail).toBe('Order not found');
    }
    expect((await svc().api(team.apiKey).get(`/v3/order/${UNKNOWN_UUID}/result`)).status).toBe(404);
  });

  it('completes a testkit order with values for every expected result, consistent flags, LOINC codes and the performing lab', async () => {
    const orderId = await newOrder(THYROID_KIT);
    expect((await simulate(orderId, 'completed.testkit.completed', { interpretation: 'normal', has_missing_results: false })).status).toBe(200);
    const r = await results(orderId);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const byLoinc = new Map((r.body.results as { loinc: string }[]).map((x) => [x.loinc, x]));
    expect([...byLoinc.keys()].sort()).toEqual(['3016-3', '3024-7']);
    for (const x of r.body.results) {
      expect(x.type).toBe('numeric');
      expect(x.interpretation).toBe('normal');
      const value = Number(x.result);
      expect(value).toBeGreaterThanOrEqual(x.min_range_value);
      expect(value).toBeLessThanOrEqual(x.max_range_value);
      expect(x.is_above_max_range).toBe(false);
      expect(x.is_below_min_range).toBe(false);
      expect(x.performing_laboratory).toBe('Quest Diagnostics');
      expect(x.source_markers[0].name).toMatch(/TSH|Free T4/);
      expect(x.unit).toBeTruthy();
    }
    expect(r.body.metadata).toMatchObject({ status: 'final', interpretation: 'normal', patient: 'Lovelace, Ada', dob: '1985-12-10', laboratory: 'Quest Diagnostics' });
    expect(r.body.metadata['clia_#']).toMatch(/^\d{2}D\d{7}$/);
    expect(r.body.missing_results).toEqual([]);
    const order = await svc().api(team.apiKey).get(`/v3/order/${orderId}`);
    expect(order.body).toMatchObject({ interpretation: 'normal', has_missing_results: false });
  });

  it('releases partial results before the final report, keeps released values, and says partial then final', async () => {
    const orderId = await newOrder(WELLNESS);
    expect((await simulate(orderId, 'sample_with_lab.walk_in_test.partial_results', { interpretation: 'normal' })).status).toBe(200);
    const partial = await results(orderId);
    expect(partial.status).toBe(200);
    expect(partial.body.metadata.status).toBe('partial');
    const partialCount = partial.body.results.length;
    expect(partialCount).toBeGreaterThan(0);

    expect((await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'normal', has_missing_results: false })).status).toBe(200);
    const final = await results(orderId);
    expect(final.body.metadata.status).toBe('final');
    expect(final.body.results.length).toBeGreaterThan(partialCount);
    // What the partial report said stands in the final one.
    expect(final.body.results.slice(0, partialCount)).toEqual(partial.body.results);
    // One result per analyte even where two markers include it (glucose in the CMP and... only once).
    const loincs = final.body.results.map((x: { loinc: string }) => x.loinc).filter(Boolean);
    expect(new Set(loincs).size).toBe(loincs.length);
    // Calculated values agree with their inputs.
    const v = (code: string) => Number(final.body.results.find((x: { loinc: string }) => x.loinc === code)?.result);
    expect(Math.abs(v('43396-1') - (v('2093-3') - v('2085-9')))).toBeLessThanOrEqual(1); // non-HDL = total − HDL
    expect(Math.abs(v('10834-0') - (v('2885-2') - v('1751-7')))).toBeLessThanOrEqual(0.11); // globulin
    // Each result change was announced.
    const updates = await outbox(orderId, 'labtest.order.updated');
    expect(updates.map((e) => (e.payload as { data: { status: string; low_level_status?: string } }).data.low_level_status)).toEqual(
      expect.arrayContaining(['partial_results', 'completed']),
    );
  });

  it('puts a critical value through once: interpretation critical, and one labtest.result.critical event in the SDK’s shape', async () => {
    const orderId = await newOrder(WELLNESS);
    await simulate(orderId, 'sample_with_lab.walk_in_test.partial_results', { interpretation: 'critical' });
    await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'critical' });
    const r = await results(orderId);
    const critical = r.body.results.filter((x: { interpretation: string }) => x.interpretation === 'critical');
    expect(critical.length).toBe(1);
    const c = critical[0];
    expect(c.is_above_max_range || c.is_below_min_range).toBe(true);
    expect(r.body.metadata.interpretation).toBe('critical');
    const events = await outbox(orderId, 'labtest.result.critical');
    expect(events).toHaveLength(1);
    const parsed = serialization.ClientFacingCriticalResultIdentified.parse(events[0]!.payload, { unrecognizedObjectKeys: 'fail' });
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    expect(events[0]!.payload).toMatchObject({ event_type: 'labtest.result.critical', data: { order_id: orderId, interpretation: 'critical', team_id: team.teamId, user_id: userId } });
    expect((await svc().api(team.apiKey).get(`/v3/order/${orderId}`)).body.interpretation).toBe('critical');
  });

  it('reports missing results with a failure type, and calculated results whose inputs are missing as not calculable', async () => {
    const orderId = await newOrder(WELLNESS);
    await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'normal', has_missing_results: true });
    const r = await results(orderId);
    expect(r.body.missing_results.length).toBeGreaterThan(0);
    const reported = new Set(r.body.results.map((x: { slug: string }) => x.slug));
    for (const m of r.body.missing_results) {
      expect(m.inferred_failure_type).toMatch(/_failure$/);
      expect(m.note).toBeTruthy();
      expect(reported.has(m.slug)).toBe(false);
    }
    expect((await svc().api(team.apiKey).get(`/v3/order/${orderId}`)).body.has_missing_results).toBe(true);
  });

  it('honours result_types: a range value, a comment and coded values; unknown types are 422', async () => {
    const orderId = await newOrder(SEXUAL_HEALTH);
    expect422(await simulate(orderId, 'completed.walk_in_test.completed', { result_types: ['numeric', 'hologram'] }), ['body', 'result_types']);
    await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'abnormal', result_types: ['comment', 'coded_value'] });
    const r = await results(orderId);
    const types = r.body.results.map((x: { type: string }) => x.type);
    expect(types).toContain('comment');
    expect(types).toContain('coded_value');
    const coded = r.body.results.filter((x: { type: string }) => x.type === 'coded_value');
    expect(coded.every((x: { result: string }) => ['Reactive', 'Non-Reactive'].includes(x.result))).toBe(true);
    expect(coded.some((x: { result: string; interpretation: string }) => x.result === 'Reactive' && x.interpretation === 'abnormal')).toBe(true);

    const rangeOrder = await newOrder(WELLNESS);
    await simulate(rangeOrder, 'completed.walk_in_test.completed', { interpretation: 'normal', result_types: ['range'] });
    const ranged = (await results(rangeOrder)).body.results.filter((x: { type: string }) => x.type === 'range');
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged[0].result).toMatch(/^[<>]\d/);
  });

  it('serves a real result report PDF with the patient, each result, its flag and range', async () => {
    const orderId = await newOrder(THYROID_KIT);
    await simulate(orderId, 'completed.testkit.completed', { interpretation: 'abnormal' });
    const r = await svc().inject({ method: 'GET', url: `/v3/order/${orderId}/result/pdf`, key: team.apiKey });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const bytes = new Uint8Array(r.raw.rawPayload);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = pdfText(Buffer.from(bytes));
    expect(text).toMatch(/LOVELACE|Lovelace/);
    expect(text).toContain('FINAL');
    const json = (await results(orderId)).body;
    for (const x of json.results) {
      expect(text).toContain(x.name);
      expect(text).toContain(x.result);
      if (x.reference_range) expect(text).toContain(x.reference_range);
    }
    expect(text).toMatch(/\b[HL]\b/); // the abnormal value's flag
  });

  it('works through the production SDK: getResultRaw, getResultMetadata and getResultPdf parse strictly', async () => {
    const client = sdkClient(svc().app, team.apiKey);
    // The lab asks whether a PSA is a screening one (quest PSA: marker 1032, question 10321).
    const orderId = await newOrder(MENS_HEALTH_AT_HOME, { aoe_answers: [{ marker_id: markerId(1, 32), question_id: markerId(1, 32) * 10 + 1, answer: 'Y' }] });
    await client.labTests.simulateOrderProcess(orderId, {
      finalStatus: 'completed.at_home_phlebotomy.completed',
      body: { interpretation: 'critical', resultTypes: ['numeric'], hasMissingResults: true },
    });
    const raw = await client.labTests.getResultRaw(orderId);
    expect(Array.isArray(raw.results)).toBe(true);
    const list = raw.results as { name: string; type: string; interpretation?: string }[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((x) => x.interpretation === 'critical')).toBe(true);
    expect(raw.missingResults?.length).toBeGreaterThan(0);
    const meta = await client.labTests.getResultMetadata(orderId);
    expect(meta.status).toBe('final');
    expect(meta.specimenNumber).toBeTruthy();
    const pdf = await client.labTests.getResultPdf(orderId);
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    await expect(client.labTests.getResultRaw(UNKNOWN_UUID)).rejects.toBeInstanceOf(VitalError);
  });

  it('produces results on the background lifecycle too, consistent with the order', async () => {
    const orderId = await newOrder(THYROID_KIT);
    // The lifecycle's own walk (no sandbox flags): the lab decides.
    await simulate(orderId, 'sample_with_lab.testkit.delivered_to_lab');
    const { advanceOrder } = await import('../../server/service/domain/orders/lifecycle');
    let outcome;
    do outcome = await advanceOrder(svc().db, { order_id: orderId }, undefined, () => 0.5);
    while (outcome.kind === 'moved' && !outcome.to.startsWith('completed') && !outcome.to.startsWith('failed'));
    const order = (await svc().api(team.apiKey).get(`/v3/order/${orderId}`)).body;
    if (order.status !== 'completed') return; // the rare rejected sample: nothing to report
    const r = await results(orderId);
    expect(r.status).toBe(200);
    expect(r.body.metadata.interpretation).toBe(order.interpretation);
  });

  it('announces partial result sets only for teams that enable it (team settings, API and operator)', async () => {
    expect((await svc().api(team.apiKey).get('/v2/team/settings')).body).toEqual({ partial_results_webhooks: false });
    const quiet = await newOrder(WELLNESS);
    await simulate(quiet, 'sample_with_lab.walk_in_test.partial_results');
    expect(await outbox(quiet, 'labtest.result.partial')).toHaveLength(0);

    expect422(await svc().api(team.apiKey).patch('/v2/team/settings', { partial_results_webhooks: 'yes' }), ['body', 'partial_results_webhooks']);
    expect((await svc().api(team.apiKey).patch('/v2/team/settings', { partial_results_webhooks: true })).body).toEqual({ partial_results_webhooks: true });
    const loud = await newOrder(WELLNESS);
    await simulate(loud, 'sample_with_lab.walk_in_test.partial_results');
    const events = await outbox(loud, 'labtest.result.partial');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ event_type: 'labtest.result.partial', data: { order_id: loud, status: 'partial' } });
    const data = (events[0]!.payload as { data: { results_count: number; pending_count: number } }).data;
    expect(data.results_count).toBeGreaterThan(0);
    expect(data.pending_count).toBeGreaterThan(0);
    // No values travel in the event: receivers fetch them.
    expect(JSON.stringify(events[0]!.payload)).not.toMatch(/"result"/);

    const asOperator = await svc().inject({ method: 'PATCH', url: `/admin/v1/teams/${team.teamId}/settings`, headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { partial_results_webhooks: false } });
    expect(asOperator.status).toBe(200);
    expect((await svc().api(team.apiKey).get('/v2/team/settings')).body.partial_results_webhooks).toBe(false);
    expect((await svc().inject({ method: 'GET', url: `/admin/v1/teams/${UNKNOWN_UUID}/settings`, headers: { 'x-admin-token': ADMIN_TOKEN } })).status).toBe(404);
  });

  it('refuses a critical result for an order none of whose tests has critical limits', async () => {
    const orderId = await newOrder(THYROID_KIT);
    const r = await simulate(orderId, 'completed.testkit.completed', { interpretation: 'critical' });
    expect(expect422(r, ['body', 'interpretation'])[0]!.msg).toMatch(/none of this order's results has critical limits \(TSH, Free T4\)/);
    expect((await svc().api(team.apiKey).get(`/v3/order/${orderId}`)).body.status).toBe('received');
  });

  it('lets the team acknowledge a critical value once; lists critical orders not yet acknowledged', async () => {
    const orderId = await newOrder(WELLNESS);
    await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'critical' });
    const pending = await svc().api(team.apiKey).get('/v3/orders?interpretation=critical&critical_acknowledged=false&size=100');
    expect(pending.body.orders.map((o: { id: string }) => o.id)).toContain(orderId);
    // The needs-attention view: problem statuses OR an unacknowledged critical value.
    const attention = '/v3/orders?status=sample_error&status=lost&include_critical_unacknowledged=true&size=100';
    expect((await svc().api(team.apiKey).get(attention)).body.orders.map((o: { id: string }) => o.id)).toContain(orderId);
    expect((await svc().api(team.apiKey).get('/v3/orders?status=sample_error&status=lost&size=100')).body.orders.map((o: { id: string }) => o.id)).not.toContain(orderId);
    expect((await svc().api(team.apiKey).get(`/v3/order/${orderId}/result/critical/acknowledgement`)).body).toBeNull();
    expect422(await svc().api(team.apiKey).post(`/v3/order/${orderId}/result/critical/acknowledgement`, { acknowledged_by: '' }), ['body', 'acknowledged_by']);
    const first = await svc().api(team.apiKey).post(`/v3/order/${orderId}/result/critical/acknowledgement`, { acknowledged_by: 'Casey Coordinator', note: 'Called the patient' });
    expect(first.status).toBe(201);
    const second = await svc().api(team.apiKey).post(`/v3/order/${orderId}/result/critical/acknowledgement`, { acknowledged_by: 'Someone Else' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ acknowledged_by: 'Casey Coordinator', note: 'Called the patient' });
    const after = await svc().api(team.apiKey).get('/v3/orders?interpretation=critical&critical_acknowledged=false&size=100');
    expect(after.body.orders.map((o: { id: string }) => o.id)).not.toContain(orderId);
    expect((await svc().api(team.apiKey).get(attention)).body.orders.map((o: { id: string }) => o.id)).not.toContain(orderId);
    expect((await svc().api(team.apiKey).get('/v3/orders?critical_acknowledged=true&size=100')).body.orders.map((o: { id: string }) => o.id)).toContain(orderId);

    const normal = await newOrder(THYROID_KIT);
    await simulate(normal, 'completed.testkit.completed', { interpretation: 'normal' });
    expect((await svc().api(team.apiKey).post(`/v3/order/${normal}/result/critical/acknowledgement`, { acknowledged_by: 'X' })).status).toBe(409);
    expect((await svc().api(other.apiKey).post(`/v3/order/${orderId}/result/critical/acknowledgement`, { acknowledged_by: 'X' })).status).toBe(404);
  });

  it('writes every released value into the patient’s history, normalised where the unit converts', async () => {
    const orderId = await newOrder(LIPIDS_AT_HOME, { patient_details: patientDetails({ gender: 'male', dob: '1950-02-01' }) });
    await simulate(orderId, 'completed.at_home_phlebotomy.completed', { interpretation: 'normal' });
    const rows = await svc().db.select().from(biomarkerResults).where(eq(biomarkerResults.orderId, orderId));
    expect(rows.length).toBeGreaterThan(0);
    const chol = rows.find((r) => r.loinc === '2093-3')!;
    expect(chol.normalizedUnit).toBe('mg/dL');
    expect(chol.normalizedValue).toBeCloseTo(chol.value!, 5);
  });
});
