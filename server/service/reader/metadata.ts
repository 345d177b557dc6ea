import { snapWords } from './fuzzy';
import type { Cell, ResultMetadata, Row } from './types';

/**
 * Report metadata from the rows around the result tables: patient name, date of birth, lab,
 * collection and report dates, specimen number. Reports print them as "Label: value", several
 * to a line, or as a label with its value on the line below (boxed letterheads). Values are kept
 * as printed (wire-facts §7: plain strings, not parsed dates).
 */

type Field = 'name' | 'first' | 'last' | 'dob' | 'collected' | 'reported' | 'specimen' | 'lab' | 'performing' | 'stop';

/** Label spellings; `stop` labels only end the value before them (Age, Sex, Phone...). */
const LABELS: [Field, string][] = [
  ['first', String.raw`patient first name|first name`],
  ['last', String.raw`patient last name|last name`],
  ['name', String.raw`patient name|patient|name`],
  ['dob', String.raw`date of birth|birth date|birthdate|d\.o\.b\.?|dob`],
  ['collected', String.raw`date\/time collected|collection date\/time|date collected|collection date|date of collection|specimen collected|collected on|collected`],
  ['reported', String.raw`date\/time reported|date reported|report date|reported on|date issued|final report date|reported`],
  ['specimen', String.raw`specimen (?:id|number|no\.?|#)|accession (?:number|no\.?|#)|accession|specimen`],
  ['performing', String.raw`performing (?:lab|laboratory|site)|testing (?:lab|laboratory)`],
  ['lab', String.raw`laboratory|lab name|lab`],
  ['stop', String.raw`age|sex|gender|phone|physician|ordering (?:physician|provider)|provider|account(?: (?:number|#))?|patient id|fasting|status|received|date received|address|npi|client`],
];

const LABEL_RE = new RegExp(String.raw`(?:^|(?<=\|\s)|(?<=\s))(${LABELS.map(([, re]) => `(?:${re})`).join('|')})\s*:`, 'gi');

const BARE_LABEL_RE = new RegExp(String.raw`^(?:${LABELS.map(([, re]) => `(?:${re})`).join('|')})\s*:?$`, 'i');

/** Words labels are made of: OCR-damaged spellings snap to them ("Date of Bith" -> date of birth). */
const LABEL_WORDS = ['patient', 'name', 'date', 'birth', 'collected', 'collection', 'reported', 'report', 'specimen',
  'accession', 'number', 'laboratory', 'performing', 'physician', 'gender', 'received'];

// Labels are a small closed vocabulary, so a looser match is safe ("Pavent" is Patient).
const LABEL_SNAP = 0.5;
const labelText = (text: string) => snapWords(text.trim(), LABEL_WORDS, LABEL_SNAP);

/** Snaps only the part before the first colon: the value after it stays as read. */
function withLabelSnapped(text: string): string {
  const colon = text.indexOf(':');
  return colon < 0 ? text : snapWords(text.slice(0, colon), LABEL_WORDS, LABEL_SNAP) + text.slice(colon);
}

function fieldOf(label: string): Field {
  const l = label.toLowerCase();
  for (const [field, re] of LABELS) if (new RegExp(`^(?:${re})$`, 'i').test(l)) return field;
  return 'stop';
}

const DATE = String.raw`\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|[A-Z][a-z]{2,8}\.? \d{1,2},? \d{4}`;
const LAB_WORDS = /laborator(y|ies)|\blabs?\b|diagnostics|pathology|clinical|reference lab|medical center/i;

