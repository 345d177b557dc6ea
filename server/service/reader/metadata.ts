import { isoDateOf } from '../../contract/printedDate';
import type { Cell, ResultMetadata, Row } from './types';
import { findLabels, wholeLabel, withLabelSnapped, type Field, type Label, type LabelMatch } from './metadata/labels';
import { cliaLineLab, labAddress, letterheadLab } from './metadata/letterhead';
import {
  cliaValue,
  dateTimeValue,
  dateValue,
  genderValue,
  isClinician,
  LAB_WORDS,
  labValue,
  personValue,
  providerValue,
  specimenValue,
  splitName,
  DATE,
  unlabelledGender,
} from './metadata/values';

/**
 * Report metadata from the rows around the result tables: the patient's name, date of birth and
 * sex, the collection, receipt and report dates, the specimen number, the ordering provider, and
 * the lab's name, address and CLIA number. Reports print them as "Label: value" (several to a
 * line, in many spellings: metadata/labels.ts), as a label cell with its value in the next cell,
 * as labels over their values (boxed letterheads), in a letter's "Dear Ms. Doe,", and without a
 * label in letterheads and footers (metadata/letterhead.ts). Values are kept as printed.
 *
 * The first value read wins, page 1 before later pages, so headers repeated on every page change
 * nothing. A value that does not look like its field (metadata/values.ts) is refused rather than
 * taken: an identity field left empty sends the report to review, a wrong one would not.
 */

export type MetadataKey = keyof ResultMetadata;

export interface MetadataRead {
  metadata: ResultMetadata;
  /** The required wire fields not found (index.ts passes them on to review). */
  missing: string[];
  /** Every field that was found, extensions included. */
  found: MetadataKey[];
}

interface Found {
  value: string;
  rank: number;
  row: number;
  cell: Cell;
  /** Another value as good as this one said otherwise (two patients, two birth dates). */
  doubtful?: boolean;
}

type Store = Partial<Record<Field, Found>>;

const normalised = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

export function extractMetadata(input: Row[]): MetadataRead {
  // Page order (stable within a page): page 1's header is read before the copies on later pages.
  const rows = [...input].sort((a, b) => a.page - b.page).map(withWordsJoined);
  const store: Store = {};
  rows.forEach((row, i) => readRow(rows, i, store));
  readLetter(rows, store);
  readNameHeading(rows, store);
  readSignature(rows, store);

  // An identity the report contradicts is left for a person to enter rather than guessed.
  for (const f of IDENTITY) if (store[f]?.doubtful) delete store[f];
  const name = SPANISH_LABELS.test(rows.map((r) => r.text).join('\n')) ? splitSpanishName(store.name?.value ?? '') : splitName(store.name?.value ?? '');
  const first = store.first?.value ?? name.first;
  const last = store.last?.value ?? name.last;

  // The reporting lab: a "Laboratory:" label, else the letterhead, else the performing site
  // (which may be a subcontractor, and is often printed with a site code).
  // A letterhead that names no laboratory (a clinic's logo line) gives way to the lab named on its CLIA line.
  const footerLab = cliaLineLab(rows);
  const head = letterheadLab(rows);
  const letterhead = footerLab && (!head || !LAB_WORDS.test(head.name)) ? footerLab : head;
  // A hospital's letterhead and "performed by Saint Anselm Medical Center Laboratory": the lab is the
  // performing one, which names the letterhead's institution and its laboratory.
  const ownLab = store.lab && letterhead && normalised(store.lab.value).startsWith(normalised(letterhead.name)) && store.lab.value.length > letterhead.name.length;
  const lab = (store.lab && (store.lab.rank < 2 || ownLab) ? store.lab.value : (letterhead && institutionLab(rows, letterhead.name)) || (letterhead?.name ?? store.lab?.value ?? '')).trim();
  const labCells = [store.lab, letterhead].filter((c): c is NonNullable<typeof c> => !!c).map((c) => ({ row: c.row, cell: c.cell }));

  const metadata: ResultMetadata = { patient_first_name: first, patient_last_name: last, dob: store.dob?.value ?? '', lab_name: lab };
  if (store.reported) metadata.date_reported = store.reported.value;
  if (store.collected) metadata.date_collected = store.collected.value;
  if (store.specimen) metadata.specimen_number = store.specimen.value;
  const gender = store.gender?.value ?? firstOf(rows, (r) => unlabelledGender(r.text));
  if (gender) metadata.gender = gender as NonNullable<ResultMetadata['gender']>;
  if (store.received) metadata.date_received = store.received.value;
  if (store.provider) metadata.provider = store.provider.value;
  const address = labAddress(rows, lab, labCells);
  if (address) metadata.lab_address = address;
  if (store.clia) metadata['clia_#'] = store.clia.value;

  const missing = (['patient_first_name', 'patient_last_name', 'dob', 'lab_name'] as const).filter((k) => !metadata[k]);
  const found = (Object.keys(metadata) as MetadataKey[]).filter((k) => !!metadata[k]);
  return { metadata, missing, found };
}

