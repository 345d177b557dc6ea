/**
 * Table rules on a scanned page: a grid's vertical lines are read as "|", "1" or "l" glued to the
 * cells beside them ("| Hgb", "142.5" for 42.5), its horizontal lines as rows of dashes. Erased
 * before OCR, the cells read as the words they hold.
 *
 * A rule is a run of ink much longer than any letter's stroke (several letters' height along it)
 * and thin across (a quarter of a letter at most). Letters never have such strokes at body size; a
 * filled band (a shaded header) is thick across and stays; where a rule crosses a letter, only the
 * rule's own pixels go.
 */

/** Grey level below which a pixel is ink: rules are often printed or scanned lighter than text. */
const INK = 215;
/** A vertical rule is at least this many letter heights long, a horizontal one this many. */
const MIN_VERTICAL = 2.5;
const MIN_HORIZONTAL = 4;
/** Across, a rule is at most this share of a letter's height thick (and 3 pixels at the least). */
const MAX_THICKNESS = 0.25;
/** Along this share of a rule's length at least, both sides of it are paper. */
const CLEAR_SHARE = 0.6;

/** Paints the page's rules white; `letter` is the page's letter height in pixels. Returns the pixels erased. */
export function eraseRules(grey: Uint8Array, w: number, h: number, letter: number): number {
  const thick = Math.max(3, Math.round(MAX_THICKNESS * letter));
  const erase = new Uint8Array(w * h);
  const ink = (i: number) => grey[i]! < INK;
  /** Ink pixels in a row from i, stepping by `step`, up to `limit` + 1 of them. */
  const extent = (i: number, step: number, limit: number, inBounds: (j: number) => boolean) => {
    let n = 0;
    for (let j = i; n <= limit && inBounds(j) && ink(j); j += step) n++;
    return n;
  };
  /**
   * A rule stands clear: along most of it there is paper on both sides, a little beyond its
   * thickness. A run along the foot of a line of blurred letters has the letters on one side.
   */
  const clearBeside = (from: number, to: number, at: (k: number, side: number) => number) => {
    const off = thick + 2;
    let clear = 0;
    for (let k = from; k < to; k++) if (at(k, -off) >= INK && at(k, off) >= INK) clear++;
    return clear >= CLEAR_SHARE * (to - from);
  };
  // Vertical runs.
  const minV = Math.round(MIN_VERTICAL * letter);
  for (let x = 0; x < w; x++) {
    let start = -1;
    for (let y = 0; y <= h; y++) {
      const on = y < h && ink(y * w + x);
      if (on && start < 0) start = y;
      if (!on && start >= 0) {
        if (y - start >= minV && clearBeside(start, y, (yy, side) => (x + side >= 0 && x + side < w ? grey[yy * w + x + side]! : 255))) {
          for (let yy = start; yy < y; yy++) {
            const i = yy * w + x;
            const row0 = yy * w;
            const across = extent(i, -1, thick, (j) => j >= row0) + extent(i, 1, thick, (j) => j < row0 + w) - 1;
            if (across <= thick) erase[i] = 1;
          }
        }
        start = -1;
      }
    }
  }
  // Horizontal runs.
  const minH = Math.round(MIN_HORIZONTAL * letter);
  for (let y = 0; y < h; y++) {
    let start = -1;
    for (let x = 0; x <= w; x++) {
      const on = x < w && ink(y * w + x);
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        if (x - start >= minH && clearBeside(start, x, (xx, side) => (y + side >= 0 && y + side < h ? grey[(y + side) * w + xx]! : 255))) {
          for (let xx = start; xx < x; xx++) {
            const i = y * w + xx;
            const across = extent(i, -w, thick, (j) => j >= 0) + extent(i, w, thick, (j) => j < w * h) - 1;
            if (across <= thick) erase[i] = 1;
          }
        }
        start = -1;
      }
    }
  }
  eraseCrossings(grey, erase, w, h, thick, ink);
  let n = 0;
  for (let i = 0; i < erase.length; i++) {
    if (erase[i]) {
      grey[i] = 255;
      n++;
    }
  }
  return n;
}

/**
 * Where two rules cross or meet (a grid's corners and T-joints), the ink is thick both ways, so
 * neither pass took it: a speck a few pixels square stayed at each corner of each cell, and OCR
 * read the one at a cell's top left as a quote mark glued to its value ("‘81", "\"376"). A pixel
 * with erased rule beside it along its row and along its column (a cross, a T or a corner) is
 * such a joint. A letter a rule runs through or touches keeps its stroke: beyond the rule, along
 * the stroke, is the letter's own ink or paper, not an erased rule. Then the rules' soft edges (pixels lighter than ink beside an erased
 * pixel), which left a ghost of the grid behind, go too.
 */
function eraseCrossings(grey: Uint8Array, erase: Uint8Array, w: number, h: number, thick: number, ink: (i: number) => boolean) {
  const reach = thick + 1;
  const erasedAlong = (i: number, step: number, inBounds: (j: number) => boolean) => {
    for (let k = 1, j = i + step; k <= reach && inBounds(j); k++, j += step) {
      if (erase[j]) return true;
      if (!ink(j)) return false;
    }
    return false;
  };
  const joints: number[] = [];
  // Only pixels with an erased pixel within reach on their row can be joints: found in two sweeps
  // of the row, so the letters far from any rule (most of the ink) cost no search.
  const nearAcross = new Uint8Array(w);
  for (let y = 1; y < h - 1; y++) {
    const row0 = y * w;
    nearAcross.fill(0);
    let any = false;
    for (let x = 0, last = -Infinity; x < w; x++) {
      if (erase[row0 + x]) last = x;
      if (x - last <= reach) {
        nearAcross[x] = 1;
        any = true;
      }
    }
    if (!any) continue;
    for (let x = w - 1, last = Infinity; x >= 0; x--) {
      if (erase[row0 + x]) last = x;
      if (last - x <= reach) nearAcross[x] = 1;
    }
    for (let x = 1; x < w - 1; x++) {
      const i = row0 + x;
      if (!nearAcross[x] || erase[i] || !ink(i)) continue;
      const across = erasedAlong(i, -1, (j) => j >= row0) || erasedAlong(i, 1, (j) => j < row0 + w);
      if (across && (erasedAlong(i, -w, (j) => j >= 0) || erasedAlong(i, w, (j) => j < w * h))) joints.push(i);
    }
  }
  for (const i of joints) erase[i] = 1;
  for (let i = w; i < w * h - w; i++) {
    if (erase[i] || ink(i) || grey[i] === 255) continue;
    if (erase[i - 1] || erase[i + 1] || erase[i - w] || erase[i + w]) grey[i] = 255;
  }
}
