import { readPrintedDate, readPrintedWallTime } from '../../contract/printedDate';
import { matchLoinc } from './loinc';
import { decimalRestored, minConfidence } from './rows';
import { columnAt, COLUMN_TOLERANCE_EM, type RawResult } from './tableReader';
import type { Cell, Row } from './types';
import { parseValueCell } from './values';

/**
 * A table turned on its side, as EHR flowsheets print it: one column per analyte, its name in the
 * header row, then a row of units, a row of reference ranges and one row of values per collection,
 * each labelled with its date (newest first, or last):
 *
 *   Component         Glucose   BUN     Creat      Na
 *   Units             mg/dL     mg/dL   mg/dL      mmol/L
 *   Ref range         70-99     7-20    0.60-1.20  136-145
 *   06/22/2024 11:22  104 (H)   6 (L)   1.05       118 (LL)
 *   Acc# 24-CH-270673
 *
 * The header is found by its words (most of its cells name an analyte), the rows under it by their
 * labels, the cells by the columns of the header. The newest collection's row holds the results;
 * older rows are history. Its date and accession are the report's, as for a cumulative report.
 */

/** Labels of the first cell of a header row, of a units row, of a range row and of a value row. */
const HEADER_LABEL = /^(?:components?|tests?|analytes?|parameters?|lab(?:oratory)?(?: tests?)?|results?)$/i;
const UNITS_LABEL = /^(?:units?|uom|unit of measure)$/i;
// "Rel range": OCR's f and l look alike.
const RANGE_LABEL = /^(?:re[fl](?:erence)?\.?\s*(?:range|interval)?|normal\s+(?:range|values?)|range|ref(?:erence)?\.?\s+values?)$/i;
const VALUE_LABEL = /^(?:results?|values?|current|latest)$/i;
const ACCESSION = /^(?:acc(?:ession)?\.?\s*(?:#|no\.?|number)?|specimen(?:\s+(?:#|id|no\.?))?)\s*:?\s*([A-Z0-9][A-Z0-9-]{3,})$/i;
const PART_OF = /\s*\((?:\d+\s+of\s+\d+|cont(?:inued|'d|\.)?)\)\s*$/i;

/** Share of a header row's cells (label aside) that must name an analyte. */
const NAMED_SHARE = 0.6;

export interface TransposedRead {
  results: RawResult[];
  used: Set<Row>;
  /** Rows under a flowsheet's header holding values that could not be placed (no readable date). */
  unreadRows: number;
  newestCollection?: { date: string; accession?: string };
}

interface Column {
  name: string;
  cell: Cell;
  x: number;
}

interface Collection {
  row: Row;
  date?: string;
  instant: number;
  accession?: string;
}

export function readTransposed(rows: Row[]): TransposedRead {
  const out: TransposedRead = { results: [], used: new Set(), unreadRows: 0 };
  let newest: Collection | undefined;
  for (let i = 0; i < rows.length; i++) {
    const columns = headerOf(rows[i]!);
    if (!columns) continue;
    const header = rows[i]!;
    out.used.add(header);
    const above = rows[i - 1];
    const panel = above && above.page === header.page && above.cells.length === 1 && !/\d{2}/.test(above.text.replace(PART_OF, '')) ? above.text.replace(PART_OF, '').trim() : undefined;
    if (panel) out.used.add(above!);

    let units: (Cell | undefined)[] = [];
    let ranges: (Cell | undefined)[] = [];
    const collections: Collection[] = [];
    let j = i + 1;
    for (; j < rows.length && rows[j]!.page === header.page; j++) {
      const row = rows[j]!;
      // A line of its own under a collection's row: that collection's accession.
      const acc = ACCESSION.exec(row.text.trim());
      if (acc && collections.length && row.cells.length === 1) {
        collections.at(-1)!.accession = acc[1];
        out.used.add(row);
        continue;
      }
      // A row whose first words reach into the first analyte's column is no labelled row of this table.
      if (row.cells[0]!.x2 > columns[0]!.x) break;
      const label = row.cells[0]!.text.trim();
      const cells = cellsOf(row, columns);
      if (UNITS_LABEL.test(label)) units = cells;
      else if (RANGE_LABEL.test(label)) ranges = cells;
      else {
        const date = readPrintedDate(label);
        if (!date && !VALUE_LABEL.test(label)) {
          // Values under the columns with a label that is no date (OCR garbled it): a collection
          // that cannot be placed, perhaps the newest. A person reads it.
          if (collections.length && cells.filter(Boolean).length >= columns.length / 2) {
            out.unreadRows++;
            out.used.add(row);
            continue;
          }
          break;
        }
        // A date whose time cannot be read ("11:22 (AM draw)") still orders by its day.
        const instant = date ? (readPrintedWallTime(label)?.wall ?? Date.UTC(date.year, date.month - 1, date.day, 12)) : Infinity;
        collections.push({ row, date: date ? label : undefined, instant });
      }
      out.used.add(row);
    }
    i = j - 1;
    if (!collections.length) continue;
    // The newest collection is the result; one without a date ("Result") is the only one there is.
    const current = collections.reduce((a, b) => (b.instant > a.instant ? b : a));
    if (!newest || current.instant > newest.instant) newest = current;
    const values = cellsOf(current.row, columns);
    const clashes = clashingColumns(current.row, columns);
    columns.forEach((column, k) => {
      const cell = values[k];
      if (!cell) return;
      const value = parseValueCell(cell.text);
      const result: RawResult = {
        testName: column.name,
        value,
        page: current.row.page,
        column: 'result',
        problems: [],
        source: cell.items[0]?.source ?? 'text',
      };
      if (value.flag) result.flag = value.flag;
      const unit = units[k]?.text.trim();
      if (unit) result.units = unit;
      else if (value.trailing) result.units = value.trailing;
      const range = ranges[k]?.text.trim();
      if (range) result.rangeText = range;
      if (panel) result.panel = panel;
      if (value.problem) result.problems.push({ code: 'unparseable_value', message: `The value cell could not be read cleanly: ${value.problem}.` });
      if (clashes.has(k)) result.problems.push({ code: 'conflicting_columns', message: `Two values fall under ${column.name}'s column: check which is its result.` });
      const valueCells = [cell, units[k], ranges[k]].filter((c): c is Cell => !!c);
      const vc = minConfidence(valueCells);
      const nc = minConfidence([column.cell]);
      if (vc !== undefined) result.valueConfidence = vc;
      if (nc !== undefined) result.nameConfidence = nc;
      if (decimalRestored([cell])) result.decimalRestored = true;
      out.results.push(result);
    });
  }
  if (newest?.date) out.newestCollection = { date: newest.date, ...(newest.accession ? { accession: newest.accession } : {}) };
  return out;
}

/** The analyte columns of a header row, or undefined when the row is no such header. */
function headerOf(row: Row): Column[] | undefined {
  if (row.cells.length < 3 || !HEADER_LABEL.test(row.cells[0]!.text.trim())) return undefined;
  const cells = row.cells.slice(1);
  // OCR runs short names together ("TBili", "AlkPhos"): on a scan a close match names an analyte too.
  const ocr = row.cells[0]!.items[0]?.source === 'ocr';
  const named = cells.filter((c) => {
    const m = matchLoinc(nameOf(c));
    return m.matches.length > 0 && (m.method !== 'fuzzy' || ocr);
  });
  if (named.length < NAMED_SHARE * cells.length) return undefined;
  return cells.map((cell) => ({ name: nameOf(cell), cell, x: cell.x }));
}

/** A header cell's name, without what OCR made of a rule or a quote beside it ("| Glucose", '"AlkPhos'). */
const nameOf = (cell: Cell) => cell.text.trim().replace(/^[^\p{L}\p{N}(]+/u, '');

/**
 * Each column's cell in a row under the header: a column runs from its header's start (less a
 * little, for a number printed left of it) to the next column's, as a table's columns do.
 */
function cellsOf(row: Row, columns: Column[]): (Cell | undefined)[] {
  const out: (Cell | undefined)[] = columns.map(() => undefined);
  for (const cell of row.cells.slice(1)) {
    const k = columnOf(cell, row, columns);
    if (k >= 0) out[k] ??= cell;
  }
  return out;
}

/** Columns under which a row has two cells: the cells cannot both be that analyte's result. */
function clashingColumns(row: Row, columns: Column[]): Set<number> {
  const seen = new Set<number>();
  const clashes = new Set<number>();
  for (const cell of row.cells.slice(1)) {
    const k = columnOf(cell, row, columns);
    if (k < 0) continue;
    if (seen.has(k)) clashes.add(k);
    seen.add(k);
  }
  return clashes;
}

const columnOf = (cell: Cell, row: Row, columns: Column[]) => columnAt(columns, cell.x, COLUMN_TOLERANCE_EM * row.height);
