import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { restoreDecimalPoint, type OcrWord } from '../../../server/service/reader/decimalPoints';
import { decimalRestored, withoutRestoredPoints } from '../../../server/service/reader/rows';
import { page } from './helpers';

/**
 * The decimal-point finder on words drawn here, as a worn print head prints them: digits in
 * black, the point in a grey the OCR engine's threshold drops. The symbol boxes are the glyphs'
 * ink boxes, as the engine gives them (the point itself is not a symbol: the engine did not see it).
 */
const FONT = `40px ${GlobalFonts.families.some((f) => f.family === 'DejaVu Sans') ? 'DejaVu Sans' : 'sans-serif'}`;

interface Drawn {
  text: string;
  /** Grey level of each character (0 black .. 255 white); the point of "4.6" drawn at 200 is faint. */
  grey?: Record<number, number>;
  /** Also draw a spot here (x offset from the start, y offset from the baseline, grey). */
  spot?: { dx: number; dy: number; grey: number; size?: number };
  /** Characters the engine reads as part of the symbol before them (its box reaches over them). */
  swallowed?: number[];
}

function draw({ text, grey = {}, spot, swallowed = [] }: Drawn, read: string) {
  const canvas = createCanvas(400, 100);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 400, 100);
  ctx.font = FONT;
  const baseline = 70;
  let x = 20;
  const symbols: OcrWord['symbols'] = [];
  [...text].forEach((ch, i) => {
    const g = grey[i] ?? 0;
    ctx.fillStyle = `rgb(${g},${g},${g})`;
    ctx.fillText(ch, x, baseline);
    const m = ctx.measureText(ch);
    if (swallowed.includes(i)) {
      const last = symbols.at(-1)!.bbox;
      last.x1 = Math.max(last.x1, Math.ceil(x + m.actualBoundingBoxRight));
    } else if (g < 128 && ch !== ' ') {
      symbols.push({
        text: ch,
        bbox: { x0: Math.floor(x - m.actualBoundingBoxLeft), x1: Math.ceil(x + m.actualBoundingBoxRight), y0: Math.floor(baseline - m.actualBoundingBoxAscent), y1: Math.ceil(baseline + m.actualBoundingBoxDescent) },
      });
    }
    x += m.width;
  });
  if (spot) {
    ctx.fillStyle = `rgb(${spot.grey},${spot.grey},${spot.grey})`;
    ctx.fillRect(20 + spot.dx, baseline + spot.dy, spot.size ?? 5, spot.size ?? 5);
  }
  const rgba = ctx.getImageData(0, 0, 400, 100).data;
  const image = { width: 400, height: 100, data: Uint8Array.from({ length: 400 * 100 }, (_, i) => rgba[i * 4]!) };
  const bbox = { x0: symbols[0]!.bbox.x0, x1: symbols.at(-1)!.bbox.x1, y0: Math.min(...symbols.map((s) => s.bbox.y0)), y1: Math.max(...symbols.map((s) => s.bbox.y1)) };
  return restoreDecimalPoint({ text: read, bbox, symbols }, image);
}

describe('restoreDecimalPoint', () => {
  it('puts back a faint point between two digits', () => {
    expect(draw({ text: '4.6', grey: { 1: 200 } }, '46')).toBe('4.6');
    expect(draw({ text: '0.64', grey: { 1: 200 } }, '064')).toBe('0.64');
    expect(draw({ text: '17.5', grey: { 2: 190 } }, '175')).toBe('17.5');
  });

  it('keeps a flag glued to the number and a comparator before it', () => {
    expect(draw({ text: '1.05H', grey: { 1: 200 } }, '105H')).toBe('1.05H');
    expect(draw({ text: '<1.5', grey: { 2: 200 } }, '<15')).toBe('<1.5');
  });

  it('finds the point beside the foot of a 1 (the foot joins its digit; the point stands apart)', () => {
    expect(draw({ text: '9.1', grey: { 1: 200 } }, '91')).toBe('9.1');
    expect(draw({ text: '1.1', grey: { 1: 200 } }, '11')).toBe('1.1');
  });

  it('puts back the points of a range read as one word, each bound on its own', () => {
    expect(draw({ text: '3.5-5.1', grey: { 1: 200, 5: 200 } }, '35-51')).toBe('3.5-5.1');
    expect(draw({ text: '1.7-21', grey: { 1: 200 } }, '17-21')).toBe('1.7-21');
    expect(draw({ text: '22-29' }, '22-29')).toBeUndefined();
  });

  it('reads whole numbers as whole numbers', () => {
    for (const n of ['46', '120', '11', '2017', '71']) expect(draw({ text: n }, n)).toBeUndefined();
  });

  it('does not take a point after the last digit, a spot as pale as paper, or a spot high up for a decimal point', () => {
    // "46." (a full stop) is not 4.6.
    expect(draw({ text: '46.', grey: { 2: 200 }, swallowed: [2] }, '46')).toBeUndefined();
    // A comma's tail hangs below the digits: "1,250" with a faint comma is not 1.250.
    expect(draw({ text: '1,250', grey: { 1: 200 } }, '1250')).toBeUndefined();
    // A point so pale (grey 245 on white) that nobody would call it printed.
    expect(draw({ text: '4.6', grey: { 1: 245 } }, '46')).toBeUndefined();
    // A speck at mid-height between two digits spaced apart; the same speck on the baseline is a point.
    expect(draw({ text: '4 6', spot: { dx: 26, dy: -20, grey: 150 } }, '46')).toBeUndefined();
    expect(draw({ text: '4 6', spot: { dx: 26, dy: -5, grey: 150 } }, '46')).toBe('4.6');
    // A grain of one pixel on the baseline is not a point.
    expect(draw({ text: '4 6', spot: { dx: 26, dy: -2, grey: 100, size: 1 } }, '46')).toBeUndefined();
  });

  it('leaves words that are not whole numbers alone', () => {
    expect(draw({ text: '4.6' }, '4.6')).toBeUndefined();
    expect(draw({ text: 'mg' }, 'mg')).toBeUndefined();
  });
});

describe('rows with a restored point', () => {
  it('are read for metadata as OCR read them (a postcode is not a decimal number), and the result cells know', () => {
    const [row] = page([[100, [[40, 'Reno,'], [70, 'NV'], [85, '895.02']]]], 1, { confidence: 90 });
    const item = row!.cells.flatMap((c) => c.items).find((i) => i.text === '895.02')!;
    item.unrestoredText = '89502';
    expect(decimalRestored(row!.cells)).toBe(true);
    expect(withoutRestoredPoints(row!).text).toContain('89502');
    expect(withoutRestoredPoints(row!).text).not.toContain('895.02');
    expect(row!.text).toContain('895.02');
  });
});
