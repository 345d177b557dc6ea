import { errorText, ParseFailure, throwIfAborted, withTimeout } from './failure';
import { decodeImage, prepareForOcr } from './imagePrep';
import { interpret } from './interpret';
import { matchLoinc } from './loinc';
import { extractMetadata } from './metadata';
import { closeOcr, recognizePage } from './ocr';
import { openPdf, pageText } from './pdfText';
import { RENDER_DPI, renderPage } from './pdfRender';
import { reviewReport, reviewResult } from './review';
import { consistencyReasons } from './consistency';
import { buildRows } from './rows';
import { sniffUpload } from './sniff';
import { readTables } from './tableReader';
import type { LabReportResult, PageText, ParseOptions, ParseOutcome, ParseStage, ResultReviewCode, ReviewReason } from './types';

/**
 * The lab-report parser as a library: bytes in, extracted report out, with the reasons a
 * person must review it. No HTTP, no database: the job runner calls parseLabReport and stores
 * the outcome.
 *
 * Failures (not a PDF/JPEG/PNG, broken or encrypted PDF, undecodable image, timeouts) resolve
 * as `{ok: false, failureReason}` and never throw; only an abort through `opts.signal`
 * rejects (with the signal's reason), so a runner shutting down can retry the job later.
 */

export type * from './types';
export { sniffUpload } from './sniff';

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export async function parseLabReport(bytes: Uint8Array, opts: ParseOptions = {}): Promise<ParseOutcome> {
  const { signal } = opts;
  throwIfAborted(signal);
  let last = 0;
  const progress = (fraction: number, stage: ParseStage) => {
    last = Math.max(last, Math.min(1, fraction));
    try {
      opts.onProgress?.(last, stage);
    } catch {
      /* a failing progress callback must not fail the parse */
    }
  };
  try {
    const work = run(bytes, progress, signal);
    const outcome = await withTimeout(abortable(work, signal), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'parsing the report');
    progress(1, 'done');
    return outcome;
  } catch (err) {
    if (signal?.aborted) throw signal.reason ?? err;
    if (err instanceof ParseFailure) return { ok: false, failureReason: err.reason };
    // A bug or an unexpected library error: still an answer, never a crash of the job runner.
    return { ok: false, failureReason: `the report could not be parsed: ${errorText(err)}` };
  }
}

/** Stops the OCR worker (process shutdown, end of tests). Parsing again starts a new one. */
export async function closeParser(): Promise<void> {
  await closeOcr();
}

type Progress = (fraction: number, stage: ParseStage) => void;

async function run(bytes: Uint8Array, progress: Progress, signal: AbortSignal | undefined): Promise<ParseOutcome> {
  progress(0, 'sniff');
  const kind = await sniffUpload(bytes);
  if (typeof kind === 'object') throw new ParseFailure(kind.rejected);
  progress(0.02, 'extract');

  const pages: PageText[] = kind === 'pdf' ? await pdfPages(bytes, progress, signal) : [await imagePage(bytes, progress)];
  throwIfAborted(signal);

  progress(0.9, 'read');
  const table = readTables(pages.map(buildRows));
  const { metadata, missing } = extractMetadata(table.otherRows);

  progress(0.95, 'match');
  const results: LabReportResult[] = [];
  const reasons: ReviewReason<ResultReviewCode>[][] = [];
  const matched: Parameters<typeof consistencyReasons>[0] = [];
  for (const raw of table.results) {
    const interpreted = interpret(raw);
    const loinc = matchLoinc(raw.testName, {
      units: raw.units,
      panel: raw.panel,
      qualitativeValue: raw.value.kind === 'qualitative',
      ocr: raw.source === 'ocr',
    });
    if (loinc.unitCorrected) {
      // An OCR misreading of one of the analyte's own units: report the unit, not the misreading.
      raw.units = loinc.unitCorrected;
      interpreted.result.units = loinc.unitCorrected;
    }
    const result: LabReportResult = { ...interpreted.result };
    if (loinc.matches.length) result.loinc_matches = loinc.matches;
    results.push(result);
    reasons.push(reviewResult({ raw, interpreted, loinc }));
    matched.push({ raw, loinc });
  }
  consistencyReasons(matched).forEach((extra, i) => reasons[i]!.push(...extra));

  progress(0.98, 'review');
  const ocrPages = pages.filter((p) => p.source === 'ocr');
  const meanOcrConfidence = ocrPages.length ? ocrPages.reduce((s, p) => s + (p.ocrConfidence ?? 0), 0) / ocrPages.length : null;
  const report = reviewReport({ resultCount: results.length, missingMetadata: missing, unreadRows: table.unreadRows, meanOcrConfidence });
  return {
    ok: true,
    data: { metadata, results },
    reviewReasons: { results: reasons, report },
    needsReview: report.length > 0 || reasons.some((r) => r.length > 0),
    stats: {
      pages: pages.length,
      ocrPages: ocrPages.length,
      meanOcrConfidence: meanOcrConfidence === null ? null : Math.round(meanOcrConfidence * 10) / 10,
    },
  };
}

/** Text layer where there is one; pages without text (scans) are rendered and OCR'd. */
async function pdfPages(bytes: Uint8Array, progress: Progress, signal: AbortSignal | undefined): Promise<PageText[]> {
  const doc = await openPdf(bytes);
  try {
    const pages: PageText[] = [];
    for (let n = 1; n <= doc.pageCount; n++) {
      throwIfAborted(signal);
      const page = await doc.page(n);
      const text = await pageText(page, n);
      if (text) {
        pages.push(text);
      } else {
        progress(0.02 + (0.88 * (n - 1)) / doc.pageCount, 'ocr');
        const canvas = await renderPage(page, n);
        const prepared = await prepareForOcr(canvas);
        pages.push(await recognizePage(prepared.png, n, prepared, Math.round(RENDER_DPI * prepared.scale)));
      }
      page.cleanup();
      progress(0.02 + (0.88 * n) / doc.pageCount, 'extract');
    }
    return pages;
  } finally {
    await doc.close().catch(() => {});
  }
}

async function imagePage(bytes: Uint8Array, progress: Progress): Promise<PageText> {
  const canvas = await decodeImage(bytes);
  const prepared = await prepareForOcr(canvas);
  progress(0.1, 'ocr');
  return recognizePage(prepared.png, 1, prepared);
}

/** Rejects as soon as the signal aborts, even while a long step (OCR) is still running. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
