import { normalizeUnit, type LoincResult } from './loinc';
import type { RawResult } from './tableReader';
import type { ResultReviewCode, ReviewReason } from './types';
import { decimalsOf, toNumber } from './values';

/**
 * Cross-checks between results a lab calculates from one another. A misread digit in one of
 * them (with any OCR confidence) breaks the arithmetic, so the whole group goes to review:
 * - the five-part differential sums to ~100%, and each absolute count is WBC x its percentage;
 * - MCHC = Hgb / Hct, MCH = Hgb / RBC, MCV = Hct / RBC;
 * - globulin = total protein - albumin, A/G = albumin / globulin, BUN/creatinine ratio;
 * - non-HDL = total cholesterol - HDL, cholesterol/HDL ratio;
 * - iron saturation = iron / TIBC, UIBC = TIBC - iron; eAG = 28.7 x A1c - 46.7.
 *
 * The tolerance is what rounding of the printed numbers can explain (each input's half last
 * digit, propagated through the formula, plus the output's), plus 2%: a lab computes from
 * unrounded measurements, so an exact match is not to be expected, a tenfold miss is.
 */

interface Term {
  value: number;
  /** Half a unit of the last printed digit. */
  slack: number;
  index: number;
}

interface Relation {
  name: string;
  inputs: string[];
  output: string;
  f: (x: number[]) => number;
  /** Extra absolute slack (cells a differential does not list). */
  extra?: number;
}

const SUM_100: Relation = {
  name: 'the differential percentages',
  inputs: ['770-8', '736-9', '5905-5', '713-8'],
  output: '706-2',
  // Basophils = 100 - the others: written as an output so the general check applies.
  f: ([n, l, m, e]) => 100 - n! - l! - m! - e!,
  extra: 1.5,
};

const RELATIONS: Relation[] = [
  SUM_100,
  { name: 'MCHC = hemoglobin / hematocrit', inputs: ['718-7', '4544-3'], output: '786-4', f: ([h, ht]) => (h! / ht!) * 100 },
  { name: 'MCH = hemoglobin / RBC', inputs: ['718-7', '789-8'], output: '785-6', f: ([h, r]) => (h! / r!) * 10 },
  { name: 'MCV = hematocrit / RBC', inputs: ['4544-3', '789-8'], output: '787-2', f: ([ht, r]) => (ht! / r!) * 10 },
  { name: 'globulin = total protein - albumin', inputs: ['2885-2', '1751-7'], output: '10834-0', f: ([tp, a]) => tp! - a! },
  { name: 'A/G = albumin / globulin', inputs: ['1751-7', '10834-0'], output: '1759-0', f: ([a, g]) => a! / g! },
  { name: 'BUN/creatinine ratio', inputs: ['3094-0', '2160-0'], output: '3097-3', f: ([b, c]) => b! / c! },
  { name: 'non-HDL = cholesterol - HDL', inputs: ['2093-3', '2085-9'], output: '43396-1', f: ([t, h]) => t! - h! },
  { name: 'cholesterol / HDL ratio', inputs: ['2093-3', '2085-9'], output: '9830-1', f: ([t, h]) => t! / h! },
  { name: 'iron saturation = iron / TIBC', inputs: ['2498-4', '2500-7'], output: '2502-3', f: ([fe, t]) => (fe! / t!) * 100 },
  { name: 'UIBC = TIBC - iron', inputs: ['2500-7', '2498-4'], output: '2501-5', f: ([t, fe]) => t! - fe! },
  { name: 'eAG = 28.7 x A1c - 46.7', inputs: ['4548-4'], output: '27353-2', f: ([a]) => 28.7 * a! - 46.7 },
  ...[
    ['770-8', '751-8'],
    ['736-9', '731-0'],
    ['5905-5', '742-7'],
    ['713-8', '711-2'],
    ['706-2', '704-7'],
  ].map(([pct, abs]): Relation => ({
    name: 'absolute count = WBC x percentage',
    inputs: ['6690-2', pct!],
    output: abs!,
    f: ([w, p]) => (w! * p!) / 100,
  })),
];

