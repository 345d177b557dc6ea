/**
 * Word similarity for OCR-damaged labels and headers ("Rcsult" for Result, "Bith" for Birth):
 * the Dice coefficient of letter pairs. Names of tests use their own, padded variant (loinc.ts).
 */
export function similarWords(a: string, b: string, threshold = 0.6): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 2 || a.length < 2 || b.length < 2) return false;
  return dice(a, b) >= threshold;
}

/** The Dice coefficient of two strings' letter pairs: 1 the same pairs, 0 none shared. */
export function dice(a: string, b: string): number {
  const pairs = (s: string) => Array.from({ length: Math.max(0, s.length - 1) }, (_, i) => s.slice(i, i + 2));
  const pa = pairs(a);
  const pool = pairs(b);
  const total = pa.length + pool.length;
  let hit = 0;
  for (const p of pa) {
    const k = pool.indexOf(p);
    if (k >= 0) {
      hit++;
      pool.splice(k, 1);
    }
  }
  return total ? (2 * hit) / total : 0;
}

/** Each word of 4+ letters that nearly spells a vocabulary word becomes that word (lower case). */
export function snapWords(text: string, vocabulary: readonly string[], threshold = 0.6): string {
  return text.replace(/[A-Za-z]{4,}/g, (w) => {
    const lower = w.toLowerCase();
    return vocabulary.find((v) => v.length >= 4 && similarWords(lower, v, threshold)) ?? w;
  });
}
