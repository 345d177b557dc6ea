/**
 * End to end: the real app (`server/main.ts`: supervisor, service, BFF, built dashboard) on free
 * ports with a fresh data directory, driven in Debian's Chromium through playwright-core.
 *
 * Run: `npx vitest run --project e2e` (needs /usr/bin/chromium; no browser is ever downloaded).
 * Screenshots land in test/e2e/artifacts/.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupedTimeseriesResponse, PaginatedUsers, User } from '../../server/contract';
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, ensureDashboardBuilt, startApp, UI, type RunningApp } from './app';


const credentials = {
  adminEmail: 'e2e.admin@labdesk.test',
  adminPassword: `E2e-${randomBytes(12).toString('base64url')}`,
  demoApiKey: `e2e_demo_${randomBytes(24).toString('hex')}`,
  sessionSecret: randomBytes(48).toString('base64url'),
};

interface MindfulnessAnswer {
  start_date: string;
  end_date: string;
  providers: { slug: string; name: string }[];
  days: { date: string; total: number }[];
  sessions: number;
}

let app: RunningApp | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let page: Page | undefined;
let browserClosing = false;

/** Every response the browser got from the dashboard's origin, checked for the service key at the end. */
const responseChecks: Promise<void>[] = [];
const leaks: string[] = [];
const foreignRequests: string[] = [];
const pageErrors: string[] = [];
const apiStatuses: string[] = [];
/** Content types of the bodies searched for the key (html, javascript, json...). */
const checkedBodies: string[] = [];

/** The demo team's users straight from the service (the test's own view, not the browser's). */
let allUsers: User[] = [];
let target: User | undefined;
let fragment = '';

function the<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set up (did beforeAll fail?)`);
  return value;
}

async function service<T>(pathAndQuery: string): Promise<T> {
  const res = await fetch(`${the(app, 'app').serviceUrl}${pathAndQuery}`, {
    headers: { 'x-service-api-key': credentials.demoApiKey, accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`service ${pathAndQuery} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A user past the first list page with sessions in the last 30 days (the chart's default range),
 * preferably from three providers so the chart stacks bars and the legend has several names.
 */
async function pickTarget(users: User[]): Promise<User> {
  const today = new Date();
  const from = isoDate(new Date(today.getTime() - 29 * 86_400_000));
  const candidates = users.slice(50).filter((u) => u.fallback_time_zone && !u.ingestion_start && !u.ingestion_end);
  let best: { user: User; providers: number } | undefined;
  for (const user of candidates.slice(0, 40)) {
    const page1 = await service<GroupedTimeseriesResponse>(
      `/v2/timeseries/${user.user_id}/mindfulness_minutes/grouped?start_date=${from}&end_date=${isoDate(today)}`,
    );
    const perProvider = Object.values(page1.groups).map((groups) => groups.reduce((m, g) => m + g.data.length, 0));
    const points = perProvider.reduce((a, b) => a + b, 0);
    const providers = perProvider.filter((n) => n > 0).length;
    if (points < 8) continue;
    if (providers >= 3) return user;
    if (!best || providers > best.providers) best = { user, providers };
  }
  if (best) return best.user;
  throw new Error('no demo user with mindfulness sessions in the last 30 days');
}

/** The shortest piece of the id (not its start, when possible) that only this user's client_user_id contains. */
function uniqueFragment(user: User, users: User[]): string {
  const id = user.client_user_id;
  for (let length = 4; length < id.length; length++) {
    const starts = [...Array.from({ length: id.length - length }, (_, i) => i + 1), 0];
    for (const at of starts) {
      const piece = id.slice(at, at + length).toLowerCase();
      const matches = users.filter((u) => u.client_user_id.toLowerCase().includes(piece));
      if (matches.length === 1) return id.slice(at, at + length);
    }
  }
  return id;
}

function watch(p: Page, origin: string) {
  p.on('pageerror', (err) => pageErrors.push(err.message));
  p.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreignRequests.push(url);
    const headers = JSON.stringify(req.headers());
    if (headers.includes(credentials.demoApiKey)) leaks.push(`request headers of ${url}`);
  });
  p.on('response', (res: Response) => {
    const url = res.url();
    if (!url.startsWith(`${origin}/`)) return;
    if (url.includes('/api/')) apiStatuses.push(`${res.status()} ${res.request().method()} ${url.slice(origin.length)}`);
    responseChecks.push(
      (async () => {
        const headers = JSON.stringify(await res.allHeaders());
        if (headers.includes(credentials.demoApiKey)) leaks.push(`response headers of ${url}`);
        if (res.status() >= 300 && res.status() < 400) return;
        const body = await res.body().catch(() => null); // a body may be gone after a navigation
        if (body === null) return;
        checkedBodies.push(res.headers()['content-type'] ?? '');
        if (body.toString('utf8').includes(credentials.demoApiKey)) leaks.push(`response body of ${url}`);
      })().catch((err: unknown) => {
        // A response still arriving while the browser closes can no longer be read; anything else is a failure.
        if (!browserClosing) throw err;
      }),
    );
  });
}

