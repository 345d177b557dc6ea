import type * as CanvasModuleType from '@napi-rs/canvas';
import type { Canvas } from '@napi-rs/canvas';
import { ParseFailure } from './failure';
import { eraseLeaders, type LeaderBand } from './leaderDots';
import { eraseRules } from './rules';
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
 * Returns the grey page and the scale applied (to map boxes back if needed).
 */
export interface PreparedPage {
  scale: number;
  width: number;
  height: number;
  /** No ink on the page (a blank scan or separator sheet): nothing for OCR to read. */
  blank: boolean;
  /** The page as OCR gets it, one grey level per pixel, row after row (absent for a blank page). */
  grey?: Uint8Array;
  /** Leader dots and dashes erased from `grey` (OCR reads them as letters); put back as text after OCR. */
  leaders?: LeaderBand[];
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
  if (isBlank(grey)) return { scale, width: w, height: h, blank: true };
  // A blank page costs no OCR; a page with ink counts against the report's OCR budget.
  budget.spend(w * h, pageNumber);
  // Grainy scans: the grain would become specks after binarisation, and specks become letters.
  // The median is taken after upscaling, where a decimal point is several pixels wide and survives.
  if (noiseLevel(grey, w) > NOISY) grey = median3(grey, w, h);
  flattenLight(grey, w, h);
  flattenShading(grey, w, h);
  stretch(grey);
  whitenPaper(grey, w, h);
  const leaders = despeckle(grey, w, h);
  return { scale, width: w, height: h, blank: false, grey, leaders };
}

/**
 * The grey page as a binary PGM, the file OCR is given: the engine reads it as it is, where a PNG
 * cost a few hundred milliseconds to compress here and more to inflate in the engine (twice when
 * it straightens a page), for the same pixels. tesseract.js looks for an EXIF orientation in the
 * first 500 bytes of an image; a comment pads the header past them, so pixels are never taken for one.
 */
export function toPgm(grey: Uint8Array, width: number, height: number): Buffer {
  const header = Buffer.from(`P5\n#${' '.repeat(500)}\n${width} ${height}\n255\n`, 'latin1');
  return Buffer.concat([header, grey], header.length + grey.length);
}

/** Writes grey levels into RGBA pixels (opaque). */
export function paintGrey(px: Uint8ClampedArray, grey: Uint8Array) {
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
    px[i] = px[i + 1] = px[i + 2] = grey[j]!;
    px[i + 3] = 255;
  }
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

/** One grey level per pixel from RGBA pixels. */
export function toGrey(px: Uint8ClampedArray): Uint8Array {
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

/**
 * 3x3 median filter (edges copied). The median of nine is the median of three numbers taken from
 * the window's three columns, each sorted: the largest of their smallest, the median of their
 * medians and the smallest of their largest. A column is sorted once for the three windows that
 * hold it, not nine values sorted per pixel (a grainy page took most of a second).
 */
export function median3(src: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(src);
  const lo = new Uint8Array(w);
  const mid = new Uint8Array(w);
  const hi = new Uint8Array(w);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 0, i = (y - 1) * w; x < w; x++, i++) {
      const a = src[i]!;
      const b = src[i + w]!;
      const c = src[i + 2 * w]!;
      const ab = a < b ? a : b;
      const AB = a < b ? b : a;
      lo[x] = ab < c ? ab : c;
      hi[x] = AB > c ? AB : c;
      mid[x] = median(a, b, c);
    }
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      const l0 = lo[x - 1]!;
      const l1 = lo[x]!;
      const l2 = lo[x + 1]!;
      const h0 = hi[x - 1]!;
      const h1 = hi[x]!;
      const h2 = hi[x + 1]!;
      const maxLo = l0 > l1 ? (l0 > l2 ? l0 : l2) : l1 > l2 ? l1 : l2;
      const minHi = h0 < h1 ? (h0 < h2 ? h0 : h2) : h1 < h2 ? h1 : h2;
      out[i] = median(maxLo, median(mid[x - 1]!, mid[x]!, mid[x + 1]!), minHi);
    }
  }
  return out;
}

/** The middle one of three numbers. */
function median(a: number, b: number, c: number): number {
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c;
}

/**
 * Paper grain to plain white: every pixel within 3.5 standard deviations of grain of the
 * paper's grey becomes 255. The engine picks its black-and-white threshold from the page's
 * histogram; on a page that is mostly grainy paper (a fax's last page) that threshold falls
 * inside the grain and the page turns into thousands of specks (40 s of OCR for two lines).
 * Ink, even faint (a decimal point printed light grey), is darker than that and stays grey.
 */
