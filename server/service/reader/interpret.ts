import type { RawResult } from './tableReader';
import type { Interpretation, LabReportResult, LabReportResultType } from './types';
import { BOOLEAN_VALUES, flagKind, parseRange, titerDenominator, toNumber, type FlagKind, type ParsedRange } from './values';

/**
 * A read row -> the wire result (without LOINC): type, units, reference bounds, interpretation
 * and the above/below flags. The printed flag decides the interpretation when there is one (it
 * is the lab's own judgement); otherwise the value is compared with the printed range. Whether
 * flag and range agree is review.ts's business, not this file's.
 */

export interface Interpreted {
  result: LabReportResult;
  range?: ParsedRange;
  /** The number in the value (also for "<0.5"), when there is one. */
  number?: number;
  comparator?: '<' | '>' | '<=' | '>=';
  flag?: FlagKind;
  /** The value compared with the printed range; undefined when either is missing or it cannot tell. */
  above?: boolean;
  below?: boolean;
}

/** `sex`: the patient's, for ranges printed per sex. */
export function interpret(raw: RawResult, sex?: 'female' | 'male' | 'other'): Interpreted {
  const range = raw.rangeText ? parseRange(raw.rangeText, sex) : undefined;
  const out: Interpreted = { result: { test_name: raw.testName, value: raw.value.value }, range };
  const r = out.result;
  r.type = typeOf(raw);
  if (raw.units) r.units = raw.units;
  if (range?.min !== undefined) r.min_reference_range = range.min;
  if (range?.max !== undefined) r.max_reference_range = range.max;
  if (raw.panel) r.source_panel_name = raw.panel;

  if (raw.value.kind === 'numeric' || raw.value.kind === 'censored') {
    out.number = toNumber(raw.value.value);
    const cmp = /^(<=|>=|<|>)/.exec(raw.value.value)?.[1];
    if (cmp) out.comparator = cmp as Interpreted['comparator'];
  }
  if (out.number !== undefined && range) {
    const { above, below } = compare(out.number, out.comparator, range);
    out.above = above;
    out.below = below;
    if (above !== undefined) r.is_above_max_range = above;
    if (below !== undefined) r.is_below_min_range = below;
  }
  const dilution = range?.titer && raw.value.kind === 'ratio' ? titerDenominator(raw.value.value) : undefined;
  if (dilution !== undefined && range?.titer) {
    // A titer against a titer reference: "1:640" is above "<1:40" (more dilutions still react).
    const { op, denominator } = range.titer;
    out.above = op === '<' ? dilution >= denominator : op === '<=' || op === '=' ? dilution > denominator : false;
    out.below = op === '>' ? dilution <= denominator : op === '>=' ? dilution < denominator : false;
    r.is_above_max_range = out.above;
    r.is_below_min_range = out.below;
  }
  out.flag = raw.flag ? flagKind(raw.flag) : undefined;
  r.interpretation = interpretation(raw, out);
  return out;
}

function typeOf(raw: RawResult): LabReportResultType {
  switch (raw.value.kind) {
    case 'qualitative':
      return BOOLEAN_VALUES.test(raw.value.value) ? 'boolean' : 'comment';
    case 'censored':
    case 'range':
      return 'range';
    case 'ratio':
      return 'ratio';
    case 'unparseable':
      return 'comment';
    case 'numeric':
      if (raw.units?.trim() === '%') return 'percentage';
      if (/\bratio\b/i.test(raw.testName) || /^ratio$/i.test(raw.units ?? '')) return 'ratio';
      return 'numeric';
  }
}

/**
 * Where a value lies relative to a range. A censored value ("<0.5") only decides when its bound
 * does: "<0.5" against 0.0-1.2 is not above, but whether it is below is unknown.
 */
export function compare(n: number, cmp: Interpreted['comparator'], range: ParsedRange): { above?: boolean; below?: boolean } {
  const { min, max, minInclusive, maxInclusive } = range;
  const out: { above?: boolean; below?: boolean } = {};
  if (!cmp) {
    if (max !== undefined) out.above = n > max || (n === max && !maxInclusive);
    if (min !== undefined) out.below = n < min || (n === min && !minInclusive);
    return out;
  }
  if (cmp.startsWith('<')) {
    // The true value is below n (or equal for <=).
    if (max !== undefined && n <= max) out.above = false;
    if (min !== undefined && (n < min || (n === min && cmp === '<'))) out.below = true;
    // Measured amounts are not negative: nothing is below a lower bound of 0.
    else if (min !== undefined && min <= 0) out.below = false;
  } else {
    if (min !== undefined && n >= min) out.below = false;
    if (max !== undefined && (n > max || (n === max && cmp === '>'))) out.above = true;
  }
  return out;
}

function interpretation(raw: RawResult, i: Interpreted): Interpretation {
  if (raw.criticalCalled) return 'critical';
  switch (i.flag) {
    case 'HH':
    case 'LL':
    case 'C':
      return 'critical';
    case 'H':
    case 'L':
    case 'A':
      return 'abnormal';
    case 'N':
      return 'normal';
    default:
      break;
  }
  if (raw.column === 'outRange') return 'abnormal';
  if (i.above || i.below) return 'abnormal';
  if (i.above === false && i.below === false) return 'normal';
  if (i.above === false && i.range?.min === undefined) return 'normal';
  if (i.below === false && i.range?.max === undefined) return 'normal';
  if (raw.value.kind === 'qualitative' && i.range?.expected) {
    return matchesExpected(raw.value.value, i.range.expected) ? 'normal' : 'abnormal';
  }
  return 'unknown';
}

/** "Non Reactive" = "Non-Reactive" = "nonreactive". */
export function sameWords(a: string, b: string): boolean {
  // Accents folded: "Ámbar" = "ambar", "trüb" = "trub".
  const n = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9+]/g, '');
  return n(a) === n(b);
}

/** A qualitative result against its printed expectation, which may list alternatives ("Negative/Trace"). */
export function matchesExpected(value: string, expected: string): boolean {
  return expected.split(/\s*(?:\/|\bor\b|,)\s*/i).some((alt) => sameWords(value, alt));
}
