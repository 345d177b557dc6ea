import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

/**
 * A lab's result report as a PDF, laid out like the patient result reports of the large US labs
 * (Quest, Labcorp): a letterhead and patient block repeated on every page, one table of
 * Test | Result | Flag | Units | Reference Range with panels as section headers, then the results
 * the lab could not produce and the report's comments. Pure: the same input gives the same bytes
 * (the PDF's dates are the report's, never the clock's).
 *
 * The layout is also meant to be read back by machines (our own lab-report reader among them):
 * one text run per cell, the table header repeated on each page, "Label: value" pairs in the
 * patient block, and notes prefixed "Note:" so they are never mistaken for a wrapped test name.
 */

export interface ReportResultRow {
  name: string;
  /** As reported: "105", "<0.5", "Non-Reactive", or a comment's text. */
  result: string;
  /** 'numeric' | 'range' | 'comment' | 'coded_value' | other (the enum may grow). */
  type: string;
  unit?: string | null;
  referenceRange?: string | null;
  /** 'normal' | 'abnormal' | 'critical' | unknown/other. */
  interpretation?: string | null;
  isAboveMaxRange?: boolean | null;
  isBelowMinRange?: boolean | null;
  notes?: string | null;
}

/** A panel or a single test ("Lipid Panel"). */
export interface ReportSection {
  name: string;
  rows: ReportResultRow[];
}

export interface ResultReportInput {
  status: 'partial' | 'final' | string;
  laboratory: { name: string; address: string; clia: string; director?: string | null; phone?: string | null };
  /** dob as YYYY-MM-DD. */
  patient: { name: string; dob: string; sex: string; age: string; patientId?: string | null };
  specimenNumber: string;
  accountId?: string | null;
  orderingProvider?: string | null;
  labTestName: string;
  collectedAt: Date | null;
  receivedAt: Date | null;
  reportedAt: Date;
  /** IANA zone the times are printed in ("America/New_York"), with its abbreviation. */
  timeZone: string;
  sections: ReportSection[];
  /** Results the lab could not produce. */
  missing: { name: string; reason: string; note?: string | null }[];
  /** Report-level comments. */
  comments: string[];
}

// ---------------------------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------------------------

/**
 * The flag a lab prints: 'H' / 'L' (abnormal above/below), 'HH' / 'LL' (critical), 'A' (abnormal
 * without direction, e.g. Reactive), '' otherwise. A critical result whose direction is unknown
 * prints 'AA' (HL7 "critically abnormal") so that it never reads as merely abnormal.
 */
export function resultFlag(row: ReportResultRow): string {
  const interpretation = (row.interpretation ?? '').trim().toLowerCase();
  const direction = row.isAboveMaxRange ? 'up' : row.isBelowMinRange ? 'down' : undefined;
  if (interpretation === 'critical') {
    const dir = direction ?? inferredDirection(row);
    return dir === 'up' ? 'HH' : dir === 'down' ? 'LL' : 'AA';
  }
  if (interpretation === 'abnormal') {
    const dir = direction ?? inferredDirection(row);
    return dir === 'up' ? 'H' : dir === 'down' ? 'L' : 'A';
  }
  // The lab called it normal: its word wins over range booleans computed elsewhere.
  if (interpretation === 'normal') return '';
  return direction === 'up' ? 'H' : direction === 'down' ? 'L' : '';
}

/**
 * Above or below the printed range, only for a plain number against a plain range: the lab said
 * the value is out of range but not which way, and H/L is worth more to a reader than A.
 */
