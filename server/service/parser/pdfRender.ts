import type { Canvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { errorText, ParseFailure, withTimeout } from './failure';
import { loadCanvas } from './imagePrep';

/**
 * Renders a PDF page that has no text layer (a scan inside a PDF) to a bitmap for OCR, with
 * pdfjs drawing onto an @napi-rs/canvas canvas.
 */

/** 250 dpi: letters of 9-10 pt type come out ~25-30 px tall, where Tesseract reads best. */
export const RENDER_DPI = 250;
const RENDER_TIMEOUT_MS = 30_000;
/** A page of absurd dimensions is rendered smaller rather than exhausting memory. */
const MAX_SIDE_PX = 5000;

export async function renderPage(page: PDFPageProxy, pageNumber: number): Promise<Canvas> {
  const { createCanvas } = await loadCanvas();
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(RENDER_DPI / 72, MAX_SIDE_PX / Math.max(base.width, base.height));
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
    throw new ParseFailure(`page ${pageNumber} could not be rendered for OCR: ${errorText(err)}`);
  }
  return canvas;
}
