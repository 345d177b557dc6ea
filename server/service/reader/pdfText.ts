import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { ParseFailure, withTimeout } from './failure';
import { MAX_PAGES, MAX_PDF_IMAGE_PIXELS } from './limits';
import { checkInflatedSizes } from './pdfStreams';
import type { PageText, TextItem } from './types';

/**
 * Positioned text from a PDF's text layer with pdfjs (legacy build: the one meant for Node).
 * pdfjs is imported lazily, on the first PDF, so sniffing and table-reading code (and their
 * tests) never pay for loading it.
 */

const OPEN_TIMEOUT_MS = 20_000;
const PAGE_TIMEOUT_MS = 15_000;
/** Fewer visible characters than this and the page is treated as a scan (OCR'd instead). */
const MIN_TEXT_CHARS = 20;

type Pdfjs = typeof PdfjsModule;
let pdfjsModule: Promise<Pdfjs> | undefined;
const loadPdfjs = () => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

const require = createRequire(import.meta.url);
const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json'));

export interface OpenPdf {
  pageCount: number;
  page(n: number): Promise<PDFPageProxy>;
  close(): Promise<void>;
}

/**
 * Opens a PDF or fails with a reason a person can act on: encrypted, not a PDF, too many pages.
 * Fonts and image decoders come from the installed pdfjs-dist (never fetched), scripts in the
 * file are never evaluated.
 */
export async function openPdf(bytes: Uint8Array): Promise<OpenPdf> {
  checkInflatedSizes(bytes);
  const pdfjs = await loadPdfjs();
  // pdfjs transfers (detaches) the buffer it is given: hand it a copy, the caller keeps its bytes.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: `${pdfjsDir}/standard_fonts/`,
    wasmUrl: `${pdfjsDir}/wasm/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    // Images inside the file larger than this are skipped, not decoded (a bitmap is allocated whole).
    maxImageSize: MAX_PDF_IMAGE_PIXELS,
    verbosity: 0,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await withTimeout(task.promise, OPEN_TIMEOUT_MS, 'opening the PDF', () => void task.destroy());
  } catch (err) {
    void task.destroy();
    throw new ParseFailure(openFailureReason(err));
  }
  if (doc.numPages < 1) {
    await task.destroy();
    throw new ParseFailure('the PDF has no pages');
  }
  if (doc.numPages > MAX_PAGES) {
    await task.destroy();
    throw new ParseFailure(`the PDF has ${doc.numPages} pages; lab reports of more than ${MAX_PAGES} pages are not parsed`);
  }
  return {
    pageCount: doc.numPages,
    page: (n) => withTimeout(doc.getPage(n), PAGE_TIMEOUT_MS, `reading page ${n} of the PDF`),
    close: () => task.destroy(),
  };
}

function openFailureReason(err: unknown): string {
  if (err instanceof ParseFailure) return err.reason;
  const name = err && typeof err === 'object' && 'name' in err ? String(err.name) : '';
  if (name === 'PasswordException') {
    return 'the PDF is encrypted (password-protected); upload a copy without a password';
  }
  if (name === 'InvalidPDFException') return 'the file is not a valid PDF (its structure could not be read)';
  return 'the PDF could not be opened (its structure is damaged); upload a new copy of the report';
}

/**
 * The text layer of one page as positioned items, top-down coordinates in points. Returns
 * `null` when the page has (almost) no text: a scanned page, to be OCR'd.
 */
export async function pageText(page: PDFPageProxy, pageNumber: number): Promise<PageText | null> {
  const viewport = page.getViewport({ scale: 1 });
  const [va, vb, vc, vd, ve, vf] = viewport.transform as [number, number, number, number, number, number];
  let content: Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
  try {
    content = await withTimeout(page.getTextContent(), PAGE_TIMEOUT_MS, `reading the text of page ${pageNumber}`);
  } catch (err) {
    if (err instanceof ParseFailure) throw err;
    throw new ParseFailure(`the text of page ${pageNumber} could not be read (the page may be damaged)`);
  }
  const boldFonts = await boldFontsOf(page, content.items);
  const items: TextItem[] = [];
  let chars = 0;
  for (const raw of content.items) {
    if (!('str' in raw) || !raw.str.trim()) continue;
    const [a, b, c, d, e, f] = raw.transform as number[];
    // Text drawn at an angle (stamps, watermarks, sideways footers) is not part of a result table.
    if (Math.abs(b ?? 0) > 0.01 * Math.abs(a ?? 1) || Math.abs(c ?? 0) > 0.01 * Math.abs(d ?? 1)) continue;
    const size = Math.hypot(c ?? 0, d ?? 0) || raw.height || 1;
    // PDF space (y up) -> page space (y down), honouring the page's /Rotate and crop box.
    const px = e ?? 0;
    const py = f ?? 0;
    const x = va * px + vc * py + ve;
    const baseline = vb * px + vd * py + vf;
    chars += raw.str.replace(/\s/g, '').length;
    items.push(...splitOnWideSpaces({
      text: raw.str,
      x,
      // pdfjs gives the baseline; the top of the em box is about 0.8 em above it.
      y: baseline - 0.8 * size,
      baseline,
      width: raw.width,
      height: size,
      page: pageNumber,
      source: 'text',
      ...('fontName' in raw && boldFonts.has(raw.fontName) ? { bold: true } : {}),
    }));
  }
  if (chars < MIN_TEXT_CHARS) return null;
  return { page: pageNumber, width: viewport.width, height: viewport.height, source: 'text', items };
}

const BOLD_FACE = /bold|black|heavy|demi/i;

/**
 * The page's fonts with a bold face. Their names are known only once the page's operator list
 * is built (pdfjs loads the fonts then); a page in one font needs none of it. A failure here
 * only loses the emphasis, never the text.
 */
async function boldFontsOf(page: PDFPageProxy, items: readonly object[]): Promise<Set<string>> {
  const fonts = new Set(items.map((i) => ('fontName' in i && typeof i.fontName === 'string' ? i.fontName : '')).filter(Boolean));
  const bold = new Set<string>();
  if (fonts.size < 2) return bold;
  try {
    await withTimeout(page.getOperatorList(), PAGE_TIMEOUT_MS, 'reading the fonts of a page');
    for (const id of fonts) {
      const font: unknown = page.commonObjs.has(id) ? page.commonObjs.get(id) : undefined;
      const name = font && typeof font === 'object' && 'name' in font ? String(font.name) : '';
      if (BOLD_FACE.test(name)) bold.add(id);
    }
  } catch {
    /* emphasis unknown: read as regular */
  }
  return bold;
}

/**
 * Some generators write a whole table row as one string padded with spaces ("6.8   mg/dL").
 * Two or more spaces are a column gap: split there, placing each part by its share of the
 * characters (good enough: the reader only needs to know which column a part starts in).
 */
export function splitOnWideSpaces(item: TextItem): TextItem[] {
  if (!/\S {2,}\S/.test(item.text)) return [{ ...item, text: item.text.trim() }];
  const perChar = item.width / Math.max(1, item.text.length);
  const parts: TextItem[] = [];
  for (const m of item.text.matchAll(/\S+(?: \S+)*/g)) {
    parts.push({ ...item, text: m[0], x: item.x + m.index * perChar, width: m[0].length * perChar });
  }
  return parts;
}