/** Labels only a report written in Spanish prints. */
const SPANISH_LABELS = /(?<!\p{L})(?:paciente|nombre del paciente|fecha de nacimiento|sexo|fecha de (?:toma|reporte|recepci[oó]n|informe))\s*:/iu;

/**
 * Spanish names carry two surnames, the father's then the mother's: "José Luis García Ramírez" is
 * José Luis, of the García Ramírez family. Three words or more without a comma: the last two (with
 * their particles, "de la Cruz") are the surnames; "García Ramírez, José Luis" reads as everywhere.
 */
/** Given names that end a compound one ("María José", "Juan Carlos", "Ana Sofía"); surnames seldom are. */
const COMPOUND_GIVEN =
  /^(?:jos[eé]|mar[ií]a|luis|carlos|antonio|manuel|miguel|ángel|angel|fernanda|guadalupe|carmen|elena|isabel|teresa|sof[ií]a|eugenia|pablo|francisco|alberto|eduardo|enrique|javier|alejandro|andrea|paula|luisa|cristina|patricia|lourdes|rosa|ana|juan|pedro|daniel|david|rafael|ram[oó]n)$/i;

export function splitSpanishName(name: string): { first: string; last: string } {
  const plain = splitName(name);
  if (name.includes(',')) return plain;
  const words = name.replace(/^(?:sr|sra|srta|dr|dra)\.?\s+/i, '').replace(/\s+/g, ' ').trim().split(' ');
  if (words.length < 3) return plain;
  // "María José Ortega": a compound given name and one surname, when the second word is a given name.
  if (words.length === 3 && COMPOUND_GIVEN.test(words[1]!)) return { first: words.slice(0, 2).join(' '), last: words[2]! };
  // Two surnames from the end, each with its particles ("García de la Cruz"), at least one given name before them.
  let start = words.length;
  for (let units = 0; units < 2 && start > 1; units++) {
    start--;
    while (start > 1 && /^(?:de|del|la|las|los|y)$/i.test(words[start - 1]!)) start--;
  }
  return { first: words.slice(0, start).join(' '), last: words.slice(start).join(' ') };
}

/**
 * A hospital's letterhead names the institution; "Good Samaritan Medical Center Laboratory" (or
 * "University Hospital Department of Laboratory Medicine") printed anywhere on the report names its
 * laboratory, the lab that reported.
 */
function institutionLab(rows: Row[], institution: string): string {
  // A letterhead that already names a laboratory ("Southern Cross Pathology") is the lab itself.
  if (/laborator|\blabs?\b|patholog|diagnostic/i.test(institution)) return '';
  const escaped = institution.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const re = new RegExp(
    String.raw`(?<![\p{L}])${escaped}\s+(?:(?:department|dept\.?|division)\s+of\s+)?(?:clinical\s+)?(?:laborator(?:y|ies)(?:\s+medicine)?|labs?)(?![\p{L}])`,
    'iu',
  );
  for (const row of rows) {
    const m = re.exec(row.text);
    if (m) return m[0].replace(/\s+/g, ' ');
  }
  return '';
}

