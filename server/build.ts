import { buildSync, type BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { NODE_BUNDLE } from './esbuildOptions.mjs';
import { BUILD_DIR, ENTRIES, repoPath, type EntryName } from './lib/entries';

/**
 * Bundles each process's entry into `.build/<name>.mjs` for `npm start` (about a tenth of a second
 * for all; done on every start, so a pull never runs stale code). Packages stay outside the
 * bundles and load from node_modules as usual.
 */

/** The options npm start's own build uses too (server/start.mjs), from the repository's root. */
const COMMON: BuildOptions = { ...NODE_BUNDLE, absWorkingDir: path.dirname(BUILD_DIR) };

export function buildServer(): void {
  buildSync({
    ...COMMON,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, repoPath(source)])),
    outdir: BUILD_DIR,
    outExtension: { '.js': '.mjs' },
  });
}

/**
 * The bundle of one entry, built now from the sources this process runs (tests, `tsx` runs) and
 * named by its content, so processes that build at once share one file and none reads another's
 * half-written one. A reader process run through tsx holds ~200 MB more than its bundle on plain
 * Node (the transpiled pdfjs): tests measured readers against their ceiling that production
 * never sees.
 */
export function bundleOf(name: EntryName): string {
  const out = buildSync({ ...COMMON, entryPoints: [repoPath(ENTRIES[name])], write: false, outfile: path.join(BUILD_DIR, `${name}.mjs`) });
  const code = out.outputFiles[0]!.contents;
  const file = path.join(BUILD_DIR, `${name}.${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(BUILD_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, file);
    pruneOldBundles(name, file);
  }
  return file;
}

/** Bundles of earlier sources, a day old: no process still starts from them. */
function pruneOldBundles(name: EntryName, keep: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const entry of fs.readdirSync(BUILD_DIR)) {
    const file = path.join(BUILD_DIR, entry);
    if (file === keep || !/^[a-z]+\.[0-9a-f]{12}\.mjs$/.test(entry) || !entry.startsWith(`${name}.`)) continue;
    try {
      if (fs.statSync(file).mtimeMs < dayAgo) fs.rmSync(file);
    } catch {
      // Another process pruned it first.
    }
  }
}
