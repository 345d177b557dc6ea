import { withoutAccents } from '../../contract/fold';
import { dice as pairSimilarity } from './fuzzy';
import { ANALYTES, type Analyte, type UnitSpec } from './loincTable';
import type { LoincMatch } from './types';

/**
 * Test name (+ units, panel, kind of value) -> LOINC candidates with a confidence.
 *
 * Confidence scale (documented because reviewers and the review rules read it):
 * - 0.99 the printed name is a known alias of exactly one analyte;
 * - 0.95 the name is an alias of several analytes and the units pick one (Neutrophils in % vs
 *   x10E3/uL, Lp(a) in mg/dL vs nmol/L);
 * - 0.90 the panel picks one (Glucose under "Urinalysis" is the urine test strip);
 * - 0.85 the kind of value picks one (a word result for an analyte reported both ways);
 * - <= 0.90 a fuzzy match (the similarity scaled by 0.9): an OCR-damaged or unusual name;
 * - 0.50 each when two or more analytes remain: ambiguous, a person must choose.
 */

export type MatchMethod = 'exact' | 'unit' | 'context' | 'value' | 'fuzzy' | 'none';

export interface LoincResult {
  /** Best first; empty when nothing matched. */
  matches: LoincMatch[];
  /** The chosen analyte; undefined when ambiguous or unmatched. */
  analyte?: Analyte;
  method: MatchMethod;
  ambiguous: boolean;
  /** The chosen analyte's spec for the printed unit, when the unit is one it is reported in. */
  unitSpec?: UnitSpec;
  /**
   * OCR only: the unit as the analyte spells it, when the read unit differs from it only by
   * characters OCR confuses ("ulU/mL" for uIU/mL, "cells/ul." for cells/uL).
   */
  unitCorrected?: string;
  /**
   * OCR only: the unit as read, when it was taken for `unitCorrected` by its look-alike letters
   * alone ("Kiut" for K/uL, "gidi" for g/dL). A guess, however likely: the result goes to review.
   */
  unitGuessedFrom?: string;
}

export interface MatchContext {
  units?: string;
  panel?: string;
  /** The value is a word (Negative, Yellow) rather than a number. */
  qualitativeValue?: boolean;
  /** The text was read by OCR: units are compared modulo OCR's usual confusions. */
  ocr?: boolean;
}

/** Fuzzy matches below this similarity are not matches at all. */
const FUZZY_MIN = 0.72;
/** Another analyte within this similarity of the best makes a fuzzy match ambiguous. */
const FUZZY_TIE = 0.06;

