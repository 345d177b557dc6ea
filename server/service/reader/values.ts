/**
 * The small grammars of a result table: a value cell ("6.8 H", "6.8H", "H 6.8", "<0.5",
 * "Negative", "Positive   Abnormal"), a flag, and a reference range ("3.5-5.2", "3.5 - 5.2",
 * "<200", ">=60", "> OR = 60 mL/min/1.73m2", "Negative"). Pure functions, no layout knowledge.
 */

import { ANALYTES } from './loincTable';

/** A flag as labs print it, reduced to its meaning. */
export type FlagKind = 'H' | 'L' | 'A' | 'HH' | 'LL' | 'C' | 'N';

const FLAG_WORDS: Record<string, FlagKind> = {
  h: 'H', high: 'H', hi: 'H',
  l: 'L', low: 'L', lo: 'L',
  a: 'A', abn: 'A', abnormal: 'A',
  hh: 'HH', 'h*': 'HH', 'critical high': 'HH', 'crit high': 'HH', 'high critical': 'HH',
  ll: 'LL', 'l*': 'LL', 'critical low': 'LL', 'crit low': 'LL', 'low critical': 'LL',
  c: 'C', crit: 'C', critical: 'C', alert: 'C', 'c!': 'C', '!': 'C', panic: 'C',
  n: 'N', normal: 'N',
  // A value printed in bold among regular ones (tableReader.ts: markBoldAbnormal); never printed as such.
  'printed in bold': 'A',
  // A star alone marks a result abnormal without saying which way ("Positive *").
  '*': 'A', '**': 'C',
  // German and analyser printouts: "+ = erhöht, - = erniedrigt, ++/-- = kritisch" (read as flags
  // only where the table says so: see SIGN_FLAG); arrows.
  '+': 'H', '++': 'HH', '-': 'L', '--': 'LL',
  '↑': 'H', '↑↑': 'HH', '↓': 'L', '↓↓': 'LL',
};

/**
 * "+", "-", "++", "--": flags in a German report's table, but elsewhere a dipstick's "1 +" split by
 * OCR, a minus sign, or the dash a flag column prints for "no flag". Read as flags only in a table
 * whose header is German (tableReader.ts), never from a value cell's words alone.
 */
export const SIGN_FLAG = /^(?:\+{1,2}|-{1,2})$/;

/** A flag word or letter that is not a sign (see SIGN_FLAG). */
const isWordFlag = (t: string) => !SIGN_FLAG.test(t) && !!flagKind(t) && flagKind(t) !== 'N';

/** A status said against the range ("Above range", "Within the reference range"): the lab's flag in words. */
export const RANGE_STATUS = /^(above|below|out of|outside|in|within)(?: the)? (?:normal |healthy |reference )?range$/i;
const RANGE_STATUS_KIND: Record<string, FlagKind> = { above: 'H', below: 'L', 'out of': 'A', outside: 'A', in: 'N', within: 'N' };

/** `H`, `High`, `(H)`, `LL`, `Above range`... -> its meaning; undefined when the token is not a flag. */
export function flagKind(token: string): FlagKind | undefined {
  const t = token.trim().toLowerCase().replace(/^\((.*)\)$/, '$1').replace(/^\[(.*)\]$/, '$1');
  const status = RANGE_STATUS.exec(t);
  return status ? RANGE_STATUS_KIND[status[1]!] : FLAG_WORDS[t];
}

/**
 * Qualitative results as Spanish and German laboratories print them ("Negativo", "Trazas",
 * "Amarillo", "Transparente"; "negativ", "nicht nachweisbar", "klar"): a result, never a word to
 * send to review for not being English.
 */
