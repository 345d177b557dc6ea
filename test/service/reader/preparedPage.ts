/**
 * A page drawn at OCR size (300 dpi letter) and put through the reader's image preparation, for
 * tests of what preparation erases and keeps (rules.test.ts, generalisation8.test.ts).
 */
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { prepareForOcr } from '../../../server/service/reader/imagePrep';
import { OcrBudget } from '../../../server/service/reader/limits';

export const W = 2550;
export const H = 3300;
export const FONT = `40px ${GlobalFonts.families.some((f) => f.family === 'DejaVu Sans') ? 'DejaVu Sans' : 'sans-serif'}`;

type Ctx = ReturnType<ReturnType<typeof createCanvas>['getContext']>;

/**
 * White page, `draw`, then twenty lines of ordinary text from `fillerTop` down (enough for the
 * page's letter height to be measured), prepared. `ink` counts pixels darker than `level` in a box.
 */
export async function preparedPage(draw: (ctx: Ctx) => void, fillerTop: number) {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#000';
  ctx.font = FONT;
  draw(ctx);
  ctx.fillStyle = '#000';
  ctx.font = FONT;
  for (let i = 0; i < 20; i++) ctx.fillText('Sodium 138 mmol/L 136-145 Potassium 4.5', 200, fillerTop + 50 * i);
  const grey = (await prepareForOcr(canvas, new OcrBudget(), 1)).grey!;
  const ink = (x0: number, y0: number, x1: number, y1: number, level = 128) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (grey[y * W + x]! < level) n++;
    return n;
  };
  return { ink, at: (x: number, y: number) => grey[y * W + x]! };
}
