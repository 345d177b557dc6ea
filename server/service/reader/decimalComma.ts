import type { PageText } from './types';

/**
 * Reports from most of Europe print a decimal comma ("Kalium 4,2 mmol/l", "3,5 - 5,1"). The
 * reader's numbers, and every consumer of the report's values, read a point, and a "4,2" read the
 * US way is 42. A report whose numbers use a decimal comma throughout has its numbers rewritten
 * with a point before anything is read; a report with points, or with both, is left as printed.
 *
 * Only a number standing alone is rewritten ("0,66", "<5,0", "0,60-1,20"); a comma inside a unit
 * ("ml/min/1,73m²") is the unit's, read by the unit matcher as it is.
 */

/** A number with a decimal comma and one or two decimals (three would be a US thousands group). */
const COMMA_DECIMAL = /(?<![\d.,])\d+,\d{1,2}(?![\d,])/g;
/** A number with a decimal point, not part of a date (12.01.2024) or a dotted version (4.5.35). */
const POINT_DECIMAL = /(?<![\d.,])\d+\.\d{1,2}(?![\d.,])/g;
/**
 * Numbers standing alone in an item, with one or two decimals: "4,2", "<5,0", "0,60-1,20". Three
 * digits after a comma ("4,200") are a US thousands group, never rewritten.
 */
const STANDALONE = /(?<![\w/.,])([<>≤≥]?=?\s?-?\d+),(\d{1,2})(?![\w,.\d])/g;
/** In a decimal-comma report a point groups thousands: "1.250" is 1250 (a date has two digits between its points). */
const POINT_THOUSANDS = /(?<![\w/.,])(\d{1,3})\.(\d{3})(?![\w,.\d])/g;

/** How many numbers with a comma decide the document (a lone "3,5" in an address decides nothing). */
const MIN_COMMAS = 3;

export function withDecimalPoints(pages: PageText[]): PageText[] {
  let commas = 0;
  let points = 0;
  for (const page of pages) {
    for (const item of page.items) {
      commas += item.text.match(COMMA_DECIMAL)?.length ?? 0;
      points += item.text.match(POINT_DECIMAL)?.length ?? 0;
    }
  }
  // OCR reads a comma for a point and a point for a comma: on a scan, a report with as many
  // commas as points prints commas (a US report read by OCR has hardly any).
  const ocr = pages.some((p) => p.source === 'ocr');
  if (commas < MIN_COMMAS || points * (ocr ? 1 : 4) > commas) return pages;
  const rewrite = <T extends { text: string }>(item: T): T => {
    const text = item.text.replace(POINT_THOUSANDS, '$1$2').replace(STANDALONE, '$1.$2');
    return text === item.text ? item : { ...item, text };
  };
  return pages.map((page) => ({ ...page, items: page.items.map(rewrite) }));
}
