/**
 * A build step (a Vite plugin, run after the bundle is written): a brotli (.br) and a gzip (.gz)
 * copy beside every compressible file of dist/ of at least 1 KB, each kept only when it is smaller
 * than the original. The BFF's static files plugin (`preCompressed: true`, server/bff/app.ts) picks
 * one by the request's Accept-Encoding, so nothing is compressed per request and the best
 * compression levels cost only build time (about 5 s, most of it pdf.js's worker).
 *
 * Written here rather than taken from a plugin package: a dozen lines over node:zlib, and the
 * maintained Vite compression plugins do not all declare Vite 8 support yet.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats only: images, fonts and archives are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|wasm|xml|webmanifest)$/i;
export const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes the .br and .gz siblings of one file; returns how many it wrote. */
export async function precompressFile(file: string): Promise<number> {
  const raw = await readFile(file);
  if (raw.length < MIN_BYTES) return 0;
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  let written = 0;
  for (const [ext, bytes] of [['.br', br], ['.gz', gz]] as const) {
    if (bytes.length >= raw.length) continue;
    await writeFile(file + ext, bytes);
    written += 1;
  }
  return written;
}

/** Compresses every eligible file under `dir` (not already a .br or .gz). */
export async function precompressDir(dir: string): Promise<number> {
  const files: string[] = [];
  for await (const file of filesUnder(dir)) if (COMPRESSIBLE.test(file)) files.push(file);
  const counts = await Promise.all(files.map(precompressFile));
  return counts.reduce((a, b) => a + b, 0);
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'labdesk:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const written = await precompressDir(outDir);
      this.info(`precompressed: ${written} .br/.gz files in ${path.relative(process.cwd(), outDir) || '.'}`);
    },
  };
}