const QUALITATIVE_FOREIGN = [
  'negativo', 'negativa', 'positivo', 'positiva', 'reactivo', 'no reactivo', 'detectado', 'no detectado', 'ausente',
  'presente', 'trazas', 'indicios', 'escasos', 'escasas', 'moderado', 'moderados', 'abundante', 'abundantes',
  'amarillo', 'amarillo claro', 'amarillo paja', 'amarillo oscuro', 'ámbar', 'paja', 'incoloro', 'rojizo',
  'transparente', 'claro', 'ligeramente turbio', 'turbio', 'opalescente',
  'negativ', 'positiv', 'nachweisbar', 'nicht nachweisbar', 'reaktiv', 'nicht reaktiv', 'grenzwertig', 'klar',
  'gelb', 'hellgelb', 'trüb', 'leicht trüb', 'spuren',
];
const FOREIGN_QUALITATIVE_VALUE = new RegExp(`^(?:${QUALITATIVE_FOREIGN.join('|')})$`, 'iu');

/** Words a qualitative result is made of (so "Not Detected" is a value, not a value and a flag). */
const QUALITATIVE = new Set([
  'negative', 'positive', 'reactive', 'nonreactive', 'non-reactive', 'non', 'not', 'detected', 'none', 'undetected',
  'indeterminate', 'equivocal', 'borderline', 'present', 'absent', 'trace', 'small', 'moderate', 'large', 'few', 'rare',
  'many', 'occasional', 'clear', 'hazy', 'cloudy', 'turbid', 'slightly', 'yellow', 'straw', 'amber', 'colorless',
  'pale', 'dark', 'orange', 'red', 'brown', 'green', 'normal', 'abnormal', 'see', 'note', 'comment', 'pending', 'tnp',
  'qns', 'cancelled', 'canceled', 'repeated', 'verified', 'immune', 'nonimmune', 'non-immune', 'weakly', 'weak',
  '1+', '2+', '3+', '4+', '+', '++', '+++',
  // Spanish and German reports print the same results in their own words.
  ...QUALITATIVE_FOREIGN.flatMap((w) => w.split(' ')),
]);

/** The words a reader can trust as a qualitative result (anything else is treated as unparseable). */
const KNOWN_QUALITATIVE_VALUES = [
  /^(negative|positive|reactive|non-?reactive|non reactive|not detected|none detected|detected|undetected)$/i,
  /^(indeterminate|equivocal|borderline|present|absent|trace|small|moderate|large|few|rare|many|occasional)$/i,
  /^(clear|hazy|slightly cloudy|cloudy|turbid|yellow|pale yellow|dark yellow|straw|amber|colorless|orange|red|brown)$/i,
  /^(normal|abnormal|immune|non-?immune|weakly (positive|reactive)|[1-4]\+|trace-?lysed|trace-?intact)$/i,
];

export const BOOLEAN_VALUES =
  /^(negative|positive|reactive|non-?reactive|non reactive|not detected|none detected|detected|undetected|present|absent|negativ[oa]?|positiv[oa]?|(?:no |nicht )?reactivo|(?:nicht )?reaktiv|(?:no )?detectado|(?:nicht )?nachweisbar|ausente|presente)$/i;

export function isKnownQualitative(value: string): boolean {
  const v = value.trim();
  return KNOWN_QUALITATIVE_VALUES.some((re) => re.test(v)) || FOREIGN_QUALITATIVE_VALUE.test(v);
}

/** Comparators as labs spell them -> `<`, `>`, `<=`, `>=`. */
export function normalizeComparators(text: string): string {
  return text
    .replace(/[≥]/g, '>=')
    .replace(/[≤]/g, '<=')
    .replace(/>\s*or\s*=/gi, '>=')
    .replace(/<\s*or\s*=/gi, '<=')
    // Spanish: "Menor de 200", "Mayor de 60", "Menor o igual a 5".
    .replace(/\b(?:menor|inferior)\s+(?:o\s+igual\s+)?(?:de|que|a)\b\s*/gi, (m) => (/igual/i.test(m) ? '<=' : '<'))
    .replace(/\b(?:mayor|superior)\s+(?:o\s+igual\s+)?(?:de|que|a)\b\s*/gi, (m) => (/igual/i.test(m) ? '>=' : '>'))
    .replace(/([<>]=?)\s+(?=[-.\d])/g, '$1');
}

