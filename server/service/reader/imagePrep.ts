import type * as CanvasModuleType from '@napi-rs/canvas';
import type { Canvas } from '@napi-rs/canvas';
import { ParseFailure } from './failure';
import { MAX_DECODED_PIXELS, MAX_IMAGE_SIDE, megapixels, ocrScale, type OcrBudget } from './limits';

/**
 * Turns an uploaded photo/scan (or a rendered PDF page) into what OCR reads best: grey,
 * full contrast, text of a sensible pixel size. Also refuses images whose header announces a
 * size that would exhaust memory when decoded (a 10 MB PNG can claim 100,000 x 100,000 pixels).
 */

type CanvasModule = typeof CanvasModuleType;
let canvasModule: Promise<CanvasModule> | undefined;
export const loadCanvas = () => (canvasModule ??= import('@napi-rs/canvas'));

/** Width and height from a PNG's IHDR or a JPEG's SOF marker, without decoding. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return undefined;
      const marker = bytes[i + 1]!;
      const length = view.getUint16(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}

/** Decodes an uploaded PNG/JPEG onto a canvas (after checking its announced size). */
export async function decodeImage(bytes: Uint8Array): Promise<Canvas> {
  const size = imageSize(bytes);
  if (!size) throw new ParseFailure('the image header could not be read (damaged or truncated file)');
  const { width, height } = size;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_DECODED_PIXELS) {
    throw new ParseFailure(
      `the image is ${width} × ${height} pixels; images of more than ${megapixels(MAX_DECODED_PIXELS)} pixels or ` +
        `${MAX_IMAGE_SIDE} pixels on a side are not read. Upload a smaller photo or scan of the report`,
    );
  }
  if (width < 200 || height < 200) throw new ParseFailure('the image is too small to read a report from');
  // Before decoding: an image too narrow to read within the page budget is refused now, not after.
  ocrScale(width, height, `The image (${width} × ${height} pixels)`);
  const { createCanvas, loadImage } = await loadCanvas();
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(Buffer.from(bytes));
  } catch {
    throw new ParseFailure('the image could not be decoded (damaged or unsupported file)');
  }
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0);
  return canvas;
}

/**
 * Rescales to a width OCR handles well, converts to grey and stretches the contrast so the
 * darkest 1% becomes black and the lightest 5% white (faded print, grey photocopies).
 * Returns a PNG and the scale applied (to map boxes back if needed).
 */
export interface PreparedPage {
  png: Buffer;
  scale: number;
  width: number;
  height: number;
  /** No ink on the page (a blank scan or separator sheet): nothing for OCR to read. */
  blank: boolean;
}

export async function prepareForOcr(source: Canvas, budget: OcrBudget, pageNumber: number, what = 'The page'): Promise<PreparedPage> {
  const { createCanvas } = await loadCanvas();
  // The pixel budget is applied to the size OCR will read, before that canvas is allocated.
  const scale = ocrScale(source.width, source.height, what);
  const w = Math.round(source.width * scale);
  const h = Math.round(source.height * scale);
  // A PDF page is drawn at OCR's size already: work on it in place rather than on a copy.
  const inPlace = w === source.width && h === source.height;
  const canvas = inPlace ? source : createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  if (!inPlace) {
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(source, 0, 0, w, h);
  }
  const image = ctx.getImageData(0, 0, w, h);
  let grey = toGrey(image.data);
  if (isBlank(grey)) return { png: Buffer.alloc(0), scale, width: w, height: h, blank: true };
  // A blank page costs no OCR; a page with ink counts against the report's OCR budget.
  budget.spend(w * h, pageNumber);
  // Grainy scans: the grain would become specks after binarisation, and specks become letters.
  // The median is taken after upscaling, where a decimal point is several pixels wide and survives.
  if (noiseLevel(grey, w) > NOISY) grey = median3(grey, w, h);
  stretch(grey);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
    image.data[i] = image.data[i + 1] = image.data[i + 2] = grey[j]!;
    image.data[i + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
  // encodeSync, not encode(): the asynchronous encoder of @napi-rs/canvas has been seen to crash
  // the process (SIGSEGV) now and then under load; a few hundred milliseconds of blocking is
  // the cheaper price.
  return { png: canvas.encodeSync('png'), scale, width: w, height: h, blank: false };
}

/** Fewer dark pixels than this share: no text on the page (a letter of 10 pt print inks far more). */
const BLANK_INK_SHARE = 0.00005;

function isBlank(grey: Uint8Array): boolean {
  let dark = 0;
  const limit = grey.length * BLANK_INK_SHARE;
  for (let i = 0; i < grey.length; i++) if (grey[i]! < 128 && ++dark > limit) return false;
  return true;
}

/**
 * Grain (estimated standard deviation of pixel noise, grey levels, measured after upscaling,
 * which smooths it) above which a median filter runs: clean renders and JPEGs measure 0, grainy
 * scans 4 or more.
 */
const NOISY = 2;

function toGrey(px: Uint8ClampedArray): Uint8Array {
  const grey = new Uint8Array(px.length / 4);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) grey[j] = (px[i]! * 299 + px[i + 1]! * 587 + px[i + 2]! * 114) / 1000;
  return grey;
}

/**
 * Noise estimate: the median absolute difference of horizontal neighbours (most pairs lie in
 * flat paper, where only noise makes them differ), scaled to a standard deviation.
 */
function noiseLevel(grey: Uint8Array, w: number): number {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let i = 0; i + 1 < grey.length; i += 7) {
    if ((i + 1) % w === 0) continue;
    hist[Math.abs(grey[i]! - grey[i + 1]!)]!++;
    n++;
  }
  return percentile(hist, n, 0.5) / 0.6745 / Math.SQRT2;
}

/** 3x3 median filter (edges copied). */
function median3(src: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(src);
  const v = new Uint8Array(9);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      let k = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const row = (y + dy) * w + x;
        v[k++] = src[row - 1]!;
        v[k++] = src[row]!;
        v[k++] = src[row + 1]!;
      }
      v.sort();
      out[y * w + x] = v[4]!;
    }
  }
  return out;
}

/** Darkest 1% -> black, lightest 5% -> white, linear in between. */
function stretch(grey: Uint8Array) {
  const hist = new Uint32Array(256);
  for (const g of grey) hist[g]!++;
  const lo = percentile(hist, grey.length, 0.01);
  const hi = Math.max(lo + 1, percentile(hist, grey.length, 0.95));
  const k = 255 / (hi - lo);
  for (let i = 0; i < grey.length; i++) grey[i] = Math.max(0, Math.min(255, (grey[i]! - lo) * k));
}

function percentile(hist: Uint32Array, n: number, p: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= n * p) return v;
  }
  return 255;
}
