/**
 * `npm run bench`: where the time goes, in one table.
 *
 * Starts Labdesk as `npm start` runs it (bench/lib/stack.ts) on the embedded store and, when
 * BENCH_DATABASE_URL names a PostgreSQL server, again on a fresh database there; measures each
 * endpoint with autocannon against a bare node:http server answering a fixed 2 KB JSON (the
 * ceiling, measured in the same run), and prints req/s, p50, p99 and the ratio to the ceiling, the
 * BFF's ratio to the service, page N against page 1 of a cursor resource, 200 concurrent mixed GETs,
 * the service's resident memory, the first start (migrations + demo seed), the bulk import's rows
 * per second, and the dashboard: its initial JavaScript, the first rows of the users list after a
 * cold load in Chromium and Lighthouse's desktop score (bench/dashboard.ts, on the embedded store).
 * Figures, never pass/fail; see docs/performance.md.
 *
 *   npm run bench
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 *
 * BENCH_DURATION seconds per target (default 8, after BENCH_WARMUP seconds, default 2, of warm-up on the same
 * connections: req/s, p50 and p99 count only requests sent after it; each connection's first answer is
 * the "connection burst" column), BENCH_CONNECTIONS (default 20),
 * BENCH_MIXED_CONNECTIONS (default 200), BENCH_JSON=file to also write the figures as JSON,
 * BENCH_DASHBOARD=0 to leave the dashboard out, BENCH_LIGHTHOUSE=0 to leave Lighthouse out,
 * BENCH_IMPORT_POINTS (default 100,000) for the import. BENCH_TARGETS=mixed,users,… measures only
 * the named targets (users, timeseries, page, orders, availability, bff: the BFF's users list, orders
 * list and a user's page, each with the BFF's CPU ms per answer from /proc, mixed; `import` and
 * `dashboard` add those), to iterate on one figure (BENCH_ONLY is the same); BENCH_STORES=postgres (or embedded) one store.
 * The mixed target is followed by its per-endpoint latencies (bench/lib/breakdown.ts) unless
 * BENCH_BREAKDOWN=0. BENCH_SERVICE_VARIANTS='{"before":{"X":"1"},"after":{}}' starts the service once
 * per variant with that extra environment and labels its rows, to compare settings in one run.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { formatTable, measure, setting, type LoadRequest, type Measured, type Target } from './lib/load';
import { cpuMilliseconds, residentMemory, signIn, startStack, type Stack } from './lib/stack';
import { benchDashboard, formatDashboardFigures, type DashboardFigures } from './dashboard';
import { benchImportTimeseries, type ImportBenchResult } from './importTimeseries';
import { mixBreakdown, type EndpointLatency } from './lib/breakdown';
import { indexPages } from '../server/bff/indexHtml';

const DURATION = setting('BENCH_DURATION', 8);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 20);
const MIXED_CONNECTIONS = setting('BENCH_MIXED_CONNECTIONS', 200);
const root = fileURLToPath(new URL('..', import.meta.url));
/** BENCH_TARGETS (or its other name BENCH_ONLY): the targets to measure (all when unset). */
const targetList = process.env.BENCH_TARGETS ?? process.env.BENCH_ONLY;
const ONLY = targetList ? new Set(targetList.split(',').map((t) => t.trim()).filter(Boolean)) : null;
const wanted = (key: string) => !ONLY || ONLY.has(key);
const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const breakdowns: { store: string; rps: number; endpoints: EndpointLatency[]; perConnection: { min: number; median: number; max: number } }[] = [];

interface Row extends Measured {
  store: string;
  name: string;
  connections: number;
  /** The service's CPU milliseconds (all its processes) per answer of the run, warm-up included. */
  serviceCpuPerRequest?: number;
  /** The BFF's CPU milliseconds per answer (BFF targets): what the BFF itself costs a request. */
  bffCpuPerRequest?: number;
  /** What this row is compared with besides the ceiling (the BFF with the service, page N with page 1). */
  against?: { label: string; rps: number };
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url.replace(/\?.*/, '')} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** The ceiling server, in a process of its own. */
async function startCeiling(): Promise<{ origin: string; bytes: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./lib/ceilingServer.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString()));
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (${code})`)));
  });
  const { port, bytes } = JSON.parse(line) as { port: number; bytes: number };
  return { origin: `http://127.0.0.1:${port}`, bytes, stop: () => child.kill('SIGTERM') };
}

