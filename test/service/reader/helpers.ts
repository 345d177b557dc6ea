import { buildRows } from '../../../server/service/reader/rows';
import type { PageText, Row, TextItem } from '../../../server/service/reader/types';

/**
 * Builds rows the way pdfText.ts/ocr.ts would deliver them: each line is [baseline, [x, text]...]
 * on a page, with the text width estimated from the font size (Helvetica averages ~0.5 em).
 */
export type Line = [baseline: number, cells: [x: number, text: string][]];

export function page(lines: Line[], pageNumber = 1, opts: { size?: number; confidence?: number } = {}): Row[] {
  return buildRows(pageText(lines, pageNumber, opts));
}

/** The same lines as the page's text items, before rows are built (for steps that work on items). */
export function pageText(lines: Line[], pageNumber = 1, opts: { size?: number; confidence?: number } = {}): PageText {
  const size = opts.size ?? 9;
  const items: TextItem[] = [];
  for (const [baseline, cells] of lines) {
    for (const [x, text] of cells) {
      items.push({
        text,
        x,
        y: baseline - 0.8 * size,
        baseline,
        width: text.length * size * 0.5,
        height: size,
        page: pageNumber,
        source: opts.confidence === undefined ? 'text' : 'ocr',
        ...(opts.confidence === undefined ? {} : { confidence: opts.confidence }),
      });
    }
  }
  return { page: pageNumber, width: 612, height: 792, source: items[0]?.source ?? 'text', items };
}

/** Lines of a table at a fixed pitch: each entry is the cells of one line. */
export function table(start: number, rows: [x: number, text: string][][], pitch = 12): Line[] {
  return rows.map((cells, i) => [start + i * pitch, cells]);
}
