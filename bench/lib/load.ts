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
type Autocannon = (opts: AutocannonOptions) => PromiseLike<AutocannonResult>;
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
  rps: number;
  /** Requests sent that had no answer when the run ended (a server slower than the run is long). */
  unanswered: number;
  p50: number;
  p99: number;
  failures: number;
  /** Mean bytes read per answer, headers included. */
  answerBytes: number;
}

/** A warm-up, then the measured run; latencies in milliseconds (autocannon's whole-ms resolution). */
export async function measure(target: Target, seconds: number, warmupSeconds = 2): Promise<Measured> {
  const [first] = target.requests;
  if (!first) throw new Error(`${target.name}: no request`);
  const base: AutocannonOptions =
    target.requests.length === 1
      ? { url: target.origin + first.path, method: first.method ?? 'GET', headers: first.headers, body: first.body, connections: target.connections, duration: 0, timeout: 30 }
      : { url: target.origin, requests: target.requests, connections: target.connections, duration: 0, timeout: 30 };
  if (warmupSeconds > 0) await autocannon({ ...base, duration: warmupSeconds });
  const r = await autocannon({ ...base, duration: seconds });
  return {
    rps: r.requests.total / r.duration,
    unanswered: Math.max(0, r.requests.sent - r.requests.total),
    p50: r.latency.p50,
    p99: r.latency.p99,
    failures: r.errors + r.timeouts + r.non2xx,
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