function firstOf(rows: Row[], read: (row: Row) => string): string {
  for (const row of rows) {
    const v = read(row);
    if (v) return v;
  }
  return '';
}

/** The value a field takes from the text after its label, or '' when the text is not such a value. */
function valueFor(field: Field, label: Label, text: string, separated: boolean): string {
  switch (field) {
    case 'name': {
      const v = personValue(text);
      return v && !isClinician(v) && splitName(v).last ? v : '';
    }
    case 'first':
    case 'last':
      return personValue(text);
    case 'dob':
      return dateValue(text);
    case 'gender':
      return genderValue(text);
    case 'collected':
    case 'received':
    case 'reported':
      return dateTimeValue(text);
    case 'specimen':
      return specimenValue(text);
    case 'provider':
      return providerValue(text, label.rank === 3);
    case 'lab':
      return labValue(text, !separated);
    case 'clia':
      return cliaValue(text);
    default:
      return '';
  }
}

const IDENTITY: Field[] = ['name', 'last', 'dob'];

/**
 * OCR damages labels ("Date of Bith"), so an OCR'd label snaps to the word it nearly spells; a text
 * layer's words are as printed, and "exported 2024-08-27" on one is no "reported".
 */
const snappedIfOcr = (cell: Cell) => (fromText(cell) ? cell.text : withLabelSnapped(cell.text));

/** OCR misreads a repeated header now and then ("D0E"); only a text layer's disagreement is a real one. */
const fromText = (cell: Cell) => cell.items.every((it) => it.source === 'text');

const fold = (s: string) => s.normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase();
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The numbers of a date, whatever its format: "01/02/1980", "1980-01-02" and "Jan 2, 1980" agree. */
function dateParts(date: string): number[] {
  const withMonths = date.toLowerCase().replace(/[a-z]{3,}/g, (m) => String(MONTHS.indexOf(m.slice(0, 3)) + 1 || ''));
  return (withMonths.match(/\d+/g) ?? []).map((n) => Number(n) % 100).sort((a, b) => a - b);
}

function sameIdentity(field: Field, a: string, b: string): boolean {
  if (field === 'dob') {
    const [x, y] = [isoDateOf(a), isoDateOf(b)];
    return x && y ? x === y : dateParts(a).join() === dateParts(b).join();
  }
  if (field === 'name') return fold(splitName(a).last) === fold(splitName(b).last);
  return fold(a) === fold(b);
}

/** Stores the value for the label's fields where it is better than what is there; says whether it was a value at all. */
function offer(store: Store, label: Label, text: string, separated: boolean, row: number, cell: Cell, rows?: Row[]): boolean {
  let valid = false;
  for (const field of label.fields) {
    if (field === 'stop') continue;
    if (field === 'name' && label.rank > 0 && rows && underOtherParty(rows, row, cell)) continue;
    const value = valueFor(field, label, text, separated);
    if (!value) continue;
    valid = true;
    const have = store[field];
    if (!have || have.rank > label.rank) store[field] = { value, rank: label.rank, row, cell };
    else if (have.rank === label.rank && IDENTITY.includes(field) && fromText(have.cell) && fromText(cell) && !sameIdentity(field, have.value, value)) have.doubtful = true;
  }
  return valid;
}

/** A label without a colon counts only where its value follows in its field's shape ("DOB 01/02/1980"). */
function accepted(m: LabelMatch, text: string): boolean {
  if (m.separated) return true;
  if (!m.label.colonless) return false;
  const rest = text.slice(m.end);
  return m.label.fields.some((f) => f !== 'stop' && valueFor(f, m.label, rest, false) !== '');
}

