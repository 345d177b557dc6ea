/**
 * HTTP benchmark: what the service and the BFF cost per request, next to a bare node:http server
 * answering a body of the same size on the same machine in the same run.
 *
 *   node --import tsx bench/http.ts            (or: npm run bench)
 *
 * Options (environment): BENCH_DURATION seconds per target (default 8), BENCH_CONNECTIONS (default 8),
 * BENCH_USERS demo users to seed (default 300). Never part of `npm test`; see bench/README.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Failed, Ready, Setup } from './servers';

// autocannon 8 ships no type declarations: the part of its programmatic API used here.
interface Histogram {
  average: number;
  mean: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  throughput: Histogram & { total: number };
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  timeout?: number;
}
type Autocannon = (opts: AutocannonOptions) => PromiseLike<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** A positive integer from the environment, else the default. */
function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
const DURATION = setting('BENCH_DURATION', 8);
const WARMUP = 2;
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const USERS = setting('BENCH_USERS', 300);
const serversScript = fileURLToPath(new URL('./servers.ts', import.meta.url));

const children: ChildProcess[] = [];

/** Starts one server in a child process and resolves when it listens. */
function startServer(setup: Setup): Promise<Ready['ready']> {
  const child = spawn(process.execPath, ['--import', 'tsx', serversScript], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message: Ready | Failed) => {
      if ('ready' in message) resolve(message.ready);
      else reject(new Error(`${setup.role} failed to start:\n${message.error}`));
    });
    child.once('exit', (code) => reject(new Error(`${setup.role} exited (${String(code)}) before it was ready`)));
    child.send(setup);
  });
}

async function stopServers() {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return body;
}

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  bytes: number;
}

interface Row {
  target: Target;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

async function measure(target: Target): Promise<Row> {
  const base = { url: target.url, connections: CONNECTIONS, headers: target.headers, timeout: 30 };
  await autocannon({ ...base, duration: WARMUP });
  const r = await autocannon({ ...base, duration: DURATION });
  return {
    target,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failures: r.errors + r.timeouts + r.non2xx,
  };
}

const fixed = (n: number, digits: number) => n.toFixed(digits);

/**
 * autocannon measures latency in whole milliseconds, so a baseline under 1 ms reads 0: divide by
 * 1 ms instead and say the true ratio is at least that ("≥").
 */
function latencyRatio(value: number, base: number): string {
  return base >= 1 ? `${fixed(value / base, 1)}x` : `≥${fixed(value, 1)}x`;
}

function table(rows: Row[]): string {
  const baseline = rows[0];
  if (!baseline) return '';
  const head = ['target', 'body', 'req/s', 'p50 ms', 'p99 ms', 'req/s vs base', 'p50 vs base', 'p99 vs base', 'failed'];
  const lines = rows.map((r) => [
    r.target.name,
    `${(r.target.bytes / 1024).toFixed(1)} KiB`,
    fixed(r.rps, 0),
    fixed(r.p50, 1),
    fixed(r.p99, 1),
    `${fixed(r.rps / baseline.rps, 3)}x`,
    r === baseline ? '1.0x' : latencyRatio(r.p50, baseline.p50),
    r === baseline ? '1.0x' : latencyRatio(r.p99, baseline.p99),
    String(r.failures),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

async function main() {
  const began = Date.now();
  const apiKey = `bench_${randomBytes(24).toString('hex')}`;
  const staff = { email: 'bench@labdesk.local', password: `Bench-${randomBytes(12).toString('base64url')}` };
  console.log(`Labdesk HTTP bench: ${CONNECTIONS} connections, ${DURATION} s per target after ${WARMUP} s warm-up`);
  console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
  console.log(`seeding the service with ${USERS} demo users (in-memory PGlite)…`);

  const service = await startServer({ role: 'service', apiKey, users: USERS });
  const serviceUrl = `http://127.0.0.1:${service.port}`;
  console.log(`service seeded in ${fixed(service.seedSeconds ?? 0, 1)} s`);
  const bff = await startServer({ role: 'bff', serviceBaseUrl: serviceUrl, serviceApiKey: apiKey, ...staff });
  const bffUrl = `http://127.0.0.1:${bff.port}`;

  const keyHeader = { 'x-service-api-key': apiKey };
  const usersPath = '/v2/user?limit=25';
  const usersBody = await get(`${serviceUrl}${usersPath}`, keyHeader);
  const baseline = await startServer({ role: 'baseline', body: usersBody });

  if (!service.heavyUserId) throw new Error('the seeded store has no user with sessions');
  const sixMonthsBack = new Date();
  sixMonthsBack.setUTCMonth(sixMonthsBack.getUTCMonth() - 6);
  const timeseriesPath = `/v2/timeseries/${service.heavyUserId}/mindfulness_minutes/grouped?start_date=${sixMonthsBack.toISOString().slice(0, 10)}`;
  const timeseriesBody = await get(`${serviceUrl}${timeseriesPath}`, keyHeader);
  const page = JSON.parse(timeseriesBody) as { groups: Record<string, { data: unknown[] }[]>; next_cursor: string | null };
  const points = Object.values(page.groups).reduce((n, gs) => n + gs.reduce((m, g) => m + g.data.length, 0), 0);

  const login = await fetch(`${bffUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(staff),
  });
  if (login.status !== 200) throw new Error(`BFF sign-in answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const bffPath = `/api/users?range=${encodeURIComponent('[0,24]')}`;
  const bffHeaders = { cookie };
  const bffBody = await get(`${bffUrl}${bffPath}`, bffHeaders);

  console.log(
    `heavy user ${service.heavyUserId}: ${service.heavyUserPoints ?? '?'} sessions in six months; first page ${points} points, ${page.next_cursor ? 'more pages follow' : 'the only page'}`,
  );
  const targets: Target[] = [
    { name: 'baseline node:http (users-page body)', url: `http://127.0.0.1:${baseline.port}/`, bytes: Buffer.byteLength(usersBody) },
    { name: 'service GET /v2/user?limit=25', url: `${serviceUrl}${usersPath}`, headers: keyHeader, bytes: Buffer.byteLength(usersBody) },
    {
      name: 'service grouped timeseries, heavy user, page 1',
      url: `${serviceUrl}${timeseriesPath}`,
      headers: keyHeader,
      bytes: Buffer.byteLength(timeseriesBody),
    },
    { name: 'BFF GET /api/users?range=[0,24]', url: `${bffUrl}${bffPath}`, headers: bffHeaders, bytes: Buffer.byteLength(bffBody) },
  ];
  const rows: Row[] = [];
  for (const target of targets) {
    process.stdout.write(`measuring ${target.name}…\n`);
    rows.push(await measure(target));
  }
  console.log('');
  console.log(table(rows));
  console.log('');
  console.log('ratios: each target against the baseline of this run (req/s: higher is better; latency: lower is better;');
  console.log(`"≥" where the baseline's latency is under autocannon's 1 ms resolution). Total run ${fixed((Date.now() - began) / 1000, 0)} s.`);
  const failed = rows.filter((r) => r.failures > 0);
  if (failed.length > 0) {
    console.error(`some requests failed: ${failed.map((r) => `${r.target.name} (${r.failures})`).join(', ')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exitCode = 1;
  })
  .finally(() => stopServers());
