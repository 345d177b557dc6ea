import { PRINTED_DATE, readPrintedWallTime } from '../../contract/printedDate';
import { withoutAccents } from '../../contract/fold';
import { similarWords } from './fuzzy';
import { matchLoinc } from './loinc';
import { decimalRestored, minConfidence } from './rows';
import type { Cell, ResultReviewCode, ReviewReason, Row, TextItem } from './types';
import { flagKind, isDotNoise, isKnownQualitative, isLeader, isMarksOnly, LEADER_RUN, parseRange, parseValueCell, RANGE_STATUS, sexSpecificPart, SIGN_FLAG, type ValueCell } from './values';

/**
 * Reads result tables out of rows, the way US reports print them:
 * - current/previous layout: Test | Current Result and Flag | Previous Result and Date | Units | Reference Interval
 * - in/out-of-range layout:  Test Name | In Range | Out Of Range | Reference Range | Lab (units after the range)
 * - generic layouts:         Test | Result | Flag | Units | Reference Range (any order, any subset)
 *
 * A header row fixes the columns (each text item goes to the column whose header starts at or
 * just before it), and stays in force across page breaks until the next header. Rows that
 * repeat on every page (letterheads, footers) and "Page n of m" lines are dropped before they
 * can look like results. A row with a name but no value is a panel header (source_panel_name),
 * the wrapped tail of the previous test name, or a comment.
 */

export type ColumnRole = 'name' | 'loinc' | 'result' | 'inRange' | 'outRange' | 'flag' | 'units' | 'range' | 'rangeLow' | 'rangeHigh' | 'status' | 'previous' | 'lab' | 'other';

interface Column {
  role: ColumnRole;
  x: number;
}

export interface RawResult {
  testName: string;
  value: ValueCell;
  /** The flag as printed, from the value cell or a flag column. */
  flag?: string;
  units?: string;
  rangeText?: string;
  panel?: string;
  page: number;
  /**
   * Which column the value came from; 'headerless' when no table header was found at all,
   * 'narrative' when it was read from a sentence or a bulleted line (narrative.ts).
   */
  column: 'result' | 'inRange' | 'outRange' | 'headerless' | 'narrative';
  /** A "critical value called to …" comment follows the row: the lab judged it critical and told someone. */
  criticalCalled?: boolean;
  /** What looked wrong while reading the row (two value columns filled, a flag column that is not a flag...). */
  problems: ReviewReason<ResultReviewCode>[];
  /** OCR: lowest character confidence of the value, flag, units and range (undefined for text PDFs). */
  valueConfidence?: number;
  nameConfidence?: number;
  /** A LOINC code printed beside the name (a LOINC column), when its check digit holds. */
  printedLoinc?: string;
  /** Text layer: the value is printed in bold (see markBoldAbnormal). */
  valueBold?: boolean;
  /** OCR: a decimal point in the value's cells was read from faint shading, not from ink. */
  decimalRestored?: boolean;
  source: 'text' | 'ocr';
}

export interface TableRead {
  results: RawResult[];
  headerFound: boolean;
  /** Rows outside result tables (letterhead, patient block, footers, comments): metadata reads these. */
  otherRows: Row[];
  /** Rows inside a table that held data but could not be read as a result. */
  unreadRows: number;
  /**
   * A cumulative report (one column per collection): the newest column's date (and time) and
   * accession, as printed at its head. Its values are the results; the older columns are history.
   */
  newestCollection?: { date: string; accession?: string };
}

/** A German table header (Untersuchung / Ergebnis / Einheit / Referenzbereich). */
const GERMAN_HEADER = /\b(?:untersuchung|ergebnis|einheit|referenzbereich|normbereich)\b/i;

/** Tolerance, in em, for an item starting a little left of its column's header. */
export const COLUMN_TOLERANCE_EM = 1.0;
/** A wrapped name line sits at most this many em below its first line. */
const WRAP_GAP_EM = 1.9;

