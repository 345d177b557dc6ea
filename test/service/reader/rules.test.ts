import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { prepareForOcr } from '../../../server/service/reader/imagePrep';
import { OcrBudget } from '../../../server/service/reader/limits';

/**
 * Table rules on a scanned page, erased before OCR (a grid's vertical line was read as "|" or as
 * a "1" in front of the value: "142.5" for 42.5). Drawn here at OCR size; what must stay (letters
 * beside and under the rules, a shaded band, a filled box) is checked as carefully as what goes.
 */
const W = 2550;
const H = 3300;
const FONT = `40px ${GlobalFonts.families.some((f) => f.family === 'DejaVu Sans') ? 'DejaVu Sans' : 'sans-serif'}`;

async function prepared(draw: (ctx: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void) {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#000';
  ctx.font = FONT;
  // Enough ordinary text for the page's letter height to be measured.
  for (let i = 0; i < 20; i++) ctx.fillText('Sodium 138 mmol/L 136-145 Potassium 4.5', 200, 1500 + 50 * i);
  draw(ctx);
  const out = await prepareForOcr(canvas, new OcrBudget(), 1);
  /** Pixels darker than `level` in the box. */
  const ink = (x0: number, y0: number, x1: number, y1: number, level = 128) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (out.grey![y * W + x]! < level) n++;
    return n;
  };
  return ink;
}

describe('table rules before OCR', () => {
  it('erases a grid of thin lines, faint ones too, and keeps the values in its cells', async () => {
    const ink = await prepared((ctx) => {
      ctx.fillStyle = '#000';
      ctx.fillRect(300, 200, 3, 600); // a vertical rule
      ctx.fillStyle = '#bbb';
      ctx.fillRect(600, 200, 2, 600); // a faint one
      ctx.fillStyle = '#000';
      ctx.fillRect(300, 500, 1200, 3); // a horizontal rule
      ctx.fillText('42.5', 320, 400);
      ctx.fillText('Hct', 620, 400);
    });
    expect(ink(295, 200, 310, 480)).toBe(0);
    expect(ink(595, 200, 610, 480)).toBe(0);
    expect(ink(700, 495, 1400, 510)).toBe(0);
    expect(ink(315, 360, 420, 410)).toBeGreaterThan(300);
    expect(ink(615, 360, 700, 410)).toBeGreaterThan(200);
  });

  it('keeps letters a rule underlines, a shaded band, a filled box and a line of text', async () => {
    const ink = await prepared((ctx) => {
      ctx.fillText('Test Name          Result', 300, 300);
      ctx.fillRect(300, 304, 1200, 3); // touching the letters' feet
      // A dark header band (a light tint is made paper before OCR: generalisation8.test.ts).
      ctx.fillStyle = '#555';
      ctx.fillRect(300, 600, 1500, 60);
      ctx.fillStyle = '#000';
      ctx.fillRect(300, 800, 40, 400); // a thick bar
    });
    expect(ink(300, 260, 500, 300)).toBeGreaterThan(500);
    expect(ink(300, 610, 1800, 650, 250)).toBeGreaterThan(1500 * 39);
    expect(ink(300, 800, 340, 1200)).toBeGreaterThan(40 * 390);
    expect(ink(200, 1460, 1200, 1505)).toBeGreaterThan(3000);
  });
});
