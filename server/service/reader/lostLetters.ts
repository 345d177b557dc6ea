import type { GreyImage, OcrWord } from './decimalPoints';

/**
 * The "I" of "IU/L" that OCR swallows. Printed tight against the U, the I's stem is taken into
 * the U's box and the unit comes out as "U/L", a unit of its own. The box then holds three
 * upright strokes instead of the U's two: counted across its top third (where a U's two stems are
 * apart and nothing else is), three separate runs of ink, the first as narrow as a stem, mean an
 * I and a U.
 */
const UNIT_WITH_U = /^U\/(L|mL|l|ml)$/;

export function restoreLostI(word: OcrWord, image: GreyImage): string | undefined {
  if (!UNIT_WITH_U.test(word.text) || word.symbols[0]?.text !== 'U') return undefined;
  const { x0, y0, x1, y1 } = word.symbols[0].bbox;
  const h = y1 - y0;
  if (h < 8 || x0 < 0 || x1 >= image.width || y0 < 0 || y1 >= image.height) return undefined;
  const grey = (x: number, y: number) => image.data[y * image.width + x]!;
  const top: number[] = [];
  for (let x = x0; x <= x1; x++) {
    let darkest = 255;
    for (let y = y0; y < y0 + Math.round(h / 3); y++) darkest = Math.min(darkest, grey(x, y));
    top.push(darkest);
  }
  const paper = Math.max(...top);
  const ink = Math.min(...top);
  if (paper - ink < 60) return undefined;
  const runs: number[] = [];
  let run = 0;
  for (const v of [...top, paper]) {
    if (v <= (paper + ink) / 2) run++;
    else if (run) {
      runs.push(run);
      run = 0;
    }
  }
  if (runs.length !== 3 || runs[0]! > h / 2) return undefined;
  return `I${word.text}`;
}