export function readTables(pages: Row[][]): TableRead {
  const boilerplate = findBoilerplate(pages);
  const rows = pages.flatMap(sideBySideInReadingOrder);
  const out: TableRead = { results: [], headerFound: false, otherRows: [], unreadRows: 0 };
  let layout: Column[] | undefined;
  /** The table's header is German: "+" and "-" beside a value are its flags. */
  let signFlags = false;
  /** False right after a page break until the page's own header (if any) is seen. */
  let layoutConfirmed = false;
  let panel: string | undefined;
  let last: { result: RawResult; row: Row } | undefined;
  let pageOfLast = 0;

  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.page !== pageOfLast) {
      pageOfLast = row.page;
      layoutConfirmed = false;
      last = undefined;
    }
    const header = headerColumns(row);
    if (header) {
      layout = header;
      signFlags = GERMAN_HEADER.test(row.text);
      layoutConfirmed = true;
      out.headerFound = true;
      last = undefined;
      if (header.some((c) => c.role === 'previous') && collectionDates(row).size) {
        const newest = [...collectionDates(row)].sort((a, b) => b[1] - a[1])[0]![0];
        out.newestCollection = { date: newest.text.trim() };
        i += readCollectionLines(rows, i, header, out.newestCollection);
      }
      continue;
    }
    if (boilerplate.has(row) || isPageFurniture(row.text) || !layout) {
      out.otherRows.push(row);
      continue;
    }
    if (CRITICAL_CALL.test(row.text)) {
      // The lab's record that it phoned a critical value through: it makes the result above critical.
      if (last) last.result.criticalCalled = true;
      out.otherRows.push(row);
      continue;
    }
    if (isAxis(row)) {
      // A histogram's axis under the table ("0  100  200  300 fL"): a scale, not results.
      out.otherRows.push(row);
      continue;
    }
    if (isSectionHeading(row, layout)) {
      // "QUÍMICA SANGUÍNEA" centred over the table: the panel of the rows below, whichever column it falls in.
      panel = cleanPanelName(row.cells[0]!.text);
      last = undefined;
      out.otherRows.push(row);
      continue;
    }
    const cols = assignColumns(row, layout);
    const name = withoutFootnoteMark(text(cols.name));
    const valueRoles = (['result', 'inRange', 'outRange'] as const).filter((r) => text(cols[r]));
    const hasOther = !!(text(cols.units) || text(cols.range) || text(cols.rangeLow) || text(cols.rangeHigh) || text(cols.flag));

    // A panel's band may carry its specimen at the other end ("URINALYSIS ...   Specimen: Urine"):
    // a labelled note beside the heading, no cell of a result.
    const labelledNoteBeside = hasOther && valueRoles.length === 0 && otherCellsAreLabels(cols);
    const rangeLine = name && valueRoles.length === 0 && !hasOther && last && !last.result.rangeText ? RANGE_LINE.exec(name) : null;
    if (rangeLine && last) {
      // "Healthy range: <200 mg/dL" under the result: its reference range (and unit, if the row had none).
      const range = parseRange(rangeLine[1]!);
      last.result.rangeText = range.units ? rangeLine[1]!.slice(0, rangeLine[1]!.lastIndexOf(range.units)).trim() : rangeLine[1]!.trim();
      if (!last.result.units && range.units) last.result.units = range.units;
      last.row = row;
      out.otherRows.push(row);
      continue;
    }
    if (name && valueRoles.length === 0 && (!hasOther || labelledNoteBeside)) {
      if (last && isContinuation(row, last.row, last.result.testName, name)) {
        last.result.testName = `${last.result.testName} ${name}`;
        last.row = row;
        continue;
      }
      if (isPanelHeader(name, rows, i, layout)) {
        panel = cleanPanelName(name);
        last = undefined;
      }
      out.otherRows.push(row);
      continue;
    }
    if (name && valueRoles.length === 0 && text(cols.previous) && !isLabel(name)) {
      // A cumulative report's test not resulted in the newest collection: history, not a result.
      out.otherRows.push(row);
      continue;
    }
    if (!name && valueRoles.length === 0 && last && rangeWrap(row, cols, last)) {
      // The range cell went on to a second line ("Hombres: 13.5 - 17.5" over "Mujeres: 12.0 - 15.5").
      last.result.rangeText = `${last.result.rangeText}; ${text(cols.range)}`;
      last.row = row;
      continue;
    }
    if (!name || valueRoles.length === 0 || isLabel(name)) {
      // Data in a value column without a test name is a result that could not be read; a
      // labelled line ("Patient Name: ...") reaching into the columns is letterhead.
      // Words alone there ("H/L = outside range  HH/LL = critical") are a legend.
      if ((valueRoles.length || hasOther) && mayBeResult(row, cols, name) && !isLabel(name)) out.unreadRows++;
      out.otherRows.push(row);
      continue;
    }

    const result = readResultRow(row, cols, valueRoles, name, panel, signFlags);
    // A row whose value is not a value and whose name is not a test is prose that happens to
    // reach the value column (comments, disclaimers); on an unconfirmed page it is more likely
    // the letterhead of a page that did not repeat the table header.
    const knownName = matchLoinc(name).matches.length > 0;
    if ((result.value.kind === 'unparseable' && !knownName) || (!layoutConfirmed && !knownName)) {
      // Words reaching into the value column ("H/L = outside range", "Reviewed by: ____") are a
      // legend or a form line; anything else there may be a result whose name was lost.
      if (mayBeResult(row, cols, name)) out.unreadRows++;
      out.otherRows.push(row);
      continue;
    }
    if (result.value.kind === 'unparseable' && matchLoinc(result.value.value).method === 'exact') {
      // "WBC   RBC   PLT" under a blood count: the captions of its histograms, names and no values.
      out.otherRows.push(row);
      continue;
    }
    if (!knownName && isGuidanceRow(name, result)) {
      // An interpretation table under a result ("Pre-diabetic (at risk)   5.7 - 6.4"): categories, not tests.
      out.otherRows.push(row);
      continue;
    }
    out.results.push(result);
    last = { result, row };
  }

  if (!out.headerFound) out.results = readHeaderless(rows, boilerplate, out);
  markBoldAbnormal(out.results);
  return out;
}

/**
 * A LOINC code as printed ("2823-3"): digits, a dash and the check digit of LOINC's mod-10
 * algorithm (digits in odd places from the right doubled, then all digits summed).
 */
export function isLoincCode(code: string): boolean {
  const m = /^(\d{1,7})-(\d)$/.exec(code.trim());
  if (!m) return false;
  let sum = 0;
  [...m[1]!].reverse().forEach((d, i) => {
    const n = Number(d) * (i % 2 === 0 ? 2 : 1);
    sum += n > 9 ? n - 9 : n;
  });
  return (10 - (sum % 10)) % 10 === Number(m[2]);
}

/** The flag a value printed in bold among values that are not carries (read as "abnormal", FLAG_WORDS). */
export const BOLD_FLAG = 'printed in bold';

/**
 * Reports without a flag column mark a result outside its range by printing it in bold ("Results
 * outside the reference range are shown in bold."). Where a table's values are some bold and some
 * not, the bold ones carry that mark as their flag (unless a flag is printed): the interpretation
 * follows it, and a bold value within its range, or a regular one outside it, goes to review as
 * any flag that disagrees with its range does. A table all in bold says nothing.
 */
