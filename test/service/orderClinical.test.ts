/**
 * An order's clinical details through the API: the physician's NPI check digit, ICD-10 codes
 * (format on create; the code set via validate_icd_codes, read by the production SDK), health
 * insurance required for insurance billing and read back, consents recorded with time and version,
 * the lab's questions (AOE) answered, and the requisition PDF printing physician, diagnosis and insurance.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { markerId, sharedLabTestId, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { expect422, storeKinds, useService, type Team } from './harness';
import { createBody, insertLabAccount, pdfText } from './orderFixtures';
import { sdkClient } from './sdkClient';

const MENS_HEALTH = sharedLabTestId('quest_mens_health'); // PSA: "Is this a screening PSA?" is required, no default
const LIPIDS = sharedLabTestId('quest_lipid_panel'); // fasting question, default No
const PSA = markerId(1, 32);
const PSA_SCREENING = PSA * 10 + 1;
const insurance = {
  payor_code: 'AETNA',
  insurance_id: 'W123456789',
  group_id: 'GRP-0042',
  responsible_relationship: 'Spouse',
  responsible_details: {
    first_name: 'Charles',
    last_name: 'Babbage',
    address: { first_line: '12 Analytical Engine Rd', city: 'Houston', state: 'TX', zip: '77001', country: 'US' },
    phone_number: '+15555550199',
  },
};

describe.each(storeKinds)('order clinical details (%s)', (kind) => {
  const svc = useService(kind);
  let team: Team;
  let userId: string;
  const post = (body: Record<string, unknown>) => svc().api(team.apiKey).post('/v3/order', body);
  const order = (over: Record<string, unknown>) => createBody(userId, LIPIDS, { patient_address: { first_line: '1 Main St', city: 'Houston', state: 'TX', zip: '77001', country: 'US' }, ...over });

  beforeAll(async () => {
    await syncLabCatalogue(svc().db);
    team = await svc().createTeam();
    userId = await svc().createUser(team, { client_user_id: `pt-clinical-${kind}` });
    await insertLabAccount(svc().db, team.teamId, { lab: 'quest', allowedBilling: { client_bill: ['TX'], commercial_insurance: ['TX'] } });
  });

  it('takes an NPI whose check digit is right and refuses one with a typo, naming the field', async () => {
    const good = await post(order({ physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' } }));
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.order.physician).toEqual({ first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' });
    const typo = await post(order({ physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567894' } }));
    expect(expect422(typo, ['body', 'physician', 'npi'])[0]!.msg).toMatch(/check digit/);
  });

  it('refuses an ICD-10 code of the wrong form on create', async () => {
    const r = await post(order({ icd_codes: ['E11.9', '11E.9'] }));
    expect(expect422(r, ['body', 'icd_codes', 1])[0]!.msg).toMatch(/ICD-10/);
  });

  it('validates ICD-10 codes against the code set through the production SDK', async () => {
    const client = sdkClient(svc().app, team.apiKey);
    const fine = await client.labTests.validateIcdCodes({ codes: ['Z00.00', 'E78.5', 'i10'] });
    expect(fine).toEqual({ valid: true, errors: [], violations: [], warnings: [] });

    const bad = await client.labTests.validateIcdCodes({ codes: ['E11', 'Q99.99', 'E11.9', 'R73.03', 'Z00.00', 'Z13.1'] });
    expect(bad.valid).toBe(false);
    expect(bad.errors).toEqual([expect.stringMatching(/^E11: .*category.*E11\.9/), expect.stringMatching(/^Q99\.99: not an ICD-10-CM code/)]);
    // Prediabetes is never coded with diabetes (R73 Excludes1 E08-E13); screening beside a general exam is an Excludes2 warning.
    expect(bad.violations).toContainEqual({ code: 'R73.03', conflictsWith: 'E11.9', type: 'excludes1' });
    expect(bad.warnings).toContainEqual({ code: 'Z00.00', overlapsWith: 'Z13.1', type: 'excludes2' });
  });

  it('requires insurance details for insurance billing, stores them and reads them back', async () => {
    const without = await post(order({ billing_type: 'commercial_insurance' }));
    expect422(without, ['body', 'health_insurance']);
    const noSubscriber = await post(order({ billing_type: 'commercial_insurance', health_insurance: { ...insurance, responsible_details: null } }));
    expect422(noSubscriber, ['body', 'health_insurance', 'responsible_details']);

    const r = await post(
      order({
        billing_type: 'commercial_insurance',
        health_insurance: { ...insurance, diagnosis_codes: ['E78.5'] },
        icd_codes: ['E78.5', 'Z13.220'],
        consents: [
          { consentType: 'hipaa-authorization', version: '2026-01', timeOfConsent: '2026-05-04T10:00:00+02:00' },
          { consentType: 'terms-of-use' },
        ],
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const read = await svc().api(team.apiKey).get(`/v3/order/${r.body.order.id}`);
    expect(read.body.health_insurance_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.body.health_insurance).toEqual({ ...insurance, diagnosis_codes: ['E78.5'] });
    expect(read.body.icd_codes).toEqual(['E78.5', 'Z13.220']);
    expect(read.body.consents[0]).toEqual({ consentType: 'hipaa-authorization', version: '2026-01', timeOfConsent: '2026-05-04T08:00:00.000Z' });
    expect(read.body.consents[1]).toMatchObject({ consentType: 'terms-of-use', version: null });
    expect(Math.abs(Date.parse(read.body.consents[1].timeOfConsent) - Date.now())).toBeLessThan(60_000);
    // The production SDK reads the order, insurance id included.
    const viaSdk = await sdkClient(svc().app, team.apiKey).labTests.getOrder(r.body.order.id);
    expect(viaSdk.healthInsuranceId).toBe(read.body.health_insurance_id);
  });

  it('prints the physician, the ICD-10 codes and the insurance on the requisition; "none given" when the order has none', async () => {
    const requisition = async (body: Record<string, unknown>) => {
      const placed = await post(order(body));
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const pdf = await svc().inject({ method: 'GET', url: `/v3/order/${placed.body.order.id}/requisition/pdf`, key: team.apiKey });
      expect(pdf.status).toBe(200);
      return pdfText(pdf.raw.rawPayload);
    };
    const full = await requisition({
      physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' },
      billing_type: 'commercial_insurance',
      health_insurance: insurance,
      icd_codes: ['E78.5', 'Z13.220'],
    });
    expect(full).toMatch(/Ordering physician\nName: Grace Hopper\nNPI: 1234567893/);
    expect(full).toMatch(/Diagnosis \(ICD-10\)\nCodes: E78\.5, Z13\.220/);
    expect(full).toMatch(/Insurance\nPayor code: AETNA\nMember id: W123456789\nGroup id: GRP-0042\nSubscriber relationship: Spouse\nSubscriber: Charles Babbage/);

    const bare = await requisition({ physician: undefined });
    expect(bare).toMatch(/Ordering physician\nName: none given on the order/);
    expect(bare).toMatch(/Diagnosis \(ICD-10\)\nCodes: none given on the order/);
    expect(bare).not.toContain('Insurance');
    expect(bare).not.toContain('AETNA');
  });

  it('requires an answer to each required question of the lab test, naming it; a default answers for itself', async () => {
    const unanswered = await post(order({ lab_test_id: MENS_HEALTH }));
    expect(expect422(unanswered, ['body', 'aoe_answers'])[0]!.msg).toMatch(/"Is this a screening PSA\?" for PSA, Total/);
    const wrongChoice = await post(order({ lab_test_id: MENS_HEALTH, aoe_answers: [{ marker_id: PSA, question_id: PSA_SCREENING, answer: 'Maybe' }] }));
    expect422(wrongChoice, ['body', 'aoe_answers', 0, 'answer']);

    const answered = await post(order({ lab_test_id: MENS_HEALTH, aoe_answers: [{ marker_id: PSA, question_id: PSA_SCREENING, answer: 'Y' }] }));
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    // The lipid panel's fasting question has a default (No), so an order without answers is placed.
    const lipids = await post(order({}));
    expect(lipids.status, JSON.stringify(lipids.body)).toBe(200);
    const stranger = await post(order({ aoe_answers: [{ marker_id: PSA, question_id: PSA_SCREENING, answer: 'Y' }] }));
    expect422(stranger, ['body', 'aoe_answers', 0]);
  });
});
