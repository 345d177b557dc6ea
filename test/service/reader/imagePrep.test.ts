import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { flattenLight, median3, prepareForOcr, toPgm } from '../../../server/service/reader/imagePrep';
import { OcrBudget } from '../../../server/service/reader/limits';

/**
 * The page clean-up before OCR, on pages drawn here at OCR size (2550 × 3300, a letter page at
 * 300 dpi): what the engine gets must keep every mark of the text, decimal points included, and
 * lose the dust and grain that cost it time and stray characters.
 */
const W = 2550;
const H = 3300;

/** A seeded generator, so the grain is the same on every run. */
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

function page(opts: { paper: number; grain: number; dust: number; ink: number }) {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = `rgb(${opts.paper},${opts.paper},${opts.paper})`;
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = `rgb(${opts.ink},${opts.ink},${opts.ink})`;
  ctx.font = '40px sans-serif';
  ctx.fillText('Potassium 4.5 mmol/L', 200, 300);
  const image = ctx.getImageData(0, 0, W, H);
  const rnd = random(7);
  for (let i = 0; i < image.data.length; i += 4) {
    let v = image.data[i]! + (rnd() + rnd() + rnd() - 1.5) * 2 * opts.grain;
    if (rnd() < opts.dust) v = 0;
    image.data[i] = image.data[i + 1] = image.data[i + 2] = Math.max(0, Math.min(255, v));
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

function whitePage() {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  return { canvas, ctx };
}

async function prepared(canvas: ReturnType<typeof page>) {
  const out = await prepareForOcr(canvas, new OcrBudget(), 1);
  const grey = out.grey!;
  return { at: (x: number, y: number) => grey[y * out.width + x]!, width: out.width, height: out.height };
}

/** Share of dark pixels (< 128) in a box. */
function inkShare(p: Awaited<ReturnType<typeof prepared>>, x0: number, y0: number, x1: number, y1: number) {
  let dark = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (p.at(x, y) < 128) dark++;
  return dark / ((x1 - x0) * (y1 - y0));
}

describe('prepareForOcr', () => {
  it('removes fax dust and grain far from the text, and keeps the text with its decimal point', async () => {
    const p = await prepared(page({ paper: 235, grain: 12, dust: 0.003, ink: 40 }));
    // The empty lower half of the page: no dust and no grain left for the engine.
    expect(inkShare(p, 0, 1500, W, H)).toBe(0);
    // The text line is still there, decimal point included: "4.5" has ink between its digits at the baseline.
    expect(inkShare(p, 200, 265, 800, 305)).toBeGreaterThan(0.1);
    const ctx = createCanvas(10, 10).getContext('2d');
    ctx.font = '40px sans-serif';
    const pointX = 200 + Math.round(ctx.measureText('Potassium 4').width) + 5;
    let pointInk = 0;
    for (let y = 290; y <= 300; y++) for (let x = pointX - 4; x <= pointX + 4; x++) if (p.at(x, y) < 160) pointInk++;
    expect(pointInk).toBeGreaterThan(3);
  });

  it('does not turn the grain of a nearly empty page into black and white noise', async () => {
    const p = await prepared(page({ paper: 235, grain: 12, dust: 0, ink: 90 }));
    // Away from the text the page is paper: before the gain was capped, a tenth of it turned dark.
    expect(inkShare(p, 0, 600, W, 1200)).toBe(0);
  });

  it('leaves a clean page as it is', async () => {
    const p = await prepared(page({ paper: 255, grain: 0, dust: 0, ink: 0 }));
    expect(inkShare(p, 0, 600, W, H)).toBe(0);
    expect(inkShare(p, 200, 265, 800, 305)).toBeGreaterThan(0.1);
  });

  it('keeps a table whose rows are shaded grey: the shading is paper, the text on it is ink', async () => {
    const { canvas, ctx } = whitePage();
    for (let y = 200; y < H - 200; y += 60) {
      ctx.fillStyle = 'rgb(200,200,200)';
      ctx.fillRect(100, y + 15, W - 200, 20);
      ctx.fillStyle = 'rgb(60,60,60)';
      ctx.font = '30px sans-serif';
      ctx.fillText('Sodium 140 mmol/L 135-145', 200, y + 32);
    }
    const p = await prepared(canvas);
    expect(inkShare(p, 200, 205, 700, 235)).toBeGreaterThan(0.05);
  });

  it('keeps lone small values far from other text (a "1", a "-", a "<5" in a column of small print)', async () => {
    const { canvas, ctx } = whitePage();
    ctx.fillStyle = '#000';
    ctx.font = '20px sans-serif';
    for (let y = 200; y < 1400; y += 40) ctx.fillText('Basophils (Absolute)', 100, y);
    ctx.fillText('1', 1200, 200);
    ctx.fillText('-', 1200, 240);
    ctx.fillText('<5', 1200, 280);
    const p = await prepared(canvas);
    expect(inkShare(p, 1195, 180, 1215, 202)).toBeGreaterThan(0.05);
    expect(inkShare(p, 1195, 225, 1215, 240)).toBeGreaterThan(0.02);
    expect(inkShare(p, 1195, 260, 1230, 282)).toBeGreaterThan(0.05);
  });
});

describe('flattenLight', () => {
  /** A page of text lines under a photo's light: a dark corner and a diagonal shadow band, as light multiplies what paper reflects. */
  function shadowed(shadow: number) {
    const { canvas, ctx } = whitePage();
    ctx.fillStyle = 'rgb(30,30,30)';
    ctx.font = '40px sans-serif';
    for (let y = 300; y < 1800; y += 100) ctx.fillText('Potassium 4.5 mmol/L 3.5-5.1', 200, y);
    const image = ctx.getImageData(0, 0, W, H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const [u, v] = [x / W, y / H];
        const dark = Math.max(0, 1 - Math.hypot(u, v) / 1.2);
        const band = Math.exp(-(((u + v) / 2 - 0.5) ** 2) / 0.004);
        const i = 4 * (y * W + x);
        image.data[i] = image.data[i + 1] = image.data[i + 2] = image.data[i]! * 0.9 * (1 - shadow * (0.6 * dark + 0.4 * band));
      }
    }
    ctx.putImageData(image, 0, 0);
    return canvas;
  }

  it('makes the paper in the shadow as white as in the light, and keeps the text in both dark', async () => {
    const p = await prepared(shadowed(0.45));
    // The empty page under the shadow band and in the dark corner: paper, not ink.
    expect(inkShare(p, 0, 1900, W, H)).toBe(0);
    expect(inkShare(p, 0, 0, 150, 1800)).toBe(0);
    // Text in the dark corner and text under the band are both there.
    expect(inkShare(p, 200, 265, 800, 305)).toBeGreaterThan(0.1);
    expect(inkShare(p, 200, 1565, 800, 1605)).toBeGreaterThan(0.1);
  });

  it('leaves an evenly lit page alone', () => {
    const grey = new Uint8Array(600 * 400).fill(230);
    for (let i = 0; i < grey.length; i += 17) grey[i] = 40;
    const before = Uint8Array.from(grey);
    expect(flattenLight(grey, 600, 400)).toBe(false);
    expect(grey).toEqual(before);
  });
});

describe('median3', () => {
  it('gives each inner pixel the middle of the nine values around it, and keeps the edges', () => {
    const [w, h] = [23, 17];
    const rnd = random(3);
    // Grain, flat runs and extremes, so ties and the ends of the range are exercised.
    const src = Uint8Array.from({ length: w * h }, (_, i) => (i % 7 === 0 ? 255 : i % 11 === 0 ? 0 : Math.floor(rnd() * 8) * 32));
    const out = median3(src, w, h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (x === 0 || y === 0 || x === w - 1 || y === h - 1) {
          expect(out[y * w + x]).toBe(src[y * w + x]);
          continue;
        }
        const window: number[] = [];
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) window.push(src[(y + dy) * w + x + dx]!);
        expect(out[y * w + x]).toBe(window.sort((a, b) => a - b)[4]);
      }
    }
  });
});

describe('toPgm', () => {
  it('writes the grey pixels unchanged after a header longer than the 500 bytes tesseract.js reads for EXIF', () => {
    const grey = Uint8Array.from([0, 18, 1, 3, 255, 128]);
    const pgm = toPgm(grey, 3, 2);
    const header = pgm.subarray(0, pgm.length - grey.length).toString('latin1');
    expect(header.startsWith('P5\n#')).toBe(true);
    expect(header.endsWith('\n3 2\n255\n')).toBe(true);
    expect(header.length).toBeGreaterThan(500);
    expect([...pgm.subarray(header.length)]).toEqual([...grey]);
  });
});
