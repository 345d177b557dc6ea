/**
 * Starts Labdesk for a benchmark the way `npm start` runs it: the service and the BFF as two
 * processes of plain Node on the bundles of `.build/` (server/build.ts), each with its own store
 * under a fresh data directory (or a fresh PostgreSQL database), the demo team seeded on first start,
 * the service's background workers and reader processes running. Only the ports and the secrets
 * are the bench's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildServer } from '../../server/build';
import { nodeEntry } from '../../server/lib/entries';

export interface StackOptions {
  /** A PostgreSQL server to create a fresh database on; absent: the embedded store. */
  databaseUrl?: string;
  /** Extra environment for the service (SERVICE_WORKERS, …). */
  serviceEnv?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface Stack {
  store: 'embedded' | 'postgres';
  serviceUrl: string;
  bffUrl: string;
  apiKey: string;
  staff: { email: string; password: string };
  /** Seconds from spawning the service to its first healthy answer (migrate + demo seed). */
  firstStartSeconds: number;
  servicePid: number;
  /** The BFF's process (one, no workers): its CPU per answer is the bench's `BFF CPU ms/req`. */
  bffPid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitHealthy(origin: string, child: ChildProcess, name: string, timeoutMs = 900_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}) before it was healthy`);
    try {
      const res = await fetch(`${origin}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${name} not healthy after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A database of its own on the given server, dropped by the returned function. */
export async function freshDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `labdesk_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const log = opts.log ?? (() => {});
  buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-'));
  const database = opts.databaseUrl ? await freshDatabase(opts.databaseUrl) : undefined;
  const apiKey = `bench_${randomBytes(24).toString('hex')}`;
  const staff = { email: 'bench-admin@labdesk.local', password: `Bench-${randomBytes(12).toString('base64url')}` };
  const [servicePort, bffPort] = [await freePort(), await freePort()];
  const base: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  delete base.DATABASE_URL;
  const children: ChildProcess[] = [];
  const run = (name: 'service' | 'bff', env: NodeJS.ProcessEnv) => {
    const { script, execArgv } = nodeEntry(name, true);
    // BENCH_BFF_NODE_ARGS / BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=$PWD/.tmp/prof": node flags
    // for that process alone (the service's cluster workers inherit them: one profile per process).
    const extra = (name === 'bff' ? process.env.BENCH_BFF_NODE_ARGS : process.env.BENCH_SERVICE_NODE_ARGS)?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...extra, ...execArgv, script], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    return child;
  };
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
    await database?.drop().catch((err: unknown) => log(`dropping the bench database failed: ${String(err)}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    const began = Date.now();
    const service = run('service', {
      ...base,
      ...opts.serviceEnv,
      SERVICE_PORT: String(servicePort),
      DEMO_API_KEY: apiKey,
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    await waitHealthy(serviceUrl, service, 'the service');
    const firstStartSeconds = (Date.now() - began) / 1000;
    log(`service healthy after ${firstStartSeconds.toFixed(1)} s (first start: migrations and the demo seed)`);
    const bffUrl = `http://127.0.0.1:${bffPort}`;
    const bff = run('bff', {
      ...base,
      PORT: String(bffPort),
      SERVICE_BASE_URL: serviceUrl,
      SERVICE_API_KEY: apiKey,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: staff.email,
      ADMIN_PASSWORD: staff.password,
      // As `npm start` does: on PostgreSQL the BFF keeps its own schema there too (not PGlite).
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    await waitHealthy(bffUrl, bff, 'the BFF');
    return { store: database ? 'postgres' : 'embedded', serviceUrl, bffUrl, apiKey, staff, firstStartSeconds, servicePid: service.pid ?? 0, bffPid: bff.pid ?? 0, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Every process's children, from /proc. */
function childrenByParent(): Map<number, number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  return parents;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds (user + system) a process and all its descendants (the service's cluster
 * workers) have used so far. Divided by the requests answered in between, it is a cost per
 * request that a busy machine changes far less than req/s (it does not count waiting for a core).
 */
export function cpuMilliseconds(pid: number): number {
  const parents = childrenByParent();
  let ticks = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      /* gone */
    }
    for (const c of parents.get(p) ?? []) visit(c);
  };
  visit(pid);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Resident memory of a process and of it with all its descendants (the service's readers), in MB. */
export function residentMemory(pid: number): { self: number; tree: number } {
  const rss = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  const parents = childrenByParent();
  let tree = 0;
  const visit = (p: number) => {
    tree += rss(p);
    for (const c of parents.get(p) ?? []) visit(c);
  };
  visit(pid);
  return { self: rss(pid), tree };
}

/** Signs the stack's admin in to the BFF: the cookie header to send. */
export async function signIn(stack: Stack): Promise<string> {
  const res = await fetch(`${stack.bffUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(stack.staff),
  });
  if (res.status !== 200) throw new Error(`BFF sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