export function extractMetadata(rows: Row[]): { metadata: ResultMetadata; missing: string[] } {
  const found: Partial<Record<Field, string>> = {};
  rows.forEach((row, i) => {
    // A row of bare labels ("Patient", "Date of Birth"...) with the values on the line below.
    const bare = row.cells.filter((c) => BARE_LABEL_RE.test(labelText(c.text)));
    if (bare.length >= 2) {
      for (const cell of bare) {
        const field = fieldOf(labelText(cell.text).replace(/:$/, ''));
        if (field === 'stop' || found[field]) continue;
        const value = clean(field, valueBelow(rows, i, cell) ?? '');
        if (value) found[field] = value;
      }
      return;
    }
    const joined = row.cells.map((c) => withLabelSnapped(c.text)).join(' | ');
    const labels = [...joined.matchAll(LABEL_RE)];
    labels.forEach((m, k) => {
      const field = fieldOf(m[1]!);
      if (field === 'stop' || found[field]) return;
      const start = m.index + m[0].length;
      const end = labels[k + 1]?.index ?? joined.length;
      // The value runs to the end of the label's cell; a label that ends its cell has its value
      // in the next cell ("DOB:" | "01/02/1980") or, failing that, on the line below.
      let value = joined.slice(start, end).trim();
      if (value.startsWith('|')) value = value.slice(1);
      value = value.split('|')[0]!.trim();
      if (!value) value = valueBelow(rows, i, labelCell(row, m[1]!)) ?? '';
      value = clean(field, value);
      if (value) found[field] = value;
    });
  });
  // The reporting lab: a "Laboratory:" label, else the letterhead, else the performing site
  // (which may be a subcontractor, and is often printed with a site code).
  found.lab ??= letterheadLab(rows) ?? found.performing;

  const { first, last } = splitName(found);
  const metadata: ResultMetadata = {
    patient_first_name: first,
    patient_last_name: last,
    dob: found.dob ?? '',
    lab_name: found.lab ?? '',
  };
  if (found.reported) metadata.date_reported = found.reported;
  if (found.collected) metadata.date_collected = found.collected;
  if (found.specimen) metadata.specimen_number = found.specimen;
  const missing = (['patient_first_name', 'patient_last_name', 'dob', 'lab_name'] as const).filter((k) => !metadata[k]);
  return { metadata, missing };
}

function clean(field: Field, value: string): string {
  const v = value.replace(/\s+/g, ' ').trim();
  switch (field) {
    case 'dob':
      return new RegExp(DATE).exec(v)?.[0] ?? '';
    case 'collected':
    case 'reported': {
      // Date and, when printed, the time after it ("01/15/2024 08:30", "01/15/2024 0830 ET").
      const m = new RegExp(String.raw`(?:${DATE})(?:\s+\d{1,2}:?\d{2}(?:\s?[AP]M)?(?:\s+[A-Z]{2,3})?)?`, 'i').exec(v);
      return m?.[0] ?? '';
    }
    case 'specimen':
      return /^[A-Z0-9][A-Z0-9-]{3,}$/i.exec(v.split(' ')[0] ?? '')?.[0] ?? '';
    default:
      return v;
  }
}

function labelCell(row: Row, label: string): Cell | undefined {
  return row.cells.find((c) => withLabelSnapped(c.text).toLowerCase().includes(label.toLowerCase()));
}

/**
 * The value printed under its label (boxed letterheads): the next row's cell that overlaps the
 * label horizontally the most (values are often wider than their label, or start a little left
 * of it).
 */
function valueBelow(rows: Row[], i: number, label: Cell | undefined): string | undefined {
  const row = rows[i]!;
  const next = rows[i + 1];
  if (!label || !next || next.page !== row.page || next.y - row.y > 2.5 * row.height) return undefined;
  let best: Cell | undefined;
  let bestOverlap = 0;
  for (const c of next.cells) {
    const overlap = Math.min(c.x2, label.x2) - Math.max(c.x, label.x);
    if (overlap > bestOverlap) {
      best = c;
      bestOverlap = overlap;
    }
  }
  const cell = best ?? next.cells.find((c) => Math.abs(c.x - label.x) <= 1.5 * row.height);
  if (!cell || new RegExp(LABEL_RE.source, 'i').test(cell.text) || BARE_LABEL_RE.test(labelText(cell.text))) return undefined;
  return cell.text;
}

function splitName(found: Partial<Record<Field, string>>): { first: string; last: string } {
  if (found.first || found.last) return { first: found.first ?? '', last: found.last ?? '' };
  const name = found.name?.replace(/\s+/g, ' ').trim();
  if (!name) return { first: '', last: '' };
  // "DOE, JANE A" (last name first) or "Jane A. Doe"; middle names and initials are dropped.
  const comma = /^([^,]+),\s*(\S+)/.exec(name);
  if (comma) return { first: comma[2]!, last: comma[1]!.trim() };
  const parts = name.split(' ');
  if (parts.length < 2) return { first: '', last: parts[0] ?? '' };
  return { first: parts[0]!, last: parts[parts.length - 1]! };
}

/** No "Lab:" label: the letterhead, i.e. the first line on page 1 that names a laboratory. */
function letterheadLab(rows: Row[]): string | undefined {
  for (const row of rows) {
    if (row.page !== 1) break;
    for (const cell of row.cells) {
      if (LAB_WORDS.test(cell.text) && !/\d|:/.test(cell.text) && cell.text.split(' ').length <= 8) return cell.text.trim();
    }
  }
  return undefined;
}
