/**
 * Per-endpoint latency within a mix: autocannon reports one histogram for all the requests of a
 * mixed target, which cannot say whether a long tail belongs to one endpoint or to all of them. This
 * runs the same mix as a closed loop of `connections` keep-alive connections (each takes the
 * requests in turn, as autocannon does) and keeps each path's latencies apart. The connections are
 * opened once: the first `warmupSeconds` are not counted (except each connection's first request,
 * reported on its own), so the per-endpoint figures are those of requests on open connections.
 */
import http from 'node:http';
import type { LoadRequest } from './load';

export interface EndpointLatency {
  label: string;
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/** The part of a path that names the endpoint: user ids and dates folded together. */
export function endpointLabel(path: string): string {
  return path
    .replace(/\?.*/, '')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id');
}

export interface MixBreakdown {
  all: EndpointLatency;
  endpoints: EndpointLatency[];
  rps: number;
  /** Each connection's first request (sent at once on 200 new connections): where a burst waits. */
  firstRequests: EndpointLatency;
  /** Answers per connection: far apart when some connections are served over and over and others wait. */
  perConnection: { min: number; median: number; max: number };
}

export async function mixBreakdown(origin: string, requests: LoadRequest[], connections: number, seconds: number, warmupSeconds = 2): Promise<MixBreakdown> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const samples = new Map<string, number[]>();
  const all: number[] = [];
  const firsts: number[] = [];
  const answered = new Array<number>(connections).fill(0);
  const from = performance.now() + warmupSeconds * 1000;
  const until = from + seconds * 1000;
  const one = (r: LoadRequest, first: boolean, c: number) =>
    new Promise<void>((resolve, reject) => {
      const began = performance.now();
      const req = http.request(origin + r.path, { method: r.method ?? 'GET', headers: r.headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          const ms = performance.now() - began;
          if (first) firsts.push(ms);
          if (began >= from && performance.now() <= until) {
            const label = endpointLabel(r.path);
            samples.set(label, [...(samples.get(label) ?? []), ms]);
            all.push(ms);
            answered[c]!++;
          }
          if ((res.statusCode ?? 500) >= 400) reject(new Error(`${r.path} answered ${res.statusCode}`));
          else resolve();
        });
      });
      req.on('error', reject);
      req.end(r.body);
    });
  const loops = Array.from({ length: connections }, async (_, c) => {
    for (let i = c; performance.now() < until; i++) await one(requests[i % requests.length]!, i === c, c);
  });
  await Promise.all(loops);
  agent.destroy();
  const summary = (label: string, xs: number[]): EndpointLatency => {
    const s = [...xs].sort((a, b) => a - b);
    return { label, count: s.length, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s[s.length - 1] ?? 0 };
  };
  const counts = [...answered].sort((a, b) => a - b);
  return {
    all: summary('all', all),
    endpoints: [...samples].map(([label, xs]) => summary(label, xs)),
    rps: all.length / seconds,
    firstRequests: summary('first request of each connection', firsts),
    perConnection: { min: counts[0] ?? 0, median: quantile(counts, 0.5), max: counts[counts.length - 1] ?? 0 },
  };
}
