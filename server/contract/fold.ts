/** Letters NFKD leaves whole (no base letter plus a mark): folded by hand so "Łukasz" reads as "lukasz", not "ukasz". */
const FOLD: Record<string, string> = { ł: 'l', ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ĸ: 'k', ŋ: 'n', ς: 'σ' };
const FOLDED = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');

/**
 * Lower-case text without its accents: "hämoglobin" → "hamoglobin", "gesamteiweiß" →
 * "gesamteiweiss", "análisis" → "analisis". Names, analyte names and column headers are compared
 * this way; letters of other scripts stay as they are.
 */
export function withoutAccents(lowerCase: string): string {
  return lowerCase
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(FOLDED, (c) => FOLD[c]!);
}
