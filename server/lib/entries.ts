import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where each process's code is. From the TypeScript sources, a process runs through tsx (tests,
 * `node --import tsx …`); `npm start` bundles the supervisor (server/start.mjs), which bundles each
 * entry into `.build/` (server/build.ts), and runs them all on plain Node: no loader thread and no transpiler in every process, ~40 MB less
 * resident memory each (bench/hostile.ts), and a faster start.
 *
 * Code inside a bundle cannot find files next to its source by `import.meta.url` (it is the
 * bundle's), so files are found from the repository's root instead.
 */

export const ENTRIES = {
  service: 'server/service/main.ts',
  bff: 'server/bff/main.ts',
  reader: 'server/service/sandbox/readerChild.ts',
  seed: 'server/service/seed/seedMain.ts',
} as const;
export type EntryName = keyof typeof ENTRIES;

const here = fileURLToPath(import.meta.url);

function findRoot(from: string): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'server'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`the repository root was not found above ${from}`);
  }
}

export const repoRoot = findRoot(here);
export const BUILD_DIR = path.join(repoRoot, '.build');
/** This process runs from a bundle of `.build/` (so the processes it starts do too). */
export const runningFromBundle = here.startsWith(BUILD_DIR + path.sep);

/** A file of the repository (migrations, the dashboard's build). */
export const repoPath = (...parts: string[]) => path.join(repoRoot, ...parts);

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** How to start the process of an entry: its bundle on plain Node, or its source through tsx. */
export function nodeEntry(name: EntryName, fromBundle = runningFromBundle): { script: string; execArgv: string[] } {
  if (fromBundle) return { script: path.join(BUILD_DIR, `${name}.mjs`), execArgv: [] };
  return { script: repoPath(ENTRIES[name]), execArgv: ['--import', TSX] };
}
