/**
 * Starts Labdesk the way a user does (`node server/start.mjs`, i.e. `npm start`) on free
 * ports with a fresh data directory, and stops it again. Used by the end-to-end suite.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A port nothing listens on right now: listen on port 0, read the port, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe server'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** Builds dist/ with vite when it is missing (a fresh clone); does nothing otherwise. */
export function ensureDashboardBuilt(): void {
  if (fs.existsSync(path.join(repoRoot, 'dist', 'index.html'))) return;
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${String(result.status ?? result.signal)})`);
}

export interface AppCredentials {
  adminEmail: string;
  adminPassword: string;
  demoApiKey: string;
  sessionSecret: string;
}

export interface RunningApp {
  dashboardUrl: string;
  serviceUrl: string;
  dataDir: string;
  /** Everything the supervisor and its children printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the supervisor in its own process group and waits until both parts answer /healthz
 * (first start seeds the demo team: ~20 s). Rejects with the app's output when it does not come up.
 */
export async function startApp(credentials: AppCredentials, timeoutMs = 180_000): Promise<RunningApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-e2e-'));
  const port = await freePort();
  let servicePort = await freePort();
  while (servicePort === port) servicePort = await freePort();
  const host = '127.0.0.1';
  const dashboardUrl = `http://${host}:${port}`;
  const serviceUrl = `http://${host}:${servicePort}`;

  // Only what the run contract reads, so a developer's own settings cannot leak in.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    PORT: String(port),
    SERVICE_PORT: String(servicePort),
    HOST: host,
    DATA_DIR: dataDir,
    DEMO_API_KEY: credentials.demoApiKey,
    ADMIN_EMAIL: credentials.adminEmail,
    ADMIN_PASSWORD: credentials.adminPassword,
    SESSION_SECRET: credentials.sessionSecret,
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, ['server/start.mjs'], {
    cwd: repoRoot,
    env,
    detached: true, // its own process group: stop() signals the supervisor and both parts together
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const pid = child.pid;
    if (pid !== undefined && groupAlive(pid)) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const deadline = Date.now() + 20_000;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exitedPromise, new Promise((r) => (timer = setTimeout(r, 20_000)))]);
      clearTimeout(timer); // a pending timer would keep the test runner alive for 20 s
      // The supervisor exits once both parts did; wait for stragglers in the group too.
      while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (groupAlive(pid)) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone meanwhile */
        }
        await exitedPromise;
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const app: RunningApp = { dashboardUrl, serviceUrl, dataDir, output: () => output, stop };
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (exited(child)) throw new Error(`the app exited (${String(child.exitCode ?? child.signalCode)}) before it was healthy`);
      const [bff, service] = await Promise.all([healthy(`${dashboardUrl}/healthz`), healthy(`${serviceUrl}/healthz`)]);
      if (bff && service) break;
      if (Date.now() > deadline) throw new Error(`the app was not healthy within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app output ---\n${output.slice(-8000)}`);
  }
  return app;
}

/** Debian's chromium, with the flags this closed network needs (no background connections). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const ARTIFACTS = path.join(repoRoot, 'test', 'e2e', 'artifacts');
/** UI waits: generous, this is about behaviour, not speed. */
export const UI = 30_000;
