import { decimalRestored, minConfidence } from './rows';
import type { RawResult } from './tableReader';
import type { Cell, ResultReviewCode, ReviewReason, Row } from './types';
import { flagKind, parseValueCell, SIGN_FLAG } from './values';

/**
 * Results exported from an EHR as key–value blocks, one line per field:
 *
 *   Component: Hemoglobin A1c
 *   Value: 6.2
 *   Units: %
 *   Reference range: 4.8-5.6
 *   Abnormal flag: H
 *
 * A block starts at its name key and takes the keys it knows from the lines right below it; a line
 * without a key, or the next name, ends it. Keys it does not know (Status, Resulted, Comment) are
 * passed over. A block without a value is no result.
 */

type Key = 'name' | 'value' | 'units' | 'range' | 'flag';

const KEYS: [RegExp, Key][] = [
  [/^(?:component|test(?:\s+name)?|analyte|observation|lab\s+test)$/i, 'name'],
  [/^(?:value|result|result\s+value|your\s+value)$/i, 'value'],
  [/^(?:units?|unit\s+of\s+measure|uom)$/i, 'units'],
  [/^(?:reference\s+(?:range|interval)|ref(?:erence)?\.?\s+range|normal\s+range|standard\s+range|range)$/i, 'range'],
  [/^(?:abnormal\s+flag|flag|abnormal|interpretation|abn(?:ormal)?\s+indicator)$/i, 'flag'],
];

const ORDER_LINE = /^\s*(?:order|ordered test|panel|test panel|order name)\s*:\s*(.+)$/i;

/** Other fields of a result's block, passed over; any other key ("Patient:") ends the block. */
const BLOCK_EXTRA = /^(?:status|result\s+status|resulted|result(?:ed)?\s+(?:date|time|on|at)|collected|collection\s+date|received|comments?|notes?|method|performing\s+(?:lab|site)|specimen(?:\s+type)?|source|loinc|code|verified(?:\s+by)?)$/i;

/** A "Key: value" line. */
const KEY_LINE = /^\s*([A-Za-z][A-Za-z .#/-]{0,30}?)\s*:\s*(.*)$/;

function keyOf(row: Row): { key: Key | undefined; label: string; value: string } | undefined {
  const m = KEY_LINE.exec(row.text);
  if (!m) return undefined;
  const label = m[1]!.trim();
  return { key: KEYS.find(([re]) => re.test(label))?.[1], label, value: m[2]!.trim() };
}

export interface KeyValueRead {
  results: RawResult[];
  /** The rows the blocks were read from (they are neither prose nor metadata). */
  used: Set<Row>;
}

export function readKeyValueBlocks(rows: Row[]): KeyValueRead {
  const results: RawResult[] = [];
  const used = new Set<Row>();
  let panel: string | undefined;
  for (let i = 0; i < rows.length; i++) {
    // "Order: Basic Metabolic Panel" over its components names their panel (glucose in blood, not urine).
    const order = ORDER_LINE.exec(rows[i]!.text);
    if (order) panel = order[1]!.trim();
    const head = keyOf(rows[i]!);
    if (head?.key !== 'name' || !head.value || head.value.includes(':')) continue;
    const fields: Partial<Record<Key, { text: string; row: Row }>> = {};
    const block = [rows[i]!];
    let j = i + 1;
    for (; j < rows.length; j++) {
      const row = rows[j]!;
      const field = keyOf(row);
      if (!field || field.key === 'name' || (!field.key && !BLOCK_EXTRA.test(field.label))) break;
      if (field.key && !fields[field.key]) fields[field.key] = { text: field.value, row };
      block.push(row);
    }
    const read = fields.value?.text ? toResult(head.value, fields, rows[i]!) : undefined;
    if (read) {
      if (panel) read.panel = panel;
      results.push(read);
      block.forEach((r) => used.add(r));
    }
    i = j - 1;
  }
  return { results, used };
}

/** The cells of a key line after its key: the value's items, for its OCR confidence. */
function valueCells(row: Row): Cell[] {
  const colon = row.cells.findIndex((c) => c.text.includes(':'));
  const cells = row.cells.slice(colon);
  return cells.map((c, k) => (k === 0 ? { ...c, items: c.items.filter((it) => !/:$/.test(it.text) || /\d/.test(it.text)) } : c));
}

function toResult(name: string, fields: Partial<Record<Key, { text: string; row: Row }>>, nameRow: Row): RawResult | undefined {
  const value = parseValueCell(fields.value!.text);
  if (value.kind === 'unparseable' && !value.value) return undefined;
  const problems: ReviewReason<ResultReviewCode>[] = [];
  if (value.problem) problems.push({ code: 'unparseable_value', message: `The value could not be read cleanly: ${value.problem}.` });
  const result: RawResult = {
    testName: name,
    value,
    page: fields.value!.row.page,
    column: 'result',
    problems,
    source: fields.value!.row.cells[0]?.items[0]?.source ?? 'text',
  };
  // A dash after the flag key is "no flag", not low (see SIGN_FLAG).
  const printedFlag = fields.flag?.text && !SIGN_FLAG.test(fields.flag.text.trim()) ? fields.flag.text : undefined;
  if (printedFlag && flagKind(printedFlag) === undefined) {
    problems.push({ code: 'conflicting_columns', message: `"${printedFlag}" after the flag key is not a flag.` });
  } else if (printedFlag && value.flag && flagKind(printedFlag) !== flagKind(value.flag)) {
    problems.push({ code: 'flag_inconsistent', message: `Two different flags were printed (${value.flag}, ${printedFlag}).` });
  }
  const flag = value.flag ?? (printedFlag && flagKind(printedFlag) !== undefined ? printedFlag : undefined);
  if (flag) result.flag = flag;
  const units = fields.units?.text || value.trailing;
  if (units) result.units = units;
  if (fields.range?.text) result.rangeText = fields.range.text;
  const cells = [fields.value!.row, fields.units?.row, fields.range?.row, fields.flag?.row].filter((r): r is Row => !!r).flatMap(valueCells);
  const vc = minConfidence(cells);
  const nc = minConfidence(valueCells(nameRow));
  if (vc !== undefined) result.valueConfidence = vc;
  if (decimalRestored(cells)) result.decimalRestored = true;
  if (nc !== undefined) result.nameConfidence = nc;
  return result;
}