const NUMBER = String.raw`-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|-?\.\d+`;
const NUMERIC_VALUE = new RegExp(String.raw`^(?:<=|>=|<|>)?(?:${NUMBER})$`);
const UNIT_GLUED = new RegExp(String.raw`^((?:<=|>=|<|>)?(?:${NUMBER}))([A-Za-zµμ%][A-Za-zµμ%/0-9.^*]*)$`);
const GLUED_FLAG = new RegExp(String.raw`^((?:<=|>=|<|>)?(?:${NUMBER})|[1-4]\+)(HH|LL|H|L|A|\((?:HH|LL|H|L|A)\))$`);
/** A flag printed before the value, glued to it ("H5.73"; "L 5.8" is the same with a space). */
const FLAG_GLUED_BEFORE = new RegExp(String.raw`^(HH|LL|H|L)((?:<=|>=|<|>)?(?:${NUMBER}))$`);
const RATIO_VALUE = /^\d+(?:\.\d+)?:\d+(?:\.\d+)?$/;
const RANGE_VALUE = new RegExp(String.raw`^(${NUMBER})\s?-\s?(${NUMBER})$`);

export function isNumericValue(text: string): boolean {
  return NUMERIC_VALUE.test(text);
}

/** "1,234.5" -> 1234.5; "<0.5" -> 0.5 (the comparator is read separately). */
export function toNumber(text: string): number | undefined {
  const m = /^(?:<=|>=|<|>)?(.*)$/.exec(text.trim());
  const n = Number((m?.[1] ?? '').replace(/,/g, ''));
  return m?.[1] && Number.isFinite(n) ? n : undefined;
}

/** Digits after the decimal point as printed ("2.50" -> 2), the basis of the dropped-decimal check. */
export function decimalsOf(text: string): number {
  const m = /\.(\d+)/.exec(text);
  return m ? m[1]!.length : 0;
}

export interface ValueCell {
  /** The value as printed, without its flag: "6.8", "<0.5", "Not Detected", "0-2", "1:40". */
  value: string;
  /** The flag as printed ("H", "High"), if any. */
  flag?: string;
  kind: 'numeric' | 'censored' | 'qualitative' | 'ratio' | 'range' | 'unparseable';
  /** Text after the number that is not a flag (often units printed beside the value). */
  trailing?: string;
  /** Why the cell looks wrong, when it does (two numbers, words around a number...). */
  problem?: string;
}

/**
 * Splits a value cell into value, flag and trailing text. Flags may follow the value with or
 * without a space ("6.8 H", "6.8H") or precede it ("H 6.8"); a qualitative result keeps all
 * its words ("Not Detected") and only a trailing flag word is taken off ("Positive Abnormal").
 */