/**
 * The relations are written in US conventional units. SI reports print hemoglobin, MCHC and the
 * proteins in g/L (a tenth: g/dL) and the hematocrit in L/L (a hundredth: %); counts per litre are
 * the same numbers as per microlitre (10^9/L = 10^3/uL). A result in a unit the relations cannot
 * use (HbA1c in mmol/mol, eAG in mmol/L) takes no part.
 */
const G_PER_L = new Set(['718-7', '786-4', '2885-2', '1751-7', '10834-0']);

function conventionalFactor(code: string, unit: string): number | undefined {
  if (unit === 'g/l') return G_PER_L.has(code) ? 0.1 : undefined;
  if (unit === 'l/l') return code === '4544-3' ? 100 : undefined;
  if (unit === 'mmol/mol' || (code === '27353-2' && unit === 'mmol/l')) return undefined;
  return 1;
}

/**
 * A count per microlitre printed in whole hundreds ("600", "100" on an Indian report's absolute
 * counts) is rounded to them: its slack is that rounding's, not a unit's.
 */
function roundedTo(printed: string): number {
  const zeros = /^\d*[1-9](0{2,})$/.exec(printed)?.[1]?.length ?? 0;
  return 10 ** zeros;
}

export interface ForConsistency {
  raw: RawResult;
  loinc: LoincResult;
}

export function consistencyReasons(results: ForConsistency[]): ReviewReason<ResultReviewCode>[][] {
  const out: ReviewReason<ResultReviewCode>[][] = results.map(() => []);
  const terms = new Map<string, Term & { cellsPerUl: boolean }>();
  results.forEach(({ raw, loinc }, index) => {
    const analyte = loinc.analyte;
    // Only plain numbers in one of the analyte's own units take part (not "<0.5", not ambiguous).
    if (!analyte || !loinc.unitSpec || raw.value.kind !== 'numeric' || terms.has(analyte.code)) return;
    const value = toNumber(raw.value.value);
    if (value === undefined) return;
    const unit = normalizeUnit(raw.units);
    const factor = conventionalFactor(analyte.code, unit);
    if (factor === undefined) return;
    // Cells per microlitre in any of its spellings ("/uL", "/cumm", "cells/mm3"): the unit's canonical name says.
    const cellsPerUl = loinc.unitSpec.units[0] === 'cells/uL';
    terms.set(analyte.code, { value: value * factor, slack: 0.5 * 10 ** -decimalsOf(raw.value.value) * factor * roundedTo(raw.value.value), index, cellsPerUl });
  });

  for (const rel of RELATIONS) {
    const inputs = rel.inputs.map((c) => terms.get(c));
    const output = terms.get(rel.output);
    if (!output || inputs.some((t) => !t)) continue;
    const xs = inputs.map((t) => t!.value);
    // Absolute counts in cells/uL are 1000 x those in thousands/uL.
    const scale = rel.name.startsWith('absolute') && output.cellsPerUl ? 1000 : 1;
    const expected = rel.f(xs) * scale;
    if (!Number.isFinite(expected)) continue;
    let tolerance = output.slack + (rel.extra ?? 0) + 0.02 * Math.abs(expected);
    xs.forEach((x, i) => {
      const bumped = [...xs];
      bumped[i] = x + inputs[i]!.slack;
      tolerance += Math.abs(rel.f(bumped) * scale - expected);
    });
    if (Math.abs(output.value - expected) <= tolerance) continue;
    const shown = Math.abs(expected) >= 10 ? expected.toFixed(0) : expected.toPrecision(2);
    const message = `These results do not add up (${rel.name}: expected about ${shown}, printed ${output.value}); one of them may be misread.`;
    for (const t of [...inputs, output]) {
      if (!out[t!.index]!.some((r) => r.message === message)) out[t!.index]!.push({ code: 'inconsistent_results', message });
    }
  }
  return out;
}