function whitenPaper(grey: Uint8Array, w: number, h: number) {
  // Paper is most of any stretch of a page: the median of a tile is its paper's grey, and the
  // spread of its lighter side (median to 90th percentile, 1.28 standard deviations of a normal
  // grain) its grain. Ink and shaded table rows are darker than paper, so they do not widen that
  // side. Measured per tile, so that uneven light shows.
  const TILE = 128;
  const papers: number[] = [];
  const grains: number[] = [];
  const hist = new Uint32Array(256);
  for (let ty = 0; ty + TILE <= h; ty += TILE) {
    for (let tx = 0; tx + TILE <= w; tx += TILE) {
      hist.fill(0);
      for (let y = ty; y < ty + TILE; y++) for (let x = tx; x < tx + TILE; x++) hist[grey[y * w + x]!]!++;
      const paper = percentile(hist, TILE * TILE, 0.5);
      papers.push(paper);
      grains.push((percentile(hist, TILE * TILE, 0.9) - paper) / 1.2816);
    }
  }
  if (!papers.length) return;
  const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
  const p = sorted(papers);
  const grain = sorted(grains)[grains.length >> 1]!;
  const paper = p[p.length >> 1]!;
  // Uneven light (a photo's shadow): one threshold for the page would take the ink of its bright
  // part for paper. Left to the engine's own thresholding.
  if (p[Math.floor(p.length * 0.9)]! - p[Math.floor(p.length * 0.1)]! > Math.max(8, 1.5 * grain)) return;
  const from = paper - 3.5 * grain;
  if (from >= paper) return;
  for (let i = 0; i < grey.length; i++) if (grey[i]! > from) grey[i] = 255;
}

/** Side (pixels at OCR size) of the tiles the paper's light is measured in when flattening it. */
const LIGHT_TILE = 48;

/**
 * Uneven light (a phone photo's dark corner, the shadow of a hand across the page) made even:
 * every pixel divided by the paper's brightness around it. Light multiplies what the page
 * reflects, so the ink-to-paper ratio is the same in the shadow as in the light; after the
 * division a letter in the shadow is as dark against white as one in the light, and one threshold
 * fits the page. Left alone, the engine's threshold took the shadow band for ink (rows of black)
 * or the letters in the light for paper (faint values dropped).
 *
 * The paper's brightness per tile is its light side (the 90th percentile: ink covers far less
 * than a tenth of any stretch of text), then the brightest of its neighbours (a table's shaded
 * row or a dark banner a tile or two high is not light falling off), then smoothed and blended
 * between tile centres. Evenly lit pages (every render and flatbed scan) are left as they are.
 */
