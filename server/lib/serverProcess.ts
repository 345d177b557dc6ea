import { isMainThread } from 'node:worker_threads';
import { ConfigError } from '../config';
import { DirLockedError } from '../store/lock';
import { EXIT_CANNOT_START } from '../supervisor';

interface Closable {
  close(): Promise<unknown>;
}

/**
 * Runs one part's process: start it, close its server and then its store on SIGTERM/SIGINT, and
 * tell the supervisor whether a start-up failure is worth a restart.
 */
/** Files this process creates (the embedded store, secrets.json) are its owner's alone; children inherit it. */
export function ownerOnlyFiles(): void {
  if (isMainThread) process.umask(0o077); // worker threads share the process's umask and may not set it
}

export function runServerProcess(name: string, start: () => Promise<{ app: Closable; store: Closable }>) {
  ownerOnlyFiles();
  start()
    .then(({ app, store }) => {
      let closing = false;
      const shutdown = async () => {
        if (closing) return;
        closing = true;
        await app.close().catch(() => {});
        await store.close().catch(() => {});
        process.exit(0);
      };
      process.on('SIGTERM', shutdown);
      process.on('SIGINT', shutdown);
    })
    .catch((err: unknown) => {
      console.error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      // Configuration and a locked data directory won't fix themselves: the supervisor must not retry.
      const permanent = err instanceof ConfigError || err instanceof DirLockedError || /invalid configuration/.test(String(err));
      process.exit(permanent ? EXIT_CANNOT_START : 1);
    });
}
