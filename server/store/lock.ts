import fs from 'node:fs';
import path from 'node:path';

export class DirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process holds: its own pid in the file does not make a second open safe. */
const heldHere = new Set<string>();

/**
 * PGlite is single-process: two processes opening one data directory corrupt it. A pid file
 * makes the second process stop with a clear message; a lock left by a crashed process
 * (its pid is gone) is taken over.
 */
export function acquireDirLock(dir: string, what: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.resolve(dir, 'labdesk.lock');
  if (heldHere.has(file)) {
    throw new DirLockedError(`${what} data directory ${dir} is already open in this process (by process ${process.pid})`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldHere.add(file);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        process.off('exit', release);
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DirLockedError(
          `${what} data directory ${dir} is in use by process ${holder}; stop that process or set a different DATA_DIR`,
        );
      }
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DirLockedError(`could not lock ${dir}`);
}
