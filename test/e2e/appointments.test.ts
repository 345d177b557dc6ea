/**
 * End to end: a care coordinator books an at-home blood draw in the real app (started once for the
 * run by globalSetup.ts), in Debian's Chromium: open an at-home order, see 14 days of slots in the
 * patient's time zone (Chicago, while the browser runs in UTC), pick one, add notes, book, see it
 * confirmed on the order page and in the appointments list. The service's own view is checked too.
 *
 * Run: `npx vitest run --project e2e test/e2e/appointments.test.ts` (needs /usr/bin/chromium).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Appointment, AvailabilityResponse, LabTest, Order, PaginatedUsers } from '../../server/contract';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, quiet, signIn, stopAfterFirstFailure, type BrowserSession } from './browser';
import { the, serviceApi } from './support';

const shared = inject('e2eApp');
const credentials = shared.credentials;
const service = serviceApi(shared);
const ZONE = 'America/Chicago';

const suffix = Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('');
const patient = { first_name: 'Odalys', last_name: `Varga${suffix.charAt(0).toUpperCase()}${suffix.slice(1)}` };
const ACCESS_NOTES = 'Buzz 4B; the lobby door sticks, push hard.';
const APPOINTMENT_NOTES = 'Patient prefers the left arm; fasting since 8 pm.';

let browserSession: BrowserSession | undefined;
let page: Page | undefined;
let orderId = '';
const bookPosts: Request[] = [];



const inZone = (iso: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: ZONE, ...options }).format(new Date(iso));

describe('booking an at-home draw, end to end in Chromium', () => {
  beforeAll(async () => {
    const users = (await service.get<PaginatedUsers>('/v2/user?limit=50')).users;
    const user = the(users[7], 'a seeded user');
    const tests = await service.get<LabTest[]>('/v3/lab_tests?collection_method=at_home_phlebotomy&status=active');
    const labTest = the(tests[0], 'an at-home lab test');
    const created = await service.post<{ order: Order }>('/v3/order/create', {
      user_id: user.user_id,
      lab_test_id: labTest.id,
      patient_details: { ...patient, dob: '1979-06-30', gender: 'female', phone_number: '+13125550188', email: `odalys.${suffix}@example.com` },
      patient_address: { receiver_name: `${patient.first_name} ${patient.last_name}`, first_line: '233 S Wacker Dr', second_line: 'Apt 4B', city: 'Chicago', state: 'IL', zip: '60606', country: 'US', access_notes: ACCESS_NOTES },
    });
    orderId = created.order.id;
    console.info(`e2e appointments: at-home order ${orderId} (${labTest.name}) for ${patient.first_name} ${patient.last_name} in Chicago`);

    browserSession = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    page = browserSession.page;
    browserSession.watch.onRequest((req) => {
      if (req.method() === 'POST' && req.url().endsWith(`/api/orders/${orderId}/appointment/book`)) bookPosts.push(req);
    });
  }, 300_000);

  stopAfterFirstFailure('appointments', () => page);

  afterAll(async () => {
    await browserSession?.close();
  }, 60_000);

  it('signs in as a coordinator would', async () => {
    const p = the(page, 'page');
    await signIn(p, shared.dashboardUrl, credentials.adminEmail, credentials.adminPassword);
  });

  let slotStart = '';
  let slotKey = '';

  it("opens the order and shows 14 days of slots in the patient's zone, named, with the address and access notes", async () => {
    const p = the(page, 'page');
    const availability = quiet(p.waitForResponse((r) => r.url().endsWith(`/api/orders/${orderId}/appointment/availability`), { timeout: 60_000 }));
    await p.goto(`${shared.dashboardUrl}/#/orders/${orderId}/show`);
    const draw = p.getByRole('region', { name: 'At-home draw' });
    await draw.waitFor();
    const answer = (await (await availability).json()) as AvailabilityResponse;
    expect(answer.timezone).toBe(ZONE);
    expect(answer.slots).toHaveLength(14);

    const book = draw.getByRole('region', { name: 'Book a draw' });
    await book.getByText(ACCESS_NOTES).waitFor();
    const zone = await book.getByTestId('slot-zone').textContent();
    expect(zone).toMatch(/^Times in America\/Chicago \((CST|CDT)(, (CST|CDT))?\), the patient's time zone$/);
    const days = book.getByRole('list', { name: 'Days' }).getByRole('listitem');
    await expect.poll(() => days.count(), { timeout: UI }).toBe(14);

    // The first slot on offer: its chip shows the start in Chicago time, not the browser's UTC.
    const day = the(answer.slots.find((d) => d.slots.length > 0), 'a day with slots');
    const first = the(day.slots[0], 'a slot on offer');
    slotStart = first.start;
    slotKey = first.booking_key;
    // The day's cell is named by its calendar date ("Mon, Nov 23"), the chip by its Chicago time.
    const dayName = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(`${day.date}T12:00:00Z`));
    const time = inZone(first.start, { hour: 'numeric', minute: '2-digit' });
    const chip = days.filter({ has: p.getByRole('heading', { name: dayName }) }).getByRole('button', { name: new RegExp(`^${time.replace(/\s/g, '\\s')} C[SD]T, `) }).first();
    await chip.waitFor();
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    await p.screenshot({ path: path.join(ARTIFACTS, 'appointments-calendar.png'), fullPage: true, animations: 'disabled' });
    await book.screenshot({ path: path.join(ARTIFACTS, 'appointments-book-a-draw.png'), animations: 'disabled' });
  });

  it('books the slot with notes and shows it confirmed, in Chicago time', async () => {
    const p = the(page, 'page');
    const book = p.getByRole('region', { name: 'Book a draw' });
    await book.getByLabel('Appointment notes').fill(APPOINTMENT_NOTES);
    const booked = quiet(p.waitForResponse((r) => r.url().endsWith(`/api/orders/${orderId}/appointment/book`), { timeout: 60_000 }));
    await book.getByRole('button', { name: 'Book', exact: true }).click();
    const res = await booked;
    expect(res.status()).toBe(200);
    expect(bookPosts).toHaveLength(1);
    expect(JSON.parse(bookPosts[0]?.postData() ?? '{}')).toMatchObject({ booking_key: slotKey, appointment_notes: APPOINTMENT_NOTES });

    const draw = p.getByRole('region', { name: 'At-home draw' });
    const current = draw.getByRole('region', { name: 'Current appointment' });
    await current.waitFor();
    await current.getByText(APPOINTMENT_NOTES).waitFor();
    await current.getByText(inZone(slotStart, { hour: 'numeric', minute: '2-digit' }), { exact: false }).first().waitFor();
    await draw.getByText(/confirmed/i).first().waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'appointments-booked.png'), fullPage: true, animations: 'disabled' });

    // The service agrees: confirmed, at the slot picked, the access notes forwarded to the provider.
    const appointment = await service.get<Appointment>(`/v3/order/${orderId}/phlebotomy/appointment`);
    expect(appointment.status).toBe('confirmed');
    expect(new Date(appointment.start_at ?? '').toISOString()).toBe(new Date(slotStart).toISOString());
    expect(appointment.iana_timezone).toBe(ZONE);
    expect(appointment.appointment_notes).toBe(APPOINTMENT_NOTES);
    expect(JSON.stringify(appointment.event_data)).toContain(ACCESS_NOTES);
    const order = await service.get<Order>(`/v3/order/${orderId}`);
    expect(order.low_level_status).toBe('appointment_scheduled');
  });

  it('lists the appointment among the team\'s appointments', async () => {
    const p = the(page, 'page');
    await p.goto(`${shared.dashboardUrl}/#/appointments`);
    const row = p.locator('table tbody tr').filter({ hasText: patient.last_name });
    await row.waitFor({ timeout: 60_000 });
    await row.getByText(/confirmed/i).first().waitFor();
  });

  it('never hands the service API key to the browser, calls no other host, and throws no page errors', async () => {
    const watch = the(browserSession, 'browser').watch;
    await expectCleanWatch(watch, [/^401 GET \/api\/auth\/me/, /^404 GET \/api\/appointments\/[0-9a-f-]+$/]);
    expect(watch.checkedBodies.filter((t) => t.includes('json')).length).toBeGreaterThan(3);
  });
});
