import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded store's files are its owner's alone. The process umask (0077, set by each part)
 * covers what Node creates, but the embedded PostgreSQL sets its files' modes itself (0666 from
 * inside WebAssembly, where no umask applies). So the store's folder and the data folder above it
 * are made 0700 (nobody else may even enter them), and every file and folder under the store
 * loses its group and other bits when the store opens and closes.
 */
export function restrictToOwner(storeDir: string): void {
  for (const dir of [path.dirname(storeDir), storeDir]) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
  }
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const { mode } = fs.lstatSync(full);
      if (entry.isSymbolicLink()) continue;
      if (mode & 0o077) fs.chmodSync(full, mode & 0o700);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(storeDir);
}
