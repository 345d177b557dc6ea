/**
 * End to end: a care coordinator's morning, in the real app (started once for the run by
 * globalSetup.ts), in Debian's Chromium. The admin has added the coordinator; the coordinator signs
 * in and the overview says what needs them; they open a patient (found by client id), place a new
 * order pre-filled from the patient's last one, adding an ordering physician and ICD-10 codes the
 * service checks; book the walk-in visit at the nearest patient service center; then take an order
 * stuck in transit from the queue, claim it, resolve it, and see it leave the queue.
 *
 * Run: `npx vitest run --project e2e test/e2e/morning.test.ts` (needs /usr/bin/chromium).
 * Screenshots land in test/e2e/artifacts/ (morning-*.png).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CSRF_HEADER } from '../../server/bff/api/constants';
import type { LabAccount, LabTest, Order } from '../../server/contract';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, signIn, stopAfterFirstFailure, type BrowserSession } from './browser';
import { serviceApi, the } from './support';

const shared = inject('e2eApp');
const credentials = shared.credentials;
const service = serviceApi(shared);

const suffix = randomBytes(4).toString('hex');
const coordinator = { email: `coordinator.${suffix}@labdesk.test`, name: 'Mary Seacole', password: `${randomBytes(12).toString('base64url')}-Aa1!` };
/** The patient and the address of their last order: Lincoln Park, Chicago, where a walk-in center is. */
const patient = { clientUserId: `morning-${suffix}`, firstName: 'Imani', lastName: `Okafor${suffix}`, dob: '1979-05-02' };
const address = { first_line: '2430 N Cannon Dr', city: 'Chicago', state: 'IL', zip: '60614', access_notes: 'Doorman building; ask for unit 12B.' };
const LAB_TEST_NAME = 'Essential Metabolic Health';
/** A valid NPI (its tenth digit is the Luhn check digit over 80840 and the first nine). */
const NPI = '1234567893';
const ICD_CODES = 'Z00.00, E78.5';
const ATTENTION_STATUS = 'problem_in_transit_lab';

let session: BrowserSession | undefined;
let page: Page | undefined;
let userId = '';
let questAccount: LabAccount | undefined;
let newOrderId = '';
let stuckOrderId = '';
let stuckOrderIds: string[] = [];

/** Signs in to the BFF over HTTP as the admin and adds the coordinator, as the staff page would. */
async function addCoordinator() {
  const login = await fetch(`${shared.dashboardUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: credentials.adminEmail, password: credentials.adminPassword }),
  });
  if (!login.ok) throw new Error(`admin sign-in answered ${login.status}: ${await login.text()}`);
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const added = await fetch(`${shared.dashboardUrl}/api/staff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, [CSRF_HEADER]: csrfToken },
    body: JSON.stringify({ email: coordinator.email, name: coordinator.name, role: 'coordinator', password: coordinator.password }),
  });
  if (added.status !== 201) throw new Error(`adding the coordinator answered ${added.status}: ${await added.text()}`);
}

/** An MUI select (react-admin SelectInput): open it by its label, pick the option. */
async function choose(p: Page, label: RegExp, option: string | RegExp) {
  await p.getByRole('combobox', { name: label }).click();
  const listbox = p.getByRole('listbox');
  await listbox.getByRole('option', { name: option, exact: typeof option === 'string' ? true : undefined }).click();
  await listbox.waitFor({ state: 'hidden' });
}

