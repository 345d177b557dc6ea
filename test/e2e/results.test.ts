/**
 * End to end: a critical lab result in the real app (started once for the run by globalSetup.ts),
 * in Debian's Chromium, as a care coordinator and a reviewer would: an order completed through the
 * sandbox with a critical value shows the critical banner on its page; the coordinator acknowledges
 * it (recorded with their name); a lab report of the same patient with glucose in mmol/L is approved
 * in review; and the patient's Biomarkers tab charts both glucose values, from the order and from
 * the report, in one unit.
 *
 * Run: `npx vitest run --project e2e test/e2e/results.test.ts` (needs /usr/bin/chromium).
 * Screenshots land in test/e2e/artifacts/ (results-*.png).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CriticalAcknowledgement, LabResultsRaw, PaginatedUsers, ParsingJob, PostOrderResponse, User } from '../../server/contract';
import { sharedLabTestId } from '../../server/service/seed/labCatalogue';
import { simpleReportPdf } from '../../server/service/seed/labReportPdf';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, signIn, stopAfterFirstFailure, type BrowserSession } from './browser';
import { the, serviceApi } from './support';

const shared = inject('e2eApp');
const credentials = shared.credentials;
const service = serviceApi(shared);
const suffix = Array.from(randomBytes(5), (b) => String.fromCharCode(97 + (b % 26))).join('');
const identity = { first_name: 'Theodora', last_name: `Quill${suffix}`, dob: '1961-07-04', gender: 'female', phone_number: '+15125550188', email: `theodora.${suffix}@example.com` };

let browserSession: BrowserSession | undefined;
let page: Page | undefined;
let patientUser: User | undefined;
let orderId = '';
let jobId = '';
let criticalName = '';

async function uploadForReview(userId: string, pdf: Buffer): Promise<string> {
  const form = new FormData();
  form.set('user_id', userId);
  form.set('needs_human_review', 'true');
  form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'quill-glucose.pdf');
  const res = await fetch(`${shared.serviceUrl}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-service-api-key': credentials.demoApiKey }, body: form });
  if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as ParsingJob).id;
}

describe('a critical result acknowledged, and the patient’s history across an order and a report, end to end in Chromium', () => {
  beforeAll(async () => {
    const users = (await service.get<PaginatedUsers>('/v2/user?limit=50')).users;
    patientUser = the(users[15], 'a seeded user');
    const created = await service.post<PostOrderResponse>('/v3/order', {
      user_id: patientUser.user_id,
      lab_test_id: sharedLabTestId('quest_annual_wellness'),
      patient_details: identity,
      patient_address: { receiver_name: 'Theodora Quill', first_line: '500 E 5th St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
    });
    orderId = created.order.id;
    await service.post(`/v3/order/${orderId}/test?final_status=completed.walk_in_test.completed`, { interpretation: 'critical', has_missing_results: false });
    const results = await service.get<LabResultsRaw>(`/v3/order/${orderId}/result`);
    criticalName = the(results.results.find((r) => r.interpretation === 'critical'), 'a critical value').name;

    const pdf = await simpleReportPdf({
      lab: 'Laboratory Corporation of America (Labcorp)',
      patient: { first: identity.first_name, last: identity.last_name, dob: '07/04/1961' },
      specimen: `0${Array.from(randomBytes(4), (b) => String(b % 10)).join('')}-71-0`,
      collected: '10/02/2026',
      reported: '10/03/2026',
      panels: [{ name: 'Basic Metabolic Panel (8)', rows: [['Glucose', '5.4', 'mmol/L', '3.9-5.5'], ['Sodium', '140', 'mmol/L', '134-144']] }],
    });
    jobId = await uploadForReview(patientUser.user_id, pdf);

    browserSession = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    page = browserSession.page;
  }, 300_000);

  stopAfterFirstFailure('results', () => page);

  afterAll(async () => {
    await browserSession?.close();
  }, 60_000);

  it('shows the order’s results with the critical value in a banner', async () => {
    const p = the(page, 'page');
    await signIn(p, shared.dashboardUrl, credentials.adminEmail, credentials.adminPassword);
    await p.goto(`${shared.dashboardUrl}/#/orders/${orderId}/show`);
    const card = p.getByRole('region', { name: 'Results' });
    const banner = card.getByRole('alert', { name: 'Critical result' });
    await banner.waitFor({ timeout: UI });
    await expect.poll(() => banner.textContent()).toContain(criticalName);
    expect(await card.getByTestId('result-row').count()).toBeGreaterThan(20);
    await p.screenshot({ path: path.join(ARTIFACTS, 'results-critical.png'), fullPage: true, animations: 'disabled' });
  });

  it('acknowledges the critical value: the banner says who and when, and the service recorded it', async () => {
    const p = the(page, 'page');
    const card = p.getByRole('region', { name: 'Results' });
    await card.getByRole('alert', { name: 'Critical result' }).getByRole('button', { name: 'Acknowledge' }).click();
    const dialog = p.getByRole('dialog', { name: 'Acknowledge the critical result' });
    await dialog.getByLabel(/What was done/).fill('Called the patient; repeat draw booked for tomorrow 8:00.');
    const posted = p.waitForResponse((r) => r.url().endsWith(`/api/orders/${orderId}/critical-acknowledgement`), { timeout: UI });
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    expect((await posted).status()).toBe(201);
    await card.getByRole('status', { name: 'Critical result acknowledged' }).waitFor({ timeout: UI });
    const ack = await service.get<CriticalAcknowledgement>(`/v3/order/${orderId}/result/critical/acknowledgement`);
    expect(ack.acknowledged_by).toContain(credentials.adminEmail);
  });

  it('approves the patient’s uploaded report after checking it names the same patient', async () => {
    const p = the(page, 'page');
    await p.goto(`${shared.dashboardUrl}/#/parser-jobs/${jobId}/show`);
    const results = p.getByRole('region', { name: 'Extracted results' });
    await results.waitFor({ timeout: 90_000 });
    await results.getByRole('alert', { name: 'Patient matches' }).or(results.getByLabel('Patient matches')).first().waitFor({ timeout: UI });
    await results.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = p.getByRole('dialog', { name: 'Approve these results?' });
    const reviewed = p.waitForResponse((r) => r.url().endsWith(`/api/parser-jobs/${jobId}/review`), { timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    expect((await reviewed).status()).toBe(200);
    await p.getByRole('status').filter({ hasText: 'Approved' }).waitFor({ timeout: UI });
  });

  it('charts the glucose of the order and of the report on the patient’s Biomarkers tab, in one unit', async () => {
    const p = the(page, 'page');
    const user = the(patientUser, 'patient');
    await p.goto(`${shared.dashboardUrl}/#/users/${user.user_id}/show/biomarkers`);
    const table = p.getByRole('table', { name: 'Biomarkers' });
    await table.waitFor({ timeout: UI });
    await table.getByRole('row', { name: 'Glucose', exact: true }).click();
    const chart = p.getByRole('region', { name: 'Biomarker chart' });
    await chart.getByText(/Glucose \(mg\/dL\)/).waitFor({ timeout: UI });
    await chart.getByText(/5\.4 mmol\/L \(Uploaded report/).waitFor({ timeout: UI });
    await chart.getByText(/mg\/dL \(Lab order/).waitFor();
    // The chart itself is drawn: the reference band and both points.
    await chart.locator('svg.recharts-surface').first().waitFor({ timeout: UI });
    await p.screenshot({ path: path.join(ARTIFACTS, 'results-biomarkers.png'), fullPage: true, animations: 'disabled' });
  });

  it('never hands the service API key to the browser, calls no other host, and throws no page errors', async () => {
    await expectCleanWatch(the(browserSession, 'browser').watch);
  });
});
