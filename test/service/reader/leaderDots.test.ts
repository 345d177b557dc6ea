import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { prepareForOcr } from '../../../server/service/reader/imagePrep';
import { OcrBudget } from '../../../server/service/reader/limits';
import { withLeaders } from '../../../server/service/reader/ocr';
import type { TextItem } from '../../../server/service/reader/types';

/**
 * Leader dots on a scanned page: OCR reads a run of dots as letters ("Glucose . 3 CESS or Hs Fest
 * veer ween. 68"), so they are erased before OCR and put back as a leader word after it. Pages are
 * drawn here at OCR size with real fonts; what must stay (letters, a decimal point, an ellipsis,
 * full stops between letters) is checked as carefully as what must go.
 */
const W = 2550;
const H = 3300;
const SANS = `40px ${GlobalFonts.families.some((f) => f.family === 'DejaVu Sans') ? 'DejaVu Sans' : 'sans-serif'}`;
const MONO = `40px ${GlobalFonts.families.some((f) => f.family === 'DejaVu Sans Mono') ? 'DejaVu Sans Mono' : 'monospace'}`;

async function prepare(lines: { text: string; font: string; y: number }[]) {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#000';
  const spans = lines.map(({ text, font, y }) => {
    ctx.font = font;
    const at = (part: string) => {
      ctx.font = font;
      const start = ctx.measureText(text.slice(0, text.indexOf(part))).width + 100;
      return { x0: Math.round(start), x1: Math.round(start + ctx.measureText(part).width), y };
    };
    ctx.fillText(text, 100, y);
    return at;
  });
  const out = await prepareForOcr(canvas, new OcrBudget(), 1);
  const grey = out.grey!;
  /** Dark pixels in the box from x0 to x1, a letter's height above the baseline y down to a little below it. */
  const ink = ({ x0, x1, y }: { x0: number; x1: number; y: number }) => {
    let n = 0;
    for (let yy = y - 40; yy < y + 6; yy++) for (let x = x0; x < x1; x++) if (grey[yy * W + x]! < 128) n++;
    return n;
  };
  return { leaders: out.leaders ?? [], ink, spans };
}

describe('leader dots before OCR', () => {
  it('erases a dotted and a dashed leader and keeps the name, the value and its decimal point', async () => {
    const page = await prepare([
      { text: 'Creatinine ..................... 0.90 mg/dL [0.57-1.00]', font: SANS, y: 150 },
      { text: 'Sodium - - - - - - - - - - 146 mmol/L', font: MONO, y: 300 },
    ]);
    const [creatinine, sodium] = page.spans as [(s: string) => { x0: number; x1: number; y: number }, (s: string) => { x0: number; x1: number; y: number }];
    expect(page.leaders).toHaveLength(2);
    expect(page.leaders.sort((a, b) => a.y0 - b.y0).map((l) => l.dash)).toEqual([false, true]);
    expect(page.ink(creatinine('.....................'))).toBe(0);
    expect(page.ink(sodium('- - - - - - - - - -'))).toBe(0);
    for (const kept of [creatinine('Creatinine'), creatinine('0.90'), creatinine('[0.57-1.00]'), sodium('Sodium'), sodium('146')]) expect(page.ink(kept)).toBeGreaterThan(100);
    // The decimal point itself: the ink between the 0 and the 9.
    const value = creatinine('0.90');
    const point = { x0: creatinine('0.').x1 - 12, x1: creatinine('0.').x1, y: value.y };
    expect(page.ink(point)).toBeGreaterThan(0);
  });

  it('keeps an ellipsis, full stops between letters and a short dotted version number', async () => {
    const page = await prepare([
      { text: 'Results follow... see page 2', font: SANS, y: 150 },
      { text: 'l.l.l.l.l.l.l.l code 1.2.3.4', font: SANS, y: 300 },
      { text: 'i.i.i.i.i.i.i.i', font: MONO, y: 450 },
    ]);
    expect(page.leaders).toEqual([]);
    const [ellipsis, letters, mono] = page.spans as ((s: string) => { x0: number; x1: number; y: number })[];
    expect(page.ink(ellipsis!('...'))).toBeGreaterThan(0);
    expect(page.ink(letters!('l.l.l.l.l.l.l.l'))).toBeGreaterThan(200);
    expect(page.ink(mono!('i.i.i.i.i.i.i.i'))).toBeGreaterThan(200);
  });
});

