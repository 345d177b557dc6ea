/**
 * Where each review reason points. The service explains every doubtful result with codes
 * (`review_reasons.results[i]`); a reviewer needs the exact cell to look at, so each known code is
 * mapped to the cell it concerns. Codes may gain values: an unknown one marks the whole row, so a
 * doubt is never silently dropped.
 */
import type { ReviewReason, ReviewReasons } from '../types';

/** The cells a reviewer can correct, in reading (and Tab) order: the LOINC choice sits under the test name. */
export const CELL_COLUMNS = ['test_name', 'loinc', 'value', 'units', 'range'] as const;
export type CellColumn = (typeof CELL_COLUMNS)[number];
export type DoubtColumn = CellColumn | 'row';

const COLUMN_OF_CODE: Record<string, DoubtColumn> = {
  // The value as read.
  low_ocr_confidence: 'value',
  unverifiable_ocr_value: 'value',
  unparseable_value: 'value',
  implausible_value: 'value',
  decimal_suspect: 'value',
  inconsistent_results: 'value',
  // The lab's flag disagrees with value and range: the value is what a reviewer corrects (the
  // flags are worked out again from it).
  flag_inconsistent: 'value',
  unflagged_out_of_range: 'value',
  conflicting_columns: 'value',
  // The unit.
  unexpected_unit: 'units',
  missing_unit: 'units',
  // The reference range.
  range_suspect: 'range',
  // Which test it is.
  loinc_missing: 'loinc',
  loinc_ambiguous: 'loinc',
  loinc_low_confidence: 'loinc',
  // The row as a whole (its columns were guessed).
  layout_unknown: 'row',
};

export const columnOfCode = (code: string): DoubtColumn => (Object.hasOwn(COLUMN_OF_CODE, code) ? COLUMN_OF_CODE[code]! : 'row');

/** The reasons of one row, by the cell they concern. */
export type RowDoubts = Partial<Record<DoubtColumn, ReviewReason[]>>;

export function doubtsOfRows(reasons: ReviewReasons | null | undefined, rowCount: number): RowDoubts[] {
  const out: RowDoubts[] = Array.from({ length: rowCount }, () => ({}));
  reasons?.results.forEach((rowReasons, row) => {
    const doubts = out[row];
    if (!doubts) return;
    for (const reason of rowReasons) {
      const column = columnOfCode(reason.code);
      (doubts[column] ??= []).push(reason);
    }
  });
  return out;
}

/** A cell's key, as its input carries it in `data-cell`: "3:value". */
export const cellKey = (row: number, column: CellColumn) => `${row}:${column}`;

export function parseCellKey(key: string | null | undefined): { row: number; column: CellColumn } | null {
  const match = /^(\d+):([a-z_]+)$/.exec(key ?? '');
  if (!match || !(CELL_COLUMNS as readonly string[]).includes(match[2]!)) return null;
  return { row: Number(match[1]), column: match[2] as CellColumn };
}

/** Reading position of a cell: row by row, left to right. */
export const cellPosition = (row: number, column: CellColumn) => row * CELL_COLUMNS.length + CELL_COLUMNS.indexOf(column);

/**
 * The one rule for which cells are doubtful: those with reasons of their own, and, for a row-level
 * doubt, the row's value (the cell most often misread). The table tints exactly these cells and the
 * count above it counts them, so "5 doubtful cells" always means five tinted cells.
 */
export function isDoubtfulCell(row: RowDoubts, column: CellColumn): boolean {
  return Boolean(row[column]?.length) || (column === 'value' && Boolean(row.row?.length));
}

/** The doubtful cells (see isDoubtfulCell), in reading order: the cells to visit. */
export function doubtfulCells(doubts: RowDoubts[]): string[] {
  const keys: { key: string; position: number }[] = [];
  doubts.forEach((row, index) => {
    for (const column of CELL_COLUMNS) {
      if (isDoubtfulCell(row, column)) keys.push({ key: cellKey(index, column), position: cellPosition(index, column) });
    }
  });
  return keys.sort((a, b) => a.position - b.position).map((k) => k.key);
}

/** The next (or previous) doubtful cell after the one at `from` (a cell key, or null), wrapping around. */
export function stepDoubtful(targets: string[], from: string | null, direction: 1 | -1): string | null {
  if (!targets.length) return null;
  const here = parseCellKey(from);
  if (!here) return direction === 1 ? targets[0]! : targets[targets.length - 1]!;
  const position = cellPosition(here.row, here.column);
  const positions = targets.map((key) => {
    const cell = parseCellKey(key)!;
    return cellPosition(cell.row, cell.column);
  });
  if (direction === 1) {
    const index = positions.findIndex((p) => p > position);
    return targets[index === -1 ? 0 : index]!;
  }
  let index = -1;
  positions.forEach((p, i) => {
    if (p < position) index = i;
  });
  return targets[index === -1 ? targets.length - 1 : index]!;
}