function inferredDirection(row: ReportResultRow): 'up' | 'down' | undefined {
  const value = plainNumber(row.result);
  const range = (row.referenceRange ?? '').replace(/[–—−]/g, '-').replace(/\s+/g, '');
  if (value === undefined || !range) return undefined;
  const between = /^(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$/.exec(range);
  if (between) {
    const [min, max] = [Number(between[1]), Number(between[2])];
    if (min > max) return undefined;
    return value > max ? 'up' : value < min ? 'down' : undefined;
  }
  const bound = /^(<=?|≤|>=?|≥)(-?\d+(?:\.\d+)?)$/.exec(range);
  if (!bound) return undefined;
  const limit = Number(bound[2]);
  const upper = bound[1]!.startsWith('<') || bound[1] === '≤';
  if (upper) return value > limit ? 'up' : undefined;
  return value < limit ? 'down' : undefined;
}

function plainNumber(text: string): number | undefined {
  const t = text.trim().replace(/,/g, '');
  return /^-?\d+(?:\.\d+)?$/.test(t) ? Number(t) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

const FAILURE_WORDS: Record<string, string> = {
  quantity_not_sufficient_failure: 'Quantity not sufficient',
  insufficient_volume: 'Insufficient volume',
  collection_process_failure: 'Specimen collection problem',
  internal_lab_failure: 'Laboratory error',
  patient_condition_failure: 'Patient condition (e.g. hemolysis, lipemia)',
  drop_off_failure: 'Specimen drop-off problem',
  order_entry_failure: 'Order entry error',
  unknown_failure: 'Reason not given by the laboratory',
  non_failure: 'Not reported (not a testing failure)',
  missing_result_calc_failure: 'Could not be calculated',
  missing_demo_aoe_calc_failure: "Not calculable from the patient's age, sex or answers",
};

function failureWords(reason: string): string {
  const key = reason.trim().toLowerCase();
  const known = FAILURE_WORDS[key];
  if (known) return known;
  const words = reason.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Reason not given by the laboratory';
}

const isComment = (row: ReportResultRow) => (row.type ?? '').trim().toLowerCase() === 'comment';

function statusTitle(status: string): string {
  const s = (status ?? '').trim();
  if (s.toLowerCase() === 'final') return 'FINAL REPORT';
  if (s.toLowerCase() === 'partial') return 'PRELIMINARY REPORT - PARTIAL RESULTS';
  return s ? s.replace(/_/g, ' ').toUpperCase() : 'REPORT';
}

/** YYYY-MM-DD as US labs print it (MM/DD/YYYY); anything else as given. */
function usDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec((iso ?? '').trim());
  return m ? `${m[2]}/${m[3]}/${m[1]}` : (iso ?? '');
}

/** "11/24/2026 08:30 EST": the zone's own abbreviation, so a reader knows which clock it is. */
function reportTime(date: Date | null, timeZone: string): string {
  if (!date || Number.isNaN(date.getTime())) return '-';
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
  } catch {
    // An unknown zone must not cost the patient the report: UTC, and it says so.
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
  const parts = format.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')}/${part('day')}/${part('year')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`.trim();
}

// ---------------------------------------------------------------------------------------------
// Text the standard fonts can draw
// ---------------------------------------------------------------------------------------------

/**
 * Characters WinAnsi has but a reader (human or parser) is better served without: dashes in
 * ranges ("70–99"), curly quotes, the micro sign in units ("µg/dL" prints "ug/dL", as labs'
 * ASCII systems do). Greek letters that name analytes are spelled out.
 */
const REPLACEMENTS: Record<string, string> = {
  'µ': 'u', 'μ': 'u', '≥': '>=', '≤': '<=', '≠': '!=', '±': '+/-', '–': '-', '—': '-', '‐': '-', '‑': '-', '‒': '-',
  '−': '-', '‘': "'", '’': "'", '‚': ',', '‛': "'", '′': "'", '“': '"', '”': '"', '„': '"', '″': '"', '…': '...',
  '→': '->', '←': '<-', '\u00ad': '', '\u00a0': ' ', 'α': 'alpha', 'β': 'beta', 'γ': 'gamma', 'δ': 'delta',
  'κ': 'kappa', 'λ': 'lambda', 'Α': 'Alpha', 'Β': 'Beta', 'Γ': 'Gamma', 'Δ': 'Delta',
};

const SUPERSCRIPTS: Record<string, string> = {
  '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-', '⁺': '+',
};

class Text {
  private readonly allowed: Set<number>;
  private readonly widths = new Map<PDFFont, Map<string, number>>();

  constructor(fonts: PDFFont[]) {
    const sets = fonts.map((f) => new Set(f.getCharacterSet()));
    this.allowed = new Set([...sets[0]!].filter((cp) => sets.every((s) => s.has(cp))));
  }

  /** One line of drawable text: unencodable characters replaced or dropped, whitespace collapsed. */
  clean(text: string | null | undefined): string {
    if (text === null || text === undefined) return '';
    // "10⁹/L" must not print as "109/L": exponents WinAnsi lacks become "10^9/L".
    const s = String(text).replace(/[⁰¹²³⁴-⁹⁻⁺]+/g, (run) =>
      /[¹²³]/.test(run) && !/[⁰⁴-⁹⁻⁺]/.test(run) ? run : `^${[...run].map((c) => SUPERSCRIPTS[c]).join('')}`,
    );
    let out = '';
    for (const ch of s) {
      const replacement = REPLACEMENTS[ch];
      if (replacement !== undefined) {
        out += replacement;
        continue;
      }
      const cp = ch.codePointAt(0)!;
      if (/\s/.test(ch)) out += ' ';
      else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
      else if (this.allowed.has(cp)) out += ch;
      else {
        // Accented letters outside WinAnsi keep their base letter ("ő" -> "o"), ligatures split.
        for (const part of ch.normalize('NFKD')) if (this.allowed.has(part.codePointAt(0)!)) out += part;
      }
    }
    return out.replace(/\s+/g, ' ').trim();
  }

  /** Paragraphs of a multi-line text, each cleaned; blank ones dropped. */
  paragraphs(text: string | null | undefined): string[] {
    return String(text ?? '')
      .split(/\r\n|\r|\n|\u2028|\u2029/)
      .map((p) => this.clean(p))
      .filter(Boolean);
  }

  /**
   * Width as drawn: pdf-lib's own measure subtracts kerning that drawText never applies, so long
   * strings measured that way overflow their column by a few points.
   */
  width(text: string, font: PDFFont, size: number): number {
    let cache = this.widths.get(font);
    if (!cache) this.widths.set(font, (cache = new Map()));
    let w = 0;
    for (const ch of text) {
      let cw = cache.get(ch);
      if (cw === undefined) cache.set(ch, (cw = font.widthOfTextAtSize(ch, 1000)));
      w += cw;
    }
    return (w * size) / 1000;
  }

  /** One line, cut with "..." when wider than `width`. */
  fit(text: string, font: PDFFont, size: number, width: number): string {
    if (this.width(text, font, size) <= width) return text;
    const chars = [...text];
    const ellipsis = this.width('...', font, size);
    let used = 0;
    let n = 0;
    while (n < chars.length && used + this.width(chars[n]!, font, size) + ellipsis <= width) used += this.width(chars[n++]!, font, size);
    return n ? `${chars.slice(0, n).join('').trimEnd()}...` : '';
  }

  /**
   * Cleaned text broken into lines no wider than `width` (words longer than a line are cut), at
   * most `maxLines`, the last one ending in "..." when text was left out. Stops measuring once
   * the limit is reached, so a megabyte of text costs no more than a page of it.
   */
  wrap(text: string, font: PDFFont, size: number, width: number, maxLines = Infinity): string[] {
    const lines: string[] = [];
    const space = this.width(' ', font, size);
    let line = '';
    let lineWidth = 0;
    let truncated = false;
    words: for (const word of text.split(' ')) {
      if (!word) continue;
      const w = this.width(word, font, size);
      if (line && lineWidth + space + w <= width) {
        line += ` ${word}`;
        lineWidth += space + w;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      lineWidth = 0;
      if (lines.length >= maxLines) {
        truncated = true;
        break;
      }
      if (w <= width) {
        line = word;
        lineWidth = w;
        continue;
      }
      const chars = [...word];
      let start = 0;
      while (start < chars.length) {
        let used = 0;
        let n = start;
        while (n < chars.length && used + this.width(chars[n]!, font, size) <= width) used += this.width(chars[n++]!, font, size);
        if (n === start) used = this.width(chars[n++]!, font, size);
        if (n >= chars.length) {
          line = chars.slice(start).join('');
          lineWidth = used;
          break;
        }
        lines.push(chars.slice(start, n).join(''));
        start = n;
        if (lines.length >= maxLines) {
          truncated = true;
          break words;
        }
      }
    }
    if (line) {
      if (lines.length < maxLines) lines.push(line);
      else truncated = true;
    }
    if (truncated && lines.length) lines[lines.length - 1] = this.fit(`${lines[lines.length - 1]} ...`, font, size, width);
    return lines;
  }

  /** Each paragraph wrapped on its own lines, at most `maxLines` in all. */
  wrapParagraphs(text: string | null | undefined, font: PDFFont, size: number, width: number, maxLines: number): string[] {
    const lines: string[] = [];
    for (const p of this.paragraphs(text)) {
      if (lines.length >= maxLines) {
        lines[lines.length - 1] = this.fit(`${lines[lines.length - 1]} ...`, font, size, width);
        break;
      }
      lines.push(...this.wrap(p, font, size, width, maxLines - lines.length));
    }
    return lines;
  }
}

// ---------------------------------------------------------------------------------------------
// Geometry (points; US Letter)
// ---------------------------------------------------------------------------------------------

const PAGE = { width: 612, height: 792 };
const LEFT = 36;
const RIGHT = PAGE.width - 36;
/** Nothing but the footer below this line. */
const BOTTOM = 58;

/** Columns start where their header starts: a reader assigns each cell to the header left of it. */
const COL = {
  name: { x: LEFT, w: 186 },
  result: { x: 230, w: 96 },
  flag: { x: 334, w: 30 },
  units: { x: 372, w: 82 },
  range: { x: 462, w: RIGHT - 462 },
};

const SIZE = { table: 9, note: 7.5, small: 8, label: 8, lab: 14, status: 10.5, section: 9.5 };
const LINE = { table: 11.5, note: 9.5, text: 11.5 };
/** A note or comment longer than this is cut (and says so): a few pages, not a hundred. */
const MAX_FLOW_LINES = 150;
const MAX_CELL_LINES = 4;

const INK = rgb(0.08, 0.08, 0.08);
const GREY = rgb(0.45, 0.45, 0.45);
const RULE = rgb(0.6, 0.6, 0.6);
const CRITICAL_INK = rgb(0.6, 0.05, 0.05);
const CRITICAL_BORDER = rgb(0.78, 0.1, 0.1);
const CRITICAL_FILL = rgb(1, 0.92, 0.92);
const HEADER_FILL = rgb(0.9, 0.9, 0.9);

interface Run {
  text: string;
  x: number;
  font: PDFFont;
  size: number;
  color?: RGB;
}

/** One line of the flowing content: its height and what is drawn on its baseline. */
interface Line {
  height: number;
  runs: Run[];
}

/** A group of lines that must share a page (a result row), followed by lines that may break. */
interface Block {
  keep: Line[];
  flow: Line[];
  /** Space above the block, skipped at the top of a page. */
  gapBefore?: number;
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

export async function renderResultReport(input: ResultReportInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const t = new Text([regular, bold]);

  const reportedAt = input.reportedAt instanceof Date && !Number.isNaN(input.reportedAt.getTime()) ? input.reportedAt : new Date(0);
  // Metadata strings are UTF-16 in the PDF: any character goes, but control characters would
  // garble a viewer's title bar.
  const plain = (s: string | null | undefined) => [...String(s ?? '')].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('').trim();
  doc.setTitle(`${plain(input.laboratory?.name)} result report - ${plain(input.specimenNumber)}`);
  doc.setSubject(plain(input.labTestName) || 'Laboratory result report');
  doc.setAuthor(plain(input.laboratory?.name));
  doc.setProducer('Labdesk');
  doc.setCreator('Labdesk');
  doc.setCreationDate(reportedAt);
  doc.setModificationDate(reportedAt);

  const writer = new Writer(doc, t, regular, bold, input);
  const sections = (input.sections ?? []).filter((s) => s && (s.rows ?? []).length > 0);

  writer.startTable();
  if (sections.length === 0) {
    writer.place({ keep: [writer.textLine('No results have been reported for this specimen yet.', regular, SIZE.table, LEFT, GREY)], flow: [] });
  }
  for (const section of sections) {
    const rows = section.rows.map((r) => writer.rowBlock(r));
    writer.printSection(t.clean(section.name) || 'Results', rows);
  }
  writer.endTable();

  const missing = (input.missing ?? []).filter(Boolean);
  if (missing.length) {
    writer.heading('Results not reported');
    for (const m of missing) {
      const name = t.clean(m.name) || 'Unnamed test';
      const note = t.paragraphs(m.note).join(' ');
      // One run per line: a separate reason run could land in the result column and be taken for a value.
      const text = `${name}: ${t.clean(failureWords(String(m.reason ?? '')))}${note ? ` - ${note}` : ''}`;
      const lines = t.wrap(text, regular, SIZE.table, RIGHT - LEFT - 8, MAX_FLOW_LINES);
      const asLines = lines.map((l) => writer.textLine(l, regular, SIZE.table, LEFT + 8));
      writer.place({ keep: asLines.slice(0, 1), flow: asLines.slice(1) });
    }
  }

  const comments = (input.comments ?? []).flatMap((c) => t.paragraphs(c));
  if (comments.length) {
    writer.heading('Comments');
    comments.forEach((c, i) => {
      const lines = t.wrap(c, regular, SIZE.table, RIGHT - LEFT - 8, MAX_FLOW_LINES).map((l) => writer.textLine(l, regular, SIZE.table, LEFT + 8));
      writer.place({ keep: lines.slice(0, 1), flow: lines.slice(1), gapBefore: i ? 4 : 0 });
    });
  }

  writer.endOfReport();
  writer.footers();
  return doc.save();
}

class Writer {
  private readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  /** Top of the free space on the current page. */
  private y = 0;
  private inTable = false;
  /** Nothing but the repeated headers drawn on this page yet: no point in breaking it. */
  private fresh = true;
  /** The section being printed, repeated as "(cont.)" when a page breaks inside it. */
  private section: string | undefined;
  private readonly labName: string;
  private readonly status: string;
  private readonly critical: string[];

  constructor(
    private readonly doc: PDFDocument,
    private readonly t: Text,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly input: ResultReportInput,
  ) {
    this.labName = t.clean(input.laboratory?.name) || 'Laboratory';
    this.status = t.clean(statusTitle(String(input.status ?? '')));
    this.critical = (input.sections ?? []).flatMap((s) =>
      (s?.rows ?? [])
        .filter((r) => (r.interpretation ?? '').trim().toLowerCase() === 'critical')
        .map((r) => {
          const value = isComment(r) ? '' : t.fit([t.clean(r.result), t.clean(r.unit)].filter(Boolean).join(' '), regular, SIZE.table, 160);
          const flag = resultFlag(r);
          return `${t.fit(t.clean(r.name) || 'Unnamed test', regular, SIZE.table, 220)}${value ? `: ${value}` : ''}${flag ? ` (${flag})` : ''}`;
        }),
    );
    this.newPage();
  }

  // -- pages --------------------------------------------------------------------------------

  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = this.pageHeader();
    if (this.pages.length === 1 && this.critical.length) this.y = this.criticalBanner(this.y - 4) - 6;
    if (this.inTable) {
      this.tableHeader();
      if (this.section) this.draw(this.sectionLine(this.section, true));
    }
    this.fresh = true;
  }

  private fits(height: number): boolean {
    return this.y - height >= BOTTOM;
  }

  private draw(line: Line) {
    const baseline = this.y - line.height * 0.78;
    for (const run of line.runs) {
      if (!run.text) continue;
      this.page.drawText(run.text, { x: run.x, y: baseline, size: run.size, font: run.font, color: run.color ?? INK });
    }
    this.y -= line.height;
    this.fresh = false;
  }

  /**
   * Places a block: its kept lines together (on a new page when they do not fit here), then its
   * flowing lines one by one, breaking pages between them.
   */
  place(block: Block, keepWith = 0) {
    const keepHeight = block.keep.reduce((h, l) => h + l.height, 0);
    const gap = block.gapBefore ?? 0;
    if (!this.fits(gap + keepHeight + keepWith) && !this.fresh) this.newPage();
    else if (gap && !this.fresh) this.y -= gap;
    // A block taller than a whole page still gets drawn; its kept lines then flow too.
    for (const line of block.keep) {
      if (!this.fits(line.height)) this.newPage();
      this.draw(line);
    }
    for (const line of block.flow) {
      if (!this.fits(line.height)) this.newPage();
      this.draw(line);
    }
  }

  // -- the results table ---------------------------------------------------------------------

  startTable() {
    this.inTable = true;
    this.tableHeader();
  }

  endTable() {
    this.inTable = false;
    this.section = undefined;
  }

  private tableHeader() {
    const h = 14;
    this.page.drawRectangle({ x: LEFT - 2, y: this.y - h + 1, width: RIGHT - LEFT + 4, height: h - 2, color: HEADER_FILL });
    const size = 8.5;
    const baseline = this.y - h + 4.5;
    for (const [text, col] of [['Test', COL.name], ['Result', COL.result], ['Flag', COL.flag], ['Units', COL.units], ['Reference Range', COL.range]] as const) {
      this.page.drawText(text, { x: col.x, y: baseline, size, font: this.bold, color: INK });
    }
    this.y -= h;
  }

  /** The section's name, cut so that a " (cont.)" after it is never what gets cut. */
  private sectionLine(name: string, continued = false): Line {
    const suffix = continued ? ' (cont.)' : '';
    const width = RIGHT - LEFT - this.t.width(suffix, this.bold, SIZE.section);
    return { height: LINE.table + 6, runs: [{ text: this.t.fit(name, this.bold, SIZE.section, width) + suffix, x: LEFT, font: this.bold, size: SIZE.section }] };
  }

  /** A section header never ends a page: it moves down with its first row. */
  printSection(title: string, rows: Block[]) {
    this.section = undefined;
    const first = rows[0];
    const firstHeight = first ? first.keep.reduce((h, l) => h + l.height, 0) : 0;
    const header: Block = { keep: [this.sectionLine(title)], flow: [] };
    this.place(header, firstHeight);
    this.section = title;
    for (const row of rows) this.place(row);
    this.section = undefined;
  }

  rowBlock(row: ReportResultRow): Block {
    const { t, regular, bold } = this;
    const size = SIZE.table;
    const flag = resultFlag(row);
    const valueFont = flag ? bold : regular;
    const name = t.wrap(t.clean(row.name) || 'Unnamed test', regular, size, COL.name.w, MAX_CELL_LINES);
    const cells: { lines: string[]; x: number; font: PDFFont }[] = [{ lines: name, x: COL.name.x, font: regular }];
    const flow: Line[] = [];

    if (isComment(row)) {
      // A comment has no units or range: its text gets the whole width right of the name.
      const width = RIGHT - COL.result.x;
      const lines = t.wrapParagraphs(row.result, valueFont, size, width, MAX_FLOW_LINES);
      const keep = Math.max(name.length, 1);
      cells.push({ lines: lines.slice(0, keep), x: COL.result.x, font: valueFont });
      for (const l of lines.slice(keep)) flow.push(this.textLine(l, valueFont, size, COL.result.x));
    } else {
      cells.push({ lines: t.wrap(t.clean(row.result), valueFont, size, COL.result.w, MAX_CELL_LINES), x: COL.result.x, font: valueFont });
      cells.push({ lines: [t.fit(t.clean(flag), bold, size, COL.flag.w)], x: COL.flag.x, font: bold });
      cells.push({ lines: t.wrap(t.clean(row.unit), regular, size, COL.units.w, MAX_CELL_LINES), x: COL.units.x, font: regular });
      cells.push({ lines: t.wrap(t.clean(row.referenceRange), regular, size, COL.range.w, MAX_CELL_LINES), x: COL.range.x, font: regular });
    }

    const count = Math.max(...cells.map((c) => c.lines.length), 1);
    const keep: Line[] = [];
    for (let i = 0; i < count; i++) {
      keep.push({ height: LINE.table, runs: cells.flatMap((c) => (c.lines[i] ? [{ text: c.lines[i]!, x: c.x, font: c.font, size }] : [])) });
    }

    const notes = t.paragraphs(row.notes).join(' ');
    if (notes) {
      const x = COL.name.x + 10;
      // "Note:" keeps a short note from reading as the wrapped tail of the test name above it.
      for (const l of t.wrap(`Note: ${notes}`, regular, SIZE.note, RIGHT - x, MAX_FLOW_LINES)) flow.push(this.textLine(l, regular, SIZE.note, x, GREY, LINE.note));
    }
    return { keep, flow };
  }

  textLine(text: string, font: PDFFont, size: number, x: number, color?: RGB, height: number = LINE.text): Line {
    return { height, runs: [{ text: this.t.fit(text, font, size, RIGHT - x), x, font, size, ...(color ? { color } : {}) }] };
  }

  /** A titled part after the table ("Results not reported", "Comments"); kept with its first line. */
  heading(title: string) {
    const line: Line = { height: 18, runs: [{ text: title, x: LEFT, font: this.bold, size: 10 }] };
    const gap = 12;
    if (!this.fits(gap + line.height + LINE.text) && !this.fresh) this.newPage();
    else if (!this.fresh) this.y -= gap;
    this.draw(line);
    this.page.drawLine({ start: { x: LEFT, y: this.y }, end: { x: RIGHT, y: this.y }, thickness: 0.5, color: RULE });
  }

  endOfReport() {
    const text = 'End of Report';
    const width = this.t.width(text, this.regular, SIZE.small);
    this.place({ keep: [{ height: 16, runs: [{ text, x: (PAGE.width - width) / 2, font: this.regular, size: SIZE.small, color: GREY }] }], flow: [], gapBefore: 10 });
  }

  // -- furniture -----------------------------------------------------------------------------

  /** Letterhead and patient block; returns the top of the content area. */
  private pageHeader(): number {
    const { t, regular, bold, page, input } = this;
    const top = PAGE.height - 36;
    const statusWidth = Math.min(t.width(this.status, bold, SIZE.status), 300);
    page.drawText(t.fit(this.status, bold, SIZE.status, 300), { x: RIGHT - statusWidth, y: top - 12, size: SIZE.status, font: bold, color: INK });
    page.drawText(t.fit(this.labName, bold, SIZE.lab, RIGHT - LEFT - statusWidth - 16), { x: LEFT, y: top - 12, size: SIZE.lab, font: bold, color: INK });

    const lab = input.laboratory ?? { name: '', address: '', clia: '' };
    page.drawText(t.fit(t.clean(lab.address), regular, SIZE.small, RIGHT - LEFT), { x: LEFT, y: top - 24, size: SIZE.small, font: regular, color: INK });
    this.fieldRow(top - 35, [
      ['CLIA:', lab.clia, 150],
      ['Laboratory Director:', lab.director, 230],
      ['Phone:', lab.phone, RIGHT - LEFT - 380 - 16],
    ]);

    let y = top - 41;
    page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.8, color: INK });

    const p = input.patient ?? { name: '', dob: '', sex: '', age: '' };
    const [c1, c2, c3] = [LEFT, 232, 414];
    // [line, x, width, label, value]; every "Label: value" is its own cell, so a reader that splits
    // a line into cells finds each value next to its label.
    const fields: [number, number, number, string, string | null | undefined][] = [
      [0, c1, c2 - c1 - 6, 'Patient Name:', p.name],
      [1, c1, c2 - c1 - 6, 'Date of Birth:', usDate(p.dob)],
      [2, c1, 88, 'Age:', p.age],
      [2, c1 + 96, c2 - c1 - 6 - 96, 'Sex:', p.sex],
      [3, c1, c2 - c1 - 6, 'Patient ID:', p.patientId],
      [0, c2, c3 - c2 - 6, 'Specimen Number:', input.specimenNumber],
      [1, c2, c3 - c2 - 6, 'Account Number:', input.accountId],
      [2, c2, c3 - c2 - 6, 'Ordering Provider:', input.orderingProvider],
      // Nothing below "Reported:", so the test's name may run to the right margin.
      [3, c2, RIGHT - c2, 'Test Ordered:', input.labTestName],
      [0, c3, RIGHT - c3, 'Collected:', reportTime(input.collectedAt, input.timeZone)],
      [1, c3, RIGHT - c3, 'Received:', reportTime(input.receivedAt, input.timeZone)],
      [2, c3, RIGHT - c3, 'Reported:', reportTime(input.reportedAt, input.timeZone)],
    ];
    for (const [line, x, width, label, value] of fields) this.field(x, y - 12 - line * 11.5, label, value, width);
    y -= 12 + 3 * 11.5 + 8;
    page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.8, color: INK });
    return y - 6;
  }

  private fieldRow(baseline: number, fields: [string, string | null | undefined, number][]) {
    let x = LEFT;
    for (const [label, value, width] of fields) {
      if (this.t.clean(value)) this.field(x, baseline, label, value, width, SIZE.small);
      x += width + 16;
    }
  }

  /** "Label: value" in one cell: the bold label, then the value cut to what is left of the width. */
  private field(x: number, baseline: number, label: string, value: string | null | undefined, width: number, size = SIZE.label) {
    const { t, regular, bold, page } = this;
    const labelWidth = t.width(label, bold, size);
    page.drawText(label, { x, y: baseline, size, font: bold, color: INK });
    const text = t.fit(t.clean(value) || '-', regular, size, width - labelWidth - 3);
    if (text) page.drawText(text, { x: x + labelWidth + 3, y: baseline, size, font: regular, color: INK });
  }

  /** Returns the y below the banner. */
  private criticalBanner(top: number): number {
    const { t, regular, bold, page } = this;
    const pad = 6;
    const width = RIGHT - LEFT - 2 * pad;
    const title = 'CRITICAL VALUE(S) REPORTED';
    const lines = t.wrap(this.critical.join('; '), regular, SIZE.table, width, 4);
    const height = pad + 13 + lines.length * LINE.table + pad - 2;
    page.drawRectangle({ x: LEFT, y: top - height, width: RIGHT - LEFT, height, color: CRITICAL_FILL, borderColor: CRITICAL_BORDER, borderWidth: 1.5 });
    page.drawText(title, { x: LEFT + pad, y: top - pad - 9, size: 10.5, font: bold, color: CRITICAL_INK });
    lines.forEach((l, i) => {
      page.drawText(l, { x: LEFT + pad, y: top - pad - 13 - (i + 1) * LINE.table + 2.5, size: SIZE.table, font: regular, color: CRITICAL_INK });
    });
    return top - height;
  }

  /** Drawn last, once the page count is known. */
  footers() {
    const { t, regular, pages } = this;
    pages.forEach((page, i) => {
      page.drawLine({ start: { x: LEFT, y: 46 }, end: { x: RIGHT, y: 46 }, thickness: 0.5, color: RULE });
      const pageNo = `Page ${i + 1} of ${pages.length}`;
      const pageNoWidth = t.width(pageNo, regular, SIZE.small);
      page.drawText(pageNo, { x: RIGHT - pageNoWidth, y: 34, size: SIZE.small, font: regular, color: INK });
      const left = t.fit(`Performing Laboratory: ${this.labName}`, regular, SIZE.small, RIGHT - LEFT - pageNoWidth - 20);
      page.drawText(left, { x: LEFT, y: 34, size: SIZE.small, font: regular, color: INK });
    });
  }
}
