/**
 * How fast the dashboard comes up (issue 14's dashboard item): the JavaScript the first page
 * downloads, the time from navigation to the first rows of the users list in Chromium with a cold
 * cache (and, for comparison, a warm one), and Lighthouse's desktop preset on that page, signed in.
 *
 *   npm run build && node --import tsx bench/dashboard.ts
 *   BENCH_RUNS=7 BENCH_LIGHTHOUSE=0 node --import tsx bench/dashboard.ts
 *   BENCH_URL=http://127.0.0.1:3400 BENCH_EMAIL=... BENCH_PASSWORD=... node --import tsx bench/dashboard.ts
 *
 * It starts the app the way `npm start` (and the end-to-end suite) does, on free ports with a fresh
 * DATA_DIR, and stops it at the end. It measures the build in dist/ as it is (building only when there
 * is none): rebuild after changing src/. `benchDashboard()` returns the figures for a caller that
 * prints its own report (a one-command `npm run bench`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, ensureDashboardBuilt, freePort, startApp, type RunningApp } from '../test/e2e/app';

export interface ServedFile {
  url: string;
  /** Bytes on the wire for a client that accepts no encoding, gzip only, and brotli. */
  identity: number;
  gzip: number;
  brotli: number;
}

interface InitialJs {
  files: ServedFile[];
  identity: number;
  gzip: number;
  brotli: number;
}

export interface DashboardFigures {
  /** What index.html loads before anything else, its module script and its modulepreloads: on the way to the sign-in page. */
  initialJs: InitialJs;
  /** The same for a signed-in member (the BFF adds the preload of the views' shared file: server/bff/indexHtml.ts). */
  initialJsSignedIn: InitialJs;
  /** Milliseconds from navigation start to the first rows of the users list being painted. */
  firstRows: { coldRunsMs: number[]; coldMedianMs: number; warmRunsMs: number[]; warmMedianMs: number };
  /** Chromium's own paint timings in the cold runs (medians, ms). */
  coldPaints: { fcpMs: number; lcpMs: number };
  /** The median cold run's requests up to the first rows, and its round trips in sequence. */
  coldWaterfall: Waterfall & { detail: PageRequest[] };
  lighthouse: LighthouseFigures | { error: string } | null;
}

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  clsScore: number;
  unusedJsKiB: number;
}

export interface BenchOptions {
  /** Cold loads measured (a fresh browser context each: empty cache). Default 5. */
  runs?: number;
  /** Run Lighthouse too (about 30 s). Default true. */
  lighthouse?: boolean;
  log?: (line: string) => void;
  /** Measure an app that is already running (its dashboard URL and an admin's sign-in) instead of starting one. */
  running?: { url: string; email: string; password: string };
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** GET with a chosen Accept-Encoding; the body's bytes as they came over the wire (not decoded). */
function getRaw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The initial JavaScript as the BFF serves it to each kind of client; `cookie` (`name=value`): signed in. */
export async function measureInitialJs(origin: string, cookie?: string): Promise<InitialJs> {
  const html = (await getRaw(`${origin}/`, cookie ? { cookie } : {})).body.toString('utf8');
  const urls = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1]!);
  const files: ServedFile[] = [];
  for (const url of urls) {
    const sizes: number[] = [];
    for (const [accept, decode] of [
      ['identity', (b: Buffer) => b],
      ['gzip', (b: Buffer) => zlib.gunzipSync(b)],
      ['br', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ] as const) {
      const r = await getRaw(`${origin}${url}`, { 'accept-encoding': accept });
      if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
      const encoding = r.headers['content-encoding'];
      // A file small enough to go out uncompressed is counted as it went.
      const body = encoding === undefined ? r.body : decode(r.body);
      if (body.length === 0) throw new Error(`${url} came back empty`);
      sizes.push(r.body.length);
    }
    files.push({ url, identity: sizes[0]!, gzip: sizes[1]!, brotli: sizes[2]! });
  }
  const sum = (k: 'identity' | 'gzip' | 'brotli') => files.reduce((a, f) => a + f[k], 0);
  return { files, identity: sum('identity'), gzip: sum('gzip'), brotli: sum('brotli') };
}

/** Signs in through the BFF's API; the session cookie (`name=value`). */
export async function signIn(origin: string, email: string, password: string): Promise<{ name: string; value: string }> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('labdesk_session='));
  if (!cookie) throw new Error('sign-in set no labdesk_session cookie');
  const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
  return { name, value };
}

