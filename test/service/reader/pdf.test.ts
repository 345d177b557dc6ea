import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../server/lib/random';
import { parseLabReport, UNEXPECTED_FAILURE } from '../../../server/service/reader';
import { deeplyNestedPdf } from '../../fixtures/hostileFiles';
import { openPdf, pageText } from '../../../server/service/reader/pdfText';
import { sniffUpload } from '../../../server/service/reader/sniff';
import { brokenPdf, encryptedPdf, textFile } from '../../fixtures/lab-reports/special';

async function simplePdf(lines: [number, number, string][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [x, y, text] of lines) page.drawText(text, { x, y: 792 - y, size: 9, font });
  return doc.save();
}

const tmp = mkdtemp(path.join(os.tmpdir(), 'parser-pdf-'));
afterAll(async () => rm(await tmp, { recursive: true, force: true }));

describe('sniffing uploads by content', () => {
  it('recognises a PDF renamed .png as a PDF', async () => {
    const file = path.join(await tmp, 'report.png');
    await writeFile(file, await simplePdf([[36, 50, 'Glucose 95 mg/dL']]));
    expect(await sniffUpload(new Uint8Array(await readFile(file)))).toBe('pdf');
  });

  it('recognises PNG and JPEG', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(300, 300);
    expect(await sniffUpload(canvas.encodeSync('png'))).toBe('png');
    expect(await sniffUpload(canvas.encodeSync('jpeg', 80))).toBe('jpeg');
  });

  it('rejects a text file called .pdf, an empty file and other formats, with a reason', async () => {
    expect(await sniffUpload(textFile())).toEqual({ rejected: expect.stringMatching(/not a PDF, JPEG or PNG/) });
    expect(await sniffUpload(new Uint8Array())).toEqual({ rejected: 'the file is empty' });
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
    expect(await sniffUpload(gif)).toEqual({ rejected: expect.stringMatching(/image\/gif/) });
  });
});

describe('PDF text extraction', () => {
  it('gives positioned items, top-down, with the font size as height', async () => {
    const doc = await openPdf(await simplePdf([[36, 100, 'Glucose, Fasting'], [200, 100, '95'], [36, 112, 'Sodium   140']]));
    const text = await pageText(await doc.page(1), 1);
    await doc.close();
    expect(text!.items.map((i) => [i.text, Math.round(i.x), Math.round(i.baseline), i.height])).toEqual([
      ['Glucose, Fasting', 36, 100, 9],
      ['95', 200, 100, 9],
      ['Sodium', 36, 112, 9],
      // Wide gaps inside one string are column gaps: split there.
      ['140', expect.any(Number), 112, 9],
    ]);
  });

  it('reports a page without text (a scan) as needing OCR', async () => {
    const doc = await openPdf(await simplePdf([]));
    expect(await pageText(await doc.page(1), 1)).toBeNull();
    await doc.close();
  });
});

describe('PDFs that cannot be parsed fail with a reason, never a crash', () => {
  it('a PDF built to overflow the reader\'s stack: a sentence for the reviewer, never the engine\'s own message', async () => {
    const outcome = await parseLabReport(deeplyNestedPdf(100_000));
    expect(outcome).toEqual({ ok: false, failureReason: UNEXPECTED_FAILURE });
    if (!outcome.ok) expect(outcome.failureReason).not.toMatch(/stack|Maximum|exceeded|Error/);
  });

  it('a broken PDF', async () => {
    expect(await parseLabReport(brokenPdf(seededRandom(1)))).toEqual({ ok: false, failureReason: 'The file is not a valid PDF (its structure could not be read).' });
  });

  it('an encrypted PDF', async () => {
    expect(await parseLabReport(encryptedPdf(seededRandom(2)))).toEqual({
      ok: false,
      failureReason: 'The PDF is encrypted (password-protected); upload a copy without a password.',
    });
  });

  it('a truncated PDF', async () => {
    const full = await simplePdf([[36, 100, 'Glucose'], [200, 100, '95']]);
    const outcome = await parseLabReport(full.slice(0, Math.floor(full.length / 3)));
    if (outcome.ok) expect(outcome.needsReview).toBe(true);
    else expect(outcome.failureReason).toMatch(/PDF/);
  });

  it('something that is not a report file at all', async () => {
    expect(await parseLabReport(textFile())).toEqual({ ok: false, failureReason: expect.stringMatching(/not a PDF, JPEG or PNG/) });
  });

  it('an abort rejects with the signal\'s reason (so a job runner can retry)', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(parseLabReport(await simplePdf([[36, 100, 'Glucose']]), { signal: controller.signal })).rejects.toThrow('shutting down');
  });
});
