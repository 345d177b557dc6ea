import { afterAll, describe, expect, it } from 'vitest';
import { closeParser, parseLabReport } from '../../../server/service/reader';
import { buildDoc, DOCS, type Rendering } from '../../../test/fixtures/lab-reports/generate';
import { createMeasure } from '../../../test/fixtures/lab-reports/render';
import { scoreFile } from '../../../test/fixtures/lab-reports/score';
import { preparedPage } from './preparedPage';

/**
 * Mechanisms of the eighth round of issue-13 reader work: the image path on renderings the tuning
 * files do not have (bench/ocrStress.ts draws tuning pages again, ruled, striped, in colour...).
 * Each is general, none a layout's own rule; the page-level cases run the real rendering and OCR.
 */

afterAll(() => closeParser());

const prepared = (draw: Parameters<typeof preparedPage>[0]) => preparedPage(draw, 1900);

describe('a ruled grid before OCR', () => {
  it('leaves no speck where its rules cross or meet, and keeps the values in its cells', async () => {
    const { ink } = await prepared((ctx) => {
      ctx.fillStyle = '#000';
      for (const y of [200, 260, 320, 380]) ctx.fillRect(200, y, 1400, 4); // rows
      for (const x of [200, 700, 1000]) ctx.fillRect(x, 200, 4, 184); // columns, meeting the last row in a T
      ctx.fillText('Hemoglobin', 220, 300);
      ctx.fillText('10.9', 720, 300);
      ctx.fillText('81', 720, 360);
    });
    // Around each crossing and joint, nothing: it was read as a quote mark before the value ("‘81").
    for (const x of [200, 700, 1000]) for (const y of [200, 260, 320, 380]) expect(ink(x - 6, y - 6, x + 10, y + 10, 200), `${x},${y}`).toBe(0);
    expect(ink(715, 265, 820, 305)).toBeGreaterThan(300);
    expect(ink(715, 325, 780, 365)).toBeGreaterThan(150);
    expect(ink(215, 265, 460, 305)).toBeGreaterThan(600);
  });
});

describe('shaded backgrounds before OCR', () => {
  it('turns a tinted band behind a line of text into paper and keeps its letters dark', async () => {
    const { ink, at } = await prepared((ctx) => {
      ctx.fillStyle = 'rgb(215,215,215)';
      ctx.fillRect(100, 300, 2300, 60); // a zebra stripe
      ctx.fillStyle = '#000';
      ctx.fillText('Born Jul 23, 1944   Female   Patient ID 1671799', 200, 345);
    });
    expect(at(1800, 330)).toBe(255);
    expect(at(150, 310)).toBe(255);
    expect(ink(190, 305, 1200, 355)).toBeGreaterThan(2000);
  });

  it('leaves a dark banner with light letters and a page of plain text as they are', async () => {
    const { at } = await prepared((ctx) => {
      ctx.fillStyle = 'rgb(40,40,40)';
      ctx.fillRect(100, 300, 2300, 80);
    });
    expect(at(1800, 340)).toBeLessThan(110);
  });
});

describe('tuning pages drawn another way read as the page itself', () => {
  const measure = createMeasure();
  async function read(file: string, rendering: Rendering) {
    const spec = DOCS.find((d) => d.file === file)!;
    const { bytes, truth } = await buildDoc(spec, await measure, rendering);
    return scoreFile(truth, await parseLabReport(bytes), 0);
  }

  it('a results table in a ruled grid: every value as printed, none with a stray mark', async () => {
    const score = await read('cp-image-clean.png', { name: 'grid', dpi: 200, grid: true, format: 'png' });
    expect(score.correct).toBe(score.gt);
    expect(score.wrong).toEqual([]);
  }, 60_000);

  it('a portal printout on zebra stripes: the patient lines on the stripes are read', async () => {
    const score = await read('stacked-image-clean.png', { name: 'zebra', dpi: 200, zebra: 0.86, format: 'png' });
    expect(score.correct).toBe(score.gt);
    expect(score.metadataWrong).toEqual([]);
  }, 60_000);
});
