import { matchLoinc, normalizeName, normalizeUnit } from './loinc';
import { ANALYTES, type Analyte } from './loincTable';
import { decimalRestored, minConfidence } from './rows';
import type { RawResult } from './tableReader';
import type { Cell, ResultReviewCode, ReviewReason, Row, TextItem } from './types';
import { isDotNoise, isKnownQualitative, isLeader, isMarksOnly, isXHeightWord, LEADER_RUN, looksLikeUnit, parseValueCell, type FlagKind } from './values';

/**
 * Results written as prose or as a bulleted list, outside any result table: a letter ("Your
 * fasting glucose was 95 mg/dL (reference 70–99), which is normal."), a patient-portal printout
 * ("• Hemoglobin A1c: 5.4 % (normal range 4.0–5.6)", "- LDL Cholesterol — 131 mg/dL — High
 * (ref <100)"), or a clinical note's leader lines ("Potassium ........ 5.9 H mmol/L [3.5-5.1]").
 *
 * Reads the rows the table reader left over. Lines of a paragraph (or a wrapped bullet) are
 * joined, split into sentences, and in each sentence a known analyte name must be followed,
 * through a few linking words ("was", "came back at", ":", "—"), by the value itself; units,
 * the reference range and the lab's judgement in words ("high", "above the normal range") are
 * taken from the rest of its clause. The reading never guesses: a number that is not directly
 * tied to a recognised analyte is not a result, and where the analyte is clear but something
 * around the value is not (another number, two flags that disagree), the result carries a
 * problem so a person checks it.
 */

interface Piece {
  start: number;
  end: number;
  item: TextItem;
}

interface Block {
  text: string;
  pieces: Piece[];
}

interface Mention {
  start: number;
  end: number;
  name: string;
  candidates: Analyte[];
}

/** Lines further apart than this many em start a new paragraph. */
const PARAGRAPH_GAP_EM = 1.75;

