/**
 * End to end: the real app (`server/main.ts`: supervisor, service, BFF, built dashboard, started once
 * for the run by globalSetup.ts on free ports with a fresh data directory), driven in Debian's
 * Chromium through playwright-core.
 *
 * Run: `npx vitest run --project e2e` (needs /usr/bin/chromium; no browser is ever downloaded).
 * Screenshots land in test/e2e/artifacts/.
 */
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GroupedTimeseriesResponse, PaginatedUsers, User } from '../../server/contract';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, type BrowserSession } from './browser';
import { the, serviceApi, uniqueFragment } from './support';


const shared = inject('e2eApp');
const credentials = shared.credentials;
const service = serviceApi(shared);

interface MindfulnessAnswer {
  start_date: string;
  end_date: string;
  providers: { slug: string; name: string }[];
  days: { date: string; total: number }[];
  sessions: number;
}

let browserSession: BrowserSession | undefined;
let page: Page | undefined;
let context: BrowserContext | undefined;

/** The demo team's users straight from the service (the test's own view, not the browser's). */
let allUsers: User[] = [];
let target: User | undefined;
let fragment = '';



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
    const page1 = await service.get<GroupedTimeseriesResponse>(
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
    const listing = await service.get<PaginatedUsers>('/v2/user?limit=500');
    allUsers = listing.users;
    target = await pickTarget(allUsers);
    fragment = uniqueFragment(target, allUsers);
    console.info(`e2e dashboard: searching "${fragment}" to find ${target.client_user_id}`);

    browserSession = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    ({ page, context } = browserSession);
  }, 300_000);

  afterAll(async () => {
    await browserSession?.close();
  }, 60_000);

  it('seeded a directory worth browsing', () => {
    expect(allUsers.length).toBeGreaterThanOrEqual(100);
    expect(the(target, 'target').connected_sources.length).toBeGreaterThan(0);
  });

  it('refuses a wrong password and says so', async () => {
    const p = the(page, 'page');
    await p.goto(`${shared.dashboardUrl}/`);
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
    // Sign-in lands on the overview; the users list is one menu item away.
    await p.getByRole('heading', { name: 'What needs you' }).waitFor({ timeout: UI });
    await p.getByRole('menuitem', { name: 'Users' }).click();
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
    await p.getByRole('region', { name: 'Profile' }).waitFor();
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
    const watch = the(browserSession, 'browser').watch;
    // The calls the dashboard made all went to the BFF's /api, and none failed besides the refused sign-in.
    await expectCleanWatch(watch, [/^401 POST \/api\/auth\/login/, /^401 GET \/api\/auth\/me/]);
    const { checkedBodies } = watch;
    expect(watch.responseChecks.length).toBeGreaterThan(5);
    // The page itself, its scripts (the lazy chart chunk too) and the /api answers were all searched.
    expect(checkedBodies.filter((t) => t.includes('text/html')).length).toBeGreaterThan(0);
    expect(checkedBodies.filter((t) => t.includes('javascript')).length).toBeGreaterThan(1);
    expect(checkedBodies.filter((t) => t.includes('json')).length).toBeGreaterThan(3);
  });
});
