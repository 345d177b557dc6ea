import { describe, expect, it } from 'vitest';
import { toPage } from '../../../server/service/reader/ocr';
import { buildRows } from '../../../server/service/reader/rows';

/** The engine's output for two lines of a boxed patient block, in the shapes toPage reads. */
const word = (text: string, x0: number, y0: number, x1: number, y1: number) => ({ text, bbox: { x0, y0, x1, y1 }, confidence: 95, symbols: [] });
const line = (words: ReturnType<typeof word>[], baseline: number, rowHeight: number) => {
  const bbox = { x0: Math.min(...words.map((w) => w.bbox.x0)), y0: Math.min(...words.map((w) => w.bbox.y0)), x1: Math.max(...words.map((w) => w.bbox.x1)), y1: Math.max(...words.map((w) => w.bbox.y1)) };
  return { words, bbox, baseline: { x0: bbox.x0, y0: baseline, x1: bbox.x1, y1: baseline }, rowAttributes: { rowHeight } };
};

describe('OCR lines into rows', () => {
  it('keeps two lines of a boxed block apart when the box’s rule stretched the first line to four times its text', () => {
    const data = {
      blocks: [
        {
          paragraphs: [
            {
              lines: [
                line([word('|', 140, 250, 146, 380), word('Name:', 267, 287, 350, 312), word('Ibrahim,', 365, 282, 480, 312), word('Carlos', 501, 282, 590, 312)], 307, 130),
                line([word('Birth:', 267, 329, 340, 354), word('06/18/2001', 352, 329, 500, 354)], 352, 30),
              ],
            },
          ],
        },
      ],
    };
    const rows = buildRows(toPage(data as unknown as Parameters<typeof toPage>[0], 1, { width: 2550, height: 3300 }));
    expect(rows.map((r) => r.cells.map((c) => c.text).join(' '))).toEqual(['| Name: Ibrahim, Carlos', 'Birth: 06/18/2001']);
  });
});
