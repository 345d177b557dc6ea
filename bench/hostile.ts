/**
 * Hostile-input benchmark: the service process as `npm start` runs it (its own PGlite store, demo
 * team seeded, sandboxed readers), then the uploads that used to take it down: a 12000 × 200 PNG,
 * a 14400 × 400 image-only PDF, a PDF whose content inflates to 1 GB and 40 blank pages, all from a
 * second team, beside a small report from the first.
 *
 *   node --import tsx bench/hostile.ts        (or: npm run bench:hostile; ~2 min)
 *
 * Prints, with the targets beside them: resident memory at rest (service and readers, idle
 * for 30 s, the median of ten samples), the
 * peak while reading (sampled every 100 ms from /proc), each job's outcome and time, the small
 * report's time alone and beside the hostile batch (the ratio), and the longest `/healthz` silence.
 * Figures, not pass/fail: never part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../server/build';
import { nodeEntry } from '../server/lib/entries';
import { simpleReportPdf } from '../server/service/seed/labReportPdf';
import { blankPagesPdf, inflationBombPdf, wideImagePdf, widePng } from '../test/fixtures/hostileFiles';

const MB = 1024 * 1024;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Resident bytes of a process and all its descendants (the reader processes), from /proc. */
async function treeRss(pid: number): Promise<number> {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      /* gone */
    }
  }
  const inTree = (p: number): boolean => p === pid || (parents.has(p) && p > 1 && inTree(parents.get(p)!));
  let total = 0;
  for (const [p, bytes] of rss) if (inTree(p)) total += bytes;
  return total;
}