describe('a page of dots', () => {
  it('leaves a dotted texture (over fifteen thousand dots in rows) as it is', async () => {
    const canvas = createCanvas(W, H);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#000';
    ctx.font = SANS;
    for (let i = 0; i < 20; i++) ctx.fillText('Sodium 138 mmol/L', 100, 100 + 50 * i);
    // Rows of dots a line apart, as a dotted texture or a screened photo prints them.
    for (let y = 1200; y < H; y += 40) for (let x = 0; x < W; x += 8) ctx.fillRect(x, y, 5, 5);
    const out = await prepareForOcr(canvas, new OcrBudget(), 1);
    expect(out.leaders).toEqual([]);
    expect(out.grey![1202 * W + 2]).toBeLessThan(128);
  });
});

describe('leader dots after OCR', () => {
  const item = (text: string, x: number, width: number): TextItem => ({ text, x, y: 120, baseline: 150, width, height: 40, page: 1, source: 'ocr', confidence: 90 });
  const size = { width: 2550, height: 3300 };

  it('puts the leader back between the name and the value, in place of what the engine read of its faint dots', () => {
    const items = [item('Globulin,', 100, 150), item('Total', 260, 90), item('es', 500, 30), item(':', 700, 8), item('..3.9', 1000, 70), item('g/dL', 1080, 60)];
    const out = withLeaders(items, [{ x0: 380, y0: 140, x1: 990, y1: 148, dash: false }], size, 0);
    expect(out.map((i) => i.text)).toEqual(['Globulin,', 'Total', '..........', '3.9', 'g/dL']);
    expect(out[2]).toMatchObject({ x: 380, width: 610, baseline: 150, height: 40 });
  });

  it('doubts a value whose own decimal point may have been taken for a leader dot ("..85")', () => {
    const items = [item('Albumin', 100, 150), item('..85', 1000, 50), item('Sodium', 100, 150), item('...1.2', 1000, 60)].map((i, k) => (k >= 2 ? { ...i, baseline: 300, y: 270 } : i));
    const out = withLeaders(items, [{ x0: 380, y0: 140, x1: 990, y1: 148, dash: false }, { x0: 380, y0: 290, x1: 990, y1: 298, dash: false }], size, 0);
    expect(out.filter((i) => /\d/.test(i.text)).map((i) => [i.text, i.confidence])).toEqual([
      ['85', 50],
      ['1.2', 90],
    ]);
  });

  it('finds the leader where the engine turned a skewed page straight', () => {
    // The engine turned the page by 0.02 rad about its centre: the band, drawn before, moves with it.
    const radians = 0.02;
    const [cx, cy] = [size.width / 2, size.height / 2];
    const turnedY = (x: number, y: number) => cy + (x - cx) * Math.sin(radians) + (y - cy) * Math.cos(radians);
    const baseline = turnedY(600, 1000);
    const line = [item('Sodium', 100, 150), item('146', 1000, 60)].map((i) => ({ ...i, baseline, y: baseline - 30 }));
    const out = withLeaders(line, [{ x0: 300, y0: 994, x1: 900, y1: 1000, dash: false }], size, radians);
    expect(out.map((i) => i.text)).toEqual(['Sodium', '..........', '146']);
  });

  it('adds nothing where no line of text is near the band', () => {
    const items = [item('Sodium', 100, 150)];
    expect(withLeaders(items, [{ x0: 300, y0: 1994, x1: 900, y1: 2000, dash: true }], size, 0)).toEqual(items);
  });
});
