import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLabReport } from '../../server/service/reader';
import { ReaderPool, ReaderPoolClosed } from '../../server/service/sandbox/readerPool';
import { generateCorpus } from '../fixtures/lab-reports/generate';
import { blankPagesPdf, inflationBombPdf, wideImagePdf, widePng } from '../fixtures/hostileFiles';

/**
 * Untrusted documents are read in reader processes with limits: the hostile files of the hardening
 * issue (each took the service to gigabytes or blocked it for minutes) fail with a sentence a
 * reviewer understands, the readers stay small, and a reader that breaks a limit is stopped while
 * the pool goes on reading.
 */

const MB = 1024 * 1024;
const stand = (name: string) => fileURLToPath(new URL(`../fixtures/readers/${name}.ts`, import.meta.url));
const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe('the reader pool on real and hostile documents', () => {
  const pool = new ReaderPool({ size: 2, idleMs: 1500 });
  let dir: string;
  afterAll(async () => {
    await pool.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'reader-pool-'));
    await generateCorpus(dir, ['cp-text-1.pdf']);
  });

  it('reads a lab report in a reader process exactly as the parser library does in-process', async () => {
    const bytes = new Uint8Array(await readFile(path.join(dir, 'cp-text-1.pdf')));
    const progress: number[] = [];
    const outcome = await pool.parse(bytes, { onProgress: (f) => progress.push(f) });
    expect(outcome.ok).toBe(true);
    expect(outcome).toEqual(await parseLabReport(bytes));
    if (outcome.ok) expect(outcome.data.results.length).toBeGreaterThan(5);
    expect(progress.length).toBeGreaterThan(1);
  });

  it('refuses a 2.9 KB PNG of 12000 × 200 pixels before decoding it, in a sentence', async () => {
    const outcome = await pool.parse(await widePng(12_000, 200));
    expect(outcome).toEqual({ ok: false, failureReason: expect.stringMatching(/^The image \(12000 × 200 pixels\) is too long and narrow .* 375 million pixels.*16 million\.$/) });
  });

  it('refuses an image-only PDF page of 14400 × 400 points before rendering it', async () => {
    const outcome = await pool.parse(await wideImagePdf(14_400, 400));
    expect(outcome).toEqual({ ok: false, failureReason: expect.stringMatching(/^Page 1 is 14400 × 400 points; pages larger than 3000 points .* are not read/) });
  });

  it('refuses a 1 MB PDF whose content stream inflates to 1 GB, without inflating it', async () => {
    const bomb = await inflationBombPdf(1024 * MB);
    expect(bomb.length).toBeLessThan(2 * MB);
    const outcome = await pool.parse(bomb);
    expect(outcome).toEqual({ ok: false, failureReason: expect.stringMatching(/^The PDF holds a compressed stream that expands to more than 64 MB/) });
  });

  it('reads 40 blank pages without OCR and without holding each page in memory', async () => {
    const outcome = await pool.parse(await blankPagesPdf(40));
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.stats).toMatchObject({ pages: 40, ocrPages: 0 });
      expect(outcome.reviewReasons.report.map((r) => r.code)).toContain('no_results');
    }
  });

  it('kept every reader under its memory ceiling on all of the above', () => {
    const stats = pool.stats();
    expect(stats.stoppedForMemory).toBe(0);
    expect(stats.crashed).toBe(0);
    expect(stats.peakReaderBytes).toBeGreaterThan(0); // measured (Linux /proc)
    expect(stats.peakReaderBytes).toBeLessThan(600 * MB);
  });

  it('lets idle readers exit, so the OCR engine and pdfjs are not held at rest', async () => {
    expect(await waitFor(() => pool.stats().running === 0)).toBe(true);
  });
});

describe('the watchdog', () => {
  it('kills a reader past its memory ceiling, fails that document with a reason, and goes on reading', async () => {
    const pool = new ReaderPool({ size: 1, memoryLimitBytes: 300 * MB, childScript: stand('greedy') });
    try {
      const outcome = await pool.parse(new Uint8Array([1]));
      expect(outcome).toEqual({
        ok: false,
        failureReason: expect.stringMatching(/^Reading the report needed more than 300 MB of memory \(at page 1 of 3\), so it was stopped\./),
      });
      expect(pool.stats()).toMatchObject({ stoppedForMemory: 1, running: 0 });
      // The pool starts a new reader for the next document.
      expect((await pool.parse(new Uint8Array([1]))).ok).toBe(false);
      expect(pool.stats().stoppedForMemory).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('stops a page that takes too long, even when the reader never yields', async () => {
    const pool = new ReaderPool({ size: 1, pageTimeMs: 1000, childScript: stand('stuck') });
    try {
      const started = Date.now();
      const outcome = await pool.parse(new Uint8Array([1]));
      expect(outcome).toEqual({ ok: false, failureReason: expect.stringMatching(/^Page 2 took longer than 1 s to read, so reading was stopped\./) });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(pool.stats()).toMatchObject({ stoppedForTime: 1, running: 0 });
    } finally {
      await pool.close();
    }
  });

  it('stops a document past its own time limit', async () => {
    const pool = new ReaderPool({ size: 1, pageTimeMs: 60_000, jobTimeMs: 1000, childScript: stand('stuck') });
    try {
      const outcome = await pool.parse(new Uint8Array([1]));
      expect(outcome).toEqual({ ok: false, failureReason: expect.stringMatching(/^Reading the report took longer than 1 s \(at page 2 of 2\)/) });
    } finally {
      await pool.close();
    }
  });

  it('turns a crashed reader into a failed document with a reason, never a stack message', async () => {
    const pool = new ReaderPool({ size: 1, childScript: stand('crashing') });
    try {
      const outcome = await pool.parse(new Uint8Array([1]));
      expect(outcome).toEqual({ ok: false, failureReason: expect.stringMatching(/^The reader stopped unexpectedly while reading the report; the file may be damaged\./) });
      expect(pool.stats().crashed).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('abandons documents in flight when the service shuts down, so they are read again after the restart', async () => {
    const pool = new ReaderPool({ size: 1, pageTimeMs: 60_000, childScript: stand('stuck') });
    const parsing = pool.parse(new Uint8Array([1])).catch((err: unknown) => err);
    await waitFor(() => pool.stats().busy === 1);
    await new Promise((r) => setTimeout(r, 300));
    await pool.close();
    expect(await parsing).toBeInstanceOf(ReaderPoolClosed);
    await expect(pool.parse(new Uint8Array([1]))).rejects.toBeInstanceOf(ReaderPoolClosed);
  });

  it('abandons a document whose reader is still starting when the service shuts down (a busy machine)', async () => {
    const pool = new ReaderPool({ size: 1, pageTimeMs: 60_000, childScript: stand('stuck') });
    const parsing = pool.parse(new Uint8Array([1])).catch((err: unknown) => err);
    await waitFor(() => pool.stats().busy === 1);
    await pool.close();
    expect(await parsing).toBeInstanceOf(ReaderPoolClosed);
  });
});