/** Headings of blocks about someone else than the patient: a "Name:" under them is not the patient's. */
const OTHER_PARTY = /^(?:ordering |referring |requesting )?(?:physician|provider|doctor|client|insurance|insured|guarantor|facility|laborator(?:y|ies)|lab|performing|account|submitter|billing|practice|clinic)\b[\w\s]{0,20}$/i;
const HEADING = /^[A-Za-z][A-Za-z\s/&]{2,40}$/;

function underOtherParty(rows: Row[], i: number, cell: Cell): boolean {
  for (let k = i - 1; k >= 0 && k >= i - 4 && rows[k]!.page === rows[i]!.page; k--) {
    const above = rows[k]!.cells.find((c) => Math.min(c.x2, cell.x2) - Math.max(c.x, cell.x) > 0 && HEADING.test(c.text.trim()));
    if (above) return OTHER_PARTY.test(above.text.trim());
  }
  return false;
}

/** Widest gap, in text heights, between the words of one value (a typewriter space is ~0.6). */
const VALUE_WORD_GAP = 1.2;

/**
 * The row with the cells a word gap apart joined, except bare labels: the words of a typewriter
 * font (above all as OCR reads them) come out a cell apart, which splits a value ("KIM," |
 * "YASMIN"; "12/14/2024" | "11:30"), a lab's name ("ST." | "MARY'S ... LABORATORY") or an
 * address ("1200 HOSPITAL DRIVE," | "RENO," | "NV 89502") that the rules read whole.
 */
function withWordsJoined(row: Row): Row {
  const cells: Cell[] = [];
  for (const cell of row.cells) {
    const last = cells.at(-1);
    if (last && cell.x - last.x2 <= VALUE_WORD_GAP * row.height && !wholeLabel(cell.text) && !wholeLabel(last.text)) {
      cells[cells.length - 1] = { text: `${last.text} ${cell.text}`, x: last.x, x2: cell.x2, items: [...last.items, ...cell.items] };
    } else cells.push(cell);
  }
  return cells.length === row.cells.length ? row : { ...row, cells, text: cells.map((c) => c.text).join('  ') };
}

function readRow(rows: Row[], i: number, store: Store): void {
  const row = rows[i]!;
  const whole = row.cells.map((c) => wholeLabel(c.text));
  const rightOf = (k: number) => row.cells[k + 1]?.x ?? Infinity;
  // A row of bare labels ("Patient", "Date of Birth"...) with the values on the line below.
  if (whole.every(Boolean) && whole.some((l) => l!.fields[0] !== 'stop')) {
    row.cells.forEach((cell, k) => offer(store, whole[k]!, valueBelow(rows, i, cell, rightOf(k)) ?? '', true, i, cell));
    return;
  }
  /**
   * A label that ends its cell has its value in the next cell ("DOB:" | "01/02/1980"), up to any
   * label there ("01/02/1980 Sex: F"), or, when that is not such a value (a box of labels beside
   * the lab's logo), on the line below.
   */
  const offerAfter = (k: number, label: Label, separated: boolean) => {
    const next = row.cells[k + 1];
    if (!label.below && next && !whole[k + 1]) {
      const text = snappedIfOcr(next);
      const value = text.slice(0, findLabels(text).find((m) => accepted(m, text))?.index ?? text.length).trim();
      if (value && offer(store, label, value, separated, i, row.cells[k]!, rows)) return;
    }
    const right = whole.every(Boolean) || label.below ? undefined : rightOf(k);
    offer(store, label, valueBelow(rows, i, row.cells[k]!, whole[k + 1] ? right : undefined) ?? '', separated, i, row.cells[k]!, rows);
  };
  row.cells.forEach((cell, k) => {
    const label = whole[k];
    if (label) {
      if (label.fields[0] !== 'stop') offerAfter(k, label, true);
      return;
    }
    const text = snappedIfOcr(cell);
    const labels = findLabels(text).filter((m) => accepted(m, text));
    labels.forEach((m, j) => {
      const value = text.slice(m.end, labels[j + 1]?.index ?? text.length).trim();
      if (!value && j === labels.length - 1) offerAfter(k, m.label, m.separated);
      else offer(store, m.label, value, m.separated, i, cell, rows);
    });
  });
}

