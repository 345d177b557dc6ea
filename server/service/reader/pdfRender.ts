import type { Canvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { ParseFailure, withTimeout } from './failure';
import { loadCanvas } from './imagePrep';
import { MAX_PAGE_SIDE_POINTS, ocrScale } from './limits';

/**
 * Renders a PDF page that has no text layer (a scan inside a PDF) to a bitmap for OCR, with
 * pdfjs drawing onto an @napi-rs/canvas canvas.
 */

/** 250 dpi: letters of 9-10 pt type come out ~25-30 px tall, where Tesseract reads best. */
export const RENDER_DPI = 250;
const RENDER_TIMEOUT_MS = 30_000;

/**
 * Draws the page at the size OCR will read it (250 dpi, then fitted to OCR's size and the page's
 * pixel budget), so a page of absurd dimensions is refused before its bitmap is allocated and a
 * tiny one is not upscaled twice. Returns the canvas and the resolution it was drawn at.
 */
export async function renderPage(page: PDFPageProxy, pageNumber: number): Promise<{ canvas: Canvas; dpi: number }> {
  const { createCanvas } = await loadCanvas();
  const base = page.getViewport({ scale: 1 });
  const width = Math.round(base.width);
  const height = Math.round(base.height);
  if (Math.max(width, height) > MAX_PAGE_SIDE_POINTS) {
    throw new ParseFailure(
      `page ${pageNumber} is ${width} × ${height} points; pages larger than ${MAX_PAGE_SIDE_POINTS} points ` +
        `(about ${Math.round(MAX_PAGE_SIDE_POINTS / 72)} inches) on a side are not read as scans`,
    );
  }
  const atDpi = RENDER_DPI / 72;
  const scale = atDpi * ocrScale(base.width * atDpi, base.height * atDpi, `Page ${pageNumber} (${width} × ${height} points)`);
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // pdfjs is typed against the DOM canvas; @napi-rs/canvas implements the same 2D API.
  const task = page.render({
    canvasContext: ctx as unknown as CanvasRenderingContext2D,
    canvas: canvas as unknown as HTMLCanvasElement,
    viewport,
  });
  try {
    await withTimeout(task.promise, RENDER_TIMEOUT_MS, `rendering page ${pageNumber} for OCR`, () => task.cancel());
  } catch (err) {
    if (err instanceof ParseFailure) throw err;
    throw new ParseFailure(`page ${pageNumber} could not be drawn for OCR (the page may be damaged)`);
  }
  return { canvas, dpi: scale * 72 };
}