describe("a care coordinator's morning, end to end in Chromium", () => {
  beforeAll(async () => {
    await addCoordinator();
    const accounts = (await service.get<{ data: LabAccount[] }>('/v3/lab_test/lab_account')).data;
    questAccount = accounts.find((a) => a.lab === 'quest' && a.status === 'active');
    const tests = await service.get<LabTest[]>('/v3/lab_tests?lab_slug=quest&status=active');
    const labTest = tests.find((t) => t.name === LAB_TEST_NAME);
    if (!labTest) throw new Error(`no Quest "${LAB_TEST_NAME}" lab test`);

    // The patient, with an earlier order whose details the new one starts from.
    const user = await service.post<{ user_id: string }>('/v2/user', { client_user_id: patient.clientUserId });
    userId = user.user_id;
    await service.post<Order>('/v3/order', {
      user_id: userId,
      lab_test_id: labTest.id,
      patient_details: { first_name: patient.firstName, last_name: patient.lastName, dob: patient.dob, gender: 'female', phone_number: '+13125550147', email: `${patient.clientUserId}@example.com` },
      patient_address: { receiver_name: `${patient.firstName} ${patient.lastName}`, ...address, country: 'US' },
    });

    // The orders stuck on their way to the lab: the coordinator will take one of them from the queue.
    const stuck = await service.get<{ orders: Order[] }>(`/v3/orders?size=50&status=${ATTENTION_STATUS}`);
    stuckOrderIds = stuck.orders.map((o) => o.id);
    if (!stuckOrderIds.length) throw new Error(`no seeded order in ${ATTENTION_STATUS}`);

    session = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    ({ page } = session);
  }, 300_000);

  stopAfterFirstFailure('morning', () => page);

  afterAll(async () => {
    await session?.close();
  }, 60_000);

  it('signs in and the overview says what needs them', async () => {
    const p = the(page, 'page');
    await signIn(p, shared.dashboardUrl, coordinator.email, coordinator.password);
    await p.getByRole('heading', { name: 'What needs you' }).waitFor();
    const attention = p.getByRole('region', { name: 'Orders needing attention' });
    await attention.getByRole('link', { name: /^Problem in transit to lab: \d+$/ }).waitFor();
    // A coordinator's overview has no webhook card (that queue is the admins').
    expect(await p.getByRole('region', { name: 'Failed webhook deliveries' }).count()).toBe(0);
    await p.screenshot({ path: path.join(ARTIFACTS, 'morning-overview.png'), animations: 'disabled' });
  });

  it('opens the patient, whose orders tab shows the last order', async () => {
    const p = the(page, 'page');
    await p.getByRole('menuitem', { name: 'Users' }).click();
    await p.getByLabel('Search by client user id').fill(patient.clientUserId);
    await p.getByRole('cell', { name: patient.clientUserId }).click();
    await p.waitForURL(new RegExp(`#/users/${userId}/show`), { timeout: UI });
    await p.getByRole('tab', { name: 'Orders' }).click();
    await p.getByRole('link', { name: /^Order / }).first().waitFor();
  });

  it('places an order pre-filled from the last one, with a physician and ICD-10 codes the service checks', async () => {
    const p = the(page, 'page');
    const account = the(questAccount, 'the active Quest account');
    await p.getByRole('link', { name: 'New order for this patient' }).click();
    await p.waitForURL(/#\/orders\/create/, { timeout: UI });
    // The patient and the address (with its access notes) come from the last order.
    await expect.poll(() => p.getByLabel('First name').inputValue(), { timeout: UI }).toBe(patient.firstName);
    expect(await p.getByLabel('Last name').inputValue()).toBe(patient.lastName);
    expect(await p.getByLabel('Street address').inputValue()).toBe(address.first_line);
    expect(await p.getByLabel('Zip code').inputValue()).toBe(address.zip);
    expect(await p.getByRole('textbox', { name: 'Access notes' }).inputValue()).toBe(address.access_notes);

    await choose(p, /^Lab account/, `${account.account_name ?? account.provider_account_id} (Quest)`);
    await choose(p, /^Lab test/, LAB_TEST_NAME);
    await expect.poll(() => p.getByRole('combobox', { name: /^Collection method/ }).textContent(), { timeout: UI }).toContain('Walk-in');
    await choose(p, /^Billing type/, 'Client bill');

    await p.getByLabel('Physician given name').fill('Rebecca');
    await p.getByLabel('Physician family name').fill('Lee');
    await p.getByLabel('NPI').fill(NPI);
    await p.getByLabel('ICD-10 codes').fill(ICD_CODES);
    for (const code of ['Z00.00', 'E78.5']) {
      await expect.poll(() => p.getByRole('listitem', { name: `ICD-10 ${code}` }).textContent(), { timeout: UI }).toContain('Valid, billable');
    }
    await p.screenshot({ path: path.join(ARTIFACTS, 'morning-order-form.png'), fullPage: true, animations: 'disabled' });

    const created = p.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/orders', { timeout: 60_000 });
    await p.getByRole('button', { name: 'Save' }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    newOrderId = ((await answer.json()) as { id: string }).id;
    await p.waitForURL(new RegExp(`#/orders/${newOrderId}/show`), { timeout: UI });

    // What the service stored: the physician and the codes, not dropped on the way.
    const stored = await service.get<Order & { physician?: { npi?: string }; icd_codes?: string[] }>(`/v3/order/${newOrderId}`);
    expect(stored.user_id).toBe(userId);
    expect(stored.patient_address?.first_line).toBe(address.first_line);
    expect(stored.physician?.npi).toBe(NPI);
    expect(stored.icd_codes).toEqual(['Z00.00', 'E78.5']);
  });

  it('books the walk-in visit at the nearest center, at a time in the center’s zone', async () => {
    const p = the(page, 'page');
    const visit = p.getByRole('region', { name: 'Walk-in visit' });
    const centers = visit.getByRole('list', { name: 'Nearest centers' });
    await centers.waitFor();
    const nearest = centers.getByRole('button').first();
    expect(await nearest.textContent()).toMatch(/Lincoln Park/);
    await nearest.click();
    const slots = visit.getByRole('region', { name: /^Slots at / });
    await slots.getByText(/America\/Chicago/).waitFor();
    await slots.getByRole('group', { name: 'Times' }).getByRole('button').first().click();
    await slots.getByRole('button', { name: /^Book / }).click();
    await visit.getByRole('region', { name: 'Booked visit' }).waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'morning-walk-in.png'), fullPage: true, animations: 'disabled' });
    const booked = await service.get<{ type: string; status: string }>(`/v3/order/${newOrderId}/psc/appointment`);
    expect(booked.type).toBe('patient_service_center');
  });

  it('claims the order stuck in transit from the queue and resolves it, and it leaves the queue', async () => {
    const p = the(page, 'page');
    // From the overview's count of orders stuck on their way to the lab, to the queue filtered to them.
    await p.getByRole('menuitem', { name: /^Overview/ }).click();
    await p.getByRole('region', { name: 'Orders needing attention' }).getByRole('link', { name: /^Problem in transit to lab: \d+$/ }).click();
    await p.waitForURL(/#\/orders/, { timeout: UI });
    const rows = p.locator('table tbody tr');
    await rows.first().waitFor();
    await rows.first().click();
    await p.waitForURL(/#\/orders\/[0-9a-f-]{36}\/show/, { timeout: UI });
    stuckOrderId = /#\/orders\/([0-9a-f-]{36})\/show/.exec(p.url())?.[1] ?? '';
    expect(stuckOrderIds).toContain(stuckOrderId);
    const triage = p.getByRole('region', { name: 'Triage' });
    await triage.getByText('Nobody works on this order yet.').waitFor();
    await triage.getByRole('button', { name: 'Claim' }).click();
    await expect.poll(() => triage.getByTestId('triage-owner').textContent(), { timeout: UI }).toMatch(/^Claimed by you/);

    await triage.getByRole('button', { name: 'Resolve…' }).click();
    const dialog = p.getByRole('dialog');
    await choose(p, /^Outcome/, 'Lab contacted');
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Courier confirmed the box reached the lab this morning.');
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await triage.getByText(/Lab contacted/).waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'morning-resolved.png'), fullPage: true, animations: 'disabled' });

    // The queue no longer lists it (its status has not changed since it was resolved).
    const queue = await fetchQueueIds(p);
    expect(queue).not.toContain(stuckOrderId);
  });

  it('never hands the service API key to the browser, calls no other host, and throws no page errors', async () => {
    await expectCleanWatch(the(session, 'browser').watch, false);
  });
});

/** The ids in the needs-attention queue, read through the page's own session (as the list reads them). */
async function fetchQueueIds(p: Page): Promise<string[]> {
  return p.evaluate(async () => {
    const filter = encodeURIComponent(JSON.stringify({ needs_attention: true }));
    const res = await fetch(`/api/orders?filter=${filter}&range=${encodeURIComponent('[0,99]')}`, { credentials: 'same-origin' });
    const body = (await res.json()) as { id: string }[];
    return body.map((o) => o.id);
  });
}
