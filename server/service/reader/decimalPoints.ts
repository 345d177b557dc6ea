/**
 * Decimal points that OCR did not see. A worn print head or a blurred scan leaves the point of
 * "17.5" as a light grey speck that the engine's black-and-white threshold drops, so it reads
 * "175"; a reviewer looking at the image still sees the point. This looks for that speck in the
 * grey page, between two digits of a word read as a whole number (or of either bound of a range
 * read as one word, "35-51"):
 * - the columns between the digits are open above (no ink in the upper 70 % of the digits' height),
 *   as they are under a point and not under the foot of a "1" or the bar of a "2";
 * - in the bottom band of those columns there is a darker spot, visibly darker than the paper;
 * - the spot stands apart: lighter columns separate it from the digit on either side (a serif or a
 *   digit's bowl joins its digit instead);
 * - the opening is wider than the spacing of digits that touch (a point needs its own room);
 * - the spot is point-sized and about as tall as wide (grain is smaller, a serif's scrap flat), and
 *   no tail hangs below the digits (a comma: "1,250" is not 1.250).
 * A point found this way is only a reading of shades, so the item keeps what OCR read
 * (`unrestoredText`, which metadata reads) and its result is always sent to review
 * (reviewReasons: decimal_suspect), with the restored value to check.
 */

export interface GreyImage {
  width: number;
  height: number;
  /** One grey level per pixel, row after row. */
  data: Uint8Array;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  bbox: Box;
  symbols: { text: string; bbox: Box }[];
}

/** A whole number as OCR read it, maybe with a comparator before it and a flag glued after it ("105H"). */
const WHOLE_NUMBER = /^([<>]?)(\d{2,6})([A-Za-z*!]{0,2})$/;

/** Share of the digits' height, from the bottom, where a decimal point sits. */
const POINT_BAND = 0.3;
/** An opening above this share of the ink-to-paper contrast counts as paper. */
const OPEN_ABOVE = 0.8;
/** The spot must be at least this much darker than paper, as a share of the word's contrast. */
const VISIBLE = 0.18;
/** Lighter columns on both sides of the spot: at least this share of the spot's own contrast. */
const APART = 0.35;
/** Openings narrower than this share of the digits' height are the spacing of touching digits. */
const MIN_OPENING = 0.2;
/** A spot narrower or lower than this share of the height (or 2 px) is grain, not a point. */
const MIN_POINT_WIDTH = 0.08;
/** A spot wider than this share of the height is not a point (a smudge, an underline). */
const MAX_POINT_WIDTH = 0.45;
/** Ink this far below the digits' foot (share of their height) is a comma's tail. */
const COMMA_TAIL = 0.15;
/** Words whose ink and paper differ by less than this (grey levels) are not read for shades. */
const MIN_CONTRAST = 60;

/** A range printed as one word ("35-51" for 3.5-5.1): each bound is read like a whole number. */
const RANGE_WORD = /^(\d{1,6})([-–])(\d{1,6})$/;

/**
 * The word's text with the decimal point put back, or undefined when there is no single,
 * clear point between its digits (in a range word, between the digits of either bound).
 */
