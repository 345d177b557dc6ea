/**
 * Load generation for the benchmarks: autocannon, in this process, against servers that each run in
 * a process of their own (so the load generator never shares an event loop with what it measures).
 */
import { createRequire } from 'node:module';

// autocannon 8 ships no type declarations: the part of its programmatic API used here.
interface Histogram {
  average: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  /** Bytes read (autocannon counts answers with their headers). */
  throughput: Histogram & { total: number };
}
export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: LoadRequest[];
  timeout?: number;
}
/** What autocannon returns: its result, and the events of the run while it lasts. */
interface AutocannonRun extends PromiseLike<AutocannonResult> {
  /** Every answer: the connection (one client object per connection), its status, bytes and latency in ms. */
  on(event: 'response', listener: (client: object, statusCode: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (opts: AutocannonOptions) => AutocannonRun;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface Target {
  name: string;
  /** Origin of the server, e.g. http://127.0.0.1:8787 */
  origin: string;
  /** One request repeated, or several taken in turn by each connection (a mix). */
  requests: LoadRequest[];
  connections: number;
}

export interface Measured {
  /** Answers per second to requests sent within the measured seconds (after the warm-up). */
  rps: number;
  /** Requests sent that had no answer when the run ended (a server slower than the run is long). */
  unanswered: number;
  /** Latency of requests sent on open connections after the warm-up, in ms. */
  p50: number;
  p99: number;
  /** The connection burst: each connection's first answer (its request sent as the connection opened). */
  firstRequests: { count: number; p50: number; max: number };
  failures: number;
  /** Answers in the whole run, warm-up included (what a CPU cost per request divides by). */
  answeredInRun: number;
  /** Mean bytes read per answer, headers included. */
  answerBytes: number;
}

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/**
 * One autocannon run of `warmupSeconds + seconds` on the same connections: only the answers to
 * requests sent after the warm-up count towards req/s, p50 and p99, so they are about requests on
 * open connections, as a long-lived client (a BFF, a proxy) sends them. Opening the connections is
 * a figure of its own (`firstRequests`: each connection's first answer), since every connection
 * opening at once makes a burst whose last answers wait for all the others (with 200 connections
 * that burst was the whole of autocannon's p99: docs/performance.md). Latencies in milliseconds.
 */
export async function measure(target: Target, seconds: number, warmupSeconds = setting('BENCH_WARMUP', 2)): Promise<Measured> {
  const [first] = target.requests;
  if (!first) throw new Error(`${target.name}: no request`);
  const duration = warmupSeconds + seconds;
  const options: AutocannonOptions =
    target.requests.length === 1
      ? { url: target.origin + first.path, method: first.method ?? 'GET', headers: first.headers, body: first.body, connections: target.connections, duration, timeout: 30 }
      : { url: target.origin, requests: target.requests, connections: target.connections, duration, timeout: 30 };
  const began = performance.now();
  const from = began + warmupSeconds * 1000;
  const until = from + seconds * 1000;
  const measured: number[] = [];
  const firsts: number[] = [];
  const answeredConnections = new WeakSet<object>();
  const run = autocannon(options);
  run.on('response', (client, _status, _bytes, ms) => {
    const now = performance.now();
    if (!answeredConnections.has(client)) {
      answeredConnections.add(client);
      firsts.push(ms);
    }
    if (now - ms >= from && now <= until) measured.push(ms);
  });
  const r = await run;
  measured.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);
  return {
    rps: measured.length / seconds,
    unanswered: Math.max(0, r.requests.sent - r.requests.total),
    p50: quantile(measured, 0.5),
    p99: quantile(measured, 0.99),
    firstRequests: { count: firsts.length, p50: quantile(firsts, 0.5), max: firsts[firsts.length - 1] ?? 0 },
    failures: r.errors + r.timeouts + r.non2xx,
    answeredInRun: r.requests.total,
    answerBytes: r.requests.total > 0 ? r.throughput.total / r.requests.total : 0,
  };
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function formatTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

/** A positive integer from the environment, else the default. */
export function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
