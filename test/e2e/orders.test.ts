/**
 * End to end: lab orders in the real app (`server/main.ts`, started once for the run by
 * globalSetup.ts), driven in Debian's Chromium through playwright-core, as a care coordinator would:
 * the order list and its "Needs attention" view, the order form (user autocomplete, Quest account,
 * Quest lab test, patient, address, note counters, a zip refused on the field), the new order's
 * page (timeline, lab account, notes), its requisition PDF, and finding it again in the list.
 *
 * Run: `npx vitest run --project e2e test/e2e/orders.test.ts` (needs /usr/bin/chromium).
 * Screenshots land in test/e2e/artifacts/ (orders-*.png).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LabAccount, LabTest, Order, PaginatedUsers, User } from '../../server/contract';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, quiet, signIn, stopAfterFirstFailure, type BrowserSession } from './browser';
import { the, serviceApi, uniqueFragment } from './support';


const shared = inject('e2eApp');
const credentials = shared.credentials;
const service = serviceApi(shared);

/** Labels of the low-level statuses the "Needs attention" view is for (problems in transit, failures). */
const ATTENTION: Record<string, string> = {
  problem_in_transit_customer: 'Problem in transit to patient',
  problem_in_transit_lab: 'Problem in transit to lab',
  failure_to_deliver_to_customer: 'Failed to deliver to patient',
  failure_to_deliver_to_lab: 'Failed to deliver to lab',
  sample_error: 'Sample error',
  lost: 'Lost',
  redraw_available: 'Redraw available',
};
const ATTENTION_LABELS = Object.values(ATTENTION);

/** A fake patient, unique per run so the list search finds this order only. */
const suffix = Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('');
const patient = {
  firstName: 'Marisol',
  lastName: `Ebbesen${suffix.charAt(0).toUpperCase()}${suffix.slice(1)}`,
  dob: '1984-03-17',
  gender: 'Female',
  phone: '+1 512 555 0147',
  email: `marisol.${suffix}@example.com`,
  street: '1100 Congress Ave',
  city: 'Austin',
  state: 'TX',
  badZip: '7870',
  zip: '78701',
  accessNotes: 'Gate code 4821#; park in visitor spot 12 and use the side entrance.',
  /** Typed in two steps: the counter must follow each. */
  clinicalNotesStart: 'Fasting 12 hrs',
  clinicalNotesRest: '. On levothyroxine 50 mcg; draw before the morning dose.',
};
const clinicalNotes = patient.clinicalNotesStart + patient.clinicalNotesRest;
const ZIP_MESSAGE = 'Enter a zip code of 5 digits, optionally followed by a hyphen and 4 digits (12345 or 12345-6789)';
const LAB_TEST_NAME = 'Thyroid Check';
/** react-admin's notice when client-side validation refuses a submit. */
const FORM_INVALID = 'The form is not valid. Please check for errors';

let browserSession: BrowserSession | undefined;
let page: Page | undefined;
/** Every order submission the browser made. */
const orderPosts: Request[] = [];

/** The test's own view of the demo team, straight from the service. */
let allUsers: User[] = [];
let orderUser: User | undefined;
let fragment = '';
let questAccount: LabAccount | undefined;
let questTest: LabTest | undefined;
let questTestNames: string[] = [];
let seededOrders = 0;
let seededAttention = 0;
let newOrderId = '';

interface OrdersPage {
  orders: Order[];
  total: number;
}




/** The react-admin list's data rows (not the header row). */
const dataRows = (p: Page) => p.locator('table tbody tr');

/** The next `GET /api/orders` list answer (not getOne/getMany), optionally one whose filter passes `test`. */
function ordersListResponse(p: Page, test: (filter: Record<string, unknown>) => boolean = () => true) {
  return quiet(p.waitForResponse(
    (res) => {
      const url = new URL(res.url());
      if (res.request().method() !== 'GET' || url.pathname !== '/api/orders' || !url.searchParams.has('range')) return false;
      const filter = JSON.parse(url.searchParams.get('filter') ?? '{}') as Record<string, unknown>;
      return !('id' in filter) && test(filter);
    },
    { timeout: 60_000 },
  ));
}