export function flattenLight(grey: Uint8Array, w: number, h: number): boolean {
  const T = LIGHT_TILE;
  const tw = Math.ceil(w / T);
  const th = Math.ceil(h / T);
  if (tw < 3 || th < 3) return false;
  const light = new Float32Array(tw * th);
  const hist = new Uint32Array(256);
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < tw; tx++) {
      hist.fill(0);
      let n = 0;
      for (let y = ty * T; y < Math.min(h, ty * T + T); y += 2) {
        for (let x = tx * T; x < Math.min(w, tx * T + T); x += 2, n++) hist[grey[y * w + x]!]!++;
      }
      light[ty * tw + tx] = percentile(hist, n, 0.9);
    }
  }
  const spread = (src: Float32Array, pick: (values: number[]) => number) => {
    const out = new Float32Array(src.length);
    for (let ty = 0; ty < th; ty++) {
      for (let tx = 0; tx < tw; tx++) {
        const values: number[] = [];
        for (let y = Math.max(0, ty - 1); y <= Math.min(th - 1, ty + 1); y++) for (let x = Math.max(0, tx - 1); x <= Math.min(tw - 1, tx + 1); x++) values.push(src[y * tw + x]!);
        out[ty * tw + tx] = pick(values);
      }
    }
    return out;
  };
  const paper = spread(spread(light, (v) => Math.max(...v)), (v) => v.reduce((a, b) => a + b, 0) / v.length);
  const sorted = [...paper].sort((a, b) => a - b);
  const brightest = sorted[Math.floor(sorted.length * 0.95)]!;
  // Even light: the paper's brightness varies by less than a twentieth of itself over the page.
  if (brightest - sorted[Math.floor(sorted.length * 0.1)]! <= Math.max(12, brightest * 0.06)) return false;
  // A dark area that is no paper (a photo's desk, a black banner wider than two tiles) is not
  // lifted more than the deepest shadow a page plausibly has.
  const floor = brightest * 0.35;
  for (let y = 0; y < h; y++) {
    const fy = Math.min(th - 1, Math.max(0, (y + 0.5) / T - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(th - 1, y0 + 1);
    const dy = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(tw - 1, Math.max(0, (x + 0.5) / T - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(tw - 1, x0 + 1);
      const dx = fx - x0;
      const top = paper[y0 * tw + x0]! * (1 - dx) + paper[y0 * tw + x1]! * dx;
      const bottom = paper[y1 * tw + x0]! * (1 - dx) + paper[y1 * tw + x1]! * dx;
      const here = Math.max(floor, top * (1 - dy) + bottom * dy, 1);
      const i = y * w + x;
      grey[i] = Math.min(255, (grey[i]! * brightest) / here);
    }
  }
  return true;
}

/** Width (pixels at OCR size) of the stretches of one pixel row a shaded background is measured on. */
const SHADE_SEGMENT = 128;
/** A background this much darker than the paper is shading; lighter is paper, grain or a JPEG's haze. */
const MIN_SHADE = 12;
/** A background darker than this is no tint but a dark banner or a rule: left as it is. */
const DARKEST_SHADE = 110;
/** A shaded band is at least this many pixel rows high at OCR size (a rule is a few). */
const MIN_BAND_ROWS = 10;

/**
 * Shaded backgrounds made paper: zebra-striped table rows, a tinted band behind a header or a
 * patient block, a shaded column. Text on a tint has less contrast than text on paper, and the
 * engine's page-wide threshold and layout analysis treated a striped page unevenly: on one
 * portal printout the lines on tinted bands (name, date of birth, provider) were not read at all.
 * The background of each short stretch of a pixel row is its light side (the 85th percentile: ink
 * covers less of a stretch than that), the middle one of it and its two neighbours on the row (a
 * stretch across a large bold word between two of paper is paper); where that is a tint, the stretch is divided by it, as flattenLight does
 * for light falling off, so the tint becomes white and the ink keeps its ratio to it. Bands of any
 * height work, down to a single text line (which flattenLight, measuring larger tiles, leaves).
 */
export function flattenShading(grey: Uint8Array, w: number, h: number): boolean {
  const segs = Math.ceil(w / SHADE_SEGMENT);
  if (segs < 3) return false;
  const sample = new Uint32Array(256);
  let n = 0;
  for (let i = 0; i < grey.length; i += 7, n++) sample[grey[i]!]!++;
  const paper = percentile(sample, n, 0.95);
  const background = new Uint8Array(segs);
  /** Per pixel row and stretch: the tint to divide by, 0 where the background is paper (or dark). */
  const tint = new Uint8Array(h * segs);
  const hist = new Uint32Array(256);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let s = 0; s < segs; s++) {
      hist.fill(0);
      const x1 = Math.min(w, (s + 1) * SHADE_SEGMENT);
      for (let x = s * SHADE_SEGMENT; x < x1; x++) hist[grey[row + x]!]!++;
      background[s] = percentile(hist, x1 - s * SHADE_SEGMENT, 0.85);
    }
    for (let s = 0; s < segs; s++) {
      const b = median(background[Math.max(0, s - 1)]!, background[s]!, background[Math.min(segs - 1, s + 1)]!);
      if (b <= paper - MIN_SHADE && b >= DARKEST_SHADE) tint[y * segs + s] = b;
    }
  }
  // A band is some rows high: a rule a few pixels thick (grey where a skewed scan steps it) is no
  // band, and whitening pieces of it would leave the rest too short to be erased as a rule.
  let changed = false;
  for (let s = 0; s < segs; s++) {
    const x0 = s * SHADE_SEGMENT;
    const x1 = Math.min(w, x0 + SHADE_SEGMENT);
    for (let y = 0; y < h; ) {
      if (!tint[y * segs + s]) {
        y++;
        continue;
      }
      let end = y;
      while (end < h && tint[end * segs + s]) end++;
      if (end - y >= MIN_BAND_ROWS) {
        for (let yy = y; yy < end; yy++) {
          const k = paper / tint[yy * segs + s]!;
          for (let i = yy * w + x0; i < yy * w + x1; i++) grey[i] = Math.min(255, grey[i]! * k);
        }
        changed = true;
      }
      y = end;
    }
  }
  return changed;
}

/** Grey level below which a pixel counts as ink when looking for specks. */
const SPECK_INK = 160;
/** A speck is smaller than a square of this share of the page's letter height a side. */
const SPECK_SIDE = 0.15;
/** Pages with more blots than this are halftones or photos of texture, not dust on text. */
const MAX_BLOTS = 200_000;

/**
 * Removes dust far from any text (a fax's or a photocopier's specks): blots of ink smaller than
 * a tenth of a letter with no larger ink (a letter, a rule) within about a letter's height. The
 * engine takes every speck for a possible letter: an empty page of fax dust cost 40 s of OCR,
 * and dust beside a table becomes stray characters. Sizes are measured against the page's own
 * letters, so a lone "1", "-" or "<" in a value column of small print is a letter, not dust; a
 * decimal point, the dot of an i and a full stop sit near the letters they belong to and stay.
 * Then erases leader dots (leaderDots.ts), from the same blots, and returns where they were.
 */