/**
 * Installed before the page's own scripts: notes when the first data row of a list is in the DOM,
 * then the next frame (it has been painted by then), plus Chromium's FCP and LCP. A string, not a
 * function: tsx's compiled functions call helpers the page does not have.
 */
const PAGE_PROBE = `
  window.__bench = {};
  const seen = () => {
    // A row with text: react-admin's loading placeholder is a table of empty skeleton rows.
    if (window.__bench.rowsMs !== undefined) return false;
    const row = [...document.querySelectorAll('table tbody tr')].find((tr) => tr.textContent.trim() !== '');
    if (!row) return false;
    requestAnimationFrame(() => {
      if (window.__bench.rowsMs !== undefined) return;
      window.__bench.rowsMs = performance.now();
      // What was fetched before the rows were painted (its timings: CPU-independent facts).
      window.__bench.requests = performance.getEntriesByType('resource')
        .filter((e) => e.startTime < window.__bench.rowsMs)
        .map((e) => ({ url: e.name, start: e.startTime, end: e.responseEnd, bytes: e.transferSize, initiator: e.initiatorType }));
      const nav = performance.getEntriesByType('navigation')[0];
      window.__bench.document = nav ? { start: nav.startTime, end: nav.responseEnd } : undefined;
    });
    return true;
  };
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__bench.fcpMs = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1);
    if (last) window.__bench.lcpMs = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** One request the page made before its first rows were painted (Resource Timing, ms from navigation). */
export interface PageRequest {
  url: string;
  start: number;
  end: number;
  /** Bytes over the wire (0 when it came from the HTTP cache). */
  bytes: number;
  initiator: string;
}

interface LoadTiming {
  rowsMs: number;
  fcpMs: number;
  lcpMs: number;
  /** The document itself first, then every request started before the rows were painted. */
  requests: PageRequest[];
}

/**
 * The most requests of a load that ran one after another, each starting only after the previous one
 * had its answer: the round trips in sequence on the way to the first rows. Earliest-ending first
 * (interval scheduling) finds the longest such chain. A machine's speed moves the times, not this count.
 */
export function sequentialRoundTrips(requests: PageRequest[]): PageRequest[] {
  const chain: PageRequest[] = [];
  for (const r of [...requests].sort((a, b) => a.end - b.end)) {
    if (chain.length === 0 || r.start >= chain[chain.length - 1]!.end) chain.push(r);
  }
  return chain;
}

export interface Waterfall {
  requests: number;
  /** Of which JavaScript files (the shell's and the lazy chunks'). */
  scripts: number;
  /** Of which calls to the BFF's /api. */
  api: number;
  bytes: number;
  /** The chain sequentialRoundTrips() finds, by path. */
  sequential: string[];
}

function waterfall(requests: PageRequest[]): Waterfall {
  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  return {
    requests: requests.length,
    scripts: requests.filter((r) => /\.js(\?|$)/.test(new URL(r.url).pathname)).length,
    api: requests.filter((r) => new URL(r.url).pathname.startsWith('/api/')).length,
    bytes: requests.reduce((a, r) => a + r.bytes, 0),
    sequential: sequentialRoundTrips(requests).map((r) => pathOf(r.url)),
  };
}

export async function loadUsersList(browser: Browser, origin: string, cookie: { name: string; value: string }, runs: number) {
  const cold: LoadTiming[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    // A fresh context: no HTTP cache, no storage; only the session cookie.
    const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, locale: 'en-US', timezoneId: 'UTC' });
    try {
      await context.addCookies([{ ...cookie, url: origin, httpOnly: true, sameSite: 'Strict' }]);
      await context.addInitScript({ content: PAGE_PROBE });
      const page = await context.newPage();
      const measure = async (): Promise<LoadTiming> => {
        await page.goto(`${origin}/#/users`, { waitUntil: 'commit' });
        // Anonymous arrows only: a string would be eval'd (the CSP forbids it), a named function gets
        // a tsx helper the page lacks.
        await page.waitForFunction(() => (window as unknown as { __bench?: { rowsMs?: number } }).__bench?.rowsMs !== undefined, null, { timeout: 60_000 });
        // LCP settles once the page stops adding content; give it a moment after the rows.
        await page.waitForTimeout(300);
        const b = await page.evaluate(
          () =>
            (window as unknown as {
              __bench: { rowsMs: number; fcpMs?: number; lcpMs?: number; requests: PageRequest[]; document?: { start: number; end: number } };
            }).__bench,
        );
        const document = { url: `${origin}/`, start: b.document?.start ?? 0, end: b.document?.end ?? 0, bytes: 0, initiator: 'navigation' };
        return { rowsMs: b.rowsMs, fcpMs: b.fcpMs ?? NaN, lcpMs: b.lcpMs ?? NaN, requests: [document, ...b.requests] };
      };
      cold.push(await measure());
      // The same context again: the hashed assets come from the cache without asking the server.
      await page.goto('about:blank');
      warm.push((await measure()).rowsMs);
    } finally {
      await context.close();
    }
  }
  return { cold, warm };
}

