import { describe, expect, it } from 'vitest';
import { preparedPage } from './preparedPage';

/**
 * Table rules on a scanned page, erased before OCR (a grid's vertical line was read as "|" or as
 * a "1" in front of the value: "142.5" for 42.5). Drawn here at OCR size; what must stay (letters
 * beside and under the rules, a shaded band, a filled box) is checked as carefully as what goes.
 */
const prepared = async (draw: Parameters<typeof preparedPage>[0]) => (await preparedPage(draw, 1500)).ink;

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