/**
 * Letters and portal printouts: "Dear Ms. Jane Doe," or "Lab results for Jane Doe" names the
 * patient when nothing labelled does.
 */
function readLetter(rows: Row[], store: Store): void {
  readLetterDates(rows, store);
  if (store.name || store.last) return;
  rows.forEach((row, i) => {
    const cell = row.cells[0];
    // "Re: Laboratory results for Jane Doe (date of birth …)": the subject line names the patient.
    const text = (cell?.text.trim() ?? '').replace(/^(?:re|subject)\s*:\s*/i, '');
    const m =
      /^dear\s+(.+?)[,:]?$/i.exec(text) ??
      /^(?:(?:your\s+)?(?:lab(?:oratory)?|test)\s+)?(?:results?|report)\s+for:?\s+(.+?)(?:\s*\((?:date of birth|dob|d\.o\.b\.|born)\b[^)]*\))?\.?$/i.exec(text);
    if (!cell || !m) return;
    const titled = /^(?:mr|mrs|ms|miss|mx)\.?\s/i.test(m[1]!);
    const v = personValue(m[1]!);
    // "Dear Jane," is a first name alone: not enough to say whose report this is. A fuller name
    // (the subject line's "Jane Doe") wins over a shorter one ("Dear Ms. Doe,").
    const words = (x: string | undefined) => x?.split(' ').length ?? 0;
    if (v && !isClinician(v) && (titled || words(v) >= 2) && splitName(v).last && words(v) > words(store.name?.value)) {
      store.name = { value: v, rank: 2, row: i, cell };
    }
  });
}

/** Closings of a letter: the signature under them is its writer's. */
const VALEDICTION = /^(?:sincerely|yours (?:sincerely|truly|faithfully)|(?:best|kind|warm|with best)? ?regards|respectfully|cordially|best wishes|atentamente|saludos cordiales|cordialmente|mit freundlichen gr(?:ü|ue)(?:ß|ss)en)[,.]?$/i;

/**
 * A letter signed by a clinician ("Sincerely," over "Samir Haddad, MD") was written by the one who
 * ordered the tests, when no label names a provider. Someone else signing (a lab manager, no
 * title or credential) names nobody.
 */
function readSignature(rows: Row[], store: Store): void {
  if (store.provider) return;
  const at = rows.findIndex((r) => r.cells.length === 1 && VALEDICTION.test(r.cells[0]!.text.trim()));
  if (at < 0) return;
  for (let k = at + 1; k <= at + 3 && k < rows.length && rows[k]!.page === rows[at]!.page; k++) {
    const cell = rows[k]!.cells[0]!;
    const v = providerValue(cell.text);
    if (v && isClinician(v)) {
      store.provider = { value: v, rank: 3, row: k, cell };
      return;
    }
  }
}

/** A line of the patient's identifiers: a birth date or a record number. */
const IDENTIFIERS = /\b(?:dob|d\.o\.b\.?|date of birth|birth ?date|born|mrn|medical record|patient id|chart)\b/i;

/**
 * Patient portals print the patient's name as a heading, unlabelled, over a line of identifiers
 * ("Jane Doe" / "MRN: 123 | DOB: 01/02/1980 | Legal Sex: Female"): a line of page 1 that is only a
 * person's name (two words or more), right above such a line, names the patient.
 */
