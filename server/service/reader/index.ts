import { ParseFailure, throwIfAborted, withTimeout } from './failure';
import { decodeImage, prepareForOcr } from './imagePrep';
import { interpret } from './interpret';
import { readKeyValueBlocks } from './keyValueBlocks';
import { OcrBudget } from './limits';
import { analyteOfCode, matchLoinc, PRINTED_ONLY_CODES } from './loinc';
import { extractMetadata } from './metadata';
import { readNarrative } from './narrative';
import { rangeWordRepaired } from './ocrRangeWord';
import { closeOcr, recognizePage } from './ocr';
import { openPdf, pageText } from './pdfText';
import { renderPage } from './pdfRender';
import { reviewReport, reviewResult } from './reviewReasons';
import { consistencyReasons } from './consistency';
import { withDecimalPoints } from './decimalComma';
import { buildRows, withoutRestoredPoints } from './rows';
import { sniffUpload } from './sniff';
import { readTables, type RawResult } from './tableReader';
import { readTransposed } from './transposedTable';
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
export const UNEXPECTED_FAILURE =
  'The report could not be read: the file is damaged or laid out in a way the reader does not handle. Upload a new copy of the report, or a scan or photo of it.';

/** Reasons are shown to reviewers as they are: a capital letter and a full stop. */
export function sentence(reason: string): string {
  const text = reason.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

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
    const work = run(bytes, progress, signal, opts.onPage ?? (() => {}));
    const outcome = await withTimeout(abortable(work, signal), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'parsing the report');
    progress(1, 'done');
    return outcome;
  } catch (err) {
    if (signal?.aborted) throw signal.reason ?? err;
    if (err instanceof ParseFailure) return { ok: false, failureReason: sentence(err.reason) };
    // A bug or an unexpected library error: still an answer, never a crash of the job runner, and
    // never the library's own words (a stack message means nothing to a reviewer).
    return { ok: false, failureReason: UNEXPECTED_FAILURE };
  }
}

/** Stops the OCR worker (process shutdown, end of tests). Parsing again starts a new one. */
export async function closeParser(): Promise<void> {
  await closeOcr();
}

type Progress = (fraction: number, stage: ParseStage) => void;

type OnPage = (pageNumber: number, pageCount: number) => void;