export function markBoldAbnormal(results: RawResult[]): void {
  const marked = results.filter((r) => r.valueBold !== undefined);
  if (!marked.some((r) => r.valueBold) || !marked.some((r) => !r.valueBold)) return;
  for (const r of marked) if (r.valueBold && !r.flag) r.flag = BOLD_FLAG;
}

// ---------------------------------------------------------------------------------------------
// Header rows and columns
// ---------------------------------------------------------------------------------------------

/** Header cell text -> role. Order matters: "Previous Result" is previous, not result. */
const HEADER_PATTERNS: [RegExp, ColumnRole][] = [
  [/\b(previous|prior|last)\b/, 'previous'],
  [/\bout of range\b|\boutside range\b|\babnormal result/, 'outRange'],
  [/\bin range\b|\bwithin range\b|\bnormal result/, 'inRange'],
  // A range in two columns: "Ref Low" / "Ref High", "Lower Limit" / "Upper Limit", "Normal Min" / "Max".
  [/^(?:(?:ref|reference|normal|range)\s+)?(?:low|lower|min|minimum)(?:\s+(?:limit|bound|ref|range|normal))?$/, 'rangeLow'],
  [/^(?:(?:ref|reference|normal|range)\s+)?(?:high|upper|max|maximum)(?:\s+(?:limit|bound|ref|range|normal))?$/, 'rangeHigh'],
  // "Reference Range", "Ref. interval", "Standard Range", "Normal Values", "Biological reference interval".
  [/\breference\b|\bref\b|\brange\b|\binterval\b|\bexpected\b|\bnormal values?\b|\blimits\b/, 'range'],
  [/^(?:lab(?:oratory)? )?(tests?|test names?|analytes?|components?|test description|description|procedure|examination|determination|name|investigations?|parameters?|assays?|tests? performed|observations?|measurements?)$/, 'name'],
  // German: Untersuchung / Ergebnis / Einheit / Referenzbereich (Normbereich), Kennzeichen.
  [/^(untersuchung|analyt|bezeichnung)$/, 'name'],
  [/^(ergebnis|messwert|wert|befund)$/, 'result'],
  [/^(einheit|dimension)$/, 'units'],
  [/^(referenzbereich|normbereich|referenzwerte?|normalbereich|referenzintervall)$/, 'range'],
  [/^(kennzeichen|kennz|bewertung)$/, 'flag'],
  [/^(vorwert|vorbefund)$/, 'previous'],
  [/^(grafik|graphik|methode|material)$/, 'other'],
  // Spanish: Estudio / Resultado / Unidades / Valores de referencia.
  [/^(estudio|prueba|analisis|determinacion|examen|parametro)s?$/, 'name'],
  [/^(resultados?)$/, 'result'],
  [/^(unidad|unidades)$/, 'units'],
  [/^(valores? de referencia|intervalo de referencia|rango de referencia|valores? normales|rango)$/, 'range'],
  [/^(units?|unit s|unit of measure|units of measure|measurement units?|uom|u m)$/, 'units'],
  [/^(flags?|abn|abnormal|abnormal flag|abnormal indicator|indicator|alert|h ?l|a ?n|interpretation|interp)$/, 'flag'],
  // The result's status (Final, Corrected, Preliminary); some labs print their H/L there.
  [/^(?:result )?status$/, 'status'],
  [/\bresults?\b|^values?$|^your (value|result)$|^(?:observed|measured|reported|patient|test) values?$|^(?:observed|measured|findings?|reading|outcome)$/, 'result'],
  [/^(lab|site|performing lab|location)$/, 'lab'],
  [/^(?:loinc|loinc code|loinc #|loinc no)$/, 'loinc'],
  [/\b(date|time|comment|comments|note|notes|method|methods|methodology|specimen|sample|code|loinc|cpt|performed|verified|tech|technologist|instrument|analy[sz]er|accession|order|ordered)\b/, 'other'],
];

const HEADER_WORDS = ['test', 'tests', 'name', 'result', 'results', 'current', 'and', 'flag', 'previous', 'date', 'units', 'unit',
  'reference', 'interval', 'range', 'in', 'out', 'of', 'lab', 'analyte', 'component', 'value', 'investigation', 'parameter',
  'standard', 'normal', 'assay', 'lower', 'upper', 'limit', 'status', 'untersuchung', 'ergebnis', 'einheit', 'referenzbereich'];

/**
 * What OCR makes of a shaded header band's texture and of rules between the column names: ":",
 * "|", "©", "0", "oo oo co". No column is named in two characters or in o's and c's alone.
 */
function isSpeck(text: string): boolean {
  const t = text.replace(/[^\p{L}\p{N}]/gu, '');
  return t.length <= 2 ? !/^(?:h|l|hl|lh)$/i.test(t) : /^[oc0]+$/i.test(t);
}

/** OCR-tolerant: each word snaps to a header word it nearly spells ("Rcsult" -> "result"), specks dropped. */
function headerText(cell: Cell): string {
  // Accents folded ("Análisis" is "analisis"), not cut out.
  return withoutAccents(cell.text.toLowerCase())
    .replace(/[^a-z ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !(w.length <= 3 && /^[oc]+$/.test(w)))
    .map((w) => (w.length >= 4 ? (HEADER_WORDS.find((h) => h.length >= 4 && similarWords(w, h)) ?? w) : w))
    .join(' ');
}

function roleOf(cell: Cell): ColumnRole | undefined {
  const t = headerText(cell);
  // "Units (SI)", "Result (conventional)": the same column in another system of units.
  const bare = t.replace(/\s+(?:si|us|conv|conventional|metric)$/, '');
  return HEADER_PATTERNS.find(([re]) => re.test(t))?.[1] ?? HEADER_PATTERNS.find(([re]) => re.test(bare))?.[1];
}

/**
 * Dense reports print two tables side by side under one header row that names its columns twice
 * ("Test Result Units Range   Test Result Units Range"). From that header down, each row is cut
 * where the second table starts, and the page is read as a reader would: the left table to the
 * bottom, then the right one, each under its own half of the header.
 */
function sideBySideInReadingOrder(page: Row[]): Row[] {
  const at = page.findIndex((row) => (headerColumns(row, true)?.filter((c) => c.role === 'name').length ?? 0) >= 2);
  if (at < 0) return page;
  const names = headerColumns(page[at]!, true)!.filter((c) => c.role === 'name');
  const cut = names[1]!.x - COLUMN_TOLERANCE_EM * page[at]!.height;
  const half = (row: Row, right: boolean): Row | null => {
    const cells = row.cells.filter((c) => (c.x >= cut) === right);
    return cells.length ? { ...row, cells, text: cells.map((c) => c.text).join('  ') } : null;
  };
  const below = page.slice(at);
  const left = below.map((r) => half(r, false)).filter((r): r is Row => r !== null);
  const right = below.map((r) => half(r, true)).filter((r): r is Row => r !== null);
  return [...page.slice(0, at), ...left, ...right];
}

/** A header cell may hold several column names set close together ("Flag Units"): one column each. */
function headerParts(cell: Cell): { role: ColumnRole | undefined; x: number }[] {
  const whole = roleOf(cell);
  // "Ref Low" is one column whose words OCR gives apart ("Ref" alone would name a range column).
  if (cell.items.length > 1 && whole !== 'rangeLow' && whole !== 'rangeHigh') {
    const parts = cell.items.map((item) => ({ role: roleOf({ text: item.text, x: item.x, x2: item.x + item.width, items: [item] }), x: item.x }));
    if (parts.every((p) => p.role) && new Set(parts.map((p) => p.role)).size > 1) return parts;
  }
  return [{ role: whole, x: cell.x }];
}

/** The columns a header row defines, or undefined when the row is not a header. */
export function headerColumns(row: Row, allowRepeats = false): Column[] | undefined {
  if (row.cells.length < 3) return undefined;
  const dates = collectionDates(row);
  if (row.cells.some((c) => !dates.has(c) && /\d/.test(c.text) && !isSpeck(c.text))) return undefined;
  // Columns headed by collection dates (a cumulative report): the newest is the result, the others history.
  const newest = [...dates].sort((a, b) => b[1] - a[1])[0]?.[0];
  const columns: Column[] = [];
  let unknown = 0;
  for (const cell of row.cells) {
    if (isSpeck(cell.text)) continue;
    if (dates.has(cell)) {
      columns.push({ role: cell === newest ? 'result' : 'previous', x: cell.x });
      continue;
    }
    for (const part of headerParts(cell)) {
      // One column of a name no pattern knows ("Methodik", "Qualifier") does not undo a header
      // whose other columns are a table's; two do.
      if (!part.role && (unknown++ > 0 || !/^[\p{L} .()/&-]{2,30}$/u.test(cell.text) || cell.text.includes(':'))) return undefined;
      columns.push({ role: part.role ?? 'other', x: part.x });
    }
  }
  // A role named twice is two tables side by side (see sideBySideInReadingOrder), not one table.
  if (!allowRepeats && columns.filter((c) => c.role === 'name').length > 1) return undefined;
  // A result, unit or range column named again ("Result (SI)", "Units (SI)") is the same result in
  // other units: the first is the report's, the others are read as nothing.
  if (!allowRepeats) {
    const seen = new Set<ColumnRole>();
    for (const c of columns) {
      if ((c.role === 'result' || c.role === 'units' || c.role === 'range') && seen.has(c.role)) c.role = 'other';
      seen.add(c.role);
    }
  }
  const roles = new Set(columns.map((c) => c.role));
  const hasValue = roles.has('result') || roles.has('inRange');
  if (unknown && columns.length < 4) return undefined;
  // Units or a range in their own column; or, where the result cell holds its unit and the range
  // is printed under the row ("Healthy range: <200 mg/dL"), a flag or status column beside it.
  const judged = roles.has('flag') || roles.has('status');
  if (!roles.has('name') || !hasValue || !(roles.has('units') || roles.has('range') || roles.has('rangeLow') || roles.has('rangeHigh') || judged)) return undefined;
  // The name column starts at the page margin whatever the header's own indentation.
  columns.sort((a, b) => a.x - b.x);
  if (columns[0]!.role !== 'name') return undefined;
  columns[0] = { ...columns[0]!, x: -Infinity };
  return columns;
}

/**
 * The lines under a cumulative header that finish it: each column's collection time and its
 * accession number, with no test name. Returns how many there were (0-2); the newest column's
 * time joins its date, its accession becomes the report's.
 */
function readCollectionLines(rows: Row[], at: number, header: Column[], newest: { date: string; accession?: string }): number {
  let n = 0;
  while (n < 2 && at + n + 1 < rows.length) {
    const row = rows[at + n + 1]!;
    const cols = assignColumns(row, header);
    const value = text(cols.result);
    if (text(cols.name) || !value) break;
    if (/^\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?$/i.test(value)) newest.date = `${newest.date} ${value}`;
    else if (/^(?=.*\d)[A-Z0-9][A-Z0-9-]{5,}$/i.test(value)) newest.accession = value;
    else break;
    n++;
  }
  return n;
}

/** Header cells that are printed dates (and times), with their instant; none unless there are two or more. */
function collectionDates(row: Row): Map<Cell, number> {
  const dates = new Map<Cell, number>();
  for (const cell of row.cells) {
    const at = readPrintedWallTime(cell.text);
    if (at) dates.set(cell, at.wall);
  }
  return dates.size >= 2 ? dates : new Map();
}

type Assigned = Partial<Record<ColumnRole, TextItem[]>>;

/** The column (by index) text starting at `x` falls in: the last one starting at or before it, less `tolerance`; -1 before all. */
export function columnAt(columns: readonly { x: number }[], x: number, tolerance: number): number {
  let k = -1;
  for (let i = 0; i < columns.length; i++) if (columns[i]!.x - tolerance <= x) k = i;
  return k;
}

/**
 * A line with text only in the range column, right under a result whose range it continues: the
 * result's range ends without a closing bound or is labelled per sex, as the line is.
 */
function rangeWrap(row: Row, cols: Assigned, last: { result: RawResult; row: Row }): boolean {
  const roles = Object.keys(cols).filter((r) => text(cols[r as ColumnRole]));
  if (roles.length !== 1 || roles[0] !== 'range' || !last.result.rangeText) return false;
  if (row.page !== last.row.page || row.y - last.row.y > WRAP_GAP_EM * Math.max(row.height, last.row.height)) return false;
  return sexSpecificPart(`${last.result.rangeText}; ${text(cols.range)}`, undefined) !== undefined;
}

function assignColumns(row: Row, columns: Column[]): Assigned {
  const out: Assigned = {};
  const tolerance = COLUMN_TOLERANCE_EM * row.height;
  for (const cell of row.cells) {
    for (const item of cell.items) (out[columns[Math.max(0, columnAt(columns, item.x, tolerance))]!.role] ??= []).push(item);
  }
  return out;
}

const text = (items: TextItem[] | undefined) => (items ?? []).map((i) => i.text).join(' ').replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------------------------------------
// Result rows
// ---------------------------------------------------------------------------------------------

/** A labelled range on its own line under a result: "Healthy range: <200 mg/dL", "Reference range: 3.5-5.1". */
const RANGE_LINE = /^(?:healthy|normal|reference|ref\.?|standard|expected|target)\s+(?:range|interval|values?)\s*:\s*(\S.*)$/i;

function readResultRow(row: Row, cols: Assigned, valueRoles: ('result' | 'inRange' | 'outRange')[], name: string, panel: string | undefined, signFlags = false): RawResult {
  const problems: ReviewReason<ResultReviewCode>[] = [];
  const problem = (code: ResultReviewCode, message: string) => problems.push({ code, message });
  if (valueRoles.length > 1) problem('conflicting_columns', `There are values in both the ${valueRoles.join(' and ')} columns.`);
  // Out-of-range wins when both are filled: the safer reading, and a reviewer is asked anyway.
  const column = valueRoles.includes('outRange') ? 'outRange' : valueRoles[0]!;
  const value = parseValueCell(text(cols[column]));
  // A German table's "+"/"-" beside the value is its flag (see SIGN_FLAG).
  if (signFlags && value.trailing && SIGN_FLAG.test(value.trailing) && !value.flag) {
    value.flag = value.trailing;
    delete value.trailing;
  }
  let flag = value.flag;
  // A status column holds the lab's H/L where there is no flag column; "Final", "Corrected" (C) or
  // "Amended" (A) is no flag.
  const status = text(cols.status);
  const statusFlag = /^(?:HH|LL|H|L)$/i.test(status) || RANGE_STATUS.test(status) ? status : '';
  // A dash alone in a flag column is the placeholder of "no flag", except in a German table.
  const printedFlag = text(cols.flag) || statusFlag;
  const flagColumn = SIGN_FLAG.test(printedFlag) && !signFlags ? '' : printedFlag.replace(/^[–—]$/, '');
  if (flagColumn) {
    if (!flagKind(flagColumn)) problem('conflicting_columns', `"${flagColumn}" in the flag column is not a flag.`);
    else if (flag && flagKind(flag) !== flagKind(flagColumn)) problem('flag_inconsistent', `Two different flags were printed (${flag}, ${flagColumn}).`);
    else flag ??= flagColumn;
  }
  const rangeCell = text(cols.range) || twoColumnRange(text(cols.rangeLow), text(cols.rangeHigh));
  // On a scan, a bound alone in its two columns may be the other one lost: the range is in doubt.
  if (!text(cols.range) && !!text(cols.rangeLow) !== !!text(cols.rangeHigh) && row.cells[0]?.items[0]?.source === 'ocr') {
    problem('range_suspect', `Only one bound of the reference range was read (${text(cols.rangeLow) || text(cols.rangeHigh)}): check whether the other was printed.`);
  }
  const range = rangeCell ? parseRange(rangeCell) : undefined;
  let units = text(cols.units) || undefined;
  if (!units && range?.units) units = range.units;
  if (!units && value.trailing) units = value.trailing;
  let rangeText = rangeCell || undefined;
  if (rangeText && range?.units && units === range.units) rangeText = rangeText.slice(0, rangeText.lastIndexOf(range.units)).trim() || undefined;
  if (value.problem) problem('unparseable_value', `The value cell could not be read cleanly: ${value.problem}.`);

  const printedValue = cols[column] ?? [];
  const valueBold = printedValue.length > 0 && printedValue.every((it) => it.source === 'text') ? printedValue.every((it) => it.bold) : undefined;
  const valueItems = [cols[column], cols.flag, cols.units, cols.range, cols.rangeLow, cols.rangeHigh].filter((x): x is TextItem[] => !!x);
  const result: RawResult = {
    testName: name,
    value,
    page: row.page,
    column,
    problems,
    ...(valueBold !== undefined ? { valueBold } : {}),
    source: row.cells[0]?.items[0]?.source ?? 'text',
  };
  if (flag) result.flag = flag;
  if (units) result.units = units;
  if (rangeText) result.rangeText = rangeText;
  if (panel) result.panel = panel;
  const code = text(cols.loinc);
  if (isLoincCode(code)) result.printedLoinc = code;
  const valueCells = valueItems.map((items) => ({ items }) as Cell);
  const vc = minConfidence(valueCells);
  const nc = minConfidence([{ items: cols.name ?? [] } as unknown as Cell]);
  if (vc !== undefined) result.valueConfidence = vc;
  if (decimalRestored(valueCells)) result.decimalRestored = true;
  if (nc !== undefined) result.nameConfidence = nc;
  return result;
}

/**
 * A row reaching into the value columns that could hold a result nobody can read: a number there,
 * a result in words ("Positive", "Reactive") or a name like a test's. Legends, form lines and a
 * comment's prose running across the columns could not.
 */
function mayBeResult(row: Row, cols: Assigned, name: string): boolean {
  if (isLegend(row.text)) return false;
  const values = (Object.keys(cols) as ColumnRole[]).filter((role) => role !== 'name').map((role) => text(cols[role]));
  if (values.some((v) => /\d/.test(v))) return true;
  if (values.some((v) => v.split(/\s{2,}|\s(?=[A-Z])/).some((w) => isKnownQualitative(w.trim()) || similarToQualitative(w.trim())))) return true;
  return !!name && matchLoinc(name).matches.length > 0;
}

/** OCR's spelling of a result in words ("Reactlve", "Negatlve"): one letter off a known one. */
function similarToQualitative(word: string): boolean {
  return /^(?:non-?)?(?:reac[tl][il1]ve|nega[tl][il1]ve|pos[il1][tl][il1]ve|de[tl]ec[tl]ed)$/i.test(word);
}

/**
 * A table's legend or form line, words that reach into the value columns without being a result:
 * "H/L = outside range  HH/LL = critical", "Reviewed by: ______", "!! CRITICAL RESULT - NOTIFY PROVIDER !!".
 */
function isLegend(text: string): boolean {
  return /=|_{3,}|!!|\boutside\s+(?:the\s+)?(?:reference\s+)?range\b|\b(?:reviewed|verified|signed)\s+by\b|\bnotify\b/i.test(text);
}

/**
 * A chart's axis: four or more numbers rising at an even step left to right and nothing else
 * (a unit after the last one at most): "0  100  200  300 fL".
 */
function isAxis(row: Row): boolean {
  const words = row.cells.flatMap((c) => c.text.split(/\s+/)).filter(Boolean);
  if (/^[a-zµ/%]+$/i.test(words.at(-1) ?? '') && words.length > 1) words.pop();
  // Four ticks at least: a lost name's value, low and high bound ("2  4  6") are three numbers.
  if (words.length < 4 || !words.every((w) => /^\d+(?:\.\d+)?$/.test(w))) return false;
  const n = words.map(Number);
  const step = n[1]! - n[0]!;
  return step > 0 && n.every((v, i) => i === 0 || Math.abs(v - n[i - 1]! - step) <= 0.5 * step);
}

/**
 * A footnote mark after a test's name ("Creatinine [1]", "Vitamin B12 a", "Folate †") is no part of
 * it. Taken off only when the name without it is a test's own name and with it is not: "Lipoprotein
 * (a)" keeps its "(a)".
 */
export function withoutFootnoteMark(name: string): string {
  // Not "#": in a CBC it says "absolute count" ("Neuts #").
  const m = /\s*(?:\[\d{1,2}\]|\(\d\)|[a-e]|[†‡§¶]+|\*{1,3}|[¹²³⁴⁵])$/u.exec(name);
  if (!m || m.index === 0) return name;
  const exact = (n: string) => ['exact', 'unit', 'context', 'value'].includes(matchLoinc(n).method);
  const bare = name.slice(0, m.index);
  return exact(bare) && !exact(name) ? bare : name;
}

/**
 * A range printed as two bounds in their own columns: both give "low-high"; one alone is a bound
 * that the result may reach ("Ref High 200" with no low is "<=200"). Anything else is passed on as
 * printed, for parseRange to refuse and a person to check.
 */
function twoColumnRange(low: string, high: string): string {
  const number = /^\d+(?:\.\d+)?$/;
  if (number.test(low) && number.test(high)) return `${low}-${high}`;
  if (number.test(low) && !high) return `>=${low}`;
  if (number.test(high) && !low) return `<=${high}`;
  return [low, high].filter(Boolean).join(' - ');
}

const DATED = new RegExp(String.raw`(?:^|\s)${PRINTED_DATE}`, 'i');

/** "Patient Name:", "Collected:", "Collected on May 1, 2024 9:30 AM" - a label or a dated line, not a test. */
function isLabel(name: string): boolean {
  return /:\s*$|:\s/.test(name) || DATED.test(name);
}

// ---------------------------------------------------------------------------------------------
// Name-only rows: wrapped names and panel headers
// ---------------------------------------------------------------------------------------------

const PANEL_WORDS =
  /\b(panel|profile|cbc|differential|diff|metabolic|cmp|bmp|urinalysis|lipid|lipids|thyroid|hepatitis|iron|vitamin|chemistry|hematology|serology|immunology|endocrinology|microscopic|macroscopic|dipstick|screen|coagulation|hormones?|a1c|tibc|(complete )?blood count|comp\.?)\b/i;
/** The same headings in Spanish and German reports ("QUÍMICA SANGUÍNEA", "Klinische Chemie", "Blutbild"). */
const FOREIGN_PANEL_WORDS =
  /(?<!\p{L})(química|biometría|hemática|hematología|perfil|lípidos|tiroideo|examen general|orina|coagulación|inmunología|serología|hormonas|klinische chemie|hämatologie|blutbild|gerinnung|serologie|urinstatus|harn|lipide|schilddrüse|hormone)(?!\p{L})/iu;

function isContinuation(row: Row, prev: Row, previousName: string, tail: string): boolean {
  if (row.page !== prev.page || row.y - prev.y > WRAP_GAP_EM * Math.max(row.height, prev.height)) return false;
  // A note in parentheses under the test in smaller type ("(Electrical Impedance)", "(Calculated)"):
  // the method, not more of the name.
  if (/^\(.*\)$/.test(tail.trim()) && row.height < 0.9 * prev.height) return false;
  if (tail.split(' ').length > 4 || isLabel(tail)) return false;
  const joined = matchLoinc(`${previousName} ${tail}`);
  if (joined.method === 'exact' || joined.method === 'unit' || joined.method === 'context') return true;
  if (PANEL_WORDS.test(tail)) return false;
  const alone = matchLoinc(previousName);
  // An unknown first line is more likely the start of a longer name than a complete one.
  if (alone.matches.length === 0 || alone.method === 'fuzzy') return true;
  return /^[a-z(,/&-]/.test(tail);
}

/** Words that name a category of a result, not a test: "Pre-diabetic", "Desirable", "Therapeutic goal". */
const JUDGEMENT_WORDS = /\b(?:(?:pre-?|non-?)?diabet\w*|desirable|optimal|borderline|risk|goal|target|deficien\w*|insufficien\w*|sufficien\w*|toxic\w*|therapeutic|acceptable|normal|high|low)\b/i;

/**
 * A row of an interpretation table: no unit, no range, and as its value a span ("5.7 - 6.4") or,
 * beside a category's words, a bound ("< 5.7"). Only for names that are no test's.
 */
function isGuidanceRow(name: string, result: RawResult): boolean {
  // A comment's categories read as a row ("Desirable <200 mg/dL; borderline high 200-239 mg/dL; high"):
  // a name holding bounds and a category's words is no test's name.
  if (/[<>≤≥]\s*\d|\d\s*[-–]\s*\d/.test(name) && JUDGEMENT_WORDS.test(name)) return true;
  if (result.units || result.rangeText) return false;
  const v = result.value.value.trim();
  if (/^\d+(?:[.,]\d+)?\s*[-–]\s*\d+(?:[.,]\d+)?$/.test(v)) return true;
  return /^(?:[<>≤≥]=?)\s*\d/.test(v) && JUDGEMENT_WORDS.test(name);
}

/** Every cell of the row outside the name column is a labelled line ("Specimen: Serum"). */
function otherCellsAreLabels(cols: Assigned): boolean {
  const others = (Object.keys(cols) as (keyof Assigned)[]).filter((r) => r !== 'name').map((r) => text(cols[r])).filter(Boolean);
  return others.length > 0 && others.every((t) => /^[\p{L} .#/-]{2,30}:\s*\S/u.test(t));
}

function isPanelHeader(name: string, rows: Row[], i: number, layout: Column[]): boolean {
  if (isLabel(name) || name.split(' ').length > 8 || /[.;]$/.test(name)) return false;
  // "(CHOD-POD)", "(Calculated)" under a test: its method, not a heading.
  if (/^\(.*\)$/.test(name.trim())) return false;
  if (PANEL_WORDS.test(name) || FOREIGN_PANEL_WORDS.test(name)) return true;
  // Otherwise: a short title followed by a result row, perhaps after a labelled line under the
  // heading ("Muestra: Suero", "Specimen: Serum").
  for (let k = i + 1; k <= i + 2 && k < rows.length; k++) {
    const next = rows[k]!;
    if (next.page !== rows[i]!.page) return false;
    const cols = assignColumns(next, layout);
    const nextName = text(cols.name);
    if (nextName && (text(cols.result) || text(cols.inRange) || text(cols.outRange))) return !isLabel(nextName);
    if (!isLabel(next.text)) return false;
  }
  return false;
}

/**
 * A heading set away from the name column (centred over the table, or indented): one cell, no
 * digits, a panel's words or several words in capitals. Never a qualitative result or a flag that
 * lost its name ("NEGATIVE", "HIGH"): those stay rows that could not be read.
 */
export function isSectionHeading(row: Row, layout: readonly Column[]): boolean {
  if (row.cells.length !== 1) return false;
  const cell = row.cells[0]!;
  const words = cell.text.replace(/\s*\((?:cont(?:\.|inued)?|continúa|fortsetzung)\)\s*$/i, '').trim();
  if (!words || /\d/.test(words) || isLabel(words) || /[.;]$/.test(words) || words.split(' ').length > 8) return false;
  if (isKnownQualitative(words) || flagKind(words)) return false;
  const nameColumn = layout.find((c) => c.role === 'name');
  if (!nameColumn || cell.x <= nameColumn.x + COLUMN_TOLERANCE_EM * row.height * 2) return false;
  const capitals = /\p{Lu}/u.test(words) && words === words.toUpperCase() && words.split(' ').length >= 2;
  return capitals || PANEL_WORDS.test(words) || FOREIGN_PANEL_WORDS.test(words);
}

function cleanPanelName(name: string): string {
  return name.replace(/\s*\((cont(\.|inued)?|continúa|fortsetzung)\)\s*$/i, '').trim();
}

// ---------------------------------------------------------------------------------------------
// Page furniture
// ---------------------------------------------------------------------------------------------

/** "CRITICAL VALUE CALLED TO J SMITH RN …", "Critical result notified to Dr …, read back", "crit called …". */
const CRITICAL_CALL = /\bcrit(?:ical)?\b(?:\s+(?:value|result|values|results))?.{0,40}\b(?:called|phoned|notified|read[\s-]*back|reported to|given to)\b/i;

const FURNITURE = [
  /\bpage\s*\d+\s*(of|\/)\s*\d+\b/i,
  /^page\s*\d+$/i,
  /^\d+\s*(?:of|\/)\s*\d+$/i,
  // The lab's own line in a footer or site legend: a CLIA number is never printed on a result row.
  /\bCLIA\b|(?<![A-Z0-9])\d{2}D\d{7}(?![A-Z0-9])/,
  /\bcontinued (on|from)\b/i,
  /\b(?:report\s+)?continues\s+(?:on|from)\b/i,
  /^\(?cont(?:inued|'d|\.)\)?$/i,
  /confidential/i,
  /^(final|preliminary|corrected|amended) report$/i,
  /^end of report$/i,
  // An analyser's software version at the foot of its printout.
  /^(?:software|firmware|s\/w)(?:\s+(?:version|ver\.?))?\s*v?\d+(?:\.\d+)+$/i,
];

function isPageFurniture(text: string): boolean {
  // "*** END OF REPORT ***": the stars and rules around a line are no part of it.
  const bare = text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return FURNITURE.some((re) => re.test(text) || re.test(bare));
}

/** Rows whose text (digits aside) appears on two or more pages: letterheads and footers. */
function findBoilerplate(pages: Row[][]): Set<Row> {
  const out = new Set<Row>();
  if (pages.length < 2) return out;
  const key = (r: Row) => r.text.toLowerCase().replace(/\d/g, '#').replace(/[^a-z#]+/g, '');
  const pagesOf = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const row of page) {
      const k = key(row);
      if (k.length < 4) continue;
      const set = pagesOf.get(k) ?? new Set<number>();
      set.add(row.page);
      pagesOf.set(k, set);
    }
  }
  for (const page of pages) {
    for (const row of page) {
      if ((pagesOf.get(key(row))?.size ?? 0) >= 2 && !headerColumns(row)) out.add(row);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// No header anywhere: read rows by the shape of their cells (every result goes to review)
// ---------------------------------------------------------------------------------------------

/** "Potassium ....... 5.9", or a name cell that ends in its leader (OCR splits the value off). */
const LEADER_LINE = new RegExp(String.raw`\S\s*${LEADER_RUN}\s*(?:[<>]?\d|$)`);

function readHeaderless(rows: Row[], boilerplate: Set<Row>, out: TableRead): RawResult[] {
  const results: RawResult[] = [];
  const used = new Set<Row>();
  for (const row of rows) {
    if (boilerplate.has(row) || isPageFurniture(row.text) || row.cells.length < 2) continue;
    const name = row.cells[0]!.text;
    // "Potassium ....... 5.9": a leader line, which the narrative reader reads whole.
    // (OCR reads a spaced dotted leader as a row of cells of one mark each.)
    const items = row.cells.flatMap((c) => c.items);
    const leader =
      items.some((it) => isLeader(it.text) || isDotNoise(it.text)) ||
      items.filter((it) => isMarksOnly(it.text)).length >= 3 ||
      // (not a name that ends in its unit or count sign: "Neutrophils %", "NEUT #")
      /[^\p{L}\p{N}\s)\]%#]$/u.test(name);
    if (LEADER_LINE.test(name) || leader) continue;
    // The name runs up to the value: OCR splits a long one into cells ("Estimated" | "Glomerular" | ...).
    const at = row.cells.findIndex((c, k) => k > 0 && parseValueCell(c.text).kind !== 'unparseable');
    if (at < 0) continue;
    const testName = row.cells.slice(0, at).map((c) => c.text).join(' ');
    if (isLabel(testName) || !matchLoinc(testName).matches.length) continue;
    const rest = row.cells.slice(at);
    const valueCell = rest[0]!;
    const value = parseValueCell(valueCell.text);
    const result: RawResult = {
      testName,
      value,
      page: row.page,
      column: 'headerless',
      problems: [{ code: 'layout_unknown', message: 'No table header was found; the columns of this row were guessed.' }],
      source: valueCell.items[0]?.source ?? 'text',
    };
    if (value.flag) result.flag = value.flag;
    for (const c of rest) {
      if (c === valueCell) continue;
      const r = parseRange(c.text);
      if (!result.flag && flagKind(c.text) && flagKind(c.text) !== 'N' && !SIGN_FLAG.test(c.text)) result.flag = c.text;
      else if (r.min !== undefined || r.max !== undefined) {
        result.rangeText = c.text;
        if (r.units && !result.units) result.units = r.units;
      } else if (!result.units && !/:$|^(?:ref|normal|range|reference)$/i.test(c.text.trim())) result.units = c.text; // "ref:" labels the range
    }
    if (!result.units && value.trailing) result.units = value.trailing;
    const vc = minConfidence(rest);
    if (vc !== undefined) result.valueConfidence = vc;
    if (decimalRestored(rest)) result.decimalRestored = true;
    results.push(result);
    used.add(row);
  }
  out.otherRows = rows.filter((r) => !used.has(r));
  return results;
}
