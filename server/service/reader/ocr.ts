import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'tesseract.js';
import { restoreDecimalPoint, type GreyImage } from './decimalPoints';
import { ParseFailure, withTimeout } from './failure';
import { loadCanvas, paintGrey, toGrey, toPgm, type PreparedPage } from './imagePrep';
import type { LeaderBand } from './leaderDots';
import { restoreLostI } from './lostLetters';
import type { PageText, TextItem } from './types';

/**
 * OCR with tesseract.js, strictly offline: the English LSTM model comes from the installed
 * @tesseract.js-data/eng package (gzip), the engine from tesseract.js-core; nothing is fetched
 * and nothing is cached outside a temp directory.
 *
 * One worker (a thread running the WebAssembly engine, ~100 MB) is created on first use and
 * reused: creating one costs about a second, and the machine has few cores to share, so pages
 * are recognised one at a time. A worker that fails or hangs is terminated and replaced on the
 * next call. `closeOcr()` stops it (process shutdown, tests).
 */

const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
const CACHE_PATH = path.join(os.tmpdir(), 'labdesk-tesseract');

const CREATE_TIMEOUT_MS = 30_000;
const RECOGNIZE_TIMEOUT_MS = 90_000;

let worker: Promise<Worker> | undefined;
/** Recognitions run one after another on the one worker. */
let queue: Promise<unknown> = Promise.resolve();

function getWorker(): Promise<Worker> {
  if (!worker) {
    const starting = (async () => {
      mkdirSync(CACHE_PATH, { recursive: true });
      const { createWorker, OEM } = await import('tesseract.js');
      const w = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: LANG_PATH,
        gzip: true,
        cachePath: CACHE_PATH,
        // Read the model from langPath every time a worker starts; never write a cache copy.
        cacheMethod: 'none',
        logger: () => {},
        // tesseract.js would otherwise throw the worker's error where nothing catches it.
        errorHandler: () => {},
      });
      return w;
    })();
    worker = withTimeout(starting, CREATE_TIMEOUT_MS, 'starting the OCR engine', () => {
      void starting.then((w) => w.terminate()).catch(() => {});
    });
    worker.catch(() => {
      worker = undefined;
    });
  }
  return worker;
}

async function dropWorker() {
  const w = worker;
  worker = undefined;
  if (w) await w.then((x) => x.terminate()).catch(() => {});
}

/** Stops the OCR worker; the next OCR call starts a new one. */
export async function closeOcr(): Promise<void> {
  await queue.catch(() => {});
  await dropWorker();
}

export interface OcrPage extends PageText {
  source: 'ocr';
  ocrConfidence: number;
}

/**
 * OCR of one page image (already cleaned up by imagePrep). Words come back with
 * boxes, the baseline of their line and the lowest confidence of their characters, as
 * TextItems in pixels, so the same row/column reader as for PDF text applies.
 */
export function recognizePage(page: PreparedPage, pageNumber: number, dpi?: number): Promise<OcrPage> {
  const run = queue.then(() => recognizeNow(page, pageNumber, dpi));
  queue = run.catch(() => {});
  return run;
}

async function recognizeNow(prepared: PreparedPage, pageNumber: number, dpi?: number): Promise<OcrPage> {
  const size = { width: prepared.width, height: prepared.height };
  // A blank page has nothing to read (the reader does not send one here).
  if (!prepared.grey) return { page: pageNumber, ...size, source: 'ocr', items: [], ocrConfidence: 0 };
  const image = toPgm(prepared.grey, size.width, size.height);
  let w: Worker;
  try {
    w = await getWorker();
  } catch (err) {
    throw new ParseFailure(err instanceof ParseFailure ? err.reason : `the OCR engine could not start, so page ${pageNumber} was not read; upload the report again later`);
  }
  try {
    const job = (async () => {
      // Tesseract guesses the resolution otherwise (and says so on stdout). For a photo or scan the
      // width of a letter-size page (8.5 in) is the best guess there is.
      const resolution = dpi ?? Math.round(Math.min(size.width, size.height) / 8.5);
      await w.setParameters({ user_defined_dpi: String(Math.max(70, Math.min(1200, resolution))) });
      // rotateAuto straightens slightly skewed scans so table rows stay rows.
      return w.recognize(image, { rotateAuto: true }, { blocks: true, text: false });
    })();
    const { data } = await withTimeout(job, RECOGNIZE_TIMEOUT_MS, `OCR of page ${pageNumber}`, () => void dropWorker());
    const radians = data.rotateRadians ?? 0;
    const page = toPage(data, pageNumber, size, await straightened(prepared.grey, size, radians));
    return { ...page, items: withLeaders(page.items, prepared.leaders ?? [], size, radians) };
  } catch (err) {
    await dropWorker();
    if (err instanceof ParseFailure) throw err;
    // The engine's own words (a stack message, an internal error) mean nothing to a reviewer.
    throw new ParseFailure(`page ${pageNumber} could not be read by OCR (the image may be damaged)`);
  }
}