async function run(bytes: Uint8Array, progress: Progress, signal: AbortSignal | undefined, onPage: OnPage): Promise<ParseOutcome> {
  progress(0, 'sniff');
  const kind = await sniffUpload(bytes);
  if (typeof kind === 'object') throw new ParseFailure(kind.rejected);
  progress(0.02, 'extract');

  const budget = new OcrBudget();
  const printed: PageText[] =
    kind === 'pdf' ? await pdfPages(bytes, progress, signal, budget, onPage) : [await imagePage(bytes, progress, budget, onPage)];
  // "4,2 mmol/l": a report printed with decimal commas is read with points, as every consumer reads numbers.
  const pages = withDecimalPoints(printed);
  throwIfAborted(signal);

  progress(0.9, 'read');
  const table = readTables(pages.map(buildRows));
  // Flowsheets: a table on its side, one column per analyte.
  const transposed = readTransposed(table.otherRows);
  table.results.push(...transposed.results);
  table.newestCollection ??= transposed.newestCollection;
  table.unreadRows += transposed.unreadRows;
  // Results exported as "Component: / Value: / Units:" blocks (EHR exports), outside the tables.
  const blocks = readKeyValueBlocks(table.otherRows.filter((row) => !transposed.used.has(row)));
  table.results.push(...blocks.results);
  const rest = table.otherRows.filter((row) => !transposed.used.has(row) && !blocks.used.has(row));
  // Results written as sentences or bullets, outside the tables (letters, portal printouts).
  table.results.push(...readNarrative(rest, table.results));
  const { metadata, missing } = extractMetadata(rest.map(withoutRestoredPoints));
  // A cumulative report's results are those of its newest collection: its date and accession are the report's.
  if (table.newestCollection) {
    metadata.date_collected = table.newestCollection.date;
    if (table.newestCollection.accession) metadata.specimen_number = table.newestCollection.accession;
  }

  progress(0.95, 'match');
  const results: LabReportResult[] = [];
  const reasons: ReviewReason<ResultReviewCode>[][] = [];
  const matched: Parameters<typeof consistencyReasons>[0] = [];
  for (const raw of table.results) {
    const loinc = matchLoinc(raw.testName, {
      units: raw.units,
      panel: raw.panel,
      qualitativeValue: raw.value.kind === 'qualitative',
      ocr: raw.source === 'ocr',
    });
    // The lab's own code, printed beside the name, says which LOINC term the result is.
    if (raw.printedLoinc) takePrintedCode(loinc, raw);
    colonAsPoint(raw, loinc);
    rangeWordRepaired(raw, loinc);
    const interpreted = interpret(raw, metadata.gender);
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

/**
 * "7:9 %" for Monocytes, "1:2" for an albumin/globulin ratio: OCR reads a decimal point as a
 * colon, and a test that is reported as a plain number is never a titer. The point is put back
 * (the value as printed) and the result goes to review, since the reading was repaired.
 */
export function colonAsPoint(raw: RawResult, loinc: ReturnType<typeof matchLoinc>): void {
  const m = /^(\d{1,4}):(\d{1,3})$/.exec(raw.value.value);
  if (raw.source !== 'ocr' || raw.value.kind !== 'ratio' || !m || loinc.analyte?.results !== 'quantitative' || loinc.ambiguous) return;
  raw.value = { ...raw.value, value: `${m[1]}.${m[2]}`, kind: 'numeric' };
  raw.problems = [
    ...raw.problems,
    { code: 'decimal_suspect', message: `The value was read as ${m[1]}:${m[2]}; a colon is no part of this test's results, so it was taken for a decimal point: check it against the page.` },
  ];
}

/**
 * A LOINC column: the printed code (check digit verified when read) is the result's code. Where
 * it is a code of the analyte the name matched (another property or timing, "Fasting glucose
 * [Moles/volume]" beside "Glucose"), it replaces the matched code; where it names another analyte
 * than the name does, name and code disagree and a person decides.
 */
function takePrintedCode(loinc: ReturnType<typeof matchLoinc>, raw: RawResult): void {
  const code = raw.printedLoinc!;
  const analyte = loinc.analyte;
  const known = analyteOfCode(code);
  if (known && analyte && known !== analyte) {
    raw.problems.push({ code: 'loinc_ambiguous', message: `The LOINC code printed beside the test (${code}) is not the code of the test its name names.` });
    return;
  }
  if (!known && !analyte) return;
  const of = (known ?? analyte)!;
  const name = PRINTED_ONLY_CODES[code] ?? of.units.find((u) => u.loinc?.code === code)?.loinc?.name ?? of.name;
  loinc.matches = [{ loinc_code: code, loinc_name: name, display_name: of.display, aliases: of.aliases, confidence_score: 0.99 }];
  loinc.ambiguous = false;
  loinc.analyte = of;
}

/** Text layer where there is one; pages without text (scans) are rendered and OCR'd. */
async function pdfPages(bytes: Uint8Array, progress: Progress, signal: AbortSignal | undefined, budget: OcrBudget, onPage: OnPage): Promise<PageText[]> {
  const doc = await openPdf(bytes);
  try {
    const pages: PageText[] = [];
    for (let n = 1; n <= doc.pageCount; n++) {
      throwIfAborted(signal);
      onPage(n, doc.pageCount);
      // A turn of the event loop between pages: the native memory of the last page's canvases is
      // released by finalizers that run there, not while this loop keeps the microtask queue busy.
      await new Promise((resolve) => setImmediate(resolve));
      const page = await doc.page(n);
      const text = await pageText(page, n);
      if (text) {
        pages.push(text);
      } else {
        progress(0.02 + (0.88 * (n - 1)) / doc.pageCount, 'ocr');
        const { canvas, dpi } = await renderPage(page, n);
        const prepared = await prepareForOcr(canvas, budget, n, `Page ${n}`);
        pages.push(prepared.blank ? blankPage(n, prepared) : await recognizePage(prepared, n, Math.round(dpi * prepared.scale)));
      }
      page.cleanup();
      progress(0.02 + (0.88 * n) / doc.pageCount, 'extract');
    }
    return pages;
  } finally {
    await doc.close().catch(() => {});
  }
}

async function imagePage(bytes: Uint8Array, progress: Progress, budget: OcrBudget, onPage: OnPage): Promise<PageText> {
  onPage(1, 1);
  const canvas = await decodeImage(bytes);
  const prepared = await prepareForOcr(canvas, budget, 1, 'The image');
  progress(0.1, 'ocr');
  return prepared.blank ? blankPage(1, prepared) : recognizePage(prepared, 1);
}

/** A page without ink: no text to read, and no OCR run spent finding that out. */
function blankPage(page: number, size: { width: number; height: number }): PageText {
  return { page, width: size.width, height: size.height, source: 'text', items: [] };
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