export function parseValueCell(raw: string): ValueCell {
  const printed = normalizeComparators(raw.replace(/\s+/g, ' ').trim());
  if (!printed) return { value: '', kind: 'unparseable', problem: 'the value is empty' };
  // A star glued before the value marks it abnormal, two stars critical ("*233", "**6.8", "*Positive").
  const star = /^(\*{1,2})(?=[<>\d\p{L}])/u.exec(printed);
  if (star) {
    const cell = parseValueCell(printed.slice(star[0].length));
    if (cell.flag) cell.problem ??= `more than one flag (${star[1]}, ${cell.flag})`;
    else cell.flag = star[1];
    return cell;
  }
  const text = printed;

  const rangeValue = RANGE_VALUE.exec(text);
  if (rangeValue) return { value: `${rangeValue[1]}-${rangeValue[2]}`, kind: 'range' };

  const tokens: string[] = [];
  for (const t of text.split(' ')) {
    const glued = GLUED_FLAG.exec(t) ?? FLAG_GLUED_BEFORE.exec(t);
    // A unit run into its value ("0.41L/L", "5.1mmol/L": OCR lost the space between them).
    const unitGlued = glued ? null : UNIT_GLUED.exec(t);
    if (glued) tokens.push(glued[1]!, glued[2]!);
    else if (unitGlued && looksLikeUnit(unitGlued[2]!)) tokens.push(unitGlued[1]!, unitGlued[2]!);
    else tokens.push(t);
  }

  const numericAt = tokens.findIndex((t) => NUMERIC_VALUE.test(t) || RATIO_VALUE.test(t));
  if (numericAt >= 0) {
    const numberToken = tokens[numericAt]!;
    const before = tokens.slice(0, numericAt);
    const after = tokens.slice(numericAt + 1);
    const flags: string[] = [];
    const rest: string[] = [];
    for (const t of [...before, ...after]) {
      if (isWordFlag(t)) flags.push(t);
      else rest.push(t);
    }
    const kind: ValueCell['kind'] = RATIO_VALUE.test(numberToken) ? 'ratio' : /^[<>]/.test(numberToken) ? 'censored' : 'numeric';
    const cell: ValueCell = { value: numberToken, kind };
    if (flags.length) cell.flag = flags.join(' ');
    if (flags.length > 1) cell.problem = `more than one flag (${flags.join(', ')})`;
    const wordsBefore = before.filter((t) => SIGN_FLAG.test(t) || !flagKind(t));
    if (wordsBefore.length) cell.problem = `text before the number (${wordsBefore.join(' ')})`;
    if (rest.some((t) => NUMERIC_VALUE.test(t))) cell.problem = 'more than one number in the value cell';
    const trailing = after.filter((t) => !isWordFlag(t)).join(' ');
    if (trailing) cell.trailing = trailing;
    return cell;
  }

  // Qualitative: a trailing flag word comes off, the rest is the value.
  const words = [...tokens];
  let flag: string | undefined;
  // A lone word stays the value even when it could be a flag ("Abnormal" as a result).
  const last = words[words.length - 1]!;
  if (words.length >= 2 && isWordFlag(last)) flag = words.pop();
  else if (words.length >= 2 && isWordFlag(words[0]!) && !QUALITATIVE.has(words[0]!.toLowerCase())) flag = words.shift();
  const value = words.join(' ');
  const cell: ValueCell = { value, kind: isKnownQualitative(value) ? 'qualitative' : 'unparseable' };
  if (flag) cell.flag = flag;
  if (cell.kind === 'unparseable') cell.problem = `"${value}" is not a number or a known qualitative result`;
  return cell;
}

export interface ParsedRange {
  text: string;
  min?: number;
  max?: number;
  /** False for "<200" (200 itself is out of range) and ">39". */
  minInclusive: boolean;
  maxInclusive: boolean;
  /** A qualitative reference ("Negative", "Non Reactive"). */
  expected?: string;
  /** Words after the numbers (the in-range/out-of-range layout prints units there). */
  units?: string;
  /** A titer reference ("<1:40"): the dilution's denominator and how it bounds. Not a numeric range on the wire. */
  titer?: { op: '<' | '<=' | '>' | '>=' | '='; denominator: number };
}