const fmtMb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'labdesk-bench-hostile-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const demoKey = `lsk_bench_${randomBytes(12).toString('hex')}`;
  const adminToken = randomBytes(16).toString('hex');
  // As `npm start` runs it: the service's bundle on plain Node, two malloc arenas (server/supervisor.ts).
  buildServer();
  const service = nodeEntry('service', true);
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), ...service.execArgv, service.script], {
    env: { PATH: process.env.PATH, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', DATA_DIR: dataDir, SERVICE_PORT: String(port), HOST: '127.0.0.1', DEMO_API_KEY: demoKey, SERVICE_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await sleep(1000);
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(130)));

  try {
    const api = async (url: string, init: RequestInit & { key?: string; admin?: boolean } = {}) => {
      const headers = new Headers(init.headers);
      if (init.key) headers.set('x-service-api-key', init.key);
      if (init.admin) headers.set('x-admin-token', adminToken);
      const res = await fetch(base + url, { ...init, headers, signal: AbortSignal.timeout(30_000) });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, never> };
    };
    const started = Date.now();
    for (;;) {
      if (Date.now() - started > 180_000) throw new Error('the service did not start');
      const up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (up) break;
      await sleep(250);
    }
    console.log(`service up (demo team seeded) in ${((Date.now() - started) / 1000).toFixed(1)} s; waiting for the demo reports to be read and the readers to go idle…`);
    for (;;) {
      const m = (await api('/admin/v1/metrics', { admin: true })).body as unknown as { parse_queue: { queued: number; parsing: number }; readers: { running: number } };
      if (m.parse_queue.queued === 0 && m.parse_queue.parsing === 0 && m.readers.running === 0) break;
      await sleep(500);
    }
    const justAfter = await treeRss(child.pid!);
    // At rest: idle for half a minute (V8 and the allocator give memory back on their own schedule),
    // then the median of ten samples over five seconds.
    await sleep(30_000);
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      samples.push(await treeRss(child.pid!));
      await sleep(500);
    }
    const idle = samples.sort((a, b) => a - b)[5]!;
    const mem = ((await api('/admin/v1/metrics', { admin: true })).body as unknown as { memory: Record<string, number> }).memory;
    console.log(`right after the demo reports were read: ${fmtMb(justAfter)}`);
    console.log(`at rest: service ${fmtMb(mem.rss_bytes!)} (JS heap ${fmtMb(mem.heap_used_bytes!)}, outside the heap ${fmtMb(mem.external_bytes!)}), readers ${fmtMb(mem.readers_rss_bytes!)}`);

    // Sample memory and /healthz from here on.
    let peak = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await treeRss(child.pid!));
        await sleep(100);
      }
    })();
    let lastHealthy = Date.now();
    let longestSilence = 0;
    const prober = (async () => {
      while (sampling) {
        const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(30_000) }).then((r) => r.ok, () => false);
        const now = Date.now();
        if (ok) {
          longestSilence = Math.max(longestSilence, now - lastHealthy);
          lastHealthy = now;
        }
        await sleep(100);
      }
    })();

    const teamB = (await api('/admin/v1/teams', { method: 'POST', admin: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench hostile team' }) })).body as unknown as { api_key: string };
    const userB = (await api('/v2/user', { method: 'POST', key: teamB.api_key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_user_id: 'bench-hostile-1' }) })).body as unknown as { user_id: string };
    const userA = ((await api('/v2/user?limit=1', { key: demoKey })).body as unknown as { users: { user_id: string }[] }).users[0]!.user_id;

    const upload = async (key: string, userId: string, bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.set('user_id', userId);
      form.set("file", new Blob([new Uint8Array(bytes)]), name);
      const r = await api('/lab_report/v1/parser/job', { method: 'POST', key, body: form });
      if (r.status !== 200) throw new Error(`upload ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      return { id: (r.body as unknown as { id: string }).id, key, name, at: Date.now(), size: bytes.length };
    };
    const settle = async (job: { id: string; key: string; at: number }) => {
      for (;;) {
        const j = (await api(`/lab_report/v1/parser/job/${job.id}`, { key: job.key })).body as unknown as { stage: string; status: string; failure_reason: string | null };
        if (['done', 'failed', 'awaiting_review'].includes(j.stage)) return { ...j, seconds: (Date.now() - job.at) / 1000 };
        await sleep(200);
      }
    };

    const report = await simpleReportPdf({
      patient: { first: 'Bench', last: 'Patient', dob: '01/02/1980' },
      lab: 'Laboratory Corporation of America (Labcorp)',
      specimen: '041-000-0000-0',
      collected: '11/02/2026',
      reported: '11/04/2026',
      panels: [{ name: 'Basic Metabolic Panel', rows: [['Glucose', '92', 'mg/dL', '70-99'], ['Sodium', '141', 'mmol/L', '134-144'], ['Potassium', '4.4', 'mmol/L', '3.5-5.2']] }],
    });
    const alone = await settle(await upload(demoKey, userA, report, 'small-alone.pdf'));

    const files: [string, Uint8Array][] = [
      ['wide.png (12000 × 200)', await widePng(12_000, 200)],
      ['wide-image.pdf (14400 × 400 pt)', await wideImagePdf(14_400, 400)],
      ['bomb.pdf (inflates to 1 GB)', await inflationBombPdf(1024 * MB)],
      ['blank-40.pdf (40 blank pages)', await blankPagesPdf(40)],
    ];
    const hostile = [];
    for (const [name, bytes] of files) hostile.push(await upload(teamB.api_key, userB.user_id, bytes, name));
    const small = await upload(demoKey, userA, report, 'small.pdf');
    const outcomes = await Promise.all([...hostile, small].map(async (j) => ({ job: j, result: await settle(j) })));
    sampling = false;
    await Promise.all([sampler, prober]);

    console.log('\njob                                   bytes      outcome                 seconds  reason');
    for (const { job, result } of outcomes) {
      const outcome = `${result.status}/${result.stage}`;
      console.log(
        `${(job.key === demoKey ? 'A ' : 'B ') + job.name}`.padEnd(38) +
          String(job.size).padStart(9) +
          '  ' +
          outcome.padEnd(22) +
          result.seconds.toFixed(1).padStart(8) +
          '  ' +
          (result.failure_reason ?? ''),
      );
    }
    const smallBeside = outcomes.find((o) => o.job === small)!.result.seconds;
    console.log('\nfigure                                         measured      target');
    console.log(`${'resident memory at rest (service + readers)'.padEnd(46)} ${fmtMb(idle).padStart(9)}     ≤ 300 MB`);
    console.log(`${'peak while reading (service + readers)'.padEnd(46)} ${fmtMb(peak).padStart(9)}     ≤ idle + 1.2 GB = ${fmtMb(idle + 1.2 * 1024 * MB)}`);
    console.log(`${'peak − idle'.padEnd(46)} ${fmtMb(peak - idle).padStart(9)}`);
    console.log(`${'small report settled, alone'.padEnd(46)} ${(alone.seconds.toFixed(1) + ' s').padStart(9)}`);
    console.log(`${'small report settled, beside the hostile batch'.padEnd(46)} ${(smallBeside.toFixed(1) + ' s').padStart(9)}     ≤ 20 s  (ratio to alone: ${(smallBeside / alone.seconds).toFixed(2)}×)`);
    console.log(`${'longest /healthz silence'.padEnd(46)} ${(longestSilence / 1000).toFixed(2).padStart(7)} s     ≤ 5 s`);
  } finally {
    await stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
