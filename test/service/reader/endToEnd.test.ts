import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeParser, parseLabReport } from '../../../server/service/reader';
import { generateCorpus, type GroundTruth } from '../../fixtures/lab-reports/generate';
import { scoreFile, type FileScore } from '../../fixtures/lab-reports/score';

/**
 * A slice of the generated corpus, parsed end to end and checked against its ground truth: one
 * text PDF per layout, a clean image, degraded scans and a faxed note (each OCR page costs seconds).
 * The whole corpus is scored by `npm run bench:parser`.
 */
const SLICE = ['cp-text-1.pdf', 'io-text-1.pdf', 'gen-text-multipage.pdf', 'cp-image-clean.png', 'io-scan-noisy.jpg', 'gen-scan-faint-decimals.png', 'hospital2-scanned.pdf'];

let dir: string;
let truths: GroundTruth[];
const scores = new Map<string, FileScore>();

async function parse(file: string): Promise<FileScore> {
  return (await parseWithOutcome(file)).score;
}

async function parseWithOutcome(file: string) {
  const truth = truths.find((t) => t.file === file)!;
  const start = performance.now();
  const outcome = await parseLabReport(new Uint8Array(await readFile(path.join(dir, file))));
  const score = scoreFile(truth, outcome, performance.now() - start);
  scores.set(file, score);
  return { score, outcome, truth };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lab-report-slice-'));
  truths = await generateCorpus(dir, SLICE);
});

afterAll(async () => {
  await closeParser();
  await rm(dir, { recursive: true, force: true });
});

describe('text PDFs, one per layout', () => {
  it.each(['cp-text-1.pdf', 'io-text-1.pdf', 'gen-text-multipage.pdf'])('%s: every printed value, unit, analyte and metadata field is read', async (file) => {
    const s = await parse(file);
    expect(s.failed).toBe(false);
    expect(s.wrong).toEqual([]);
    expect(s.correct).toBe(s.gt);
    expect(s.extracted).toBe(s.gt);
    expect(s.loincCorrect).toBe(s.gt);
    expect(s.metadataWrong).toEqual([]);
  });
});

describe('images (OCR)', () => {
  it('a clean image: most values read, and every wrong one is sent to review', { timeout: 180_000 }, async () => {
    const s = await parse('cp-image-clean.png');
    expect(s.failed).toBe(false);
    expect(s.correct / s.gt).toBeGreaterThanOrEqual(0.8);
    expect(s.wrong.filter((w) => w.reasons.length === 0)).toEqual([]);
    expect(s.needsReview).toBe(true);
  });

  it('a noisy, rotated JPEG scan: every wrong value is sent to review', { timeout: 180_000 }, async () => {
    const s = await parse('io-scan-noisy.jpg');
    expect(s.failed).toBe(false);
    expect(s.correct / s.gt).toBeGreaterThanOrEqual(0.6);
    expect(s.wrong.filter((w) => w.reasons.length === 0)).toEqual([]);
  });

  it('a scan whose decimal points are printed too faintly for OCR: the points are read from the shading, and each such value is sent to review', { timeout: 180_000 }, async () => {
    const { score, outcome, truth } = await parseWithOutcome('gen-scan-faint-decimals.png');
    if (!outcome.ok) throw new Error(outcome.failureReason);
    const restored = outcome.data.results.filter((_, i) => outcome.reviewReasons.results[i]!.some((r) => r.message.includes('printed too faintly')));
    // Every value printed with decimals on this page has a faint point; the engine still sees some.
    const printedWithDecimals = (truth.results ?? []).filter((r) => /\d\.\d/.test(r.value));
    expect(restored.length).toBeGreaterThanOrEqual(4);
    for (const r of restored) expect(printedWithDecimals.map((p) => p.value)).toContain(r.value);
    expect(score.correct / score.gt).toBeGreaterThanOrEqual(0.9);
    expect(score.wrong.filter((w) => w.reasons.length === 0)).toEqual([]);
  });

  it('a faxed discharge summary with dot leaders between names and values: the results are read, not the dots', { timeout: 180_000 }, async () => {
    const { score, outcome } = await parseWithOutcome('hospital2-scanned.pdf');
    if (!outcome.ok) throw new Error(outcome.failureReason);
    // Before the leaders were erased, OCR read them as words ("veer ween.", "20") and 10 of 18 were right.
    expect(score.correct / score.gt).toBeGreaterThanOrEqual(0.9);
    expect(score.wrong.filter((w) => w.reasons.length === 0)).toEqual([]);
    expect(outcome.data.results.map((r) => r.test_name)).not.toContainEqual(expect.stringMatching(/\.\.|[a-z]{2,} [a-z]{2,} [a-z]{2,}$/));
  });
});
