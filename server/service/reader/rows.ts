import type { Cell, PageText, Row, TextItem } from './types';

/**
 * Positioned text -> rows -> cells, the same for a PDF text layer and for OCR words, so one
 * table reader serves both. Every tolerance is a fraction of the text height (em), because PDF
 * points and scan pixels differ by a factor of three or four.
 */

/** Two items are on the same row when their baselines differ by less than this many em. */
const SAME_ROW_EM = 0.4;
/** A horizontal gap wider than this many em separates cells (a word space is about 0.3 em). */
const CELL_GAP_EM = 0.8;

export function buildRows(page: PageText): Row[] {
  const items = page.items.filter((i) => i.text.trim() !== '').sort((a, b) => a.baseline - b.baseline || a.x - b.x);
  const groups: TextItem[][] = [];
  let current: TextItem[] = [];
  let currentBaseline = 0;
  for (const item of items) {
    const em = Math.max(item.height, current.length ? median(current.map((i) => i.height)) : 0);
    if (current.length && Math.abs(item.baseline - currentBaseline) > SAME_ROW_EM * em) {
      groups.push(current);
      current = [];
    }
    current.push(item);
    currentBaseline = median(current.map((i) => i.baseline));
  }
  if (current.length) groups.push(current);
  return groups.map((group) => toRow(page.page, group));
}

function toRow(page: number, items: TextItem[]): Row {
  const height = median(items.map((i) => i.height));
  const sorted = [...items].sort((a, b) => a.x - b.x);
  const cells: Cell[] = [];
  for (const item of sorted) {
    const last = cells[cells.length - 1];
    if (last && item.x - last.x2 <= CELL_GAP_EM * height) {
      last.text = `${last.text} ${item.text}`;
      last.x2 = Math.max(last.x2, item.x + item.width);
      last.items.push(item);
    } else {
      cells.push({ text: item.text, x: item.x, x2: item.x + item.width, items: [item] });
    }
  }
  for (const cell of cells) cell.text = cell.text.replace(/\s+/g, ' ').trim();
  const y = median(items.map((i) => i.baseline)) - 0.35 * height;
  return { page, y, height, cells, text: cells.map((c) => c.text).join('  ') };
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Whether OCR put back a faint decimal point in any item of some cells (decimalPoints.ts). */
export function decimalRestored(cells: readonly Cell[]): boolean {
  return cells.some((c) => c.items.some((i) => i.unrestoredText !== undefined));
}

/** The row as OCR read it, without restored decimal points (for metadata: postcodes, phone numbers). */
export function withoutRestoredPoints(row: Row): Row {
  if (!row.cells.some((c) => decimalRestored([c]))) return row;
  const cells = row.cells.map((c) => {
    let text = c.text;
    for (const i of c.items) if (i.unrestoredText !== undefined) text = text.replace(i.text, i.unrestoredText);
    return { ...c, text, items: c.items.map((i) => (i.unrestoredText === undefined ? i : { ...i, text: i.unrestoredText })) };
  });
  return { ...row, cells, text: cells.map((c) => c.text).join('  ') };
}

/** Lowest OCR confidence of the items of some cells (undefined for text-layer PDFs). */
export function minConfidence(cells: readonly Cell[]): number | undefined {
  let min: number | undefined;
  for (const c of cells) {
    for (const i of c.items) {
      if (i.confidence !== undefined) min = min === undefined ? i.confidence : Math.min(min, i.confidence);
    }
  }
  return min;
}