/** Debian's chromium with a DevTools port, for Lighthouse (which drives it over CDP itself). */
async function launchDebuggableChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-lh-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, '--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--window-size=1350,940', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`chromium did not open its DevTools port: ${stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function runLighthouse(origin: string, cookie: { name: string; value: string }): Promise<LighthouseFigures> {
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const chrome = await launchDebuggableChromium();
  try {
    const result = await lighthouse(
      `${origin}/#/users`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        // Signed in: the session cookie on every request (Lighthouse clears the origin's storage,
        // cookies included, before it loads the page, so a cookie set beforehand would be gone).
        extraHeaders: { Cookie: `${cookie.name}=${cookie.value}` },
      },
      desktopConfig,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const unused = lhr.audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
    const finalUrl = lhr.finalDisplayedUrl;
    if (!finalUrl.includes('#/users')) throw new Error(`Lighthouse ended on ${finalUrl}, not the users list (not signed in?)`);
    return {
      performance: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? NaN) * 100),
      fcpMs: audit('first-contentful-paint'),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      speedIndexMs: audit('speed-index'),
      clsScore: audit('cumulative-layout-shift'),
      unusedJsKiB: (unused?.overallSavingsBytes ?? 0) / 1024,
    };
  } finally {
    await chrome.stop();
  }
}