/** `Content-Range: orders 0-24/44` → 44. */
function totalOf(res: Response): number {
  const match = /\/(\d+)$/.exec(res.headers()['content-range'] ?? '');
  if (!match) throw new Error(`no total in Content-Range of ${res.url()}: ${res.headers()['content-range']}`);
  return Number(match[1]);
}

/** The text of each row's cell in the column headed `header` ("Status": the low-level status chip). */
async function columnCells(p: Page, header: string): Promise<string[]> {
  const headers = (await p.locator('table thead th').allTextContents()).map((t) => t.trim());
  const column = headers.findIndex((h) => h === header);
  if (column < 0) throw new Error(`no ${header} column among ${headers.join(', ')}`);
  return (await dataRows(p).locator(`td:nth-child(${column + 1})`).allTextContents()).map((t) => t.trim());
}
const statusCells = (p: Page) => columnCells(p, 'Status');
/** Every row's user, once the users referenced by the page have loaded (every order has one). */
const usersLoaded = async (p: Page) => (await columnCells(p, 'User')).every((u) => u.length > 0);

/** An MUI select (react-admin SelectInput): open it by its label, pick the option. */
async function choose(p: Page, label: RegExp, option: string | RegExp) {
  await p.getByRole('combobox', { name: label }).click();
  const listbox = p.getByRole('listbox');
  await listbox.getByRole('option', { name: option, exact: typeof option === 'string' ? true : undefined }).click();
  await listbox.waitFor({ state: 'hidden' });
}