/** The react-admin list's data rows (not the header row). */
const dataRows = (p: Page) => p.locator('table tbody tr');

function mindfulnessResponse(p: Page, startDate?: string) {
  return p.waitForResponse(
    (res) =>
      res.request().method() === 'GET' &&
      /\/api\/users\/[^/]+\/mindfulness-minutes\?/.test(res.url()) &&
      (startDate === undefined || new URL(res.url()).searchParams.get('start_date') === startDate),
    { timeout: 90_000 },
  );
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const summaryOf = (m: MindfulnessAnswer) =>
  `in ${count.format(m.sessions)} ${m.sessions === 1 ? 'session' : 'sessions'} between ${m.start_date} and ${m.end_date}`;

describe('the dashboard, end to end in Chromium', () => {
  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`);
    ensureDashboardBuilt();
    app = await startApp(credentials, 180_000);

    const listing = await service<PaginatedUsers>('/v2/user?limit=500');
    allUsers = listing.users;
    target = await pickTarget(allUsers);
    fragment = uniqueFragment(target, allUsers);
    console.info(`e2e: app up at ${app.dashboardUrl}; searching "${fragment}" to find ${target.client_user_id}`);

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-US', timezoneId: 'UTC' });
    page = await context.newPage();
    page.setDefaultTimeout(UI);
    watch(page, app.dashboardUrl);
  }, 300_000);

  afterAll(async () => {
    browserClosing = true;
    await browser?.close().catch(() => {});
    await app?.stop();
  }, 60_000);

  it('seeded a directory worth browsing', () => {
    expect(allUsers.length).toBeGreaterThanOrEqual(100);
    expect(the(target, 'target').connected_sources.length).toBeGreaterThan(0);
  });

  it('refuses a wrong password and says so', async () => {
    const p = the(page, 'page');
    await p.goto(`${the(app, 'app').dashboardUrl}/`);
    await p.getByRole('heading', { name: 'Sign in to Labdesk' }).waitFor();
    await p.getByLabel('Email').fill(credentials.adminEmail);
    await p.getByLabel('Password').fill(`${credentials.adminPassword}-wrong`);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
    // The form stays usable for another try.
    await expect.poll(() => p.getByRole('button', { name: 'Sign in' }).isEnabled(), { timeout: UI }).toBe(true);
    expect(await p.getByLabel('Email').inputValue()).toBe(credentials.adminEmail);
    await p.screenshot({ path: path.join(ARTIFACTS, 'login-error.png'), animations: 'disabled' });
    expect(p.url()).toContain('login');
    expect((await the(context, 'context').cookies()).some((c) => c.name === 'labdesk_session')).toBe(false);
  });

  it('signs in and lists users with their connected sources', async () => {
    const p = the(page, 'page');
    await p.getByLabel('Password').fill(credentials.adminPassword);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL(/#\/users/, { timeout: UI });

    const first = the(allUsers[0], 'first user');
    const firstRow = dataRows(p).filter({ hasText: first.client_user_id });
    await firstRow.waitFor();
    await expect.poll(() => dataRows(p).count(), { timeout: UI }).toBeGreaterThan(1);
    for (const source of first.connected_sources) {
      await firstRow.locator('.MuiChip-root').filter({ hasText: source.provider.name }).first().waitFor();
    }
    expect(await dataRows(p).locator('.MuiChip-root').count()).toBeGreaterThan(1);
    await p.screenshot({ path: path.join(ARTIFACTS, 'users-list.png'), animations: 'disabled' });
  });

  it('keeps the session in an HttpOnly cookie script cannot read', async () => {
    const p = the(page, 'page');
    const session = (await the(context, 'context').cookies()).find((c) => c.name === 'labdesk_session');
    expect(session, 'the BFF set no labdesk_session cookie').toBeDefined();
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    expect(await p.evaluate(() => document.cookie)).not.toContain('labdesk_session');
  });

  it('narrows the list to a client_user_id fragment', async () => {
    const p = the(page, 'page');
    const user = the(target, 'target');
    const before = await dataRows(p).count();
    await p.getByLabel('Search by client user id').fill(fragment);
    await expect.poll(() => dataRows(p).count(), { timeout: UI }).toBe(1);
    await dataRows(p).filter({ hasText: user.client_user_id }).waitFor();
    expect(before).toBeGreaterThan(1);
    expect(decodeURIComponent(p.url())).toContain(fragment);
  });

  it('opens the user: profile, connected sources and the mindfulness chart', async () => {
    const p = the(page, 'page');
    const user = the(target, 'target');
    const firstChart = mindfulnessResponse(p);
    await dataRows(p).filter({ hasText: user.client_user_id }).getByText(user.client_user_id).click();
    await p.waitForURL(new RegExp(`#/users/${user.user_id}/show`), { timeout: UI });

    await p.getByText(`User ${user.client_user_id}`).first().waitFor();
    await p.getByText('Profile', { exact: true }).waitFor();
    await p.getByText(user.user_id, { exact: true }).first().waitFor();
    await p.getByText(new RegExp(`^${user.fallback_time_zone?.id ?? ''} \\(from `)).waitFor();
    const sources = p.getByRole('list', { name: 'Connected sources' });
    for (const source of user.connected_sources) await sources.getByText(source.provider.name, { exact: true }).waitFor();

    const answer = (await (await firstChart).json()) as MindfulnessAnswer;
    expect(answer.days).toHaveLength(30);
    expect(answer.sessions).toBeGreaterThan(0);
    const card = p.getByRole('region', { name: 'Mindfulness minutes' });
    const figure = card.getByRole('figure', { name: 'Mindfulness minutes per day, stacked by provider' });
    await figure.locator('svg.recharts-surface').first().waitFor();
    await expect.poll(() => figure.locator('.recharts-bar-rectangle').count(), { timeout: UI }).toBeGreaterThan(0);
    const legend = figure.locator('.recharts-legend-item-text');
    await legend.first().waitFor();
    expect((await legend.allTextContents()).sort()).toEqual(answer.providers.map((x) => x.name).sort());
    await card.getByText(summaryOf(answer)).waitFor();
    await expect.poll(() => card.getByLabel('From').inputValue()).toBe(answer.start_date);
    expect(await card.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('redraws the chart for another date range preset', async () => {
    const p = the(page, 'page');
    const card = p.getByRole('region', { name: 'Mindfulness minutes' });
    const figure = card.getByRole('figure', { name: 'Mindfulness minutes per day, stacked by provider' });
    const barsBefore = await figure.locator('.recharts-bar-rectangle').count();

    const next = mindfulnessResponse(p);
    await card.getByRole('button', { name: '90 days' }).click();
    const res = await next;
    expect(res.status()).toBe(200);
    const answer = (await res.json()) as MindfulnessAnswer;
    expect(answer.days).toHaveLength(90);

    await card.getByText(summaryOf(answer)).waitFor();
    await expect.poll(() => card.getByLabel('From').inputValue()).toBe(answer.start_date);
    expect(await card.getByRole('button', { name: '90 days' }).getAttribute('aria-pressed')).toBe('true');
    const daysWithData = answer.days.filter((d) => d.total > 0).length;
    await expect.poll(() => figure.locator('.recharts-bar-rectangle').count(), { timeout: UI }).toBeGreaterThanOrEqual(daysWithData);
    expect(await figure.locator('.recharts-bar-rectangle').count()).toBeGreaterThanOrEqual(barsBefore);
    await p.screenshot({ path: path.join(ARTIFACTS, 'user-show.png'), fullPage: true, animations: 'disabled' });
  });

  it('never hands the service API key to the browser, and calls no other host', async () => {
    await Promise.all(responseChecks);
    expect(responseChecks.length).toBeGreaterThan(5);
    // The page itself, its scripts (the lazy chart chunk too) and the /api answers were all searched.
    expect(checkedBodies.filter((t) => t.includes('text/html')).length).toBeGreaterThan(0);
    expect(checkedBodies.filter((t) => t.includes('javascript')).length).toBeGreaterThan(1);
    expect(checkedBodies.filter((t) => t.includes('json')).length).toBeGreaterThan(3);
    expect(leaks).toEqual([]);
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    // The calls the dashboard made all went to the BFF's /api, and none failed besides the refused sign-in.
    const failures = apiStatuses.filter((s) => !/^2\d\d /.test(s) && !/^401 POST \/api\/auth\/login/.test(s) && !/^401 GET \/api\/auth\/me/.test(s));
    expect(failures).toEqual([]);
  });
});
