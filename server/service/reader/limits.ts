import { ParseFailure } from './failure';

/**
 * What the reader spends on one untrusted document, in one place. Each limit is checked before
 * the memory or time it guards is spent (a header announces an image's size before it is
 * decoded; a page's size in points before it is rendered; a stream's inflated size while it is
 * inflated), so a 3 KB file cannot make the reader allocate gigabytes. The sandbox (parsing
 * pool) adds a memory ceiling and a watchdog behind these, for whatever slips past them.
 *
 * Failure reasons are sentences a reviewer can act on: they name the limit and the file's size
 * against it, never an internal message.
 */

/** Pixels a page may occupy once scaled for OCR (a letter page at OCR size is ~8 million). */
export const MAX_PAGE_PIXELS = 16_000_000;
/** Pixels OCR may read across one report (about fifteen scanned letter pages). */
export const MAX_JOB_OCR_PIXELS = 120_000_000;
/** Pixels an uploaded photo may have before it is decoded (a 48-megapixel phone photo passes). */
export const MAX_DECODED_PIXELS = 50_000_000;
/** Longest side of an uploaded photo before it is decoded. */
export const MAX_IMAGE_SIDE = 12_000;
/** Images inside a PDF larger than this are not drawn (pdfjs `maxImageSize`). */
export const MAX_PDF_IMAGE_PIXELS = 25_000_000;
/** A PDF page's longest side, in points (200 inches is PDF's own maximum; a report is 11 to 17). */
export const MAX_PAGE_SIDE_POINTS = 3_000;
/** Pages of one PDF. */
export const MAX_PAGES = 40;
/** What one compressed PDF stream may inflate to, and all of a file's streams together. */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;
export const MAX_INFLATED_BYTES = 200 * 1024 * 1024;

/** OCR reads capital letters ~20-30 px tall: a page's short side of 2500-3400 px. */
export const OCR_MIN_SHORT_SIDE = 2500;
export const OCR_MAX_SHORT_SIDE = 3400;
/** Below this short side (after fitting the pixel budget) a page's text is too small to read. */
export const OCR_READABLE_SHORT_SIDE = 1200;

export const megapixels = (pixels: number) => `${(pixels / 1e6).toFixed(pixels < 1e7 ? 1 : 0)} million`;

/**
 * The scale at which an image of width × height pixels is read by OCR: short side 2500-3400 px,
 * shrunk further to fit the page's pixel budget. Refuses (before any allocation) an image so
 * long and narrow that, within the budget, its text would be too small to read.
 */
export function ocrScale(width: number, height: number, what: string): number {
  const short = Math.min(width, height);
  let scale = short < OCR_MIN_SHORT_SIDE ? OCR_MIN_SHORT_SIDE / short : short > OCR_MAX_SHORT_SIDE ? OCR_MAX_SHORT_SIDE / short : 1;
  const pixels = width * height * scale * scale;
  if (pixels > MAX_PAGE_PIXELS) {
    scale = Math.sqrt(MAX_PAGE_PIXELS / (width * height));
    if (short * scale < OCR_READABLE_SHORT_SIDE) {
      throw new ParseFailure(
        `${what} is too long and narrow to be read as a page of a report: reading it would take ` +
          `${megapixels(pixels)} pixels, and a page may use at most ${megapixels(MAX_PAGE_PIXELS)}.`,
      );
    }
  }
  return scale;
}

/** Counts the OCR pixels of one report against its budget. */
export class OcrBudget {
  private used = 0;
  constructor(private readonly limit = MAX_JOB_OCR_PIXELS) {}

  spend(pixels: number, pageNumber: number) {
    this.used += pixels;
    if (this.used > this.limit) {
      throw new ParseFailure(
        `The report has too many scanned pages to read: by page ${pageNumber} they add up to more than ` +
          `${megapixels(this.limit)} pixels (about fifteen letter pages). Upload the pages with the results on their own.`,
      );
    }
  }
}
