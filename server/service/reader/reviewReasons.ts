import type { Interpreted } from './interpret';
import { matchesExpected } from './interpret';
import { acceptsNoUnit, normalizeUnit, type LoincResult } from './loinc';
import type { UnitSpec } from './loincTable';
import type { RawResult } from './tableReader';
import type { ReportReviewCode, ResultReviewCode, ReviewReason } from './types';
import { decimalsOf } from './values';

/**
 * The doubt rules. A wrong value that nobody is asked to look at can reach a patient, so every
 * way a machine reading can go wrong that leaves a trace gets a rule here:
 * - the reading itself was unsure (OCR confidence), or the cell did not parse;
 * - the lab's own flag disagrees with its own range (flag H but the value is in range: the value
 *   or the flag was misread), or a value outside the range carries no flag;
 * - the magnitude is impossible for the analyte in its unit, or a value the lab prints with
 *   decimals has none (OCR drops decimal points: potassium 4.5 read as 45);
 * - the test could not be identified with certainty (no, several or a fuzzy LOINC match);
 * - the unit is not one the analyte is reported in, or is missing.
 * Rules only add reasons; none removes a result. Messages never contain patient data.
 */

/**
 * OCR confidence (0..100, the lower of word and character confidence) below which a value is
 * not trusted. Calibrated on the corpus (bench/parser.ts, ~470 OCR'd values): the misreads that
 * no other rule catches (a unit losing a letter) scored 50-58; a third of the correct values
 * score below 85 too. 85 keeps a wide margin; the price is that a third of OCR'd values go to
 * review on confidence alone.
 */
export const OCR_VALUE_CONFIDENCE_MIN = 85;
/** Names are checked against LOINC too, so they may be a little less certain than values. */
export const OCR_NAME_CONFIDENCE_MIN = 70;
/** LOINC confidence below which a person confirms the test (every fuzzy match falls below it). */
export const LOINC_CONFIDENCE_MIN = 0.9;

export interface ResultForReview {
  raw: RawResult;
  interpreted: Interpreted;
  loinc: LoincResult;
}

export function reviewResult({ raw, interpreted, loinc }: ResultForReview): ReviewReason<ResultReviewCode>[] {
  const reasons: ReviewReason<ResultReviewCode>[] = [...raw.problems];
  const add = (code: ResultReviewCode, message: string) => reasons.push({ code, message });
  const value = raw.value;

  // The reading itself.
  if (raw.source === 'ocr') {
    if (raw.valueConfidence !== undefined && raw.valueConfidence < OCR_VALUE_CONFIDENCE_MIN) {
      add('low_ocr_confidence', `The value was read from an image with low confidence (${Math.round(raw.valueConfidence)}%).`);
    } else if (raw.nameConfidence !== undefined && raw.nameConfidence < OCR_NAME_CONFIDENCE_MIN) {
      add('low_ocr_confidence', `The test name was read from an image with low confidence (${Math.round(raw.nameConfidence)}%).`);
    }
  }
  if (raw.decimalRestored) {
    const range = raw.rangeText ? `, the range ${raw.rangeText}` : '';
    add('decimal_suspect', `A decimal point in this row was printed too faintly for OCR and was read from the image's shading (the value reads ${value.value}${range}): check the row against the page.`);
  }
  if (value.kind === 'unparseable') add('unparseable_value', `The value "${value.value}" is not a number or a known result word.`);

  flagRules(raw, interpreted, add);
  magnitudeRules(raw, interpreted, loinc, add);
  loincRules(loinc, add);
  unitRules(raw, loinc, add);
  return dedupe(reasons);
}

type Add = (code: ResultReviewCode, message: string) => void;

