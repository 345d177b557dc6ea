import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ConfigError, type Config } from '../config';
import { EXIT_CANNOT_START } from '../supervisor';
import { LEASE_TAG_ENV, leaseOwnerPrefix } from './jobs/queue';

/**
 * How many service processes to run: SERVICE_WORKERS, else one per core on PostgreSQL. The
 * embedded PGlite store is owned by one process (its data directory is locked), so there it is
 * always one; `note` says so when more were asked for.
 */
export function serviceWorkerCount(
  config: Pick<Config, 'SERVICE_WORKERS' | 'DATABASE_URL'>,
  cores: number = availableParallelism(),
): { count: number; note?: string } {
  const asked = config.SERVICE_WORKERS;
  if (!config.DATABASE_URL) {
    return asked !== undefined && asked > 1
      ? { count: 1, note: `SERVICE_WORKERS=${asked} ignored: the embedded PGlite store is owned by one process, so the service runs as one (set DATABASE_URL for several)` }
      : { count: 1 };
  }
  return { count: asked ?? Math.max(1, cores) };
}

/** What the cluster needs of a worker process (node's cluster `Worker`; a stand-in in tests). */
export interface WorkerProcess {
  readonly process: { readonly pid?: number; kill(signal?: NodeJS.Signals): boolean };
  on(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown;
  once(event: 'listening', listener: () => void): unknown;
}

export interface ServiceClusterOptions {
  count: number;
  /** Starts one worker process with these extra environment variables (`cluster.fork`). */
  fork: (env: Record<string, string>) => WorkerProcess;
  /** Frees the leases whose owner starts with the prefix (`releaseLeases` on the primary's connection); jobs released by kind. */
  releaseLeases: (ownerPrefix: string) => Promise<Record<string, number>>;
  log?: (message: string) => void;
  /** A worker exited as unable to start (EXIT_CANNOT_START) after start-up: the others are stopped first. */
  onFatal?: (message: string) => void;
  /** How long a worker may take to close on shutdown before it is killed. */
  stopTimeoutMs?: number;
  /** Replacement delays: `firstDelayMs` doubled per exit in the last minute, at most `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

interface Live {
  worker: WorkerProcess;
  prefix: string;
  exited: Promise<void>;
}

/**
 * The primary of a multi-process service: forks the workers (they share the listening port through
 * node's cluster), replaces one that dies with a back-off (so a crash loop does not spin), and
 * frees a gone worker's job leases at once, so its unfinished jobs (a booking's confirmation, a
 * parse, a webhook attempt) are claimed by another worker now instead of when their leases run out.
 */
export class ServiceCluster {
  private readonly live = new Set<Live>();
  private readonly exits: number[] = [];
  private readonly releases = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping = false;
  private listening = 0;
  private started: { resolve: () => void; reject: (err: Error) => void } | null = null;

  constructor(private readonly opts: ServiceClusterOptions) {}

  private log(message: string) {
    (this.opts.log ?? ((m: string) => console.log(m)))(message);
  }

  /** Forks the workers; resolves once `count` of them listen (replacements of early crashes included). */
  start(): Promise<void> {
    const ready = new Promise<void>((resolve, reject) => (this.started = { resolve, reject }));
    for (let i = 0; i < this.opts.count; i++) this.forkOne();
    return ready;
  }

  /** The workers' pids, in start order (tests, logs). */
  pids(): number[] {
    return [...this.live].map((l) => l.worker.process.pid).filter((p): p is number => p !== undefined);
  }

  private forkOne() {
    const tag = randomBytes(6).toString('hex');
    const worker = this.opts.fork({ [LEASE_TAG_ENV]: tag });
    const pid = worker.process.pid;
    let onExit!: () => void;
    const entry: Live = { worker, prefix: pid === undefined ? '' : leaseOwnerPrefix(pid, tag), exited: new Promise<void>((r) => (onExit = r)) };
    this.live.add(entry);
    worker.once('listening', () => {
      this.listening++;
      if (this.listening >= this.opts.count && this.started) {
        this.started.resolve();
        this.started = null;
      }
    });
    worker.on('exit', (code, signal) => {
      this.live.delete(entry);
      if (entry.prefix) this.track(this.release(entry.prefix, pid!));
      onExit();
      this.onWorkerExit(pid, code, signal);
    });
  }

  private onWorkerExit(pid: number | undefined, code: number | null, signal: string | null) {
    if (this.stopping) return;
    if (code === EXIT_CANNOT_START) {
      const message = `service worker ${pid} cannot start (see its message above)`;
      if (this.started) {
        this.started.reject(new ConfigError(message));
        this.started = null;
        void this.close();
      } else {
        void this.close().then(() => this.opts.onFatal?.(message));
      }
      return;
    }
    const now = Date.now();
    this.exits.push(now);
    while (this.exits.length > 0 && now - this.exits[0]! > 60_000) this.exits.shift();
    const delay = Math.min(this.opts.maxDelayMs ?? 30_000, (this.opts.firstDelayMs ?? 500) * 2 ** (this.exits.length - 1));
    this.log(`service worker ${pid} exited (${code ?? signal}); starting another in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopping) this.forkOne();
    }, delay);
    this.timers.add(timer);
  }

  /** Frees the leases of a worker that exited; a few tries, as the store may be briefly away. */
  private async release(prefix: string, pid: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const released = await this.opts.releaseLeases(prefix);
        const total = Object.values(released).reduce((a, b) => a + b, 0);
        if (total > 0) {
          const kinds = Object.entries(released).map(([kind, n]) => `${n} ${kind}`).join(', ');
          this.log(`released the job leases of service worker ${pid}: ${kinds}`);
        }
        return;
      } catch (err) {
        if (attempt >= 5) {
          this.log(`could not release the job leases of service worker ${pid} (${err instanceof Error ? err.message : String(err)}); they run out on their own`);
          return;
        }
        await new Promise((r) => setTimeout(r, 1000 * attempt));
      }
    }
  }

  private track(p: Promise<void>) {
    this.releases.add(p);
    void p.finally(() => this.releases.delete(p));
  }

  /**
   * Stops every worker: SIGTERM (each closes its server, its job workers and readers, then its
   * store), SIGKILL after `stopTimeoutMs`; resolves when all exited and their leases are released.
   */
  async close(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(
      [...this.live].map(async ({ worker, exited }) => {
        worker.process.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const killed = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            worker.process.kill('SIGKILL');
            resolve();
          }, this.opts.stopTimeoutMs ?? 8000);
        });
        await Promise.race([exited, killed]);
        await exited;
        clearTimeout(timer);
      }),
    );
    await Promise.all([...this.releases]);
  }
}