/** "1:160" -> 160. */
export function titerDenominator(text: string): number | undefined {
  const m = /^1\s*:\s*(\d+)$/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

/** Units after a range: after a space anything ("10*3/uL"), glued only if it starts with a non-digit. */
const UNITS_AFTER = String.raw`(?:\s+(.+)|([^\d\s.,].*))?`;

const MALE_LABEL = /^(?:hombres?|varones?|masculino|men|males?|m|männer|männlich)$/i;
const FEMALE_LABEL = /^(?:mujeres?|femenino|women|females?|f|frauen|weiblich)$/i;

/**
 * A range printed per sex ("Hombres: 13.5 - 17.5; Mujeres: 12.0 - 15.5", "M: 0.7-1.3 / F: 0.5-1.1"):
 * the patient's part, or undefined when the range is not per sex. `null` when it is, but the
 * patient's sex is unknown or not among the parts: then there are no bounds to compare with.
 */
export function sexSpecificPart(text: string, sex: 'female' | 'male' | 'other' | undefined): string | null | undefined {
  const parts = text.split(/\s*(?:;|\s\/\s|\n)\s*/).map((p) => /^([\p{L}]+)\s*:\s*(.+)$/u.exec(p.trim()));
  if (parts.length < 2 || parts.some((p) => !p || !(MALE_LABEL.test(p[1]!) || FEMALE_LABEL.test(p[1]!)))) return undefined;
  const label = sex === 'male' ? MALE_LABEL : sex === 'female' ? FEMALE_LABEL : undefined;
  const mine = label && parts.find((p) => label.test(p![1]!));
  return mine ? mine[2]!.trim() : null;
}

/** Parses a printed reference range; unknown shapes keep their text and no bounds. */
export function parseRange(raw: string, sex?: 'female' | 'male' | 'other'): ParsedRange {
  const perSex = sexSpecificPart(raw.replace(/[ \t]+/g, ' ').trim(), sex);
  if (perSex === null) return { text: raw.replace(/\s+/g, ' ').trim(), minInclusive: true, maxInclusive: true };
  if (perSex !== undefined) return { ...parseRange(perSex), text: raw.replace(/\s+/g, ' ').trim() };
  // "(3.5-5.1)", "[3.5-5.1]", "{3.5-5.1}": a range in brackets is the same range.
  const text = normalizeComparators(raw.replace(/\s+/g, ' ').trim())
    .replace(/\s*\(calc\)\s*/i, ' ')
    .trim()
    .replace(/^[([{]\s*([^()[\]{}]*?)\s*[)\]}]$/, '$1');
  const base: ParsedRange = { text: raw.replace(/\s+/g, ' ').trim(), minInclusive: true, maxInclusive: true };
  if (!text) return base;
  // Units may follow the range with or without a space ("11.0-15.0 %", OCR'd as "11.0-15.0%").
  const between = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})${UNITS_AFTER}$`, 'i').exec(text);
  if (between) {
    const min = toNumber(between[1]!);
    const max = toNumber(between[2]!);
    return withUnits({ ...base, min, max }, between[3] ?? between[4]);
  }
  const titer = /^(<=|>=|<|>)?\s*(1\s*:\s*\d+)$/.exec(text);
  if (titer) return { ...base, titer: { op: (titer[1] ?? '=') as NonNullable<ParsedRange['titer']>['op'], denominator: titerDenominator(titer[2]!)! } };
  const bound = new RegExp(String.raw`^(<=|>=|<|>)(${NUMBER})${UNITS_AFTER}$`).exec(text);
  if (bound) {
    const n = toNumber(bound[2]!);
    const op = bound[1]!;
    const r: ParsedRange = op.startsWith('<')
      ? { ...base, max: n, maxInclusive: op === '<=' }
      : { ...base, min: n, minInclusive: op === '>=' };
    return withUnits(r, bound[3] ?? bound[4]);
  }
  if (isKnownQualitative(text) || /^(negative|non-?reactive|not detected|none detected|normal)\b/i.test(text)) {
    return { ...base, expected: text };
  }
  // No range at all, only the unit (the in/out-of-range layout prints "%" alone for a differential).
  if (looksLikeUnit(text)) return { ...base, text: '', units: text };
  return base;
}

/**
 * A leader between a name and its value: dots, spaced dots, underscores, hyphens, ellipses, or, as
 * OCR reads a dotted line off a fax, any run of four or more of those marks mixed ("—----«", "--=-~").
 * Digits break a run, so no range or value is ever taken for one.
 */
export const LEADER_RUN = String.raw`(?:\.{3,}|(?:\.\s){2,}\.?|_{3,}|-{3,}|…+|·{3,}|(?:·\s){2,}·?|(?:[-—–=~_.·…«»,'"\`]\s?){4,})`;

const LEADER_MARKS = /[-—–=~_.·…«»,'"`+]/g;

/**
 * Text that is a leader, or mostly its marks (OCR reads a faint dotted line as "-+---——c——-==--"),
 * or a run of marks with the letters OCR makes of the rest of the line ("---c-r-mmmmviim").
 */
export function isLeader(text: string): boolean {
  const t = text.replace(/\s+/g, '');
  if (t.length < 4 || /\d/.test(t)) return false;
  const marks = t.match(LEADER_MARKS)?.length ?? 0;
  return marks >= 0.6 * t.length || (marks >= 0.3 * t.length && /[-—–=~_.·…]{3}/.test(t));
}

/** Marks OCR makes of leader dots and dashes (a character class's contents, for the patterns below). */
const DOT_MARK_CHARS = ".,:;'`«»~_\\-—–=+";
const DOT_MARKS = new RegExp(`[${DOT_MARK_CHARS}]`, 'g');
const X_HEIGHT_WORD_START = new RegExp(`^[${DOT_MARK_CHARS}]*[a-z]`);
const LOWER_CASE_WORD = new RegExp(`^[${DOT_MARK_CHARS}]*[a-z][a-z${DOT_MARK_CHARS}]*$`);

/** Text of marks alone (".", "«", "..."): no letter or digit in it. */
export function isMarksOnly(text: string): boolean {
  return /^[^\p{L}\p{N}]+$/u.test(text);
}

/**
 * Words of the analytes' own names ("creatinine", "urea", "iron", "serum", "saturation",
 * "concentration"): x-height letters too, but printed in lower case they are the name, never dots
 * ("Your creatinine was 1.2", "Transferrin saturation ...... 28 %").
 */
const NAME_WORDS = new Set(
  ANALYTES.flatMap((a) => [a.name, a.display, ...a.aliases])
    .flatMap((n) => n.toLowerCase().split(/[^a-z]+/))
    .filter((w) => w.length >= 4),
);

/** Lowercase letters without ascenders or descenders: what OCR makes of dots on the baseline. */
export function isXHeightWord(text: string): boolean {
  const letters = text.replace(DOT_MARKS, '');
  return letters.length >= 2 && /^[acemnorsuvwxzi]+$/.test(letters) && X_HEIGHT_WORD_START.test(text) && !NAME_WORDS.has(letters);
}

/**
 * What OCR makes of a dotted leader when it reads the dots as letters: x-height letters (and the
 * odd t), long ("eetireieiieeeerereee", "sevanisvimans") or with a doubled letter, a mark or a run of
 * consonants no word has ("ccccceevs", "ween.", "cocci"). Only read so between a name and its value.
 */
export function isDotNoise(text: string): boolean {
  const letters = text.replace(DOT_MARKS, '');
  if (!LOWER_CASE_WORD.test(text)) return false;
  if (NAME_WORDS.has(letters)) return false;
  if (letters.length >= 8 && /^[acemnorsuvwxzit]+$/.test(letters)) return true;
  return letters.length >= 4 && isXHeightWord(text) && (/(.)\1/.test(text) || letters.length < text.length || /[^aeiou]{4}/.test(letters));
}

/** "%", "mg/dL", "x10E3/uL", "mL/min/1.73m2" - not "Not Estab." or "See Note". */
export function looksLikeUnit(text: string): boolean {
  if (text.length > 24 || /\s/.test(text.replace(/ \(calc\)$/i, '')) || /\d\s*[-–]\s*\d|^[<>]/.test(text)) return false;
  return /[%/]/.test(text) || /^(fL|pg|ratio|sec|s|mm\/hr?)$/i.test(text);
}

function withUnits(range: ParsedRange, units: string | undefined): ParsedRange {
  const u = units?.trim();
  return u ? { ...range, units: u } : range;
}
