/**
 * End to end: a new team member's first day and last, in the real app (started once for the run by
 * globalSetup.ts), in Debian's Chromium, two people in two browsers: the admin adds a parser
 * reviewer (the generated password shown once); the reviewer signs in, sets up two-factor from the
 * account page, signs in again with a code, and sees only the review queue; the admin disables the
 * reviewer, and the reviewer's open page goes back to the sign-in page by itself.
 *
 * Run: `npx vitest run --project e2e test/e2e/staff.test.ts` (needs /usr/bin/chromium).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { currentCode } from '../../server/bff/auth/mfa';
import { ARTIFACTS, UI } from './app';
import { expectCleanWatch, openBrowser, stopAfterFirstFailure, type BrowserSession } from './browser';
import { the } from './support';

const shared = inject('e2eApp');
const credentials = shared.credentials;
const reviewerEmail = `reviewer.${randomBytes(3).toString('hex')}@labdesk.test`;

let adminBrowser: BrowserSession | undefined;
let reviewerBrowser: BrowserSession | undefined;
let admin: Page | undefined;
let reviewer: Page | undefined;
let password = '';
let secret = '';

async function signInAs(p: Page, email: string, pass: string) {
  await p.goto(`${shared.dashboardUrl}/`);
  await p.getByRole('heading', { name: 'Sign in to Labdesk' }).waitFor();
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill(pass);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

describe('staff and two-factor, end to end in Chromium', () => {
  beforeAll(async () => {
    adminBrowser = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    reviewerBrowser = await openBrowser(shared.dashboardUrl, credentials.demoApiKey);
    admin = adminBrowser.page;
    reviewer = reviewerBrowser.page;
  }, 120_000);

  stopAfterFirstFailure('staff', () => admin);

  afterAll(async () => {
    await adminBrowser?.close();
    await reviewerBrowser?.close();
  }, 60_000);

  it('the admin adds a parser reviewer and is shown the generated password once', async () => {
    const p = the(admin, 'admin page');
    await signInAs(p, credentials.adminEmail, credentials.adminPassword);
    await p.getByRole('menuitem', { name: 'Staff' }).click();
    await p.getByRole('cell', { name: credentials.adminEmail }).waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'staff-list.png'), fullPage: true, animations: 'disabled' });
    await p.getByRole('link', { name: /add staff member/i }).click();
    // The create form itself (the list's search box also says "e-mail", and may not be gone yet).
    await p.waitForURL(/#\/staff\/create/);
    await p.getByRole('textbox', { name: 'E-mail', exact: true }).fill(reviewerEmail);
    await p.getByRole('textbox', { name: 'Name', exact: true }).fill('Rosalind Franklin');
    await p.getByRole('combobox', { name: 'Role' }).click();
    await p.getByRole('option', { name: 'Parser reviewer' }).click();
    await expect.poll(() => p.getByRole('combobox', { name: 'Role' }).textContent()).toContain('Parser reviewer');
    await p.getByRole('button', { name: 'Save' }).click();
    const dialog = p.getByRole('dialog', { name: `Password for ${reviewerEmail}` });
    password = (await dialog.getByTestId('generated-password').textContent()) ?? '';
    expect(password).toMatch(/^[a-z2-9AB]{4}(-[a-z2-9AB]{4}){4}$/);
    await dialog.getByRole('button', { name: 'I have passed it on' }).click();
    await p.getByRole('cell', { name: reviewerEmail }).waitFor();
  });

  it('the reviewer signs in, lands on the overview and sets up two-factor from the QR code', async () => {
    const p = the(reviewer, 'reviewer page');
    await signInAs(p, reviewerEmail, password);
    await p.getByRole('region', { name: 'Lab reports awaiting review' }).waitFor();
    await p.getByRole('button', { name: /profile|Rosalind Franklin/i }).click();
    await p.getByRole('menuitem', { name: /your account/i }).click();
    await p.getByRole('button', { name: 'Set up two-factor' }).click();
    await p.getByRole('img', { name: /QR code/ }).waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'account-enrol-two-factor.png'), fullPage: true, animations: 'disabled' });
    secret = (await p.getByTestId('mfa-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The authenticator app: the same RFC 6238 computation a phone makes.
    await p.getByLabel('Code').fill(currentCode(secret));
    await p.getByRole('button', { name: 'Turn on two-factor' }).click();
    await p.getByText(/On: signing in asks for a code/).waitFor();
    await p.screenshot({ path: path.join(ARTIFACTS, 'account-two-factor.png'), fullPage: true, animations: 'disabled' });
  });

  it('signing in again asks for the code, then shows the reviewer only the review queue', async () => {
    const p = the(reviewer, 'reviewer page');
    await p.getByRole('button', { name: /profile|Rosalind Franklin/i }).click();
    await p.getByRole('menuitem', { name: 'Logout' }).click();
    await signInAs(p, reviewerEmail, password);
    const code = p.getByLabel('Authentication code');
    await code.waitFor();
    // The step after the one used to confirm: a code is good once.
    await code.fill(currentCode(secret, Date.now() + 30_000));
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('link', { name: 'Open the review queue' }).click();
    await p.getByRole('tab', { name: 'Review queue', selected: true }).waitFor();
    // Less a badge's count, if reports wait.
    const menu = (await p.getByRole('menuitem').allTextContents()).map((t) => t.replace(/\d+\+?$/, ''));
    expect(menu).toEqual(['Overview', 'Lab reports']);
  });

  it('the admin disables the reviewer, and the reviewer’s open page returns to the sign-in page by itself', async () => {
    const a = the(admin, 'admin page');
    await a.getByRole('cell', { name: reviewerEmail }).click();
    await a.getByRole('button', { name: 'Disable' }).click();
    await a.getByRole('button', { name: 'Confirm' }).click();
    await a.getByText('Disabled: this member cannot sign in.').waitFor();

    const p = the(reviewer, 'reviewer page');
    // No click on the reviewer's side: the dashboard notices the ended session on its own.
    await p.getByRole('heading', { name: 'Sign in to Labdesk' }).waitFor({ timeout: 25_000 });
    await signInAs(p, reviewerEmail, password);
    await p.getByText('Wrong email or password').waitFor({ timeout: UI });
  });

  it('never hands the service API key to either browser', async () => {
    for (const session of [adminBrowser, reviewerBrowser]) {
      await expectCleanWatch(the(session, 'browser').watch, false);
    }
  });
});