function despeckle(grey: Uint8Array, w: number, h: number): LeaderBand[] {
  // Each ink pixel is first UNSEEN, then SEEN once its blot is measured, then TEXT or DUST.
  const [UNSEEN, SEEN, TEXT, DUST] = [1, 2, 3, 4];
  const state = new Uint8Array(w * h);
  for (let i = 0; i < grey.length; i++) if (grey[i]! < SPECK_INK) state[i] = UNSEEN;
  const stack = new Int32Array(w * h);
  /** Moves the blot of `start` (8 neighbours) from state `from` to `to`; its pixels end up in stack[0..n). */
  const flood = (start: number, from: number, to: number): number => {
    let n = 0;
    let top = 0;
    stack[n++] = start;
    state[start] = to;
    while (top < n) {
      const i = stack[top++]!;
      const x = i % w;
      const y = (i - x) / w;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) {
          const j = yy * w + xx;
          if (state[j] !== from) continue;
          state[j] = to;
          stack[n++] = j;
        }
      }
    }
    return n;
  };
  /** Every blot: its first pixel, its area and its box, six numbers each. */
  let blots = new Int32Array(6 * 4096);
  let count = 0;
  for (let start = 0; start < grey.length; start++) {
    if (state[start] !== UNSEEN) continue;
    if (count === MAX_BLOTS) return [];
    const n = flood(start, UNSEEN, SEEN);
    let [x0, y0, x1, y1] = [w, h, 0, 0];
    for (let k = 0; k < n; k++) {
      const x = stack[k]! % w;
      const y = (stack[k]! - x) / w;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
    if (6 * (count + 1) > blots.length) {
      const grown = new Int32Array(blots.length * 2);
      grown.set(blots);
      blots = grown;
    }
    blots.set([start, n, x0, y0, x1, y1], 6 * count++);
  }
  // The page's letter height: the median height of blots tall enough to be letters.
  const heights: number[] = [];
  for (let b = 0; b < count; b++) {
    const height = blots[6 * b + 5]! - blots[6 * b + 3]! + 1;
    if (height >= 8 && blots[6 * b + 1]! >= 20) heights.push(height);
  }
  heights.sort((a, b) => a - b);
  // Hardly any letters: those of 10-point print on a letter page at OCR size.
  const letter = heights.length >= 10 ? heights[heights.length >> 1]! : Math.round(w / 80);
  const maxSpeck = Math.max(4, Math.round((SPECK_SIDE * letter) ** 2));
  const reach = Math.round(letter);
  for (let b = 0; b < count; b++) if (blots[6 * b + 1]! > maxSpeck) flood(blots[6 * b]!, SEEN, TEXT);
  for (let b = 0; b < count; b++) {
    const [start, area, bx0, by0, bx1, by1] = blots.subarray(6 * b, 6 * b + 6) as unknown as [number, number, number, number, number, number];
    if (area > maxSpeck || textWithin(state, w, h, [bx0 - reach, by0 - reach, bx1 + reach, by1 + reach], TEXT)) continue;
    flood(start, SEEN, DUST);
  }
  for (let i = 0; i < grey.length; i++) if (state[i] === DUST) grey[i] = 255;
  eraseRules(grey, w, h, letter);
  return eraseLeaders(grey, w, blots, count, letter);
}

/** Whether any pixel of the box (clipped to the page) is in state `text`. */
function textWithin(state: Uint8Array, w: number, h: number, [x0, y0, x1, y1]: number[], text: number): boolean {
  for (let y = Math.max(0, y0!); y <= Math.min(h - 1, y1!); y++) {
    for (let x = Math.max(0, x0!); x <= Math.min(w - 1, x1!); x++) if (state[y * w + x] === text) return true;
  }
  return false;
}

/** Grey levels between the black and white points at the least: a gain of at most 255/100. */
const MIN_STRETCH_RANGE = 100;

/** Darkest 1% -> black, lightest 5% -> white, linear in between. */
function stretch(grey: Uint8Array) {
  const hist = new Uint32Array(256);
  for (const g of grey) hist[g]!++;
  const hi = percentile(hist, grey.length, 0.95);
  // On a page with little text the darkest 1% is the paper's own grain: stretched to black it
  // would bury the few lines in noise. The gain is capped (a faded copy with ink at 130 on paper
  // at 230 still becomes black on white).
  const lo = Math.max(0, Math.min(percentile(hist, grey.length, 0.01), hi - MIN_STRETCH_RANGE));
  const k = 255 / (hi - lo);
  const level = new Uint8Array(256);
  for (let v = 0; v < 256; v++) level[v] = Math.max(0, Math.min(255, (v - lo) * k));
  for (let i = 0; i < grey.length; i++) grey[i] = level[grey[i]!]!;
}

function percentile(hist: Uint32Array, n: number, p: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= n * p) return v;
  }
  return 255;
}
