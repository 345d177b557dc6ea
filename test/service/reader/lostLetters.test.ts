import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { restoreLostI } from '../../../server/service/reader/lostLetters';

/**
 * "IU/L" drawn here with its I tight against the U, and the word as OCR returns it when it
 * swallows the I: "U/L", the U's box reaching over the I.
 */
const FONTS = ['serif', ...(GlobalFonts.families.some((f) => f.family === 'DejaVu Sans') ? ['DejaVu Sans'] : [])];

function read(printed: string, read: string, firstBoxFrom = 0, font = 'serif') {
  const canvas = createCanvas(300, 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 300, 80);
  ctx.fillStyle = '#000';
  ctx.font = `40px ${font}`;
  ctx.fillText(printed, 20, 60);
  // The first read symbol's box spans the first `firstBoxFrom + 1` printed letters.
  const upTo = ctx.measureText(printed.slice(0, firstBoxFrom + 1));
  const box = { x0: 20 - Math.ceil(upTo.actualBoundingBoxLeft), x1: 20 + Math.ceil(upTo.actualBoundingBoxRight), y0: 60 - Math.ceil(upTo.actualBoundingBoxAscent), y1: 60 };
  const symbols = [...read].map((text, i) => ({ text, bbox: i === 0 ? box : { ...box, x0: box.x1 + i * 10, x1: box.x1 + i * 10 + 8 } }));
  const rgba = ctx.getImageData(0, 0, 300, 80).data;
  const image = { width: 300, height: 80, data: Uint8Array.from({ length: 300 * 80 }, (_, i) => rgba[i * 4]!) };
  return restoreLostI({ text: read, bbox: box, symbols }, image);
}

describe.each(FONTS)('restoreLostI (%s)', (font) => {
  it('puts back the I of IU/L that OCR took into the U', () => {
    expect(read('IU/L', 'U/L', 1, font)).toBe('IU/L');
    expect(read('IU/mL', 'U/mL', 1, font)).toBe('IU/mL');
  });

  it('leaves a U/L that is printed as U/L, and words that are not such a unit', () => {
    expect(read('U/L', 'U/L', 0, font)).toBeUndefined();
    expect(read('U/mL', 'U/mL', 0, font)).toBeUndefined();
    expect(read('IU/L', 'IU/L', 0, font)).toBeUndefined();
    expect(read('UL', 'UL', 0, font)).toBeUndefined();
  });
});