export async function benchDashboard(opts: BenchOptions = {}): Promise<DashboardFigures> {
  const runs = opts.runs ?? 5;
  const log = opts.log ?? (() => {});
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}`);
  if (!opts.running) ensureDashboardBuilt();
  const credentials = {
    adminEmail: 'bench.admin@labdesk.test',
    adminPassword: `Bench-${randomBytes(12).toString('base64url')}`,
    demoApiKey: `bench_demo_${randomBytes(24).toString('hex')}`,
    sessionSecret: randomBytes(48).toString('base64url'),
  };
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  try {
    let origin: string;
    if (opts.running) {
      origin = opts.running.url.replace(/\/$/, '');
      credentials.adminEmail = opts.running.email;
      credentials.adminPassword = opts.running.password;
    } else {
      log('starting the app (service + BFF, fresh DATA_DIR; the first start seeds the demo team)...');
      app = await startApp(credentials, 300_000);
      origin = app.dashboardUrl;
      log(`app up at ${origin}`);
    }
    const initialJs = await measureInitialJs(origin);
    const cookie = await signIn(origin, credentials.adminEmail, credentials.adminPassword);
    const initialJsSignedIn = await measureInitialJs(origin, `${cookie.name}=${cookie.value}`);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // One load first, not counted: the BFF's and the service's first answers (JIT, statement caches).
    await loadUsersList(browser, origin, cookie, 1);
    log(`measuring ${runs} cold loads of the users list...`);
    const { cold, warm } = await loadUsersList(browser, origin, cookie, runs);
    await browser.close();
    browser = undefined;

    const medianRun = [...cold].sort((a, b) => a.rowsMs - b.rowsMs)[Math.floor((cold.length - 1) / 2)]!;

    let lighthouse: DashboardFigures['lighthouse'] = null;
    if (opts.lighthouse ?? true) {
      log('running Lighthouse (desktop preset, signed in, the users list)...');
      try {
        lighthouse = await runLighthouse(origin, cookie);
      } catch (err) {
        lighthouse = { error: err instanceof Error ? err.message : String(err) };
      }
    }
    return {
      initialJs,
      initialJsSignedIn,
      firstRows: {
        coldRunsMs: cold.map((t) => Math.round(t.rowsMs)),
        coldMedianMs: Math.round(median(cold.map((t) => t.rowsMs))),
        warmRunsMs: warm.map((t) => Math.round(t)),
        warmMedianMs: Math.round(median(warm)),
      },
      coldPaints: { fcpMs: Math.round(median(cold.map((t) => t.fcpMs))), lcpMs: Math.round(median(cold.map((t) => t.lcpMs))) },
      coldWaterfall: { ...waterfall(medianRun.requests), detail: medianRun.requests },
      lighthouse,
    };
  } finally {
    await browser?.close().catch(() => {});
    await app?.stop();
  }
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;

/** `waterfallDetail`: also every request of the median cold run, with its start and end. */
export function formatDashboardFigures(f: DashboardFigures, waterfallDetail = false): string {
  const lines = [
    '## Dashboard',
    `initial JS, signed out (${f.initialJs.files.length} files): ${kb(f.initialJs.identity)} raw, ${kb(f.initialJs.gzip)} gzip, ${kb(f.initialJs.brotli)} brotli (as served)`,
    ...f.initialJs.files.map((x) => `  ${x.url}: ${kb(x.identity)} raw, ${kb(x.gzip)} gzip, ${kb(x.brotli)} brotli`),
    `initial JS, signed in (${f.initialJsSignedIn.files.length} files, with the views' shared file preloaded): ${kb(f.initialJsSignedIn.identity)} raw, ${kb(f.initialJsSignedIn.gzip)} gzip, ${kb(f.initialJsSignedIn.brotli)} brotli`,
    `users list, first rows painted (cold cache): median ${f.firstRows.coldMedianMs} ms  [${f.firstRows.coldRunsMs.join(', ')}]`,
    `users list, first rows painted (warm cache): median ${f.firstRows.warmMedianMs} ms  [${f.firstRows.warmRunsMs.join(', ')}]`,
    `cold loads, Chromium's paint timings: FCP ${f.coldPaints.fcpMs} ms, LCP ${f.coldPaints.lcpMs} ms (medians)`,
    `median cold load, before the first rows: ${f.coldWaterfall.requests} requests (${f.coldWaterfall.scripts} JS, ${f.coldWaterfall.api} /api), ` +
      `${kb(f.coldWaterfall.bytes)} received; ${f.coldWaterfall.sequential.length} round trips in sequence: ${f.coldWaterfall.sequential.join(' -> ')}`,
  ];
  if (waterfallDetail) {
    const short = (url: string) => {
      const u = new URL(url);
      return (u.pathname + u.search).slice(0, 90);
    };
    for (const r of f.coldWaterfall.detail)
      lines.push(`  ${String(Math.round(r.start)).padStart(5)} -> ${String(Math.round(r.end)).padStart(5)} ms  ${kb(r.bytes).padStart(9)}  ${short(r.url)}`);
  }
  const lh = f.lighthouse;
  if (lh && 'error' in lh) lines.push(`Lighthouse: failed: ${lh.error}`);
  else if (lh)
    lines.push(
      `Lighthouse (desktop, signed in, /#/users): performance ${lh.performance}, accessibility ${lh.accessibility}; ` +
        `FCP ${Math.round(lh.fcpMs)} ms, LCP ${Math.round(lh.lcpMs)} ms, TBT ${Math.round(lh.tbtMs)} ms, ` +
        `Speed Index ${Math.round(lh.speedIndexMs)} ms, CLS ${lh.clsScore.toFixed(3)}, unused JS ${lh.unusedJsKiB.toFixed(0)} KiB`,
    );
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.chdir(repoRoot);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const { BENCH_URL, BENCH_EMAIL, BENCH_PASSWORD } = process.env;
  const running = BENCH_URL && BENCH_EMAIL && BENCH_PASSWORD ? { url: BENCH_URL, email: BENCH_EMAIL, password: BENCH_PASSWORD } : undefined;
  console.log(`load average at the start: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const figures = await benchDashboard({ runs, running, lighthouse: process.env.BENCH_LIGHTHOUSE !== '0', log: (l) => console.error(l) });
  console.log(`load average at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(formatDashboardFigures(figures, process.env.BENCH_WATERFALL === '1'));
  if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(figures, null, 2));
}