/** A labelled metadata field: its numbers are dates, identifiers and phone numbers, never results. */
const METADATA_LABEL =
  /^(?:patient(?:\s+(?:name|id))?|name|dob|d\.o\.b\.?|date of birth|birth\s?date|sex|gender|age|mrn|account(?:\s+(?:number|no\.?|#))?|acct\.?|specimen(?:\s+(?:id|number|no\.?|#))?|accession(?:\s+(?:number|no\.?|#))?|requisition(?:\s+(?:number|no\.?|#))?|collected|collection(?:\s+date)?|date\s+(?:collected|received|reported|of service)|received|reported|resulted|report date|ordered by|ordering\s+(?:physician|provider)|provider|physician|npi|clia(?:\s*(?:#|no\.?))?|phone|tel\.?|fax|address|performing\s+(?:lab|laboratory|site)|lab(?:oratory)?|printed|page)\s*[:#]/i;

/**
 * A leader between a name and its value: dots, spaced dots, underscores, hyphens or ellipses. It
 * links the two as a colon would, and its dots are no full stops.
 */
const LEADER = new RegExp(String.raw`\s*${LEADER_RUN}\s*`, 'g');

/** A line giving an earlier result of the test above it. */
const HISTORY_LINE = /^(?:last|previous|prior|earlier)\s+(?:result|value|reading)s?\b/i;

const BULLET = /^(?:[•·▪◦●○■□‣⁃*–—-]|\d{1,2}[.)])(?:\s|$)/;

/** Words that may end a sentence-like line without ending the sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:dr|mr|mrs|ms|st|ave|blvd|rd|no|vs|approx|comp|inc|ltd|jr|sr|e\.g|i\.e|etc|ref|est|tel|dept|ste|calc|[A-Z])\.$/i;

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+`;
const COMPARATOR = String.raw`less than or equal to|greater than or equal to|less than|lower than|below|under|greater than|more than|higher than|above|over|at least|at most|up to|<=|>=|≤|≥|<|>`;
const QUALITATIVE = String.raw`non-?\s?reactive|not detected|none detected|undetected|detected|negative|positive|reactive|indeterminate|equivocal|weakly (?:positive|reactive)|present|absent|non-?immune|immune`;

/** What links a name to its value: "was", "came back at", ":", "—", "level was", "was high at"... */
const LINK_WORDS = String.raw`titer|titre|level|levels|result|results|value|values|reading|test|screen|screening|concentration|measurement|count|was|is|were|are|of|at(?!\s+(?:least|most)\b)|measured|came back|come back|came in|returned|showed|shows|read|reads|tested|we found|you had|has been|had|as|slightly|mildly|moderately|very|markedly|critically|borderline|high(?=\s+(?:at|with)\b)|low(?=\s+(?:at|with)\b)|elevated(?=\s+(?:at|with)\b)|normal(?=\s+(?:at|with)\b)|abnormal(?=\s+(?:at|with)\b)|critical(?=\s+(?:at|with)\b)|with`;
const LINK = new RegExp(String.raw`^(?:\s*[:=]|\s+[—–-](?=\s)|\s*,|\s+(?:${LINK_WORDS})\b)*`, 'i');
const VALUE = new RegExp(String.raw`^\s*(?:(${COMPARATOR})\s*)?(${NUMBER})(\S*)`, 'i');
const QUAL_VALUE = new RegExp(String.raw`^\s*(${QUALITATIVE})\b`, 'i');

/** A number followed by one of these is an age, a duration, a count or a time, not a result. */
const NOT_A_RESULT_AFTER = /^(?:years?|yrs?|y\/o|yo|old|months?|mos?|weeks?|wks?|days?|hours?|hrs?|minutes?|mins?|times|x|am|pm|a\.m\.?|p\.m\.?|o'clock|percentile|patients?|people|tablets?|pills?|doses?|pages?)$/i;
/** A dose, not a result: "potassium chloride 20 mEq PO", "magnesium 2 g IV over 2 hours". */
const DOSING_AFTER = /^(?:po|iv|ivpb|im|sc|subq|sq|pr|sl|ng|bid|tid|qid|qd|qhs|qam|prn|stat|daily|nightly|twice|once|every|q\d+h?|tablets?|tabs?|capsules?|caps?|infusion|bolus|drip|supplement(?:ation|s)?|replacement|replete|given|administered|ordered)$/i;

/** Guidance, not a result: "A1c of 6.5 % indicates diabetes". */
/**
 * Guidance, not a result: "A1c of 6.5 % indicates diabetes", also of a span ("an A1c of 5.7% to
 * 6.4% suggests prediabetes") and in a note's short words ("5.7-6.4 % increased risk").
 */
const GUIDANCE_AFTER =
  /^\W*(?:(?:to|-|–|—)\s*\d+(?:\.\d+)?\s*%?\s*)?(?:\([^)]*\)\s*)?(?:or (?:more|higher|above|less|lower|below)|or\s*[<>≤≥]|and (?:above|below|over|under)|indicat|suggest|is consistent|consistent with|is diagnostic|diagnostic|defines?|is defined|means|is recommended|recommended|or greater|or less|(?:an )?(?:increased|elevated|higher) risk|goal\b|target\b|pre-?diabet|diabet(?:es|ic))/i;

/** The analyte named as a condition of something else ("… when TSH is", "if the potassium is"). */
const CONDITION_BEFORE = /\b(?:when|whenever|if|unless)\s+(?:the\s+|a\s+|an\s+)?$/i;

const RANGE_KEY = String.raw`reference\s+(?:range|interval|values?)|normal\s+(?:range|values?|limits?)|ref(?:erence)?\s+range|ref(?:erence)?\.?|standard\s+range|expected\s+(?:range|values?|result)|expected|normal|target(?:\s+range)?|healthy\s+range|desirable(?:\s+range)?|optimal(?:\s+range)?|goal|range`;
const RANGE_LINK = String.raw`(?:\s*(?::|=|\bis\b|\bare\b|\bof\b|\bwould be\b|\bshould be\b|\bfor (?:this test|adults) is\b))*\s*`;
const RANGE_EXPR = String.raw`(?:between\s+)?(${NUMBER})\s*(?:-|–|—|\bto\b|\band\b)\s*(${NUMBER})|(${COMPARATOR})\s*(${NUMBER})|(${QUALITATIVE})\b`;
const KEYED_RANGE = new RegExp(String.raw`\b(?:${RANGE_KEY})${RANGE_LINK}(?:${RANGE_EXPR})`, 'i');
/** A range key with something after it that holds a number but is no range ("ref: £.6-10.3"). */
const UNREAD_RANGE = new RegExp(String.raw`\b(?:${RANGE_KEY})${RANGE_LINK}(\S*\d\S*)`, 'i');
const BARE_RANGE = new RegExp(String.raw`[([{]\s*(?:${RANGE_EXPR})\s*[)\]}]?`, 'i');

type FlagPhrase = [RegExp, FlagKind | 'crit' | 'letter'];

/**
 * The lab's judgement in words, most specific first; each match is blanked before the next is
 * tried. Phrases naming the range ("above the normal range") are taken before the range is read
 * (so "normal range of 0.4-4.0" stays a range); lone words after it (so "normal" in "(normal
 * range 4.0–5.6)" is not a flag).
 */
const FLAG_PHRASES: FlagPhrase[] = [
  [/\bcritical(?:ly)?\s+(?:high|elevated)\b|\bhigh\W+critical\b/i, 'HH'],
  [/\bcritical(?:ly)?\s+low\b|\blow\W+critical\b/i, 'LL'],
  [/\b(?:higher|greater)\s+than\s+(?:the\s+)?(?:normal|reference|expected|upper)\b|\babove\s+(?:the\s+)?(?:normal|reference|expected|upper)\b/i, 'H'],
  [/\b(?:lower|less)\s+than\s+(?:the\s+)?(?:normal|reference|expected|lower)\b|\bbelow\s+(?:the\s+)?(?:normal|reference|expected|lower)\b/i, 'L'],
  [/\boutside\s+(?:of\s+)?(?:the\s+|what is\s+)?(?:normal|reference|expected)|\bout of range\b/i, 'A'],
  [/\bwithin\s+(?:the\s+)?(?:normal|reference|expected)|\bwithin normal limits\b|\bin range\b|\bwithin range\b/i, 'N'],
];
const FLAG_WORDS: FlagPhrase[] = [
  [/\bcritical(?:ly)?\b|\bpanic\b/i, 'crit'],
  [/\b(?:high|elevated|raised|increased)\b/i, 'H'],
  [/\b(?:low|decreased|reduced)\b/i, 'L'],
  [/\babnormal\b/i, 'A'],
  [/\bnormal\b/i, 'N'],
  // As in a flag column (values.ts): "H*" and "L*" are critical, "!" alone is critical, "*" alone abnormal.
  [/(?:^|[\s([{—–-])H\*(?=$|[\s)\]},;.])/, 'HH'],
  [/(?:^|[\s([{—–-])L\*(?=$|[\s)\]},;.])/, 'LL'],
  // "H", "(L)", "H!", "[HH]": an exclamation mark after a letter only draws the eye to it.
  [/(?:^|[\s([{—–-])(HH|LL|H|L)!{0,2}(?=$|[\s)\]},;.])|[([{](A|C)!{0,2}[)\]}]/, 'letter'],
  [/(?:^|\s)!{1,2}(?=$|\s)|\(!{1,2}\)/, 'crit'],
  [/(?:^|\s)\*{1,2}(?=$|\s)|\(\*{1,2}\)/, 'A'],
];

/** A flag letter between a value and its unit. */
const FLAG_BEFORE_UNIT = /^\s*(?:[([{]?(?:HH|LL|H|L|A|C)[!*]{0,2}[)\]}]?|[*!]{1,2})(?=\s)/;

const FLAG_WORD: Record<FlagKind, string> = {
  H: 'High', L: 'Low', A: 'Abnormal', HH: 'Critical High', LL: 'Critical Low', C: 'Critical', N: 'Normal',
};

/** Words that only qualify a name in prose ("glucose level", "HIV screen"): tried without them too. */
const NAME_FILLERS = new Set(['level', 'levels', 'result', 'results', 'value', 'values', 'reading', 'test', 'screen', 'screening', 'concentration', 'measurement', 'titer', 'titre']);
/** Words a name never starts with. */
const NOT_A_NAME_START = new Set(['your', 'the', 'a', 'an', 'my', 'our', 'for', 'and', 'or', 'of', 'was', 'is', 'were', 'are', 'at', 'in', 'on', 'to', 'with', 'we', 'you', 'this', 'that', 'which', 'it', 'its', 'as', 'by', 'from', 'than', 'if', 'please']);

/** A title that sets the panel of the results after it ("Comprehensive Metabolic Panel", "Lipid Panel."). */
const PANEL_TITLE = /\b(?:panel|profile|metabolic|lipids?|thyroid|urinalysis|urine|hematology|chemistry|cbc|blood count|differential|serology|hepatitis|iron studies|vitamins?|diabetes|a1c|hormones?|coagulation|infectious|liver|kidney|renal|electrolytes)\b/i;

export function readNarrative(rows: Row[], tableResults: readonly RawResult[] = []): RawResult[] {
  const seen = new Set(tableResults.flatMap(resultKeys));
  const out: RawResult[] = [];
  let panel: string | undefined;
  for (const block of blocks(rows)) {
    for (const [start, end] of sentences(block.text)) {
      const sentence = block.text.slice(start, end);
      const mentions = findMentions(sentence);
      const read: RawResult[] = [];
      mentions.forEach((m, i) => {
        const clauseEnd = mentions[i + 1]?.start ?? sentence.length;
        const result = readMention(sentence, m, clauseEnd, block, start, panel);
        if (result) read.push(result);
      });
      // A title without results starts a panel (or, if it names none, ends the last one).
      if (!read.length && isTitle(sentence)) panel = PANEL_TITLE.test(sentence) ? sentence.replace(/[.:]\s*$/, '').trim() : undefined;
      for (const r of read) {
        const keys = resultKeys(r);
        if (keys.some((k) => seen.has(k))) continue;
        keys.forEach((k) => seen.add(k));
        out.push(r);
      }
    }
  }
  return out;
}

/** Identity of a result for "already read": the analyte (or the name) with the value. */
function resultKeys(r: RawResult): string[] {
  const code = matchLoinc(r.testName, { units: r.units, panel: r.panel }).matches[0]?.loinc_code;
  const value = r.value.value.replace(/\s+/g, ' ').toLowerCase();
  return [`name:${normalizeName(r.testName)}|${value}`, ...(code ? [`code:${code}|${value}`] : [])];
}

// ---------------------------------------------------------------------------------------------
// Rows -> paragraphs -> sentences
// ---------------------------------------------------------------------------------------------

function blocks(rows: Row[]): Block[] {
  const out: Block[] = [];
  let current: Block | undefined;
  let last: Row | undefined;
  for (const row of rows) {
    // "Last result: 98 mmol/L on Dec 14, 2023": an earlier result, history, no part of this one.
    const cells = HISTORY_LINE.test(row.text.trim()) ? [] : proseCells(row);
    if (!cells.length) {
      last = undefined;
      continue;
    }
    const gap = last ? row.y - last.y : Infinity;
    const newBlock =
      !current || !last || last.page !== row.page || gap <= 0 || gap > PARAGRAPH_GAP_EM * Math.max(row.height, last.height) || BULLET.test(cells[0]!.text) ||
      // A heading line ("Comp. Metabolic Panel (14):") stands alone: it names the panel of the lines under it.
      (/:\s*$/.test(last.text) && isTitle(last.text));
    if (newBlock) {
      current = { text: '', pieces: [] };
      out.push(current);
    }
    let rowStart = true;
    const items = withoutLeaderNoise(cells.flatMap((c) => c.items));
    // Marks set one by one ("Rate . . 52 *": a short spaced leader a text layer gives as single
    // dots) are a leader, not two sentence ends.
    const dot = (it: TextItem | undefined) => !!it && /^[.·…_]+$/.test(it.text);
    const spacedMarks = new Set(items.filter((it, i) => dot(it) && (dot(items[i - 1]) || dot(items[i + 1]))));
    {
      for (const item of items) {
        // OCR's words are split at spaces, so a word of leader marks is all leader; a text PDF's item
        // may hold the name before its leader ("Sodium ______"), which LEADER replaces in place.
        const text = spacedMarks.has(item) || (item.source === 'ocr' && (isLeader(item.text) || OCR_LEADERS.has(item))) ? ':' : caseRestored(item).replace(/\s+/g, ' ').replace(LEADER, ' : ').trim();
        if (!text || text === ':') {
          // A leader on its own links what is on either side of it.
          if (text && current!.text) current!.text += ' :';
          continue;
        }
        const b = current!;
        // A word hyphenated at the end of a line joins its other half.
        if (rowStart && /[a-z]-$/.test(b.text) && /^[a-z]/.test(text)) b.text = b.text.slice(0, -1);
        else if (b.text) b.text += ' ';
        rowStart = false;
        b.pieces.push({ start: b.text.length, end: b.text.length + text.length, item });
        b.text += text;
      }
    }
    last = row;
  }
  return out.filter((b) => b.text);
}

/**
 * OCR cannot tell "co2" from "CO2": c, o, s, v, w, x and z have one shape in both cases. A short
 * word of only those letters that is an analyte's abbreviation in capitals is read in capitals
 * (lower-case abbreviations are taken for ordinary words).
 */
function caseRestored(item: TextItem): string {
  if (item.source !== 'ocr' || !/^[cosvwxz]{2,3}\d?$/.test(item.text)) return item.text;
  const upper = item.text.toUpperCase();
  return exactlyNamed(upper).length ? upper : item.text;
}

/** A mark alone (".", "«"): three of them in a row are a spaced dotted leader as OCR reads it. */
const isMark = (item: TextItem | undefined) => !!item && isMarksOnly(item.text);

/**
 * OCR reads a faint dotted leader on a fax as a leader and then letters ("Sodium ------- Se hd i a
 * 138"): on an OCR'd row, the words without a digit between a leader and the first word with one
 * are the leader's noise, unless they are a result in words ("Non-reactive", "Not Detected").
 */
function withoutLeaderNoise(items: TextItem[]): TextItem[] {
  const noise = (item: TextItem | undefined) => !!item && (isMark(item) || isDotNoise(item.text) || isLeader(item.text));
  // Two short x-height words in a row, one of four letters or more ("coco ceri", "cee cree."): dots too.
  const xHeightPair = (a: TextItem, b: TextItem | undefined) => !!b && isXHeightWord(a.text) && isXHeightWord(b.text) && Math.max(a.text.length, b.text.length) >= 4;
  const confirmed = items.findIndex(
    (it, i) =>
      i > 0 &&
      it.source === 'ocr' &&
      (isLeader(it.text) || (isMark(it) && isMark(items[i + 1]) && isMark(items[i + 2])) || (isDotNoise(it.text) && (noise(items[i + 1]) || it.text.length >= 8)) || xHeightPair(it, items[i + 1])),
  );
  if (confirmed < 0) return items;
  // The leader starts at its first mark: what OCR made of the dots before the clearly leader part
  // ("Glucose . 3 CESS or Hs Fest veer ween. 68") is leader too.
  const marked = items.findIndex((it, i) => i > 0 && i <= confirmed && noise(it));
  let leader = marked < 0 ? confirmed : marked;
  // ... and so are short x-height "words" right before it ("BUN. on eetireieii… 14").
  while (leader > 1 && (isMark(items[leader - 1]) || (isXHeightWord(items[leader - 1]!.text) && items[leader - 1]!.text.length <= 3))) leader--;
  const value = items.findIndex((it, i) => i > confirmed && (/\d/.test(it.text) || isKnownQualitative(it.text) || isKnownQualitative(`${it.text} ${items[i + 1]?.text ?? ''}`)));
  if (value < 0) return items;
  if (value > leader + 1) AFTER_NOISE.add(items[value]!);
  OCR_LEADERS.add(items[leader]!);
  return [...items.slice(0, leader + 1), ...items.slice(value)];
}

/** The OCR'd item where a leader starts (the rest of it dropped): it links the name to the value. */
const OCR_LEADERS = new WeakSet<TextItem>();

/** First words after dropped leader noise: OCR may have misread them too, so a person checks the value. */
const AFTER_NOISE = new WeakSet<TextItem>();

/** The cells of a row that can hold results: a labelled metadata field and what follows it on the row are not. */
function proseCells(row: Row): Cell[] {
  const at = row.cells.findIndex((c) => METADATA_LABEL.test(c.text.replace(BULLET, '').trim()));
  return at < 0 ? row.cells : row.cells.slice(0, at);
}

/** [start, end) of each sentence. A full stop after an abbreviation or an initial ends nothing. */
function sentences(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (const m of text.matchAll(/[.!?]+(?=\s+\S)/g)) {
    const end = m.index + m[0].length;
    const before = text.slice(Math.max(0, end - 12), end);
    if (ABBREVIATION.test(before)) continue;
    const next = text.slice(end).trimStart();
    if (!/^[A-Z•·▪*–—(-]/.test(next)) continue;
    out.push([start, end]);
    start = end + (text.length - end - text.slice(end).trimStart().length);
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Analyte names in a sentence
// ---------------------------------------------------------------------------------------------

const byCode = new Map(ANALYTES.map((a) => [a.code, a] as const));
const aliasWords = ANALYTES.flatMap((a) => a.aliases.map((alias) => ({ words: normalizeName(alias).split(' '), analyte: a })));

/**
 * Analyte names, left to right, longest first at each word: "LDL Cholesterol" rather than
 * "Cholesterol", "fasting glucose" rather than "glucose". Only exact alias matches count (a
 * fuzzy match inside free text finds names in ordinary words).
 */
function findMentions(sentence: string): Mention[] {
  const words = [...sentence.matchAll(/\S+/g)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
  const out: Mention[] = [];
  for (let i = 0; i < words.length; i++) {
    const first = words[i]!.text.replace(/^[(["'•·*–—-]+/, '').toLowerCase();
    if (!first || NOT_A_NAME_START.has(first)) continue;
    for (let len = Math.min(6, words.length - i); len >= 1; len--) {
      const span = words.slice(i, i + len);
      // A number inside the span is a value ("Glucose 95"), and a clause break ends a name.
      if (span.some((w) => /^[([]?[<>≤≥]?\d[\d,.]*[)\],;:.%]*$/.test(w.text))) continue;
      if (span.slice(0, -1).some((w) => /[;:]$|[—–]/.test(w.text))) continue;
      const raw = sentence.slice(span[0]!.start, span.at(-1)!.end);
      let full = raw.replace(/^[(["'•·*–—\s-]+/, '').replace(/[\s:;,.—–-]+$/, '');
      if (full.endsWith(')') && !full.includes('(')) full = full.slice(0, -1);
      // "BUN result came back at": the name is BUN, "result" belongs to the link.
      const forms = withoutTrailingFillers(full);
      const short = forms.at(-1)!;
      let name = short;
      let candidates = short && short !== full ? analytesNamed(short) : [];
      // Unless the words belong to the name: "RPR titer (value)" is the titer, not the RPR screen.
      const longer = forms.slice(0, -1).map((form) => ({ form, named: exactlyNamed(form) })).find((x) => x.named.length && !sameAnalytes(x.named, candidates));
      if (longer) [name, candidates] = [longer.form, longer.named];
      if (!candidates.length) {
        name = full;
        candidates = analytesNamed(full);
      }
      if (!candidates.length) continue;
      const start = span[0]!.start + raw.indexOf(name);
      out.push({ start, end: start + name.length, name, candidates });
      i += len - 1;
      break;
    }
  }
  return out;
}

const TRAILING_FILLER = new RegExp(String.raw`\s+(?:${[...NAME_FILLERS].join('|')})$`, 'i');

/** "RPR titer value" → itself, "RPR titer", "RPR": the name with one more trailing filler word left off each time. */
function withoutTrailingFillers(name: string): string[] {
  const forms = [name];
  for (let next = name.replace(TRAILING_FILLER, ''); next !== forms.at(-1); next = next.replace(TRAILING_FILLER, '')) forms.push(next);
  return forms;
}

const sameAnalytes = (a: Analyte[], b: Analyte[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Analytes whose own name or alias this is (no fuzzy match, no words left out). */
function exactlyNamed(name: string): Analyte[] {
  const r = matchLoinc(name);
  if (r.method === 'fuzzy' || !r.matches.length) return [];
  return r.matches.map((m) => byCode.get(m.loinc_code)!).filter(Boolean);
}

/** Analytes a printed name can only be; empty when it is none, or an ordinary word. */
function analytesNamed(name: string): Analyte[] {
  const norm = normalizeName(name);
  if (!norm) return [];
  // Two- and three-letter abbreviations (Na, K, PT, CA) are ordinary words in lower case.
  if (norm.replace(/ /g, '').length <= 3 && !/[A-Z]/.test(name)) return [];
  const hit = exactlyNamed(name);
  if (hit.length) return hit;
  const words = norm.split(' ');
  const trimmed = words.filter((w, i) => !(NAME_FILLERS.has(w) && (i === words.length - 1 || NAME_FILLERS.has(words[i + 1]!))));
  if (trimmed.length && trimmed.length < words.length) {
    const again = exactlyNamed(trimmed.join(' '));
    if (again.length) return again;
  }
  // "HIV screen", "Hepatitis C": the first words of one analyte's aliases (two words at least).
  for (const form of [words, trimmed]) {
    if (form.length < 2) continue;
    const owners = new Set(aliasWords.filter((a) => a.words.length > form.length && form.every((w, i) => a.words[i] === w)).map((a) => a.analyte));
    if (owners.size === 1) return [...owners];
  }
  return [];
}

function isTitle(sentence: string): boolean {
  const t = sentence.replace(/[.:]\s*$/, '').trim();
  const words = t.split(/\s+/);
  if (words.length > 8 || /:/.test(t)) return false;
  // Title case: every word capitalised, a number in brackets, or a short joining word.
  return words.every((w) => /^[A-Z(&,/]|^\(?\d+\)?$|^(?:and|of|with|w\/|the|&)$/.test(w));
}

// ---------------------------------------------------------------------------------------------
// One analyte name -> value, unit, range and flag from its clause
// ---------------------------------------------------------------------------------------------

function readMention(sentence: string, m: Mention, clauseEnd: number, block: Block, offset: number, panel: string | undefined): RawResult | undefined {
  const problems: ReviewReason<ResultReviewCode>[] = [];
  const problem = (code: ResultReviewCode, message: string) => problems.push({ code, message });
  // A condition, not a result: "Reflex free T4 performed when TSH is <0.40 or >4.50 uIU/mL".
  if (CONDITION_BEFORE.test(sentence.slice(0, m.start))) return undefined;
  let pos = m.end;
  const link = LINK.exec(sentence.slice(pos, clauseEnd))![0];
  pos += link.length;
  const linked = link.trim() !== '';
  const flagsSeen: FlagKind[] = [];
  collectFlags(collectFlags(link, flagsSeen, FLAG_PHRASES), flagsSeen, FLAG_WORDS);

  // The value.
  const rest = sentence.slice(pos, clauseEnd);
  let valueText = '';
  let glued = '';
  const num = VALUE.exec(rest);
  const qual = QUAL_VALUE.exec(rest);
  if (num) {
    const [whole, comparatorWords, number, suffix] = num as unknown as [string, string | undefined, string, string];
    const tail = suffix.replace(/[,;.)\]]+$/, '');
    if (/^\+{1,4}$/.test(tail) && !comparatorWords) {
      valueText = `${number}${tail}`; // "1+", "2+" (urine dipstick)
    } else if (/^[/:]/.test(tail) && !(/^:\d+$/.test(tail) && number === '1')) return undefined; // a date, a time
    else if (/^[-–]/.test(tail) && !new RegExp(String.raw`^[-–](?:${NUMBER})$`).test(tail)) return undefined; // 45-year-old, 800-555-0100
    // A comparator needs a verb before it: "A1c greater than 6.5 %" is guidance.
    else if (comparatorWords && !linked) return undefined;
    else valueText = `${comparatorWords ? comparatorSymbol(comparatorWords) : ''}${number}${/^[-–:]/.test(tail) ? tail.replace('–', '-') : ''}`;
    glued = /^[-–:+]/.test(tail) ? '' : tail;
    pos += whole.length - (suffix.length - tail.length);
  } else if (qual) {
    valueText = qual[1]!;
    pos += qual[0].length;
  } else {
    // Colours, clarity, "Trace", "Normal": values only of tests reported in words.
    const words = /^\s*([A-Za-z+-]+(?:\s+[A-Za-z+-]+){0,2})/.exec(rest)?.[1]?.split(/\s+/) ?? [];
    const n = [3, 2, 1].find((k) => k <= words.length && isKnownQualitative(words.slice(0, k).join(' ')));
    // "Normal" said of a test reported as a number is a judgement, not its value.
    const said = n ? words.slice(0, n).join(' ') : '';
    const worded = m.candidates.filter((a) => a.results !== 'quantitative');
    if (!n || !worded.length || (/^(?:normal|abnormal)$/i.test(said) && worded.length < m.candidates.length)) return undefined;
    valueText = words.slice(0, n).join(' ');
    pos += rest.indexOf(valueText) + valueText.length;
  }
  const value = parseValueCell(valueText);
  if (value.kind === 'unparseable') return undefined;
  const qualitative = value.kind === 'qualitative';
  if (qualitative && m.candidates.every((a) => a.results === 'quantitative')) return undefined;

  // The unit: one the analyte is reported in, or anything shaped like a unit.
  let units: string | undefined;
  const gluedFlag = glued ? /^(?:(HH|LL|H|L)!{0,2}|([HL])\*|(!{1,2})|\*{1,2})$/.exec(glued) : null;
  if (glued && glued !== gluedFlag?.[0]) {
    if (unitOf(glued, m.candidates) !== undefined || looksLikeUnit(glued)) units = unitOf(glued, m.candidates) ?? glued;
    else return undefined;
  } else {
    if (gluedFlag) flagsSeen.push((gluedFlag[1] ?? (gluedFlag[2] ? `${gluedFlag[2]}${gluedFlag[2]}` : gluedFlag[3] ? 'C' : 'A')) as FlagKind);
    // A flag may stand between the value and its unit: "131 L mmol/L", "5.9 (H!) mmol/L".
    const flagFirst = FLAG_BEFORE_UNIT.exec(sentence.slice(pos, clauseEnd));
    const found = unitAfter(sentence.slice(pos + (flagFirst?.[0].length ?? 0), clauseEnd), m.candidates);
    if (found) {
      if (flagFirst) {
        collectFlags(flagFirst[0], flagsSeen, FLAG_WORDS);
        pos += flagFirst[0].length;
      }
      units = found.units;
      pos += found.length;
    }
  }
  const nextWord = /^\s*([^\s,;.]+)/.exec(sentence.slice(pos, clauseEnd))?.[1] ?? '';
  if (!units && (NOT_A_RESULT_AFTER.test(nextWord) || /^\d{3}-\d{4}/.test(nextWord))) return undefined;
  const after = sentence.slice(pos, clauseEnd);
  if (GUIDANCE_AFTER.test(after) || DOSING_AFTER.test(nextWord)) return undefined;
  // Some link between name and value: "Glucose: 95", "was 95", or at least a unit ("Glucose 95 mg/dL").
  if (!linked && !units && !qualitative && !m.candidates.some((a) => a.units.some((s) => s.units.includes('')))) return undefined;
  const valueEnd = pos;

  // The rest of the clause: range, flag words, and any other number.
  let tail = collectFlags(after, flagsSeen, FLAG_PHRASES);
  let rangeText: string | undefined;
  const range = KEYED_RANGE.exec(tail) ?? BARE_RANGE.exec(tail);
  if (range) {
    rangeText = rangeOf(range);
    let end = range.index + range[0].length;
    const rangeUnits = unitAfter(tail.slice(end), m.candidates);
    if (rangeUnits) {
      end += rangeUnits.length;
      units ??= rangeUnits.units;
    }
    tail = blank(tail, range.index, end);
  }
  const unreadRange = range ? null : UNREAD_RANGE.exec(tail);
  if (unreadRange) {
    problem('range_suspect', `The reference range printed as "${unreadRange[1]}" could not be read: check the range and the value against the page.`);
    tail = blank(tail, unreadRange.index, unreadRange.index + unreadRange[0].length);
  }
  // A range OCR garbled ("ref: £.6-10.3 mg/dL") is not read, and the unit after it would be lost
  // with it: a word further on that is one of the analyte's own units is its unit.
  if (!units) {
    const word = [...tail.matchAll(/\S+/g)].find((w) => unitOf(w[0], m.candidates) !== undefined);
    if (word) {
      units = word[0];
      tail = blank(tail, word.index, word.index + word[0].length);
    }
  }
  tail = collectFlags(tail, flagsSeen, FLAG_WORDS);
  const others = [...tail.matchAll(new RegExp(String.raw`(?<![\w/.:-])[<>≤≥]?(?:${NUMBER})(?![\w/:-]|\.\d)`, 'g'))]
    .map((x) => x[0])
    .filter((n) => !/^(?:19|20)\d\d$/.test(n));
  if (others.length) {
    problem('unparseable_value', `The sentence gives another number (${others.join(', ')}) besides ${value.value}: check which is the ${m.name} result.`);
  }
  if (/\bnot\s+(?:high|low|normal|abnormal|elevated|critical)\b/i.test(after)) flagsSeen.length = 0;

  const flag = decideFlag(flagsSeen, problem);
  const pieces = block.pieces;
  const within = (a: number, b: number) => pieces.filter((p) => p.end > offset + a && p.start < offset + b).map((p) => p.item);
  const nameItems = within(m.start, m.end);
  const valueItems = within(m.end, range ? valueEnd + range.index + range[0].length : valueEnd);
  const first = valueItems[0] ?? nameItems[0] ?? pieces[0]!.item;
  if (valueItems.some((it) => AFTER_NOISE.has(it))) {
    problem('low_ocr_confidence', `OCR read marks between the name and the value that are not text (a faint dotted line): check ${value.value} against the page.`);
  }

  const result: RawResult = {
    testName: m.name,
    value,
    page: first.page,
    column: 'narrative',
    problems,
    source: first.source,
  };
  if (flag) result.flag = flag;
  if (units) result.units = units;
  if (rangeText) result.rangeText = rangeText;
  if (panel) result.panel = panel;
  const vc = minConfidence([{ items: valueItems } as Cell]);
  const nc = minConfidence([{ items: nameItems } as Cell]);
  if (vc !== undefined) result.valueConfidence = vc;
  if (decimalRestored([{ items: valueItems } as Cell])) result.decimalRestored = true;
  if (nc !== undefined) result.nameConfidence = nc;
  return result;
}

function comparatorSymbol(words: string): string {
  const w = words.toLowerCase().replace(/\s+/g, ' ');
  if (/^(?:<=|≤|at most|up to|less than or equal to)$/.test(w)) return '<=';
  if (/^(?:>=|≥|at least|greater than or equal to)$/.test(w)) return '>=';
  if (/^(?:<|less than|lower than|below|under)$/.test(w)) return '<';
  return '>';
}

/** The printed range as parseRange reads it: "70–99", "<100", ">=40", "Negative". */
function rangeOf(m: RegExpExecArray): string {
  const [, a, b, comparator, bound, qualitative] = m;
  if (a !== undefined && b !== undefined) return `${a}-${b}`;
  if (comparator !== undefined && bound !== undefined) return `${comparatorSymbol(comparator)}${bound}`;
  return qualitative!;
}

/** The analyte's own spelling of a unit, when `text` is one of them. */
function unitOf(text: string, analytes: Analyte[]): string | undefined {
  const norm = normalizeUnit(text);
  if (!norm) return undefined;
  for (const a of analytes) for (const spec of a.units) for (const u of spec.units) if (u && normalizeUnit(u) === norm) return text;
  return undefined;
}

/** A unit at the start of `text` (after spaces): the analyte's own spellings first, longest first. */
function unitAfter(text: string, analytes: Analyte[]): { units: string; length: number } | undefined {
  const spellings = [...new Set(analytes.flatMap((a) => a.units.flatMap((s) => s.units)).filter(Boolean))].sort((x, y) => y.length - x.length);
  for (const s of spellings) {
    const re = new RegExp(String.raw`^\s*(${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?=$|[\s,;.)\]])`, 'i');
    const hit = re.exec(text);
    if (hit) return { units: hit[1]!, length: hit[0].length };
  }
  const word = /^\s*(\S+)/.exec(text);
  if (!word) return undefined;
  const token = word[1]!.replace(/[,;]+$/, '').replace(/\.$/, '').replace(/\)$/, (p) => (word[1]!.includes('(') ? p : ''));
  if (/^percent$/i.test(token)) return { units: '%', length: word[0].indexOf(word[1]!) + token.length };
  if (looksLikeUnit(token) && !/^\(/.test(token)) return { units: token, length: word[0].indexOf(word[1]!) + token.length };
  return undefined;
}

function blank(text: string, from: number, to: number): string {
  return text.slice(0, from) + ' '.repeat(to - from) + text.slice(to);
}

/** Flags said in `text`, added to `into`; returns the text with them blanked out. */
function collectFlags(text: string, into: FlagKind[], phrases: FlagPhrase[]): string {
  let rest = text;
  for (const [re, kind] of phrases) {
    const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    for (const m of rest.matchAll(global)) {
      if (kind === 'letter') into.push((m[1] ?? m[2]) as FlagKind);
      else into.push(kind === 'crit' ? 'C' : kind);
      rest = blank(rest, m.index, m.index + m[0].length);
    }
  }
  return rest;
}

/** One flag from the words found; disagreeing words leave no flag and a problem. */
function decideFlag(kinds: FlagKind[], problem: (code: ResultReviewCode, message: string) => void): string | undefined {
  const set = new Set(kinds);
  if (!set.size) return undefined;
  const critical = set.has('C') || set.has('HH') || set.has('LL');
  const high = set.has('H') || set.has('HH');
  const low = set.has('L') || set.has('LL');
  if (high && low) {
    problem('flag_inconsistent', 'The sentence calls the value both high and low.');
    return undefined;
  }
  if (set.has('N') && (critical || high || low || set.has('A'))) {
    problem('flag_inconsistent', 'The sentence calls the value both normal and abnormal.');
    return undefined;
  }
  if (critical) return FLAG_WORD[high ? 'HH' : low ? 'LL' : 'C'];
  if (high) return FLAG_WORD.H;
  if (low) return FLAG_WORD.L;
  return FLAG_WORD[set.has('A') ? 'A' : 'N'];
}