describe('lab orders, end to end in Chromium', () => {
  beforeAll(async () => {
    allUsers = (await service.get<PaginatedUsers>('/v2/user?limit=500')).users;
    // A user well past the first page of the autocomplete's suggestions: only typing finds them.
    orderUser = allUsers[Math.min(137, allUsers.length - 1)];
    fragment = uniqueFragment(the(orderUser, 'order user'), allUsers);

    const accounts = (await service.get<{ data: LabAccount[] }>('/v3/lab_test/lab_account')).data;
    questAccount = accounts.find((a) => a.lab === 'quest' && a.status === 'active');
    const tests = await service.get<LabTest[]>('/v3/lab_tests?lab_slug=quest&status=active');
    questTest = tests.find((t) => t.name === LAB_TEST_NAME);
    questTestNames = tests.map((t) => t.name).sort();

    seededOrders = (await service.get<OrdersPage>('/v3/orders?size=1')).total;
    const attention = Object.keys(ATTENTION).map((s) => `status=${s}`).join('&');
    seededAttention = (await service.get<OrdersPage>(`/v3/orders?size=1&${attention}`)).total;
    console.info(
      `e2e orders: ${seededOrders} orders (${seededAttention} need attention); ` +
        `ordering for ${orderUser?.client_user_id} by typing "${fragment}"; patient ${patient.firstName} ${patient.lastName}`,
    );

    browserSession = await openBrowser(shared.dashboardUrl, credentials.demoApiKey, { acceptDownloads: true });
    ({ page } = browserSession);
    browserSession.watch.onRequest((req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/orders') orderPosts.push(req);
    });
  }, 300_000);

  // One flow: once a step fails, the later ones would only time out on its consequences (the
  // closing leak and page-error check still runs: what the browser saw until then is worth checking).
  stopAfterFirstFailure('orders', () => page);

  afterAll(async () => {
    await browserSession?.close();
  }, 60_000);

  it('seeded users, an active Quest account that bills client_bill in TX, its lab tests and demo orders', () => {
    expect(allUsers.length).toBeGreaterThanOrEqual(100);
    const account = the(questAccount, 'the active Quest account');
    expect(account.allowed_billing.client_bill).toContain(patient.state);
    expect(the(questTest, `the Quest "${LAB_TEST_NAME}" lab test`).lab?.slug).toBe('quest');
    expect(seededOrders).toBeGreaterThanOrEqual(30);
    expect(seededAttention).toBeGreaterThan(0);
    expect(seededAttention).toBeLessThan(seededOrders);
  });

  it('signs in as the admin', async () => {
    const p = the(page, 'page');
    await signIn(p, shared.dashboardUrl, credentials.adminEmail, credentials.adminPassword);
  });

  it('lists orders with status chips, and "Needs attention" narrows them to problems and failures', async () => {
    const p = the(page, 'page');
    const listed = ordersListResponse(p, (f) => !f.needs_attention);
    await p.getByRole('menuitem', { name: 'Orders' }).click();
    await p.waitForURL(/#\/orders/, { timeout: UI });
    const allTotal = totalOf(await listed);
    expect(allTotal).toBeGreaterThanOrEqual(seededOrders);

    const tabs = p.getByRole('tablist', { name: 'Order views' });
    const allTab = tabs.getByRole('tab', { name: 'All orders' });
    const attentionTab = tabs.getByRole('tab', { name: 'Needs attention' });
    expect(await allTab.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => dataRows(p).count(), { timeout: UI }).toBe(Math.min(25, allTotal));
    await expect.poll(() => dataRows(p).locator('.MuiChip-root').count(), { timeout: UI }).toBeGreaterThanOrEqual(2 * Math.min(25, allTotal));
    const allStatuses = await statusCells(p);
    expect(allStatuses.every((s) => s.length > 0)).toBe(true);
    // The first page of a normal day holds more than trouble.
    expect(allStatuses.some((s) => !ATTENTION_LABELS.includes(s))).toBe(true);
    await expect.poll(() => usersLoaded(p), { timeout: UI }).toBe(true);
    await p.screenshot({ path: path.join(ARTIFACTS, 'orders-list.png'), animations: 'disabled' });

    const narrowed = ordersListResponse(p, (f) => f.needs_attention === true);
    await attentionTab.click();
    const attentionTotal = totalOf(await narrowed);
    expect(attentionTotal).toBeGreaterThan(0);
    expect(attentionTotal).toBeLessThan(allTotal);
    await expect.poll(() => attentionTab.getAttribute('aria-selected'), { timeout: UI }).toBe('true');
    await expect.poll(() => dataRows(p).count(), { timeout: UI }).toBe(Math.min(25, attentionTotal));
    // Each row is in trouble, or holds a critical result nobody has acknowledged yet (its Results chip).
    const attentionStatuses = await statusCells(p);
    const attentionResults = await columnCells(p, 'Results');
    expect(attentionStatuses.filter((s, i) => !ATTENTION_LABELS.includes(s) && attentionResults[i] !== 'critical')).toEqual([]);
    expect(decodeURIComponent(p.url())).toContain('needs_attention');
    await expect.poll(() => usersLoaded(p), { timeout: UI }).toBe(true);
    await p.screenshot({ path: path.join(ARTIFACTS, 'orders-needs-attention.png'), animations: 'disabled' });

    const back = ordersListResponse(p, (f) => !f.needs_attention);
    await allTab.click();
    expect(totalOf(await back)).toBe(allTotal);
    await expect.poll(() => dataRows(p).count(), { timeout: UI }).toBe(Math.min(25, allTotal));
  });

  it('fills the order form as a care coordinator would', async () => {
    const p = the(page, 'page');
    const user = the(orderUser, 'order user');
    const account = the(questAccount, 'Quest account');
    await p.getByRole('link', { name: 'Create' }).click();
    await p.waitForURL(/#\/orders\/create/, { timeout: UI });

    // The user: typing part of the client user id suggests them.
    const userInput = p.getByRole('combobox', { name: /^User \(client user id\)/ });
    await userInput.click();
    await userInput.pressSequentially(fragment, { delay: 20 });
    await p.getByRole('option', { name: user.client_user_id, exact: true }).click();
    await expect.poll(() => userInput.inputValue(), { timeout: UI }).toBe(user.client_user_id);

    // The lab account limits the lab tests to Quest's; picking a test proposes its collection method.
    await choose(p, /^Lab account/, `${account.account_name ?? account.provider_account_id} (Quest)`);
    await p.getByText('Tests of Quest, the chosen account\'s lab').waitFor();
    await p.getByText(`The requisition also carries this account's default notes: ${account.default_clinical_notes ?? ''}`).waitFor();
    await p.getByRole('combobox', { name: /^Lab test/ }).click();
    const testOptions = (await p.getByRole('listbox').getByRole('option').allTextContents()).map((t) => t.trim());
    // Quest's active tests only (by bare name: no "(Labcorp)"), after the empty choice.
    expect(testOptions[0]).toBe('None (add-on markers only)');
    expect(testOptions.slice(1).sort()).toEqual(questTestNames);
    await p.getByRole('listbox').getByRole('option', { name: LAB_TEST_NAME, exact: true }).click();
    await p.getByRole('listbox').waitFor({ state: 'hidden' });
    await expect.poll(() => p.getByRole('combobox', { name: /^Collection method/ }).textContent(), { timeout: UI }).toContain('Test kit');
    await p.getByText('Add-on markers (Quest)').first().waitFor();
    await choose(p, /^Billing type/, 'Client bill');

    // The patient.
    await p.getByLabel('First name').fill(patient.firstName);
    await p.getByLabel('Last name').fill(patient.lastName);
    await p.getByLabel('Date of birth').fill(patient.dob);
    await choose(p, /^Gender/, patient.gender);
    await p.getByRole('textbox', { name: /^Phone(\s*\*)?$/ }).fill(patient.phone);
    await p.getByLabel('Email').fill(patient.email);

    // The address, with a zip one digit short.
    await p.getByLabel('Street address').fill(patient.street);
    await p.getByLabel('City').fill(patient.city);
    await choose(p, /^State/, patient.state);
    await p.getByLabel('Zip code').fill(patient.badZip);

    // The notes, with their live counters.
    const accessCounter = p.getByTestId('patient_address.access_notes-counter');
    const clinicalCounter = p.getByTestId('clinical_notes-counter');
    expect(await accessCounter.textContent()).toBe('0 / 1000');
    await p.getByRole('textbox', { name: 'Access notes' }).fill(patient.accessNotes);
    await expect.poll(() => accessCounter.textContent(), { timeout: UI }).toBe(`${patient.accessNotes.length} / 1000`);
    const clinical = p.getByRole('textbox', { name: 'Clinical notes' });
    expect(await clinicalCounter.textContent()).toBe('0 / 1000');
    await clinical.click();
    await clinical.pressSequentially(patient.clinicalNotesStart, { delay: 10 });
    await expect.poll(() => clinicalCounter.textContent(), { timeout: UI }).toBe('14 / 1000');
    await clinical.pressSequentially(patient.clinicalNotesRest, { delay: 5 });
    await expect.poll(() => clinicalCounter.textContent(), { timeout: UI }).toBe(`${clinicalNotes.length} / 1000`);
  });

  it('refuses the four-digit zip on its field, without leaving the form or calling the server', async () => {
    const p = the(page, 'page');
    const invalid = quiet(p.getByText(FORM_INVALID).waitFor());
    await p.getByRole('button', { name: 'Save' }).click();
    await p.getByText(ZIP_MESSAGE).waitFor();
    await invalid;
    await expect.poll(() => p.getByLabel('Zip code').getAttribute('aria-invalid'), { timeout: UI }).toBe('true');
    expect(p.url()).toMatch(/#\/orders\/create$/);
    expect(orderPosts).toEqual([]);
    // Everything else typed is still there.
    expect(await p.getByLabel('Last name').inputValue()).toBe(patient.lastName);
    expect(await p.getByRole('textbox', { name: 'Clinical notes' }).inputValue()).toBe(clinicalNotes);
    await p.getByLabel('Zip code').scrollIntoViewIfNeeded();
    await p.screenshot({ path: path.join(ARTIFACTS, 'orders-create-invalid-zip.png'), animations: 'disabled' });
  });

  it('saves the corrected form and opens the new order', async () => {
    const p = the(page, 'page');
    const account = the(questAccount, 'Quest account');
    const zip = p.getByLabel('Zip code');
    await zip.fill(patient.zip);
    await expect.poll(() => p.getByText(ZIP_MESSAGE).count(), { timeout: UI }).toBe(0);
    await expect.poll(() => zip.getAttribute('aria-invalid'), { timeout: UI }).toBe('false');
    // A clean picture: the earlier "form is not valid" notice gone, the page scrolled back up.
    await p.getByText(FORM_INVALID).waitFor({ state: 'hidden' });
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.screenshot({ path: path.join(ARTIFACTS, 'orders-create-filled.png'), fullPage: true, animations: 'disabled' });

    const created = quiet(
      p.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/orders', { timeout: 60_000 }),
    );
    const placed = quiet(p.getByText('Order placed', { exact: true }).waitFor());
    await p.getByRole('button', { name: 'Save' }).click();
    const res = await created;
    expect(res.status()).toBe(201);
    const order = (await res.json()) as Order;
    newOrderId = order.id;
    expect(orderPosts).toHaveLength(1);
    expect(orderPosts[0]?.headers()['x-idempotency-key']).toMatch(/^labdesk-[0-9a-f]{32}-[0-9a-f]{16}$/);

    await p.waitForURL(new RegExp(`#/orders/${newOrderId}/show`), { timeout: UI });
    await placed;
    const fullName = `${patient.firstName} ${patient.lastName}`;
    await p.getByText(`Order ${newOrderId.slice(0, 8)} for ${fullName}`).first().waitFor();

    const patientCard = p.getByRole('region', { name: 'Patient', exact: true });
    await patientCard.getByText(fullName, { exact: true }).waitFor();
    await patientCard.getByText(patient.dob, { exact: true }).waitFor();
    await patientCard.getByText(patient.email, { exact: true }).waitFor();

    const address = p.getByRole('region', { name: 'Address', exact: true });
    await address.getByText(patient.street, { exact: true }).waitFor();
    await address.getByText(`${patient.city}, ${patient.state} ${patient.zip}`, { exact: true }).waitFor();
    expect(await address.getByTestId('access-notes').textContent()).toBe(patient.accessNotes);

    const notes = p.getByRole('region', { name: 'Clinical notes', exact: true });
    expect(await notes.getByTestId('clinical-notes').textContent()).toBe(clinicalNotes);

    const summary = p.getByRole('region', { name: 'Order', exact: true });
    await summary.getByText(`${LAB_TEST_NAME} (${the(questTest, 'Quest test').lab?.name ?? ''})`, { exact: true }).waitFor();
    await summary.getByText('Test kit', { exact: true }).waitFor();
    await summary.getByText('Client bill', { exact: true }).waitFor();
    await summary.getByText(newOrderId, { exact: true }).waitFor();

    const labAccount = p.getByRole('region', { name: 'Lab account', exact: true });
    await labAccount.getByText(`${account.account_name ?? account.provider_account_id} · Quest`).waitFor();
    await labAccount.getByText('Active').waitFor();

    const events = p.getByRole('region', { name: 'Order timeline', exact: true }).getByRole('list', { name: 'Order events' }).getByRole('listitem');
    await events.first().waitFor();
    expect((await events.first().textContent()) ?? '').toContain('Ordered');
    await p.getByText('Order placed', { exact: true }).waitFor({ state: 'hidden' });
    await p.screenshot({ path: path.join(ARTIFACTS, 'orders-show.png'), fullPage: true, animations: 'disabled' });

    // What the service stored is what was typed.
    const stored = await service.get<Order>(`/v3/order/${newOrderId}`);
    expect(stored.user_id).toBe(the(orderUser, 'order user').user_id);
    expect(stored.lab_account_id).toBe(account.id);
    expect(stored.lab_test.id).toBe(the(questTest, 'Quest test').id);
    expect(stored.details.type).toBe('testkit');
    expect(stored.billing_type).toBe('client_bill');
    expect(stored.clinical_notes).toBe(clinicalNotes);
    expect(stored.patient_details).toMatchObject({
      first_name: patient.firstName,
      last_name: patient.lastName,
      gender: 'female',
      phone_number: patient.phone,
      email: patient.email,
    });
    expect(String(stored.patient_details?.dob)).toMatch(new RegExp(`^${patient.dob}`));
    expect(stored.patient_address).toMatchObject({
      first_line: patient.street,
      city: patient.city,
      state: patient.state,
      zip: patient.zip,
      country: 'US',
      access_notes: patient.accessNotes,
    });
    expect(stored.events[0]?.status).toBe('received.testkit.ordered');
  });

  it('downloads the requisition as a PDF', async () => {
    const p = the(page, 'page');
    const link = p.getByRole('link', { name: 'Download requisition' });
    const href = the((await link.getAttribute('href')) ?? undefined, 'requisition href');
    expect(href).toBe(`/api/orders/${newOrderId}/requisition.pdf`);

    // The link as a user clicks it: a download, named after the order.
    const [download] = await Promise.all([p.waitForEvent('download', { timeout: 60_000 }), link.click()]);
    expect(download.suggestedFilename()).toBe(`requisition-${newOrderId}.pdf`);
    const saved = path.join(ARTIFACTS, 'orders-requisition.pdf');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The same URL fetched from the page (session cookie only): its headers and first bytes.
    const answer = await p.evaluate(async (url) => {
      const r = await fetch(url, { credentials: 'same-origin' });
      const bytes = new Uint8Array(await r.arrayBuffer());
      return {
        status: r.status,
        type: r.headers.get('content-type'),
        disposition: r.headers.get('content-disposition'),
        cache: r.headers.get('cache-control'),
        size: bytes.length,
        head: String.fromCharCode(...bytes.subarray(0, 5)),
      };
    }, href);
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/pdf/);
    expect(answer.disposition).toContain(`requisition-${newOrderId}.pdf`);
    expect(answer.cache).toContain('no-store');
    expect(answer.head).toBe('%PDF-');
    expect(answer.size).toBeGreaterThan(500);
  });

  it('finds the new order in the list, first by newest and by the patient\'s last name, and opens it', async () => {
    const p = the(page, 'page');
    const fullName = `${patient.firstName} ${patient.lastName}`;
    const listed = ordersListResponse(p);
    await p.getByRole('menuitem', { name: 'Orders' }).click();
    await p.waitForURL(/#\/orders(\?|$)/, { timeout: UI });
    expect(totalOf(await listed)).toBe(seededOrders + 1);
    await expect.poll(async () => (await dataRows(p).first().textContent()) ?? '', { timeout: UI }).toContain(fullName);
    const firstRow = dataRows(p).first();
    await firstRow.getByText(the(orderUser, 'order user').client_user_id).waitFor();
    await firstRow.getByText(LAB_TEST_NAME).waitFor();

    const searched = ordersListResponse(p, (f) => f.q === patient.lastName);
    await p.getByRole('textbox', { name: 'Search orders' }).fill(patient.lastName);
    expect(totalOf(await searched)).toBe(1);
    await expect.poll(() => dataRows(p).count(), { timeout: UI }).toBe(1);
    const row = dataRows(p).filter({ hasText: fullName });
    await row.waitFor();
    await row.getByText(fullName).click();
    await p.waitForURL(new RegExp(`#/orders/${newOrderId}/show`), { timeout: UI });
    await p.getByRole('region', { name: 'Patient', exact: true }).getByText(fullName, { exact: true }).waitFor();
    await p.getByRole('region', { name: 'Order', exact: true }).getByText(newOrderId, { exact: true }).waitFor();
  });

  it('never hands the service API key to the browser, calls no other host, and throws no page errors', async () => {
    const watch = the(browserSession, 'browser').watch;
    await expectCleanWatch(watch);
    const { checkedBodies } = watch;
    expect(checkedBodies.filter((t) => t.includes('text/html')).length).toBeGreaterThan(0);
    expect(checkedBodies.filter((t) => t.includes('javascript')).length).toBeGreaterThan(0);
    expect(checkedBodies.filter((t) => t.includes('json')).length).toBeGreaterThan(5);
    expect(checkedBodies.filter((t) => t.includes('application/pdf')).length).toBeGreaterThan(0);
  });
});

