/**
 * The browser side of the end-to-end flows: Debian's chromium through playwright-core, and a watch
 * on every page that collects what must never happen (the service API key reaching the browser,
 * requests to other hosts, uncaught page errors) so each flow can assert on it at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from 'playwright-core';
import { beforeEach, expect } from 'vitest';
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, UI } from './app';

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
  close(): Promise<void>;
}

/** Launches chromium with one page on the dashboard's origin, watched for leaks of `secret`. */
export async function openBrowser(origin: string, secret: string, contextOptions: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserSession> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-US', timezoneId: 'UTC', ...contextOptions });
  const page = await context.newPage();
  page.setDefaultTimeout(UI);
  const watch = new PageWatch(origin, secret);
  watch.attach(page);
  return {
    browser,
    context,
    page,
    watch,
    close: async () => {
      watch.closing = true;
      await browser.close().catch(() => {});
    },
  };
}

/** What a page did that the flow checks at the end: every response from the origin is searched for the secret. */
export class PageWatch {
  readonly responseChecks: Promise<void>[] = [];
  readonly leaks: string[] = [];
  readonly foreignRequests: string[] = [];
  readonly pageErrors: string[] = [];
  /** `200 GET /api/orders?...` for every /api answer. */
  readonly apiStatuses: string[] = [];
  /** Content types of the bodies searched (html, javascript, json, pdf...). */
  readonly checkedBodies: string[] = [];
  private readonly pendingChecks = new Set<string>();
  /** Responses that could not be searched (should stay empty). */
  readonly checkErrors: string[] = [];
  /** Set once the browser is closing: responses still arriving then cannot be read any more. */
  closing = false;
  private readonly requestListeners: ((req: Request) => void)[] = [];

  constructor(
    private readonly origin: string,
    private readonly secret: string,
  ) {}

  /** Calls `listener` with every request the page makes (e.g. to collect the form submissions). */
  onRequest(listener: (req: Request) => void) {
    this.requestListeners.push(listener);
  }

  attach(p: Page) {
    const { origin, secret } = this;
    p.on('pageerror', (err) => this.pageErrors.push(err.message));
    p.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) this.foreignRequests.push(url);
      if (JSON.stringify(req.headers()).includes(secret)) this.leaks.push(`request headers of ${url}`);
      for (const listener of this.requestListeners) listener(req);
    });
    p.on('response', (res: Response) => {
      const url = res.url();
      if (!url.startsWith(`${origin}/`)) return;
      if (url.includes('/api/')) this.apiStatuses.push(`${res.status()} ${res.request().method()} ${url.slice(origin.length)}`);
      const pending = `${res.request().method()} ${url.slice(origin.length)} (${res.status()})`;
      this.pendingChecks.add(pending);
      this.responseChecks.push(
        (async () => {
          const headers = JSON.stringify(await res.allHeaders());
          if (headers.includes(secret)) this.leaks.push(`response headers of ${url}`);
          if (res.status() >= 300 && res.status() < 400) return;
          const body = await res.body().catch(() => null); // a body may be gone after a navigation
          if (body === null) return;
          this.checkedBodies.push(res.headers()['content-type'] ?? '');
          if (body.toString('latin1').includes(secret)) this.leaks.push(`response body of ${url}`);
        })()
          .catch((err: unknown) => {
            if (!this.closing) this.checkErrors.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
          })
          .finally(() => this.pendingChecks.delete(pending)),
      );
    });
  }

  /** Waits until every response seen so far has been searched; one whose body never comes is named, not waited on forever. */
  async settled(timeoutMs = 30_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const p of this.pendingChecks) this.checkErrors.push(`no body after ${timeoutMs / 1000} s: ${p}`);
        resolve();
      }, timeoutMs);
    });
    await Promise.race([Promise.all(this.responseChecks), timeout]);
    clearTimeout(timer);
  }

  /**
   * /api answers that were not 2xx, leaving out those `expected` matches (e.g. the session probe's
   * 401) and an order page's "no results yet" (404 results_not_ready: the normal state of an open order).
   */
  apiFailures(expected: RegExp[] = [/^401 GET \/api\/auth\/me/]): string[] {
    const normal = [...expected, /^404 GET \/api\/orders\/[0-9a-f-]+\/results$/];
    return this.apiStatuses.filter((s) => !/^2\d\d /.test(s) && !normal.some((re) => re.test(s)));
  }
}

/**
 * What every flow asserts at its end, once the page has settled: the API key never reached the
 * browser, no other host was called, no page error was thrown, every response could be searched,
 * and (unless `expectedFailures` is `false`) no /api call failed besides the expected ones.
 */
export async function expectCleanWatch(watch: PageWatch, expectedFailures?: RegExp[] | false): Promise<void> {
  await watch.settled();
  expect(watch.checkErrors).toEqual([]);
  expect(watch.leaks).toEqual([]);
  expect(watch.foreignRequests).toEqual([]);
  expect(watch.pageErrors.join('\n')).toBe('');
  if (expectedFailures !== false) expect(watch.apiFailures(expectedFailures)).toEqual([]);
}

/** A wait started ahead of the action it waits for: when a step fails first, its rejection is not "unhandled". */
export function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * A flow is one story: once a step fails, the later ones would only time out on its consequences.
 * Skips them (but never the closing checks named `never hands…`, which judge what the browser saw
 * until then) and saves a screenshot of the page as it was when the step failed.
 */
export function stopAfterFirstFailure(flow: string, page: () => Page | undefined) {
  let broken = false;
  beforeEach((ctx) => {
    if (broken && !ctx.task.name.startsWith('never hands')) ctx.skip();
    ctx.onTestFailed(async () => {
      broken = true;
      await page()?.screenshot({ path: path.join(ARTIFACTS, `${flow}-failure.png`), fullPage: true }).catch(() => {});
    });
  });
}

/** Signs in through the dashboard's form, as a person does, and waits for the first page (the overview). */
export async function signIn(p: Page, origin: string, email: string, password: string) {
  await p.goto(`${origin}/`);
  await p.getByRole('heading', { name: 'Sign in to Labdesk' }).waitFor();
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByRole('heading', { name: 'What needs you' }).waitFor({ timeout: UI });
}