type TesseractPage = Awaited<ReturnType<Worker['recognize']>>['data'];

/**
 * The grey page in the engine's frame, where its word boxes are: the page as prepared, turned
 * by the angle the engine straightened it by (about its centre, the same size, white brought in,
 * as the engine does it).
 */
async function straightened(grey: Uint8Array, size: { width: number; height: number }, radians: number): Promise<GreyImage> {
  const { width, height } = size;
  if (!radians) return { width, height, data: grey };
  const { createCanvas } = await loadCanvas();
  const source = createCanvas(width, height);
  const rgba = source.getContext('2d').createImageData(width, height);
  paintGrey(rgba.data, grey);
  source.getContext('2d').putImageData(rgba, 0, 0);
  const turned = createCanvas(width, height);
  const ctx = turned.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.translate(width / 2, height / 2);
  ctx.rotate(radians);
  ctx.translate(-width / 2, -height / 2);
  ctx.drawImage(source, 0, 0);
  return { width, height, data: toGrey(ctx.getImageData(0, 0, width, height).data) };
}

export function toPage(data: TesseractPage, pageNumber: number, size: { width: number; height: number }, grey?: GreyImage): OcrPage {
  const items: TextItem[] = [];
  let confSum = 0;
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const { x0, y0, x1, y1 } = line.baseline;
        const slope = x1 !== x0 ? (y1 - y0) / (x1 - x0) : 0;
        // rowHeight is about the font size (ascender to descender) of the line's text; a box's rule
        // taken into the line (a tall "|" or "=") stretches both, so its words' own height caps it:
        // an inflated em merges the lines of a boxed patient block into one row.
        const wordHeights = line.words.filter((w) => /[\p{L}\p{N}]{2}/u.test(w.text)).map((w) => w.bbox.y1 - w.bbox.y0).sort((a, b) => a - b);
        const wordHeight = wordHeights[wordHeights.length >> 1];
        const em = Math.min(Math.max(line.rowAttributes?.rowHeight ?? 0, (line.bbox.y1 - line.bbox.y0) * 0.8, 8), wordHeight ? Math.max(1.5 * wordHeight, 8) : Infinity);
        for (const word of line.words) {
          let text = word.text.trim();
          if (!text) continue;
          const restored = grey && restoreDecimalPoint({ ...word, text }, grey);
          if (restored) text = restored;
          // A unit's swallowed letter changes no value: the unit is read as printed, without review.
          const unit = grey && restoreLostI({ ...word, text }, grey);
          if (unit) text = unit;
          const cx = (word.bbox.x0 + word.bbox.x1) / 2;
          const symbolMin = word.symbols.length ? Math.min(...word.symbols.map((s) => s.confidence)) : word.confidence;
          // Character confidences of the LSTM engine stay high even on misreads; the word's
          // confidence is the one that drops (calibrated on the corpus), so take the lower.
          const confidence = Math.min(symbolMin, word.confidence);
          confSum += word.confidence;
          items.push({
            text,
            x: word.bbox.x0,
            y: word.bbox.y0,
            baseline: y0 + slope * (cx - x0),
            width: word.bbox.x1 - word.bbox.x0,
            height: em,
            page: pageNumber,
            source: 'ocr',
            confidence,
            ...(restored ? { unrestoredText: word.text.trim() } : {}),
          });
        }
      }
    }
  }
  return {
    page: pageNumber,
    width: size.width,
    height: size.height,
    source: 'ocr',
    items,
    ocrConfidence: items.length ? confSum / items.length : 0,
  };
}