function readNameHeading(rows: Row[], store: Store): void {
  if (store.name || store.last) return;
  for (let i = 0; i + 1 < rows.length && rows[i]!.page === rows[0]!.page; i++) {
    const [row, next] = [rows[i]!, rows[i + 1]!];
    // The name alone on its line, or beside labelled fields ("Attending: …") that are not it.
    const alone = row.cells.length === 1 || row.cells.slice(1).every((c) => /\S:\s*\S/.test(c.text));
    if (!alone || /:/.test(row.cells[0]!.text) || next.page !== row.page || next.y - row.y > 2.5 * row.height || !IDENTIFIERS.test(next.text)) continue;
    const text = row.cells[0]!.text.trim().replace(/[,.\s]+$/, '');
    const v = personValue(text);
    if (v !== text || isClinician(v) || LAB_WORDS.test(v) || v.split(' ').length < 2 || !splitName(v).last) continue;
    store.name = { value: v, rank: 2, row: i, cell: row.cells[0]! };
    return;
  }
}

/**
 * A letter's dates: the date line above the salutation is when it was written (the report date,
 * when nothing labelled says otherwise), and "the sample you gave on …" is the collection date.
 */
function readLetterDates(rows: Row[], store: Store): void {
  const salutation = rows.findIndex((r) => r.page === 1 && /^dear\s/i.test(r.cells[0]?.text.trim() ?? ''));
  if (salutation < 0) return;
  const dateLine = new RegExp(String.raw`^(?:${DATE})$`, 'i');
  if (!store.reported) {
    const i = rows.slice(0, salutation).findIndex((r) => r.cells.length === 1 && dateLine.test(r.cells[0]!.text.trim()));
    if (i >= 0) store.reported = { value: rows[i]!.cells[0]!.text.trim(), rank: 3, row: i, cell: rows[i]!.cells[0]! };
  }
  if (!store.collected) {
    const collectedOn = new RegExp(String.raw`\b(?:sample|specimen|blood)\b[^.]{0,40}?\b(?:gave|given|provided|collected|drawn|taken)\s+on\s+(${DATE})`, 'i');
    for (const [i, row] of rows.entries()) {
      if (row.page !== 1) break;
      const m = collectedOn.exec(row.text);
      if (m) {
        store.collected = { value: m[1]!, rank: 3, row: i, cell: row.cells[0]! };
        break;
      }
    }
  }
}

/**
 * The value printed under its label (boxed letterheads). With the next label of the line known
 * (`right`), the words of the line below that start between this label and the next one: values
 * close together merge into one cell ("KOWALSKI, ANNA M 09/14/1958"), but each starts under its
 * own label (or a little left of it, when centred). Otherwise the next row's cell that overlaps
 * the label the most (values are often wider than their label).
 */
function valueBelow(rows: Row[], i: number, label: Cell, right?: number): string | undefined {
  const row = rows[i]!;
  // The next line under the label: lines of another column beside the box (a paragraph whose
  // lines fall between the box's) are passed over.
  const under = (r: Row) => r.cells.some((c) => Math.min(c.x2, label.x2) - Math.max(c.x, label.x) > 0 || Math.abs(c.x - label.x) <= 1.5 * row.height);
  let next: Row | undefined;
  for (let k = i + 1; k < rows.length; k++) {
    const r = rows[k]!;
    if (r.page !== row.page || r.y - row.y > 2.5 * row.height) break;
    if (k === i + 1 || under(r)) {
      next = r;
      if (under(r)) break;
    }
  }
  if (!next) return undefined;
  const isLabel = (text: string) => !!wholeLabel(text) || findLabels(withLabelSnapped(text)).some((m) => m.separated);
  if (right !== undefined) {
    const em = row.height;
    const items = next.cells
      .flatMap((c) => c.items)
      .filter((it) => it.x >= label.x - 1.5 * em && it.x < right - 0.5 * em)
      .sort((a, b) => a.x - b.x);
    // A gap of several em is another column, not more of this value.
    const end = items.findIndex((it, k) => k > 0 && it.x - (items[k - 1]!.x + items[k - 1]!.width) > 3 * em);
    const text = (end < 0 ? items : items.slice(0, end)).map((it) => it.text.trim()).join(' ');
    if (text) return isLabel(text) ? undefined : text;
  }
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
  if (!cell || isLabel(cell.text)) return undefined;
  return cell.text;
}
