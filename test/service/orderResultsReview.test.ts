import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { biomarkerResults, labTests, webhookOutbox } from '../../server/service/db/schema';
import { ANALYTE_PROFILES, ckdEpi2021 } from '../../server/service/domain/results/analytes';
import { markerId, sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { storeKinds, useService, type Team } from './harness';
import { createBody, insertLabAccount, patientDetails, pdfText } from './orderFixtures';

/**
 * The review findings on the simulated lab: calculated results agree with the inputs printed at an
 * earlier stage, a cancelled order closes its partial report, and a result that is not calculated
 * says why.
 */

const LIPIDS_AT_HOME = sharedLabTestId('quest_lipid_panel'); // one marker: TC, HDL, TG, LDL, ratio, non-HDL
const WELLNESS = sharedLabTestId('quest_annual_wellness'); // walk-in: CBC, CMP, lipids, TSH, A1c, vitamin D

const L = { chol: '2093-3', hdl: '2085-9', trig: '2571-8', ldl: '13457-7', ratio: '9830-1', nonHdl: '43396-1', creatinine: '2160-0', egfr: '98979-8' };
const QUEST = 1;

interface Result {
  loinc: string | null;
  name: string;
  result: string;
  type: string;
}
interface Missing {
  name: string;
  slug: string;
  loinc?: string | null;
  inferred_failure_type: string;
  note?: string | null;
}

describe.each(storeKinds)('lab results after review (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let userId: string;
  /** A team lab test of four separately ordered lipid markers: total cholesterol, HDL, triglycerides, LDL (calculated). */
  let splitLipids: string;
  /** The lipid panel as a test kit: no partial stage, so the final report has measured tests left to lose. */
  let lipidKit: string;

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    userId = await svc().createUser(team, { client_user_id: `pt-results-review-${kind}` });
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest' });
    // The API cannot make a lab test; the store can (as the appointment fixtures do).
    const teamTest = async (name: string, method: string, markerNs: number[]) => {
      const [row] = await svc()
        .db.insert(labTests)
        .values({
          teamId: team.teamId,
          labId: QUEST,
          slug: `review-${name.toLowerCase().replace(/ /g, '-')}-${kind}`,
          name,
          sampleType: method === 'testkit' ? 'dried_blood_spot' : 'serum',
          method,
          price: 40,
          status: 'active',
          markerIds: markerNs.map((n) => markerId(QUEST, n)),
        })
        .returning({ id: labTests.id });
      return row!.id;
    };
    splitLipids = await teamTest('Split Lipids', 'walk_in_test', [25, 26, 28, 27]);
    lipidKit = await teamTest('Lipid Kit', 'testkit', [104]);
  });

  async function newOrder(labTestId: string, over: Record<string, unknown> = {}): Promise<string> {
    const r = await svc().api(team.apiKey).post('/v3/order', createBody(userId, labTestId, over));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.order.id as string;
  }
  async function simulate(orderId: string, finalStatus: string, body: Record<string, unknown> = {}) {
    const r = await svc().api(team.apiKey).post(`/v3/order/${orderId}/test?final_status=${finalStatus}`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  async function results(orderId: string): Promise<{ metadata: { status: string; interpretation: string }; results: Result[]; missing_results: Missing[] }> {
    const r = await svc().api(team.apiKey).get(`/v3/order/${orderId}/result`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  }
  async function pdf(orderId: string): Promise<string> {
    const r = await svc().inject({ method: 'GET', url: `/v3/order/${orderId}/result/pdf`, key: team.apiKey });
    expect(r.status).toBe(200);
    return pdfText(Buffer.from(new Uint8Array(r.raw.rawPayload)));
  }
  const valueOf = (list: Result[], loinc: string) => {
    const x = list.find((r) => r.loinc === loinc);
    expect(x, `result ${loinc}`).toBeDefined();
    return Number(x!.result);
  };

  /** LDL (Friedewald), non-HDL and the ratio as a lab computes them from the values it printed. */
  function expectLipidsAgree(list: Result[]) {
    const tc = valueOf(list, L.chol);
    const hdl = valueOf(list, L.hdl);
    const tg = valueOf(list, L.trig);
    if (list.some((r) => r.loinc === L.ldl)) expect(Math.abs(valueOf(list, L.ldl) - (tc - hdl - tg / 5))).toBeLessThanOrEqual(0.5 + 1e-9);
    if (list.some((r) => r.loinc === L.nonHdl)) expect(valueOf(list, L.nonHdl)).toBe(tc - hdl);
    if (list.some((r) => r.loinc === L.ratio)) expect(Math.abs(valueOf(list, L.ratio) - tc / hdl)).toBeLessThanOrEqual(0.05 + 1e-9);
  }

  describe('calculated results agree with inputs released earlier', () => {
    it('a lipid panel: the partial report prints TC, HDL and TG; the final LDL, non-HDL and ratio are computed from them', async () => {
      const orderId = await newOrder(LIPIDS_AT_HOME);
      await simulate(orderId, 'sample_with_lab.at_home_phlebotomy.partial_results');
      const partial = await results(orderId);
      expect(partial.metadata.status).toBe('partial');
      expect(partial.results.map((r) => r.loinc).sort()).toEqual([L.chol, L.hdl, L.trig].sort());

      await simulate(orderId, 'completed.at_home_phlebotomy.completed');
      const final = await results(orderId);
      expect(final.metadata.status).toBe('final');
      expect(final.results.slice(0, partial.results.length)).toEqual(partial.results);
      expect(final.results.map((r) => r.loinc).sort()).toEqual(Object.values(L).slice(0, 6).sort());
      expectLipidsAgree(final.results);
    });

    it('an order of separate lipid markers: LDL in the final report is computed from the cholesterol and HDL of the partial one', async () => {
      const orderId = await newOrder(splitLipids);
      await simulate(orderId, 'sample_with_lab.walk_in_test.partial_results');
      const partial = await results(orderId);
      // Whole markers, the quickest half: total cholesterol and HDL.
      expect(partial.results.map((r) => r.loinc).sort()).toEqual([L.chol, L.hdl].sort());
      await simulate(orderId, 'completed.walk_in_test.completed');
      const final = await results(orderId);
      expect(final.results.slice(0, 2)).toEqual(partial.results);
      expect(final.results.map((r) => r.loinc)).toEqual(expect.arrayContaining([L.trig, L.ldl]));
      expectLipidsAgree(final.results);
    });

    it('a multi-marker panel order: every calculated result agrees with its printed inputs after partial then final', async () => {
      const orderId = await newOrder(WELLNESS);
      await simulate(orderId, 'sample_with_lab.walk_in_test.partial_results');
      await simulate(orderId, 'completed.walk_in_test.completed');
      const final = await results(orderId);
      expectLipidsAgree(final.results);
      const v = (code: string) => valueOf(final.results, code);
      // eGFR (CKD-EPI 2021) from the printed creatinine, the patient's age at collection and sex (female).
      const age = Number((await svc().api(team.apiKey).get(`/v3/order/${orderId}/result/metadata`)).body.age);
      expect(Math.abs(v(L.egfr) - ckdEpi2021(v(L.creatinine), age, 'female'))).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(Math.abs(v('10834-0') - (v('2885-2') - v('1751-7')))).toBeLessThanOrEqual(0.05 + 1e-9); // globulin = protein − albumin
      expect(Math.abs(v('786-4') - (v('718-7') * 100) / v('4544-3'))).toBeLessThanOrEqual(0.05 + 1e-9); // MCHC = Hgb / Hct
    });
  });

  describe('cancelling an order with partial results', () => {
    it('closes the report: final, the tests not performed listed as not resulted, no "further results to follow", announced', async () => {
      const orderId = await newOrder(LIPIDS_AT_HOME);
      await simulate(orderId, 'sample_with_lab.at_home_phlebotomy.partial_results');
      const partial = await results(orderId);
      expect(await pdf(orderId)).toContain('further results to follow');

      const cancel = await svc().api(team.apiKey).post(`/v3/order/${orderId}/cancel`, {});
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      expect(cancel.body.order).toMatchObject({ status: 'cancelled', has_missing_results: true });

      const closed = await results(orderId);
      expect(closed.metadata.status).toBe('final');
      // What was released stands; nothing new is invented.
      expect(closed.results).toEqual(partial.results);
      expect(closed.missing_results.map((m) => m.loinc).sort()).toEqual([L.ldl, L.ratio, L.nonHdl].sort());
      for (const m of closed.missing_results) {
        expect(m.inferred_failure_type).toBe('non_failure');
        expect(m.note).toBe('Not resulted: the order was cancelled before this test was performed.');
      }
      const meta = (await svc().api(team.apiKey).get(`/v3/order/${orderId}/result/metadata`)).body;
      expect(meta.status).toBe('final');

      const text = await pdf(orderId);
      expect(text).toContain('FINAL');
      expect(text).not.toContain('further results to follow');
      expect(text).not.toContain('PRELIMINARY');
      expect(text).toContain('the order was cancelled before this test was performed');

      const updates = (
        await svc()
          .db.select()
          .from(webhookOutbox)
          .where(and(eq(webhookOutbox.teamId, team.teamId), eq(webhookOutbox.eventType, 'labtest.order.updated')))
      ).filter((e) => (e.payload as { data: { id?: string } }).data.id === orderId);
      const last = updates.at(-1)!.payload as { data: { status: string; has_missing_results: boolean } };
      expect(last.data).toMatchObject({ status: 'cancelled', has_missing_results: true });
    });

    it('an order cancelled before any result still has none', async () => {
      const orderId = await newOrder(LIPIDS_AT_HOME);
      expect((await svc().api(team.apiKey).post(`/v3/order/${orderId}/cancel`, {})).status).toBe(200);
      const r = await svc().api(team.apiKey).get(`/v3/order/${orderId}/result`);
      expect(r.status).toBe(404);
      expect(r.body.detail).toMatch(/ended as cancelled\.at_home_phlebotomy\.cancelled without results/);
    });
  });

  describe('a critical value released with partial results', () => {
    it('keeps the order critical when the final report is asked to say "unknown"', async () => {
      const orderId = await newOrder(WELLNESS);
      await simulate(orderId, 'sample_with_lab.walk_in_test.partial_results', { interpretation: 'critical' });
      expect((await results(orderId)).metadata.interpretation).toBe('critical');
      await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'unknown' });
      const final = await results(orderId);
      expect(final.metadata.status).toBe('final');
      expect(final.metadata.interpretation).toBe('critical');
      const order = await svc().api(team.apiKey).get(`/v3/order/${orderId}`);
      expect(order.body.interpretation).toBe('critical');
    });
  });

  describe('a result that is not calculated says why', () => {
    it('eGFR for a patient under 18: missing_demo_aoe_calc_failure, with the age as the reason', async () => {
      const orderId = await newOrder(WELLNESS, { patient_details: patientDetails({ dob: '2014-03-01' }) });
      await simulate(orderId, 'completed.walk_in_test.completed', { interpretation: 'normal', has_missing_results: false });
      const r = await results(orderId);
      expect(r.results.some((x) => x.loinc === L.egfr)).toBe(false);
      expect(r.results.some((x) => x.loinc === L.creatinine)).toBe(true);
      const egfr = r.missing_results.find((m) => m.loinc === L.egfr);
      expect(egfr).toMatchObject({ inferred_failure_type: 'missing_demo_aoe_calc_failure' });
      expect(egfr!.note).toMatch(/eGFR is not calculated for patients under 18/);
    });

    it('calculated results whose input ran short name that input: "Not calculated: HDL Cholesterol not resulted."', async () => {
      const orderId = await newOrder(lipidKit);
      await simulate(orderId, 'completed.testkit.completed', { interpretation: 'normal', has_missing_results: true });
      const r = await results(orderId);
      const victim = r.missing_results.find((m) => m.inferred_failure_type === 'quantity_not_sufficient_failure');
      expect(victim, JSON.stringify(r.missing_results)).toBeDefined();
      expect([L.chol, L.hdl, L.trig]).toContain(victim!.loinc);
      const note = `Not calculated: ${ANALYTE_PROFILES[victim!.loinc!]!.label} not resulted.`;
      const dependents = [L.ldl, L.ratio, L.nonHdl].filter((c) => ANALYTE_PROFILES[c]!.calculatedFrom!.includes(victim!.loinc!));
      for (const c of dependents) {
        expect(r.missing_results.find((m) => m.loinc === c)).toMatchObject({ inferred_failure_type: 'missing_result_calc_failure', note });
        expect(r.results.some((x) => x.loinc === c)).toBe(false);
      }
      expect(r.missing_results).toHaveLength(1 + dependents.length);
    });

    it('LDL when the printed triglycerides are above 400 mg/dL: not calculated by Friedewald, and the note says so', async () => {
      const orderId = await newOrder(LIPIDS_AT_HOME);
      await simulate(orderId, 'sample_with_lab.at_home_phlebotomy.partial_results');
      // The simulated lab rarely prints such a value; set the released one as if it had (the API cannot).
      await svc()
        .db.update(biomarkerResults)
        .set({ result: '450', value: 450, normalizedValue: 450, interpretation: 'abnormal', isAboveMaxRange: true })
        .where(and(eq(biomarkerResults.orderId, orderId), eq(biomarkerResults.loinc, L.trig)));
      await simulate(orderId, 'completed.at_home_phlebotomy.completed');
      const r = await results(orderId);
      expect(r.results.some((x) => x.loinc === L.ldl)).toBe(false);
      const ldl = r.missing_results.find((m) => m.loinc === L.ldl);
      expect(ldl).toMatchObject({ inferred_failure_type: 'missing_result_calc_failure' });
      expect(ldl!.note).toBe('Triglycerides above 400 mg/dL; LDL not calculated by Friedewald.');
      // The others are still calculated, from the printed values.
      expectLipidsAgree(r.results);
    });
  });
});