export function restoreDecimalPoint(word: OcrWord, image: GreyImage): string | undefined {
  if (word.symbols.length !== word.text.length) return undefined;
  const boxes = (from: number, count: number) => word.symbols.slice(from, from + count).map((s) => s.bbox);
  const withPoint = (digits: string, cut: number | undefined) => (cut === undefined ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`);
  const whole = WHOLE_NUMBER.exec(word.text);
  if (whole) {
    const [, before, digits, after] = whole as unknown as [string, string, string, string];
    const cut = pointCut(boxes(before.length, digits.length), image);
    return cut === undefined ? undefined : `${before}${withPoint(digits, cut)}${after}`;
  }
  const range = RANGE_WORD.exec(word.text);
  if (!range) return undefined;
  const [, low, dash, high] = range as unknown as [string, string, string, string];
  const lowCut = low.length >= 2 ? pointCut(boxes(0, low.length), image) : undefined;
  const highCut = high.length >= 2 ? pointCut(boxes(low.length + 1, high.length), image) : undefined;
  if (lowCut === undefined && highCut === undefined) return undefined;
  return `${withPoint(low, lowCut)}${dash}${withPoint(high, highCut)}`;
}

/** Where a point sits among these digits (how many digits stand before it), if one clearly does. */
function pointCut(digitBoxes: Box[], image: GreyImage): number | undefined {
  const x0 = Math.max(0, Math.min(...digitBoxes.map((b) => b.x0)));
  const x1 = Math.min(image.width - 1, Math.max(...digitBoxes.map((b) => b.x1)));
  const grey = (x: number, y: number) => image.data[y * image.width + x]!;
  // The engine's symbol boxes are sometimes taller than their digit: the digits' rows are taken
  // from the ink instead.
  const rows = inkRows(grey, x0, x1, Math.max(0, Math.min(...digitBoxes.map((b) => b.y0)) - 2), Math.min(image.height - 1, Math.max(...digitBoxes.map((b) => b.y1)) + 2));
  if (!rows) return undefined;
  const { top: y0, bottom, paper, contrast } = rows;
  const h = bottom - y0 + 1;
  if (h < 8 || x1 - x0 < h || contrast < MIN_CONTRAST) return undefined;
  const y1 = Math.min(image.height - 1, bottom + Math.max(2, Math.round(h * 0.1)));
  const split = Math.round(bottom - h * POINT_BAND);

  const upper: number[] = [];
  const lower: number[] = [];
  for (let x = x0; x <= x1; x++) {
    let u = 255;
    let l = 255;
    for (let y = y0; y < split; y++) u = Math.min(u, grey(x, y));
    for (let y = split; y <= y1; y++) l = Math.min(l, grey(x, y));
    upper.push(u);
    lower.push(l);
  }
  const ink = paper - contrast;

  const points: number[] = [];
  // Interior only: a point after the last digit is a full stop, not a decimal point.
  const interior = openings(upper, ink + OPEN_ABOVE * contrast).filter(([start, end]) => start > 0 && end < upper.length - 1);
  for (const [start, end] of interior) {
    if (end - start + 1 < MIN_OPENING * h) continue;
    // The rows of the band where a spot between columns a and b is at least as dark as `level`.
    const rowsDarker = (a: number, b: number, level: number) => {
      let rows = 0;
      let below = 0;
      for (let y = split; y <= Math.min(image.height - 1, bottom + Math.round(h * 0.4)); y++) {
        for (let x = x0 + start + a; x <= x0 + start + b; x++) {
          if (grey(x, y) <= level) {
            if (y <= y1) rows++;
            below = Math.max(below, y - bottom);
            break;
          }
        }
      }
      return { rows, below };
    };
    const at = point(lower.slice(start, end + 1), paper, contrast, h, rowsDarker);
    if (at === undefined) continue;
    points.push(x0 + start + at);
  }
  if (points.length !== 1) return undefined;
  // The point goes after every digit whose middle lies left of it.
  const cut = digitBoxes.filter((b) => (b.x0 + b.x1) / 2 < points[0]!).length;
  return cut === 0 || cut === digitBoxes.length ? undefined : cut;
}

/**
 * The rows of the digits: the longest run of rows with ink in them (a row one pixel lighter
 * inside the run does not break it), with the region's paper and ink-to-paper contrast.
 */
function inkRows(grey: (x: number, y: number) => number, x0: number, x1: number, y0: number, y1: number) {
  const darkest: number[] = [];
  for (let y = y0; y <= y1; y++) {
    let d = 255;
    for (let x = x0; x <= x1; x++) d = Math.min(d, grey(x, y));
    darkest.push(d);
  }
  let paper = 0;
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) paper = Math.max(paper, grey(x, y));
  const ink = Math.min(...darkest);
  const contrast = paper - ink;
  const isInk = darkest.map((d) => d <= ink + contrast / 2);
  let best: [number, number] | undefined;
  let start = -1;
  for (let i = 0; i <= isInk.length; i++) {
    const on = i < isInk.length && (isInk[i] || (start >= 0 && isInk[i + 1]));
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      if (!best || i - 1 - start > best[1] - best[0]) best = [start, i - 1];
      start = -1;
    }
  }
  return best && { top: y0 + best[0], bottom: y0 + best[1], paper, contrast };
}

/** Runs of consecutive columns whose upper part is paper. */
function openings(upper: number[], paperFrom: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  upper.forEach((v, i) => {
    if (v >= paperFrom) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push([start, i - 1]);
      start = -1;
    }
  });
  if (start >= 0) runs.push([start, upper.length - 1]);
  return runs;
}

/**
 * Column of a point-like spot in the bottom band of an opening, if there is one: the darkest
 * column that is visibly dark and has lighter columns on both sides within the opening (the foot
 * of a "1" at the opening's edge is dark too, but nothing lighter separates it from its digit).
 */
function point(lower: number[], paper: number, contrast: number, h: number, rowsDarker: (a: number, b: number, level: number) => { rows: number; below: number }): number | undefined {
  let best: number | undefined;
  for (let at = 0; at < lower.length; at++) {
    const spot = lower[at]!;
    const depth = paper - spot;
    if (depth < VISIBLE * contrast || (best !== undefined && spot >= lower[best]!)) continue;
    const lighter = spot + APART * depth;
    if (Math.max(...lower.slice(0, at + 1)) < lighter || Math.max(...lower.slice(at)) < lighter) continue;
    // The spot's width: the columns around it that are at least half as dark.
    const half = spot + depth / 2;
    let left = at;
    let right = at;
    while (left > 0 && lower[left - 1]! <= half) left--;
    while (right < lower.length - 1 && lower[right + 1]! <= half) right++;
    const spotWidth = right - left + 1;
    if (spotWidth > MAX_POINT_WIDTH * h || spotWidth < Math.max(2, MIN_POINT_WIDTH * h)) continue;
    // A point is about as tall as it is wide; a scrap of grain or of a serif is a flat line.
    const { rows: spotHeight, below } = rowsDarker(left, right, half);
    if (spotHeight < Math.max(2, MIN_POINT_WIDTH * h, spotWidth / 2)) continue;
    // A comma's tail hangs below the digits: "1,250" is not 1.250.
    if (below > COMMA_TAIL * h) continue;
    best = at;
  }
  return best;
}