/**
 * The leaders erased before OCR (leaderDots.ts), back as words where they were: a run of dots
 * links a name to its value as it does in a text layer. What the engine still read inside a
 * leader's span (faint dots too light to erase, read as "es" or ". .") is the leader's, not text.
 */
export function withLeaders(items: TextItem[], bands: LeaderBand[], size: { width: number; height: number }, radians: number): TextItem[] {
  if (!bands.length) return items;
  // Boxes are in the engine's frame: turned about the page's centre by the angle it straightened by.
  const [cx, cy, cos, sin] = [size.width / 2, size.height / 2, Math.cos(radians), Math.sin(radians)];
  const turn = (x: number, y: number) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos] as const;
  // Words by baseline, so each leader looks only at the words near its own line.
  const sorted = [...items].sort((a, b) => a.baseline - b.baseline);
  const reach = Math.max(0, ...items.map((i) => i.height));
  const near = (baseline: number) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.baseline < baseline - reach) lo = mid + 1;
      else hi = mid;
    }
    const out: TextItem[] = [];
    for (let k = lo; k < sorted.length && sorted[k]!.baseline <= baseline + reach; k++) out.push(sorted[k]!);
    return out;
  };
  const dropped = new Set<TextItem>();
  const rewritten = new Map<TextItem, TextItem>();
  const leaders: TextItem[] = [];
  for (const band of bands) {
    const [x0, y0] = turn(band.x0, band.y1);
    const [x1, y1] = turn(band.x1, band.y1);
    const baseline = (y0 + y1) / 2;
    const candidates = near(baseline);
    // The line the leader sits on: the word whose baseline is nearest, within half its height.
    let line: TextItem | undefined;
    for (const item of candidates) {
      const d = Math.abs(item.baseline - baseline);
      if (d <= item.height / 2 && (!line || d < Math.abs(line.baseline - baseline))) line = item;
    }
    if (!line) continue;
    const onLine = line;
    const sameLine = (item: TextItem) => Math.abs(item.baseline - onLine.baseline) <= onLine.height / 2;
    const centre = (item: TextItem) => item.x + item.width / 2;
    for (const item of candidates) {
      if (!sameLine(item)) continue;
      // Inside: centred within the leader, or marks only ("--", ":") touching its ends.
      const inside = (centre(item) > x0 && centre(item) < x1) || (/^[-—–=~_.·…«»,'"`:;|]+$/.test(item.text) && item.x + item.width > x0 - onLine.height / 2 && item.x < x1 + onLine.height / 3);
      if (inside) dropped.add(item);
      // The leader's last dots, read glued to the value after it ("..3.9"), are the leader's too.
      // Where what is left has no point ("..85"), one of the dots may have been the value's own
      // (".85"): the engine's reading is then in doubt.
      else if (item.x >= x0 && item.x <= x1 + onLine.height && /^[.,·]{2,}\d/.test(item.text)) {
        const text = item.text.replace(/^[.,·]+/, '');
        rewritten.set(item, { ...item, text, ...(/[.,]/.test(text) ? {} : { confidence: Math.min(item.confidence ?? 100, 50) }) });
      }
    }
    leaders.push({
      text: band.dash ? '- - - - -' : '..........',
      x: x0,
      y: onLine.baseline - onLine.height * 0.8,
      baseline: onLine.baseline,
      width: x1 - x0,
      height: onLine.height,
      page: onLine.page,
      source: 'ocr',
      confidence: 100,
    });
  }
  const out = items.filter((item) => !dropped.has(item)).map((item) => rewritten.get(item) ?? item);
  return [...out, ...leaders].sort((a, b) => a.baseline - b.baseline || a.x - b.x);
}