type GroupedPage = { groups: Record<string, { data: unknown[] }[]>; next_cursor: string | null };
const pointsOf = (page: GroupedPage) => Object.values(page.groups).reduce((n, gs) => n + gs.reduce((m, g) => m + g.data.length, 0), 0);
const isoDate = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10);

/**
 * Requests the previous target left behind keep the server busy after the load generator stopped
 * counting: wait until a health check answers quickly again, so each target starts on a quiet server.
 */
async function settle(origin: string) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const began = performance.now();
    await fetch(`${origin}/healthz`).catch(() => undefined);
    if (performance.now() - began < 20) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Waits for the demo reports the first start queued to be read, so they do not share the measured CPU. */
async function waitForParsing(stack: Stack, headers: Record<string, string>, log: (s: string) => void) {
  const began = Date.now();
  for (;;) {
    const q = await json<{ queued: number; parsing: number }>(`${stack.serviceUrl}/lab_report/v1/parser/queue`, { headers });
    if (q.queued + q.parsing === 0) break;
    if (Date.now() - began > 600_000) {
      log(`parsing still busy after 600 s (${q.queued} queued, ${q.parsing} parsing): measuring anyway`);
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(`the seeded reports were read ${((Date.now() - began) / 1000).toFixed(0)} s after the service was healthy`);
}

async function benchStore(stack: Stack, store: string, log: (s: string) => void): Promise<{ rows: Row[]; memory: { self: number; tree: number } }> {
  const headers = { 'x-service-api-key': stack.apiKey };
  await waitForParsing(stack, headers, log);

  // Find the users with the most six-month history (the heaviest pages) through the API itself.
  const { users } = await json<{ users: { user_id: string }[] }>(`${stack.serviceUrl}/v2/user/?limit=500`, { headers });
  const sixMonths = isoDate(182);
  const sizes: { userId: string; points: number; hasNextPage: boolean }[] = [];
  for (const { user_id } of users.slice(0, 120)) {
    const page = await json<GroupedPage>(`${stack.serviceUrl}/v2/timeseries/${user_id}/mindfulness_minutes/grouped?start_date=${sixMonths}`, { headers });
    sizes.push({ userId: user_id, points: pointsOf(page), hasNextPage: Boolean(page.next_cursor) });
  }
  // Users whose history runs past the first page first, then by the points of that page.
  sizes.sort((a, b) => Number(b.hasNextPage) - Number(a.hasNextPage) || b.points - a.points);
  const heavy = sizes[0]!.userId;
  const timeseriesPath = `/v2/timeseries/${heavy}/mindfulness_minutes/grouped?start_date=${sixMonths}`;

  // Page N of the heavy user's cursor walk (as far as it goes, at most 20), and page 1.
  let pagePath = timeseriesPath;
  let pageNumber = 1;
  for (; pageNumber < 20; pageNumber++) {
    const page = await json<GroupedPage>(`${stack.serviceUrl}${pagePath}`, { headers });
    if (!page.next_cursor) break;
    pagePath = `${timeseriesPath}&next_cursor=${encodeURIComponent(page.next_cursor)}`;
  }

  const cookie = await signIn(stack);
  const bffHeaders = { cookie };
  const availabilityBody = JSON.stringify({ first_line: '1 Main St', city: 'Denver', state: 'CO', zip_code: '80202' });
  const one = (path: string, h: Record<string, string> = headers): LoadRequest[] => [{ path, headers: h }];
  const targets: (Target & { key: string; against?: string })[] = [
    { key: 'users', name: 'service GET /v2/user/?limit=25', origin: stack.serviceUrl, requests: one('/v2/user/?limit=25'), connections: CONNECTIONS },
    { key: 'timeseries', name: 'service grouped timeseries (6 months, page 1)', origin: stack.serviceUrl, requests: one(timeseriesPath), connections: CONNECTIONS },
    {
      key: 'page',
      name: `service grouped timeseries, page ${pageNumber}`,
      origin: stack.serviceUrl,
      requests: one(pagePath),
      connections: CONNECTIONS,
      against: 'service grouped timeseries (6 months, page 1)',
    },
    { key: 'orders', name: 'service GET /v3/orders?size=25', origin: stack.serviceUrl, requests: one('/v3/orders?page=1&size=25'), connections: CONNECTIONS },
    {
      key: 'availability',
      name: 'service POST availability (14 days)',
      origin: stack.serviceUrl,
      requests: [{ method: 'POST', path: '/v3/order/phlebotomy/appointment/availability', headers: { ...headers, 'content-type': 'application/json' }, body: availabilityBody }],
      connections: CONNECTIONS,
    },
    {
      key: 'bff',
      name: 'BFF GET /api/users?range=[0,24]',
      origin: stack.bffUrl,
      requests: one(`/api/users?range=${encodeURIComponent('[0,24]')}`, bffHeaders),
      connections: CONNECTIONS,
      against: 'service GET /v2/user/?limit=25',
    },
    {
      key: 'bff',
      name: 'BFF GET /api/orders?range=[0,24]',
      origin: stack.bffUrl,
      requests: one(`/api/orders?range=${encodeURIComponent('[0,24]')}`, bffHeaders),
      connections: CONNECTIONS,
      against: 'service GET /v3/orders?size=25',
    },
    {
      key: 'bff',
      name: "BFF GET /api/users/:id (a user's page)",
      origin: stack.bffUrl,
      requests: one(`/api/users/${users[0]!.user_id}`, bffHeaders),
      connections: CONNECTIONS,
    },
    {
      key: 'mixed',
      name: `${MIXED_CONNECTIONS} concurrent mixed GETs`,
      origin: stack.serviceUrl,
      requests: [
        ...one('/v2/user/?limit=25'),
        ...one('/v3/orders?page=1&size=25'),
        ...sizes.slice(0, 6).flatMap((s) => one(`/v2/timeseries/${s.userId}/mindfulness_minutes/grouped?start_date=${isoDate(90)}`)),
      ],
      connections: MIXED_CONNECTIONS,
    },
  ];
  const rows: Row[] = [];
  for (const t of targets.filter((t) => wanted(t.key))) {
    await settle(t.origin);
    log(`${store}: ${t.name}… (load average ${loadAverage()})`);
    // A BFF target costs both processes: the service's CPU per answer counts its upstream calls.
    const throughBff = t.origin === stack.bffUrl;
    const cpuBefore = { service: cpuMilliseconds(stack.servicePid), bff: throughBff ? cpuMilliseconds(stack.bffPid) : 0 };
    const m = await measure(t, DURATION);
    const perAnswer = (ms: number) => (m.answeredInRun === 0 ? undefined : ms / m.answeredInRun);
    const serviceCpuPerRequest = perAnswer(cpuMilliseconds(stack.servicePid) - cpuBefore.service);
    const bffCpuPerRequest = throughBff ? perAnswer(cpuMilliseconds(stack.bffPid) - cpuBefore.bff) : undefined;
    const against = t.against ? rows.find((r) => r.name === t.against) : undefined;
    rows.push({ ...m, store, name: t.name, connections: t.connections, serviceCpuPerRequest, bffCpuPerRequest, against: against && { label: t.against!, rps: against.rps } });
    if (t.key === 'mixed' && process.env.BENCH_BREAKDOWN !== '0') {
      await settle(t.origin);
      log(`${store}: ${t.name}, per endpoint… (load average ${loadAverage()})`);
      const b = await mixBreakdown(t.origin, t.requests, t.connections, DURATION);
      breakdowns.push({ store, rps: b.rps, endpoints: [b.all, ...b.endpoints, b.firstRequests], perConnection: b.perConnection });
    }
  }
  return { rows, memory: residentMemory(stack.servicePid) };
}

/**
 * The dashboard's initial JavaScript: what index.html loads before anything else, raw and gzip, as
 * the BFF sends it to a browser without a session (the sign-in page; server/bff/indexHtml.ts).
 */
function initialJs(): { raw: number; gzip: number; files: number } {
  const index = path.join(root, 'dist', 'index.html');
  if (!fs.existsSync(index)) {
    const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
    spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  }
  const html = indexPages(fs.readFileSync(index, 'utf8')).signedOut;
  const files = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => m[1]!);
  let raw = 0;
  let gzip = 0;
  for (const f of new Set(files)) {
    const body = fs.readFileSync(path.join(root, 'dist', f.replace(/^\//, '')));
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip, files: new Set(files).size };
}

const fixed = (n: number, d: number) => n.toFixed(d);
/** The connection burst: each connection's first answer (its request sent as it opened), apart from the p50/p99 of open connections. */
const burst = (m: Measured) => `${fixed(m.firstRequests.p50, 0)} / ${fixed(m.firstRequests.max, 0)}`;
/** Answers above this are also compared with a bare server answering as many bytes. */
const LARGE_ANSWER = 8 * 1024;
/** Sizes rounded to 8 KiB, so the order pages of both stores share one sized ceiling. */
const kibOf = (bytes: number) => Math.max(8, Math.round(bytes / 1024 / 8) * 8);

async function main() {
  const began = Date.now();
  const log = (s: string) => console.log(`  ${s}`);
  console.log(`Labdesk bench: ${CONNECTIONS} connections, ${DURATION} s per target after 2 s of warm-up`);
  console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadAverage()}`);
  const ceiling = await startCeiling();
  const ceilingTarget: Target = { name: 'ceiling', origin: ceiling.origin, requests: [{ path: '/' }], connections: CONNECTIONS };
  const ceilings: Measured[] = [];
  const sizedCeilings = new Map<number, Measured>();
  const rows: Row[] = [];
  const starts: { store: string; seconds: number; memory: { self: number; tree: number } }[] = [];
  const imports: ImportBenchResult[] = [];
  let dashboard: DashboardFigures | null = null;
  try {
    log('ceiling: bare node:http, fixed 2 KB JSON…');
    ceilings.push(await measure(ceilingTarget, DURATION));
    const stores: (string | undefined)[] = [undefined, process.env.BENCH_DATABASE_URL].filter(
      (s, i) => (i === 0 || s) && (!process.env.BENCH_STORES || process.env.BENCH_STORES.includes(i === 0 ? 'embedded' : 'postgres')),
    );
    // BENCH_SERVICE_VARIANTS: the service started once per variant, with that variant's extra
    // environment, so a setting is compared with another in one run ({"": {}} when unset).
    const variants = Object.entries(JSON.parse(process.env.BENCH_SERVICE_VARIANTS ?? '{"":{}}') as Record<string, Record<string, string>>);
    for (const [databaseUrl, [variant, serviceEnv]] of stores.flatMap((d) => variants.map((v) => [d, v] as const))) {
      log(`starting Labdesk on ${databaseUrl ? 'PostgreSQL' : 'the embedded store'}${variant ? ` (${variant})` : ''} (first start: migrations and the demo seed)…`);
      const stack = await startStack({ databaseUrl, log, serviceEnv });
      const label = variant ? `${stack.store} ${variant}` : stack.store;
      try {
        const result = await benchStore(stack, label, log);
        rows.push(...result.rows);
        starts.push({ store: label, seconds: stack.firstStartSeconds, memory: result.memory });
        if (!databaseUrl && process.env.BENCH_DASHBOARD !== '0' && wanted('dashboard')) {
          log('the dashboard: initial JS, first rows after a cold load, Lighthouse…');
          dashboard = await benchDashboard({
            running: { url: stack.bffUrl, email: stack.staff.email, password: stack.staff.password },
            lighthouse: process.env.BENCH_LIGHTHOUSE !== '0',
            log,
          });
        }
      } finally {
        await stack.stop();
      }
      if (!wanted('import')) continue;
      log(`bulk import of timeseries on ${databaseUrl ? 'PostgreSQL' : 'the embedded store'}…`);
      imports.push(await benchImportTimeseries({ databaseUrl, points: setting('BENCH_IMPORT_POINTS', 100_000) }));
    }
    // Large answers (an order page) are bounded by writing their bytes: their own ceiling is the
    // bare server answering a body of the same size.
    for (const kib of new Set(rows.filter((r) => r.answerBytes > LARGE_ANSWER).map((r) => kibOf(r.answerBytes)))) {
      log(`ceiling for ${kib} KiB answers…`);
      sizedCeilings.set(kib, await measure({ ...ceilingTarget, name: `ceiling ${kib} KiB`, requests: [{ path: `/bytes/${kib * 1024}` }] }, DURATION));
    }
    log('ceiling again, to see how the machine drifted…');
    ceilings.push(await measure(ceilingTarget, DURATION));
  } finally {
    ceiling.stop();
  }
  const ceilingRps = ceilings.reduce((n, c) => n + c.rps, 0) / ceilings.length;
  const js = initialJs();

  console.log('');
  console.log(
    formatTable(
      ['store', 'target', 'conns', 'answer KiB', 'req/s', 'p50 ms', 'p99 ms', 'vs ceiling', 'vs same-size ceiling', 'vs', 'failed', 'unanswered', 'connection burst p50 / max ms', 'service CPU ms/req', 'BFF CPU ms/req'],
      [
        ...ceilings.map((c, i) => ['-', `ceiling: node:http, 2 KB JSON (${i === 0 ? 'start' : 'end'})`, String(CONNECTIONS), fixed(c.answerBytes / 1024, 1), fixed(c.rps, 0), fixed(c.p50, 0), fixed(c.p99, 0), `${fixed(c.rps / ceilingRps, 3)}x`, '', '', String(c.failures), String(c.unanswered), burst(c), '', '']),
        ...[...sizedCeilings].map(([kib, c]) => ['-', `ceiling: node:http, ${kib} KiB JSON`, String(CONNECTIONS), fixed(c.answerBytes / 1024, 1), fixed(c.rps, 0), fixed(c.p50, 0), fixed(c.p99, 0), `${fixed(c.rps / ceilingRps, 3)}x`, '', '', String(c.failures), String(c.unanswered), burst(c), '', '']),
        ...rows.map((r) => [
          r.store,
          r.name,
          String(r.connections),
          fixed(r.answerBytes / 1024, 1),
          fixed(r.rps, 0),
          fixed(r.p50, 0),
          fixed(r.p99, 0),
          `${fixed(r.rps / ceilingRps, 3)}x`,
          r.answerBytes > LARGE_ANSWER ? `${fixed(r.rps / sizedCeilings.get(kibOf(r.answerBytes))!.rps, 3)}x` : '',
          r.against ? `${fixed(r.rps / r.against.rps, 2)}x of ${r.against.label.startsWith('service GET') ? 'service' : 'page 1'}` : '',
          String(r.failures),
          String(r.unanswered),
          burst(r),
          r.serviceCpuPerRequest === undefined ? '' : fixed(r.serviceCpuPerRequest, 2),
          r.bffCpuPerRequest === undefined ? '' : fixed(r.bffCpuPerRequest, 2),
        ]),
      ],
    ),
  );
  for (const b of breakdowns) {
    console.log('');
    const pc = b.perConnection;
    console.log(`${b.store}: ${MIXED_CONNECTIONS} concurrent mixed GETs per endpoint (node:http closed loop, ${fixed(b.rps, 0)} req/s; answers per connection min ${pc.min}, median ${pc.median}, max ${pc.max})`);
    console.log(formatTable(['endpoint', 'answers', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'], b.endpoints.map((e) => [e.label, String(e.count), fixed(e.p50, 0), fixed(e.p90, 0), fixed(e.p99, 0), fixed(e.max, 0)])));
  }
  console.log('');
  console.log(
    formatTable(
      ['store', 'first start (migrate + seed) s', 'service RSS MB', 'service + readers RSS MB'],
      starts.map((s) => [s.store, fixed(s.seconds, 1), fixed(s.memory.self, 0), fixed(s.memory.tree, 0)]),
    ),
  );
  console.log('');
  console.log(
    formatTable(
      ['store', 'bulk import points', 'seconds', 'rows/s', 're-import (all skipped) rows/s'],
      imports.map((i) => [i.store, String(i.points), fixed(i.seconds, 1), fixed(i.rowsPerSecond, 0), fixed(i.reimportRowsPerSecond, 0)]),
    ),
  );
  console.log('');
  console.log(`dashboard initial JS: ${js.files} files, ${fixed(js.raw / 1024, 0)} KiB raw, ${fixed(js.gzip / 1024, 0)} KiB gzip`);
  if (dashboard) console.log(formatDashboardFigures(dashboard));
  console.log(`ceiling ${fixed(ceilingRps, 0)} req/s (mean of start and end); total run ${fixed((Date.now() - began) / 1000, 0)} s`);
  if (process.env.BENCH_JSON) {
    fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify({ ceilingRps, ceilings, sizedCeilings: Object.fromEntries(sizedCeilings), rows, breakdowns, starts, imports, dashboard, initialJs: js }, null, 2));
  }
  const failed = rows.filter((r) => r.failures > 0);
  if (failed.length > 0) {
    console.error(`some requests failed: ${failed.map((r) => `${r.store} ${r.name} (${r.failures})`).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
