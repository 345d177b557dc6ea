import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface ChildSpec {
  name: string;
  script: string;
  /** Node's flags before the script (tsx's loader when it runs from source). */
  execArgv: string[];
  env: NodeJS.ProcessEnv;
  healthUrl: string;
}

const MAX_RESTARTS_PER_MINUTE = 5;
/** A child that exits with this code cannot start as configured (bad config, data dir in use): restarting won't help. */
export const EXIT_CANNOT_START = 78;

/**
 * Runs each part as its own Node process (both cores get used, and the parts can be deployed
 * apart), prefixes their output, restarts a crashed one with backoff, and stops all cleanly.
 */
export class Supervisor {
  private readonly children = new Map<string, ChildProcess>();
  private readonly crashes = new Map<string, number[]>();
  private stopping = false;

  constructor(private readonly onFatal: (message: string) => void) {}

  start(spec: ChildSpec) {
    const child = spawn(process.execPath, [...spec.execArgv, spec.script], {
      // Two malloc arenas instead of one per thread: the same speed for a Node process, and ~60 MB
      // less resident memory at rest (bench/hostile.ts); an operator's own setting wins.
      env: { MALLOC_ARENA_MAX: '2', ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.set(spec.name, child);
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream! }).on('line', (line) => process.stdout.write(`[${spec.name}] ${line}\n`));
    }
    child.on('exit', (code, signal) => {
      if (this.stopping) return;
      if (code === EXIT_CANNOT_START) {
        this.onFatal(`${spec.name} cannot start (see its message above)`);
        return;
      }
      const now = Date.now();
      const recent = (this.crashes.get(spec.name) ?? []).filter((t) => now - t < 60_000);
      recent.push(now);
      this.crashes.set(spec.name, recent);
      if (recent.length > MAX_RESTARTS_PER_MINUTE) {
        this.onFatal(`${spec.name} keeps crashing (exit ${code ?? signal}); stopping`);
        return;
      }
      const delay = Math.min(30_000, 500 * 2 ** (recent.length - 1));
      process.stdout.write(`[supervisor] ${spec.name} exited (${code ?? signal}); restarting in ${delay} ms\n`);
      setTimeout(() => !this.stopping && this.start(spec), delay);
    });
  }

  async waitHealthy(spec: ChildSpec, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.stopping) throw new Error('stopping');
      try {
        const res = await fetch(spec.healthUrl, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error(`${spec.name} did not become healthy at ${spec.healthUrl} within ${timeoutMs / 1000} s`);
  }

  async stop() {
    this.stopping = true;
    await Promise.all(
      [...this.children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
