/**
 * The order form's clinical parts through the BFF against the real service: ICD-10 codes checked by
 * the service (`POST /api/icd-codes/validate`, for those who place orders), and an insured order's
 * insurance, physician and consents sent, stored and read back on the order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../server/contract';
import type { IcdCodesVerdict } from '../../server/bff/api';
import { startBff, type BffFixture, type Session } from './harness';
import { orderBody, startLabService, type LabServiceFixture } from './ordersFixture';

let service: LabServiceFixture;
let bff: BffFixture;
let coordinator: Session;
let labOps: Session;
let userId: string;

beforeAll(async () => {
  service = await startLabService();
  [userId] = (await service.addUsers(service.team, [{ clientUserId: 'pt-clinical-bff' }])) as [string];
  bff = await startBff('pglite', { serviceBaseUrl: service.url, serviceApiKey: service.team.apiKey });
  coordinator = await bff.login('coordinator');
  labOps = await bff.login('lab_ops');
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
});

describe('POST /api/icd-codes/validate', () => {
  it("answers the service's verdict per code", async () => {
    const r = await bff.request<IcdCodesVerdict>({ method: 'POST', url: '/api/icd-codes/validate', session: coordinator, payload: { codes: ['E11.9', 'R73.03', 'E78'] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.valid).toBe(false);
    expect(r.body.errors).toEqual([expect.stringMatching(/^E78: .*category/)]);
    expect(r.body.violations).toEqual(expect.arrayContaining([{ code: 'R73.03', conflicts_with: 'E11.9', type: 'excludes1' }]));
  });

  it('is refused to roles that cannot place orders, and an empty list is a field error', async () => {
    expect((await bff.request({ method: 'POST', url: '/api/icd-codes/validate', session: labOps, payload: { codes: ['I10'] } })).status).toBe(403);
    const empty = await bff.request({ method: 'POST', url: '/api/icd-codes/validate', session: coordinator, payload: { codes: [] } });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors ?? {})).toContain('codes');
  });
});

describe('an insured order through the BFF', () => {
  const insurance = { payor_code: 'BCBS-TX', insurance_id: 'XYZ123456', group_id: '0042', responsible_relationship: 'Self' };

  it('puts a missing insurance and a wrong NPI on their fields', async () => {
    const r = await bff.request({
      method: 'POST',
      url: '/api/orders',
      session: coordinator,
      payload: orderBody(userId, { billing_type: 'commercial_insurance', physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567890' } }),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toMatchObject({ health_insurance: expect.stringMatching(/required/), 'physician.npi': expect.stringMatching(/check digit/) });
  });

  it('stores insurance, physician, ICD codes and consents, and reads them back on the order', async () => {
    const created = await bff.request<Order>({
      method: 'POST',
      url: '/api/orders',
      session: coordinator,
      payload: orderBody(userId, {
        billing_type: 'commercial_insurance',
        health_insurance: insurance,
        physician: { first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' },
        icd_codes: ['E78.5'],
        consents: [{ consentType: 'hipaa-authorization', version: 'v3' }],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await bff.get<Order>(`/api/orders/${created.body.id}`, coordinator);
    expect(read.body.health_insurance).toMatchObject(insurance);
    expect(read.body.health_insurance_id).toBeTruthy();
    expect(read.body.physician).toEqual({ first_name: 'Grace', last_name: 'Hopper', npi: '1234567893' });
    expect(read.body.icd_codes).toEqual(['E78.5']);
    expect(read.body.consents).toEqual([{ consentType: 'hipaa-authorization', version: 'v3', timeOfConsent: expect.any(String) }]);
  });
});
