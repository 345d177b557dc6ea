/**
 * "3.6 to 6.0" as OCR reads it off a page: "3.6t06.0", "35to 50", "2.1510 2.60", "221029" (the word
 * "to" read as "t0", "10", "1o" or run into the digits). Such a range cell reads as no range at all,
 * so the result loses its range and its interpretation.
 *
 * The cell is split at such a "to" only when exactly one split gives two bounds printed alike (as
 * many decimals each), the low one below the high one, both plausible for the analyte in its unit.
 * The range is then read, and the result goes to review saying what the page gave: a repaired
 * reading is never passed as certain.
 */

import type { LoincResult } from './loinc';
import type { RawResult } from './tableReader';
import { parseRange } from './values';

/** What OCR makes of the word "to" between two numbers. */
const TO_WORD = /^(?:to|t0|tO|t|1o|1O|10|lo|l0|1)$/;
const BOUND = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

export function rangeWordRepaired(raw: RawResult, loinc: LoincResult): void {
  const printed = raw.rangeText;
  if (raw.source !== 'ocr' || !printed || loinc.ambiguous) return;
  const plausible = loinc.unitSpec?.plausible;
  if (!plausible) return;
  const parsed = parseRange(printed);
  if (parsed.min !== undefined || parsed.max !== undefined || parsed.expected || parsed.titer) return;
  const compact = printed.replace(/\s+/g, '');
  if (!/^[\d.]+[tTlo01Oo][\dtTloO.]*$/.test(compact)) return;
  const [lo, hi] = plausible;
  const fits = (n: number) => n >= lo && n <= hi;
  const readings = new Set<string>();
  for (let a = 1; a < compact.length; a++) {
    for (let b = a + 1; b < compact.length; b++) {
      const low = compact.slice(0, a);
      const word = compact.slice(a, b);
      const high = compact.slice(b);
      if (!BOUND.test(low) || !BOUND.test(high) || !TO_WORD.test(word)) continue;
      if (decimals(low) !== decimals(high)) continue;
      const min = Number(low);
      const max = Number(high);
      if (min < max && fits(min) && fits(max)) readings.add(`${low}-${high}`);
    }
  }
  if (readings.size !== 1) return;
  const range = [...readings][0]!;
  raw.rangeText = range;
  raw.problems = [
    ...raw.problems,
    {
      code: 'range_suspect',
      message: `The reference range was read as "${printed}"; it was taken as ${range.replace('-', ' to ')}, the word "to" misread: check the range against the page.`,
    },
  ];
}

function decimals(n: string): number {
  return n.includes('.') ? n.length - n.indexOf('.') - 1 : 0;
}