/** Lower case, `%` and `#` spelled out, punctuation to spaces: "Neutrophils (%)" = "Neutrophils %". */
export function normalizeName(name: string): string {
  // Umlauts and accents folded ("Hämoglobin" = "hamoglobin"), ß as ss.
  return withoutAccents(name.toLowerCase())
    .replace(/%/g, ' percent ')
    .replace(/#/g, ' number ')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9+]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Words that qualify a name without changing the analyte ("Glucose, Serum" is Glucose). */
const FILLERS = new Set(['serum', 'plasma', 's', 'level', 'quant', 'quantitative', 'result', 'test', 'w', 'with', 'rfl', 'rfx', 'wrfx', 'reflex', 'refl', 'calculated', 'calc']);
const withoutFillers = (norm: string) => norm.split(' ').filter((w) => !FILLERS.has(w)).join(' ');

/** Lower case, no spaces, µ as u: "x10E3/µL" = "x10e3/ul". */
export function normalizeUnit(units: string | undefined): string {
  // "ml/min/1,73m²" is "mL/min/1.73m2": a decimal comma and a superscript are the same unit.
  // "µUI/mL", "mUI/L": international units as Spanish, French and Italian labs abbreviate them (UI).
  return (units ?? '').toLowerCase().replace(/\s+/g, '').replace(/[µμ]/g, 'u').replace(/(\d),(\d)/g, '$1.$2').replace(/²/g, '2').replace(/³/g, '3')
    .replace(/ui(?=\/)/, 'iu');
}

const exactIndex = new Map<string, Set<Analyte>>();
const looseIndex = new Map<string, Set<Analyte>>();
const fuzzyAliases: { norm: string; grams: Map<string, number>; analyte: Analyte }[] = [];
for (const analyte of ANALYTES) {
  for (const alias of analyte.aliases) {
    const norm = normalizeName(alias);
    add(exactIndex, norm, analyte);
    add(looseIndex, withoutFillers(norm), analyte);
    fuzzyAliases.push({ norm, grams: bigrams(norm), analyte });
  }
}

function add(index: Map<string, Set<Analyte>>, key: string, analyte: Analyte) {
  const set = index.get(key) ?? new Set<Analyte>();
  set.add(analyte);
  index.set(key, set);
}

/** The spec of `units` among the analyte's units; unit-less analytes accept an empty unit. */
export function unitSpecFor(analyte: Analyte, units: string | undefined, ocr = false): UnitSpec | undefined {
  const norm = normalizeUnit(units);
  const exact = analyte.units.find((spec) => spec.units.some((u) => normalizeUnit(u) === norm));
  if (exact || !ocr || !norm) return exact;
  return ocrSpelling(analyte, units)?.spec;
}

/** I, l, 1, |, ! and a bracket look alike to OCR, so do O and 0; dots, commas, slashes and carets come and go. */
function ocrUnitKey(units: string | undefined): string {
  return (
    normalizeUnit(units)
      // The caret of "x10^9/L" is read as a 7, a *, a quote, a degree sign or not at all.
      .replace(/10[\^7*e"'°`]?(9|12|3|6)(?=\/|$)/, '10e$1')
      .replace(/[il1|![\]]/g, 'l')
      .replace(/o/g, '0')
      // µ read as p in µIU ("piu/mi"); pg and pmol are units of their own.
      .replace(/^p(?=[il]u\/)/, 'u')
      // No unit has a w: it is an m with its strokes run together ("wg/dL").
      .replace(/w/g, 'm')
      .replace(/[.,;:'`/]/g, '')
  );
}

function ocrSpelling(analyte: Analyte, units: string | undefined): { spec: UnitSpec; spelling: string } | undefined {
  const key = ocrUnitKey(units);
  if (!key) return undefined;
  for (const spec of analyte.units) {
    // Of the spellings OCR could have damaged into this one, the one that looks most like it ("x1079/L" is x10^9/L, not x10E9/L).
    const spellings = spec.units.filter((u) => u && ocrUnitKey(u) === key);
    // A caret's look-alikes ("x1079/L", "x10°9/L", 'x10"9/L') are a caret.
    const looks = (u: string) => pairSimilarity(u.toLowerCase(), units!.toLowerCase()) + (u.includes('^') && /107|10[*"'°`]/.test(units!) ? 0.01 : 0);
    const spelling = spellings.sort((a, b) => looks(b) - looks(a))[0];
    if (spelling) return { spec, spelling };
  }
  // A slash read as a letter ("mgidL", "KfuL", "cellsfuL" for mg/dL, K/uL, cells/uL): the analyte's
  // own unit with one look-alike of a slash put back, in a unit that has none.
  if (units && !units.includes('/')) {
    const slashed: { spec: UnitSpec; spelling: string }[] = [];
    // A leading slash too ("/pl" read as "Ip"), where the unit starts with one.
    for (let i = /^[Il|1]/.test(units) ? 0 : 1; i < units.length - 1; i++) {
      if (!SLASH_LOOKALIKES.test(units[i]!)) continue;
      const candidate = normalizeUnit(`${units.slice(0, i)}/${units.slice(i + 1)}`);
      for (const spec of analyte.units) {
        const spelling = spec.units.find((u) => u && normalizeUnit(u) === candidate);
        if (spelling && !slashed.some((s) => s.spelling === spelling)) slashed.push({ spec, spelling });
      }
    }
    // Only one way to read it: two units of the analyte within one letter of each other are left alone.
    if (slashed.length === 1) return slashed[0];
  }
  // A blurred percent sign read with a speck beside it ("9%", "%)"), for a test reported in percent.
  if (units && /^(?:[^\p{L}%\s]\s?%|%\s?[^\p{L}%\s])$/u.test(units.trim())) {
    const percent = analyte.units.find((spec) => spec.units.includes('%'));
    if (percent) return { spec: percent, spelling: '%' };
  }
  // One stray character beside one of the analyte's units: a doubled letter or a speck ("Xx10E3/uL",
  // "x10E6/ulL", "mg/dL."). Never a unit labs print (IU/mL is no damaged mIU/mL), and only when one
  // unit of the analyte is that close.
  if (key.length < 4 || KNOWN_UNITS.has(normalizeUnit(units))) return undefined;
  const near = analyte.units.flatMap((spec) => spec.units.filter((u) => u && oneStrayCharacter(ocrUnitKey(u), key)).map((spelling) => ({ spec, spelling })));
  return near.length && near.every((n) => n.spec === near[0]!.spec) ? near[0] : undefined;
}

/**
 * Pairs of characters (after ocrUnitKey, which already folds I/l/1/| and O/0) that OCR takes for
 * each other in units: a slash's stroke for t, f or j, an L for a t or an i, a g's loop for a or q,
 * u and n, h for b, µ for p.
 */
const LOOK_ALIKE_PAIRS = new Set(['lt', 'lf', 'lj', 'ga', 'gq', 'g9', 'un', 'bh', 'ec', 'lr', 'mn', 'uv', 'ly', 'pu']);
const lookAlike = (a: string, b: string) => LOOK_ALIKE_PAIRS.has(a + b) || LOOK_ALIKE_PAIRS.has(b + a);

/**
 * What it costs to read `unit` as `read` (both ocrUnitKey'd): a look-alike letter, a stroke lost
 * or made up (l; made up also t, f or j, a slash's look-alikes) or a mark that is no letter or
 * digit costs half, any other change one.
 */
export function lookAlikeCost(unit: string, read: string): number {
  const lost = (c: string) => (c === 'l' || !/[a-z0-9]/.test(c) ? 0.5 : 1);
  const madeUp = (c: string) => (/[ltfj]/.test(c) || !/[a-z0-9]/.test(c) ? 0.5 : 1);
  let prev = new Array<number>(read.length + 1).fill(0);
  for (let j = 1; j <= read.length; j++) prev[j] = prev[j - 1]! + madeUp(read[j - 1]!);
  for (let i = 1; i <= unit.length; i++) {
    const row = [prev[0]! + lost(unit[i - 1]!)];
    for (let j = 1; j <= read.length; j++) {
      const [a, b] = [unit[i - 1]!, read[j - 1]!];
      const swap = a === b ? 0 : lookAlike(a, b) ? 0.5 : 1;
      row[j] = Math.min(prev[j - 1]! + swap, prev[j]! + lost(a), row[j - 1]! + madeUp(b));
    }
    prev = row;
  }
  return prev[read.length]!;
}

/**
 * The analyte's own unit that an OCR'd unit most plausibly is, by look-alike letters alone ("Kiut"
 * and "Kut" for K/uL, "gidi" for g/dL, "mafdL" for mg/dL, "mmol FL" for mmol/L): at most a
 * letter and a half's worth of changes and at most a third of the unit, and no unit of another
 * spec of the analyte nearly as close. Never a unit labs print (that is what was printed), never a one-letter
 * unit (too little to tell).
 */
function lookAlikeUnit(analyte: Analyte, units: string | undefined): { spec: UnitSpec; spelling: string } | undefined {
  if (!units || KNOWN_UNITS.has(normalizeUnit(units))) return undefined;
  const read = ocrUnitKey(units);
  if (!read || !/[a-z]/.test(read)) return undefined;
  const scored = analyte.units
    .flatMap((spec) => spec.units.filter((u) => u && ocrUnitKey(u).length >= 2).map((spelling) => ({ spec, spelling, cost: lookAlikeCost(ocrUnitKey(spelling), read) })))
    // µ read as p: of two spellings as near, the one with the µ ("miles/pL" is miles/µL).
    .sort((a, b) => a.cost - b.cost || micro(b.spelling, units) - micro(a.spelling, units));
  const best = scored[0];
  // A two-letter unit ("U/L") only with one stroke or mark made up or lost ("u/iL").
  if (!best || best.cost > Math.min(1.5, ocrUnitKey(best.spelling).length / 3, ocrUnitKey(best.spelling).length > 2 ? 1.5 : 0.5)) return undefined;
  const rival = scored.find((s) => s.spec !== best.spec);
  if (rival && rival.cost < best.cost + 1) return undefined;
  return best;
}

const micro = (spelling: string, read: string) => (/[µμ]/.test(spelling) && /p/i.test(read) ? 1 : 0);

/** What OCR makes of a slash between letters. */
const SLASH_LOOKALIKES = /[fijlt1|!I(]/;

const KNOWN_UNITS = new Set(ANALYTES.flatMap((a) => a.units.flatMap((spec) => spec.units.map(normalizeUnit))));

/**
 * `read` is `unit` with one character added that OCR makes up: a repeat of its neighbour, or not a
 * letter or digit; in a long unit (mL/min/1.73m2) any letter, since no other unit is one letter away.
 */
function oneStrayCharacter(unit: string, read: string): boolean {
  if (read.length !== unit.length + 1) return false;
  let i = 0;
  while (i < unit.length && unit[i] === read[i]) i++;
  if (read.slice(i + 1) !== unit.slice(i)) return false;
  const extra = read[i]!;
  return !/[a-z0-9]/i.test(extra) || extra === read[i - 1] || extra === read[i + 1] || (unit.length >= 8 && /[a-z]/i.test(extra));
}

export function acceptsNoUnit(analyte: Analyte): boolean {
  return analyte.units.length === 0 || analyte.results !== 'quantitative' || analyte.units.some((s) => s.units.includes(''));
}

/** The analyte a LOINC code is (its own code, or the code of one of its units' properties). */
export function analyteOfCode(code: string): Analyte | undefined {
  return ANALYTES.find((a) => a.code === code || a.units.some((u) => u.loinc?.code === code));
}

/**
 * Codes labs print for a table analyte's variant the table does not list as its own row (the
 * fasting glucose terms): their long names, for a code read from a LOINC column.
 */
export const PRINTED_ONLY_CODES: Readonly<Record<string, string>> = {
  '14771-0': 'Fasting glucose [Moles/volume] in Serum or Plasma',
  '1558-6': 'Fasting glucose [Mass/volume] in Serum or Plasma',
};

export function matchLoinc(testName: string, ctx: MatchContext = {}): LoincResult {
  const norm = normalizeName(testName);
  if (!norm) return { matches: [], method: 'none', ambiguous: false };
  // Some layouts print the performing lab's code after the name ("Glucose 01").
  const forms = [norm, norm.replace(/ \d{2}$/, '')];
  for (const form of forms) {
    const hit = exactIndex.get(form) ?? looseIndex.get(withoutFillers(form));
    if (hit) return decide([...hit], ctx, 'exact', 0.99);
  }
  const byParts = partsAgree(testName);
  if (byParts) return decide(byParts, ctx, 'exact', 0.95);
  // OCR takes a 1 for an l and a 0 for an o ("HbAlc", "CO2" as "C02" the other way): a name that
  // is an analyte's own with one such letter read back is that analyte, as surely as a fuzzy match.
  if (ctx.ocr) {
    for (const variant of digitLookalikes(norm)) {
      const hit = exactIndex.get(variant);
      if (hit) return decide([...hit], ctx, 'fuzzy', 0.9);
    }
  }
  return fuzzy(norm, ctx);
}

/**
 * A name printed as two names of one test: "Sodium (Na+)", "Blood Urea Nitrogen (BUN)", "PCV /
 * Haematocrit", "LDL Cholesterol, Calculated". Each part (outside and inside the parentheses, either
 * side of a spaced slash or a comma) must be a known name or a qualifier word, and the known names
 * must share an analyte: "Bilirubin (Direct)" is not total bilirubin, "C-Reactive Protein
 * (hs-CRP)" names two tests and stays a fuzzy match (sent to review).
 */
/** Words a part of such a name may hold besides the fillers: how the test is done, not what it measures. */
const PART_QUALIFIERS = new Set(['4th', 'fourth', 'gen', 'generation', 'automated', 'auto']);
function partsAgree(testName: string): Analyte[] | undefined {
  const parts = testName.replace(/\(([^()]*)\)/g, ' / $1 / ').split(/\s+\/\s+|\s*,\s*/).map(normalizeName).filter(Boolean);
  if (parts.length < 2) return undefined;
  let shared: Set<Analyte> | undefined;
  for (const part of parts) {
    const hit = exactIndex.get(part) ?? looseIndex.get(withoutFillers(part));
    if (!hit) {
      if (part.split(' ').every((w) => FILLERS.has(w) || PART_QUALIFIERS.has(w))) continue;
      return undefined;
    }
    shared = shared ? new Set([...shared].filter((a) => hit.has(a))) : new Set(hit);
  }
  return shared?.size ? [...shared] : undefined;
}

/** The name with one l/i read as 1, or one o as 0, or the other way round: one change at a time. */
function digitLookalikes(norm: string): string[] {
  const swaps: Record<string, string> = { l: '1', i: '1', o: '0', '1': 'l', '0': 'o' };
  const out: string[] = [];
  for (let k = 0; k < norm.length; k++) {
    const to = swaps[norm[k]!];
    if (to) out.push(norm.slice(0, k) + to + norm.slice(k + 1));
  }
  return out;
}

/** Several candidates with the same name score: units, then panel, then the kind of value decide. */
function decide(candidates: Analyte[], ctx: MatchContext, method: MatchMethod, confidence: number): LoincResult {
  if (candidates.length === 1) return chosen(candidates[0]!, ctx, method, confidence);
  // A missing unit decides nothing (it may simply not have been read).
  const unit = normalizeUnit(ctx.units);
  const byUnit = unit ? candidates.filter((a) => unitSpecFor(a, ctx.units, ctx.ocr)) : [];
  if (byUnit.length === 1) return chosen(byUnit[0]!, ctx, method === 'fuzzy' ? method : 'unit', Math.min(confidence, 0.95));
  const pool = byUnit.length ? byUnit : candidates;
  if (ctx.panel) {
    const urinePanel = /urin|\bua\b|dipstick|microscop|sediment|orina|\bego\b|harn/i.test(ctx.panel);
    const bySpecimen = pool.filter((a) => a.specimen === (urinePanel ? 'urine' : 'blood'));
    // A word result ("NEGATIVE", "1+") is never an analyte only ever measured: the value decides
    // then, not the panel (an OCR-misread "URINALYSIS" heading leaves urine protein under the chemistry).
    const wordForMeasured = ctx.qualitativeValue && bySpecimen[0]?.results === 'quantitative';
    if (bySpecimen.length === 1 && !wordForMeasured) return chosen(bySpecimen[0]!, ctx, method === 'fuzzy' ? method : 'context', Math.min(confidence, 0.9));
  }
  if (ctx.qualitativeValue !== undefined) {
    const byKind = pool.filter((a) => (ctx.qualitativeValue ? a.results !== 'quantitative' : a.results !== 'qualitative'));
    if (byKind.length === 1) return chosen(byKind[0]!, ctx, method === 'fuzzy' ? method : 'value', Math.min(confidence, 0.85));
  }
  return {
    matches: pool.map((a) => toMatch(a, 0.5)),
    method,
    ambiguous: true,
  };
}

function chosen(analyte: Analyte, ctx: MatchContext, method: MatchMethod, confidence: number): LoincResult {
  const result: LoincResult = { matches: [toMatch(analyte, confidence)], analyte, method, ambiguous: false };
  const exact = unitSpecFor(analyte, ctx.units);
  if (exact) result.unitSpec = exact;
  else if (ctx.ocr) {
    const fixed = ocrSpelling(analyte, ctx.units);
    if (fixed) {
      result.unitSpec = fixed.spec;
      result.unitCorrected = fixed.spelling;
    } else {
      const guessed = lookAlikeUnit(analyte, ctx.units);
      if (guessed) {
        result.unitSpec = guessed.spec;
        result.unitCorrected = guessed.spelling;
        result.unitGuessedFrom = ctx.units;
      }
    }
  }
  // Printed in a unit of another property (mmol/L for glucose), the result is that property's code.
  const property = result.unitSpec?.loinc;
  if (property) result.matches = [{ ...result.matches[0]!, loinc_code: property.code, loinc_name: property.name }];
  return result;
}

function toMatch(analyte: Analyte, confidence: number): LoincMatch {
  return {
    loinc_code: analyte.code,
    loinc_name: analyte.name,
    display_name: analyte.display,
    aliases: analyte.aliases,
    confidence_score: Math.round(confidence * 100) / 100,
  };
}

function fuzzy(norm: string, ctx: MatchContext): LoincResult {
  // Two-letter abbreviations (K, Na, PT) are too short to be compared by shape.
  if (norm.replace(/ /g, '').length < 4) return { matches: [], method: 'none', ambiguous: false };
  const grams = bigrams(norm);
  const best = new Map<Analyte, number>();
  for (const alias of fuzzyAliases) {
    const s = dice(grams, alias.grams);
    if (s > (best.get(alias.analyte) ?? 0)) best.set(alias.analyte, s);
  }
  const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked[0];
  if (!top || top[1] < FUZZY_MIN) return { matches: [], method: 'none', ambiguous: false };
  const close = ranked.filter(([, s]) => s >= top[1] - FUZZY_TIE).map(([a]) => a);
  return decide(close, ctx, 'fuzzy', top[1] * 0.9);
}

function bigrams(text: string): Map<string, number> {
  const padded = ` ${text} `;
  const grams = new Map<string, number>();
  for (let i = 0; i < padded.length - 1; i++) {
    const g = padded.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Sørensen–Dice similarity of two bigram multisets, 0..1. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let overlap = 0;
  let total = 0;
  for (const [g, n] of a) {
    overlap += Math.min(n, b.get(g) ?? 0);
    total += n;
  }
  for (const n of b.values()) total += n;
  return total ? (2 * overlap) / total : 0;
}