function flagRules(raw: RawResult, i: Interpreted, add: Add) {
  const { flag, above, below } = i;
  const within = above === false && below === false;
  const high = flag === 'H' || flag === 'HH';
  const low = flag === 'L' || flag === 'LL';
  if (high && above === false) add('flag_inconsistent', `Flagged ${raw.flag} but the value is not above the reference range.`);
  else if (low && below === false) add('flag_inconsistent', `Flagged ${raw.flag} but the value is not below the reference range.`);
  else if ((flag === 'A' || flag === 'C') && within) add('flag_inconsistent', `Flagged ${raw.flag} but the value is within the reference range.`);
  else if (flag === 'N' && (above || below)) add('flag_inconsistent', 'Flagged normal but the value is outside the reference range.');
  if (raw.criticalCalled && within) add('flag_inconsistent', 'A critical-value call follows this result, but the value is within the reference range.');

  const unflagged = !flag || flag === 'N';
  // A table prints a flag beside every value out of range, so a missing one hints at a misread
  // value. A letter's sentence often just gives value and range ("we found 20 mmol/L; the expected
  // range is 22–29"); from a text layer (no OCR) both are as printed and nothing is in doubt.
  const proseAsPrinted = raw.column === 'narrative' && raw.source === 'text' && !flag;
  if (unflagged && (above || below) && raw.column !== 'outRange' && !proseAsPrinted) {
    add('unflagged_out_of_range', `The value is ${above ? 'above' : 'below'} the reference range but carries no flag.`);
  }
  if (raw.column === 'inRange' && flag && flag !== 'N') add('flag_inconsistent', `Printed in the in-range column with flag ${raw.flag}.`);
  if (raw.column === 'outRange' && within) add('flag_inconsistent', 'Printed in the out-of-range column but the value is within the reference range.');

  // Qualitative results against a qualitative reference ("Negative").
  if (raw.value.kind === 'qualitative' && i.range?.expected) {
    const matches = matchesExpected(raw.value.value, i.range.expected);
    if (!matches && unflagged && raw.column !== 'outRange') {
      add('unflagged_out_of_range', `The result "${raw.value.value}" differs from the expected "${i.range.expected}" but carries no flag.`);
    }
    if (matches && flag && flag !== 'N') add('flag_inconsistent', `Flagged ${raw.flag} but the result matches the expected "${i.range.expected}".`);
  }

  const { min, max } = i.range ?? {};
  if (min !== undefined && max !== undefined && min > max) add('range_suspect', `The reference range ${i.range!.text} runs backwards.`);
}

function magnitudeRules(raw: RawResult, i: Interpreted, loinc: LoincResult, add: Add) {
  const n = i.number;
  if (n === undefined) return;
  const analyte = loinc.analyte;
  const specs: UnitSpec[] = loinc.unitSpec ? [loinc.unitSpec] : (analyte?.units ?? []);
  const plausible = specs.map((s) => s.plausible).filter((p): p is [number, number] => !!p);
  if (analyte && plausible.length && !plausible.some(([lo, hi]) => n >= lo && n <= hi)) {
    add('implausible_value', `${raw.value.value} is not a plausible ${analyte.display} value${raw.units ? ` in ${raw.units}` : ''}.`);
  }
  // Plausibility of the range itself: a misread range would make every other check lie.
  if (analyte && loinc.unitSpec?.plausible && i.range) {
    const [lo, hi] = loinc.unitSpec.plausible;
    const bad = [i.range.min, i.range.max].some((b) => b !== undefined && b !== 0 && (b < lo / 2 || b > hi * 2));
    if (bad) add('range_suspect', `The reference range ${i.range.text} is not plausible for ${analyte.display}.`);
  }
  if (i.comparator || raw.value.kind !== 'numeric') return;
  const printed = decimalsOf(raw.value.value);
  const expected = loinc.unitSpec?.decimals;
  if (expected !== undefined && expected > 0 && printed === 0) {
    add('decimal_suspect', `${raw.value.value} has no decimals; ${analyte?.display ?? 'this test'} is normally printed with ${expected}.`);
    return;
  }
  // Also for tests outside the table: the range is printed with decimals, the value is not, and
  // the value only fits the range once a decimal point is put back.
  const range = i.range;
  // OCR drops decimal points, so there any value out of range that a point would bring in is in doubt.
  // A text layer's digits are as printed: only a value far out (ten times) is; one just over the top
  // of the range (bilirubin 22 against 1.7 - 21 umol/L) is a high result.
  const suspect = raw.source === 'ocr' ? !!(i.above || i.below) : range?.max !== undefined && n > 2 * range.max;
  if (range && printed === 0 && /\.\d/.test(range.text) && suspect) {
    const fits = [10, 100].some((f) => (range.min === undefined || n / f >= range.min) && (range.max === undefined || n / f <= range.max));
    if (fits) add('decimal_suspect', `${raw.value.value} is far outside the range ${range.text} but would fit it with a decimal point.`);
  }
}

