/**
 * End to end: a parser reviewer's day in the real app (started once for the run by globalSetup.ts),
 * in Debian's Chromium: upload a lab report for a patient (upload progress), watch it parse
 * (parsing progress), find the doubtful value highlighted with its reason (potassium printed
 * without its decimal point), correct it, approve, and see the job completed. The service's own
 * view is checked too: corrected value, range flags worked out again, reviewed by the staff member.
 *
 * Run: `npx vitest run --project e2e test/e2e/parser.test.ts` (needs /usr/bin/chromium).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { OrdersResponse, PaginatedUsers, ParsingJob, User } from '../../server/contract';
import { simpleReportPdf } from '../../server/service/seed/labReportPdf';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, quiet, signIn, stopAfterFirstFailure, type BrowserSession } from './browser';
import { the, serviceApi } from './support';

const shared = inject('e2eApp');
const credentials = shared.credentials;
const service = serviceApi(shared);
const specimen = `0${Array.from(randomBytes(4), (b) => String(b % 10)).join('')}-55-0`;

let browserSession: BrowserSession | undefined;
let page: Page | undefined;
let reportPath = '';
let patientUser: User | undefined;
let jobId = '';
let reportPatient = { first: 'Ines', last: 'Castellanos', dob: '08/19/1983' };
const uploads: Request[] = [];



describe('reviewing a parsed lab report, end to end in Chromium', () => {
  beforeAll(async () => {
    const users = (await service.get<PaginatedUsers>('/v2/user?limit=50')).users;
    // A seeded patient with orders, and the report names them as their orders do: a report naming
    // someone else, or one for a patient with nothing to compare it with, waits for a confirmation.
    let latest: Record<string, unknown> | null | undefined;
    for (const candidate of users.slice(11)) {
      latest = (await service.get<OrdersResponse>(`/v3/orders?user_id=${candidate.user_id}&size=1`)).orders[0]?.patient_details;
      if (latest) {
        patientUser = candidate;
        break;
      }
    }
    patientUser = the(patientUser, 'a seeded user with orders');
    if (latest?.first_name && latest.last_name && latest.dob) {
      const [y, m, d] = String(latest.dob).slice(0, 10).split('-');
      reportPatient = { first: String(latest.first_name), last: String(latest.last_name), dob: `${m}/${d}/${y}` };
    }
    const pdf = await simpleReportPdf({
      lab: 'Laboratory Corporation of America (Labcorp)',
      patient: reportPatient,
      specimen,
      collected: '11/18/2026',
      reported: '11/19/2026',
      panels: [
        {
          name: 'Basic Metabolic Panel (8)',
          rows: [
            ['Glucose', '88', 'mg/dL', '70-99'],
            ['Sodium', '139', 'mmol/L', '134-144'],
            ['Potassium', '47 H', 'mmol/L', '3.5-5.2'],
            ['Chloride', '102', 'mmol/L', '96-106'],
          ],
        },
      ],
    });
    reportPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-e2e-report-')), 'castellanos-bmp.pdf');
    fs.writeFileSync(reportPath, pdf);

    browserSession = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    page = browserSession.page;
    browserSession.watch.onRequest((req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/parser-jobs') uploads.push(req);
    });
  }, 300_000);

  stopAfterFirstFailure('parser', () => page);

  afterAll(async () => {
    await browserSession?.close();
    if (reportPath) fs.rmSync(path.dirname(reportPath), { recursive: true, force: true });
  }, 60_000);

  it('signs in and opens the review queue', async () => {
    const p = the(page, 'page');
    await signIn(p, shared.dashboardUrl, credentials.adminEmail, credentials.adminPassword);
    await p.getByRole('menuitem', { name: 'Lab reports' }).click();
    await p.getByRole('tab', { name: 'Review queue' }).waitFor();
  });

  it('uploads a report for a patient with a progress bar, then watches it parse', async () => {
    const p = the(page, 'page');
    const user = the(patientUser, 'patient');
    await p.getByRole('link', { name: 'Upload a report' }).or(p.getByRole('button', { name: 'Upload a report' })).first().click();
    await p.getByRole('heading', { name: 'Upload a lab report' }).waitFor();
    const patient = p.getByRole('combobox', { name: 'Patient (client user id)' });
    await patient.fill(user.client_user_id);
    await p.getByRole('option', { name: new RegExp(user.client_user_id) }).first().click();
    await p.locator('input[type="file"]').setInputFiles(reportPath);
    await p.getByText('castellanos-bmp.pdf').first().waitFor();

    const created = quiet(p.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/parser-jobs', { timeout: 60_000 }));
    const progressShown = quiet(p.getByRole('progressbar', { name: /Upload progress|Parsing progress/ }).first().waitFor({ timeout: 60_000 }));
    await p.getByRole('button', { name: 'Upload', exact: true }).click();
    const res = await created;
    expect(res.status()).toBe(201);
    jobId = ((await res.json()) as ParsingJob).id;
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    await progressShown;

    await p.waitForURL(new RegExp(`#/parser-jobs/${jobId}/show`), { timeout: UI });
    // Parsing runs in the service's background worker; the page follows it by itself.
    await p.getByRole('region', { name: 'Extracted results' }).waitFor({ timeout: 90_000 });
  });

  it('shows the document beside the table, with the doubtful value highlighted and its reason', async () => {
    const p = the(page, 'page');
    await p.getByRole('region', { name: 'Original document' }).waitFor();
    const results = p.getByRole('region', { name: 'Extracted results' });
    await results.getByText('1 doubtful cell to check').waitFor();
    const potassium = results.getByRole('textbox', { name: 'Potassium value' });
    await expect.poll(() => potassium.inputValue(), { timeout: UI }).toBe('47');
    await results.getByText('47 is not a plausible Potassium value in mmol/L.').waitFor();
    // The document itself is drawn beside the table (pdf.js in the browser, from the BFF's file route).
    await p.getByRole('img', { name: /^Page 1 of the uploaded report/ }).waitFor();
    expect(await results.getByRole('textbox', { name: 'Sodium value' }).inputValue()).toBe('139');
    await p.screenshot({ path: path.join(ARTIFACTS, 'parser-review.png'), fullPage: true, animations: 'disabled' });
  });

  it('corrects the value and approves: the job completes with the corrected result, reviewed by this staff member', async () => {
    const p = the(page, 'page');
    const results = p.getByRole('region', { name: 'Extracted results' });
    const potassium = results.getByRole('textbox', { name: 'Potassium value' });
    await potassium.fill('4.7');
    await results.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = p.getByRole('dialog', { name: 'Approve these results?' });
    await dialog.waitFor();
    const reviewed = quiet(p.waitForResponse((r) => r.url().endsWith(`/api/parser-jobs/${jobId}/review`), { timeout: 60_000 }));
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    expect((await reviewed).status()).toBe(200);
    await p.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'parser-approved.png'), fullPage: true, animations: 'disabled' });

    const job = await service.get<ParsingJob>(`/lab_report/v1/parser/job/${jobId}`);
    expect(job).toMatchObject({ status: 'completed', is_reviewed: true, needs_human_review: true });
    expect(job.review?.decision).toBe('approve');
    expect(job.review?.reviewer).toBeTruthy();
    const k = job.data?.results.find((r) => r.test_name === 'Potassium');
    expect(k).toMatchObject({ value: '4.7', units: 'mmol/L', is_above_max_range: false, interpretation: 'normal' });
    expect(job.data?.results.find((r) => r.test_name === 'Glucose')?.value).toBe('88');
    expect(job.data?.metadata).toMatchObject({ specimen_number: specimen, patient_last_name: reportPatient.last.toUpperCase() });
  });

  it('never hands the service API key to the browser, calls no other host, and throws no page errors', async () => {
    await expectCleanWatch(the(browserSession, 'browser').watch);
  });
});