function loincRules(loinc: LoincResult, add: Add) {
  if (loinc.ambiguous) {
    const names = loinc.matches.map((m) => `${m.display_name ?? m.loinc_name} (${m.loinc_code})`).join(', ');
    add('loinc_ambiguous', `The test name fits several analytes: ${names}.`);
  } else if (!loinc.matches.length) {
    add('loinc_missing', 'The test name did not match any known analyte.');
  } else if ((loinc.matches[0]?.confidence_score ?? 0) < LOINC_CONFIDENCE_MIN) {
    add('loinc_low_confidence', `The test name was matched to ${loinc.matches[0]!.display_name} only approximately.`);
  }
}

function unitRules(raw: RawResult, loinc: LoincResult, add: Add) {
  const analyte = loinc.analyte;
  if (!analyte) return;
  if (loinc.unitGuessedFrom !== undefined) {
    add('unexpected_unit', `The unit was read as "${loinc.unitGuessedFrom}" and taken for ${loinc.unitCorrected}, the nearest unit ${analyte.display} is reported in: check it against the page.`);
  }
  const unit = normalizeUnit(raw.units);
  const numeric = raw.value.kind === 'numeric' || raw.value.kind === 'censored';
  if (unit && !loinc.unitSpec && !(analyte.units.length === 0 && /^(ratio|\(calc\))$/.test(unit))) {
    add('unexpected_unit', `${raw.units} is not a unit ${analyte.display} is reported in.`);
  } else if (!unit && numeric && !acceptsNoUnit(analyte)) {
    add('missing_unit', `No unit was found for ${analyte.display}.`);
  }
  if (raw.value.kind === 'qualitative' && analyte.results === 'quantitative') {
    add('unparseable_value', `${analyte.display} is reported as a number, but the value is "${raw.value.value}".`);
  }
  if (raw.value.kind === 'ratio' && analyte.results === 'quantitative') {
    add('unparseable_value', `${raw.value.value} looks like a ratio, which ${analyte.display} is not (a misread decimal point?).`);
  }
  if (numeric && analyte.results === 'qualitative') {
    add('unexpected_unit', `${analyte.display} is a qualitative test, but the value is a number.`);
  }
}

function dedupe(reasons: ReviewReason<ResultReviewCode>[]): ReviewReason<ResultReviewCode>[] {
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = `${r.code}:${r.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface ReportFacts {
  resultCount: number;
  missingMetadata: string[];
  unreadRows: number;
  meanOcrConfidence: number | null;
}

/**
 * What identifies the patient on a report: without it nobody can tell whose results these are, so
 * a person checks. The first name is not among them (an initial or a missing first name still
 * compares by last name and birth date); the lab's name and the dates are useful but optional, and
 * their absence sends nothing to review.
 */
const IDENTITY_FIELDS = [
  ['patient_last_name', 'patient’s last name'],
  ['dob', 'date of birth'],
] as const;

const joinWords = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0] ?? '');

/** Mean page OCR confidence below which the whole scan is called poor. */
export const OCR_PAGE_CONFIDENCE_MIN = 75;

export function reviewReport(facts: ReportFacts): ReviewReason<ReportReviewCode>[] {
  const reasons: ReviewReason<ReportReviewCode>[] = [];
  if (facts.resultCount === 0) reasons.push({ code: 'no_results', message: 'No results were found in the report.' });
  const identity = IDENTITY_FIELDS.filter(([key]) => facts.missingMetadata.includes(key)).map(([, words]) => words);
  if (identity.length) {
    reasons.push({
      code: 'metadata_incomplete',
      message: `The ${joinWords(identity)} ${identity.length > 1 ? 'were' : 'was'} not found on the report: check that the report is this patient's and enter ${identity.length > 1 ? 'them' : 'it'}.`,
    });
  }
  if (facts.unreadRows > 0) {
    reasons.push({ code: 'unread_rows', message: `${facts.unreadRows} table row(s) held data that could not be read as a result.` });
  }
  if (facts.meanOcrConfidence !== null && facts.meanOcrConfidence < OCR_PAGE_CONFIDENCE_MIN) {
    reasons.push({ code: 'ocr_used_low_quality', message: `The scan was read with low overall confidence (${Math.round(facts.meanOcrConfidence)}%).` });
  }
  return reasons;
}
