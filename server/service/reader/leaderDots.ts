/**
 * Leader dots ("Sodium ........ 146") and dashes ("- - - -") on a scanned page: the engine reads
 * a run of them as letters ("veer ween.", "CESS or Hs Fest"), which splits a result's line into
 * nonsense words and sometimes a number ("20" in front of the value). Erased before OCR, the
 * line reads "Sodium   146", as a table row does.
 *
 * A leader is a run of at least MIN_RUN marks of one shape (dots, or dashes wider than tall), each
 * smaller than a third of the page's letters, on one level, evenly spaced. A decimal point, a full
 * stop, an ellipsis or the dots of a word's i's are never five evenly spaced marks in a line, and
 * dust that happens to be is erased as the dust it is.
 */

/** More small marks than this on a page: a halftone or texture, left alone. */
const MAX_MARKS = 15_000;
/** Fewer marks than this in a run stay (an ellipsis, "1..3"). */
const MIN_RUN = 5;
/** A mark's height is at most this share of the page's letter height. */
const MAX_HEIGHT = 0.35;
/** A dash's width is at most this share of the letter height (a longer one is a rule). */
const MAX_WIDTH = 0.8;
/** Neighbouring marks' centres are this many letter heights apart at the least and at the most. */
const MIN_STEP = 0.15;
const MAX_STEP = 2.5;
/** Marks of one run differ in level (centre) by at most this share of a letter. */
const MAX_DRIFT = 0.2;
/** Each step stays within this share of the run's mean step (the spacing of a leader is even). */
const STEP_TOLERANCE = 0.35;
/** A piece of a broken run lies at most this many letter heights from the run. */
const NEAR_PIECE = 20;

interface Mark {
  blot: number;
  cx: number;
  cy: number;
  height: number;
  dash: boolean;
}

interface Run {
  marks: Mark[];
  stepSum: number;
}

/** Where a leader was erased (pixels of the prepared page): OCR is told it was there. */
export interface LeaderBand {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Dots or dashes, as the reader would have seen them in a text layer. */
  dash: boolean;
}

/**
 * Finds leader runs among the page's blots (`blots` holds six numbers per blot: first pixel, area,
 * x0, y0, x1, y1), paints them white in `grey` and returns where they were.
 */
export function eraseLeaders(grey: Uint8Array, width: number, blots: Int32Array, count: number, letter: number): LeaderBand[] {
  const marks: Mark[] = [];
  for (let b = 0; b < count; b++) {
    const [x0, y0, x1, y1] = [blots[6 * b + 2]!, blots[6 * b + 3]!, blots[6 * b + 4]!, blots[6 * b + 5]!];
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (h > MAX_HEIGHT * letter || w > MAX_WIDTH * letter) continue;
    const dash = w > 1.8 * h;
    // A dot is about as wide as tall; anything else small (a comma, an accent) is no leader mark.
    if (!dash && w > 1.6 * h) continue;
    marks.push({ blot: b, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, height: h, dash });
  }
  // A page of tens of thousands of small marks is a halftone or a photo's texture, not leaders.
  if (marks.length > MAX_MARKS) return [];
  marks.sort((a, b) => a.cx - b.cx);
  const grid = new BlotGrid(blots, count, letter);

  const open: Run[] = [];
  const done: Run[] = [];
  for (const mark of marks) {
    let best: Run | undefined;
    let bestDrift = Infinity;
    for (let r = open.length - 1; r >= 0; r--) {
      const run = open[r]!;
      const last = run.marks[run.marks.length - 1]!;
      const step = mark.cx - last.cx;
      if (step > MAX_STEP * letter) {
        // Marks come left to right: a run this far behind can take no more.
        done.push(run);
        open.splice(r, 1);
        continue;
      }
      const drift = Math.abs(mark.cy - last.cy);
      if (mark.dash !== last.dash || drift > MAX_DRIFT * letter || step < MIN_STEP * letter) continue;
      if (mark.height > 2 * last.height + 1 || last.height > 2 * mark.height + 1) continue;
      if (run.marks.length >= 2) {
        const mean = run.stepSum / (run.marks.length - 1);
        if (Math.abs(step - mean) > STEP_TOLERANCE * mean) continue;
      }
      // Between two marks of a leader there is paper; between the pieces of a broken letter in a
      // typewriter font, which also come at an even pitch, there is the rest of the letter.
      if (!grid.clear(last, mark)) continue;
      if (drift < bestDrift) [best, bestDrift] = [run, drift];
    }
    if (best) {
      best.stepSum += mark.cx - best.marks[best.marks.length - 1]!.cx;
      best.marks.push(mark);
    } else open.push({ marks: [mark], stepSum: 0 });
  }
  done.push(...open);

  // Letter-sized blots: nothing of a leader lies across one.
  const letterBetween = (x0: number, x1: number, y0: number, y1: number) => grid.letterWithin(x0, x1, y0, y1, MAX_HEIGHT * letter);
  // A run broken by a lost or merged mark leaves pieces: a piece of two or more marks spaced as a
  // leader on the same level as a leader of the line, with no letter between them, is erased with
  // it (the bottom serifs of a broken typewriter "il" are two such marks, inside a word).
  const leaders = done.filter((run) => run.marks.length >= MIN_RUN);
  // Leaders by line (a letter's height per line), so a piece is compared with its own line's only.
  const lineOf = (y: number) => Math.round(y / letter);
  const byLine = new Map<number, Run[]>();
  for (const l of leaders) byLine.set(lineOf(level(l)), [...(byLine.get(lineOf(level(l))) ?? []), l]);
  const near = (y: number) => [-1, 0, 1].flatMap((d) => byLine.get(lineOf(y) + d) ?? []);
  const pieces = done.filter(
    (run) =>
      run.marks.length >= 2 &&
      run.marks.length < MIN_RUN &&
      near(level(run)).some((l) => {
      const [x0, x1, y0, y1] = gapBetween(l, run, blots);
      return continues(l, run, letter) && !letterBetween(x0, x1, y0 - letter, y1);
    }),
  );
  // Pieces of one leader become one band: the marks between them were too faint to count, and
  // the engine reads those as letters.
  const bands: LeaderBand[] = [];
  const bandsByLine = new Map<number, LeaderBand[]>();
  for (const run of [...leaders, ...pieces].sort((a, b) => a.marks[0]!.cx - b.marks[0]!.cx)) {
    const box = boxOf(run, blots);
    const line = lineOf(level(run));
    const joined = [-1, 0, 1].flatMap((d) => bandsByLine.get(line + d) ?? []).find(
      (band) =>
        band.dash === run.marks[0]!.dash &&
        Math.abs((band.y0 + band.y1) / 2 - level(run)) <= MAX_DRIFT * letter &&
        box.x0 - band.x1 <= NEAR_PIECE * letter &&
        !letterBetween(band.x1, box.x0, Math.min(band.y0, box.y0) - letter, Math.max(band.y1, box.y1)),
    );
    if (joined) Object.assign(joined, { x1: Math.max(joined.x1, box.x1), y0: Math.min(joined.y0, box.y0), y1: Math.max(joined.y1, box.y1) });
    else {
      const band = { ...box, dash: run.marks[0]!.dash };
      bands.push(band);
      bandsByLine.set(line, [...(bandsByLine.get(line) ?? []), band]);
    }
  }
  for (const { x0, y0, x1, y1 } of bands) {
    // The band, a pixel more each way: the marks, their anti-aliased rims and the faint marks
    // between them that were too light to count as ink.
    for (let y = Math.max(0, y0 - 1); y <= y1 + 1 && (y + 1) * width <= grey.length; y++) {
      for (let x = Math.max(0, x0 - 1); x <= Math.min(width - 1, x1 + 1); x++) grey[y * width + x] = 255;
    }
  }
  return bands;
}

/** The page's blots in cells a letter wide, to ask what lies between two marks. */
class BlotGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly columns: number;

  constructor(
    private readonly blots: Int32Array,
    count: number,
    private readonly size: number,
  ) {
    this.size = Math.max(4, Math.round(size));
    this.columns = 1 << 16;
    for (let b = 0; b < count; b++) {
      // A pixel or two of grain between two dots changes nothing; a page's frame or a table's
      // grid (one blot, its box the whole table) is no ink between two marks, and would fill every cell.
      if (blots[6 * b + 1]! < 3) continue;
      const [x0, y0, x1, y1] = this.box(b);
      if (y1 - y0 > 3 * this.size || x1 - x0 > 6 * this.size) continue;
      for (let gy = Math.floor(y0 / this.size); gy <= Math.floor(y1 / this.size); gy++) {
        for (let gx = Math.floor(x0 / this.size); gx <= Math.floor(x1 / this.size); gx++) {
          const key = gy * this.columns + gx;
          const list = this.cells.get(key);
          if (list) list.push(b);
          else this.cells.set(key, [b]);
        }
      }
    }
  }

  private box(b: number) {
    return [this.blots[6 * b + 2]!, this.blots[6 * b + 3]!, this.blots[6 * b + 4]!, this.blots[6 * b + 5]!] as const;
  }

  /** Whether a blot taller than `minHeight` is centred between x0 and x1 and reaches into y0..y1. */
  letterWithin(x0: number, x1: number, y0: number, y1: number, minHeight: number): boolean {
    for (let gy = Math.floor(y0 / this.size); gy <= Math.floor(y1 / this.size); gy++) {
      for (let gx = Math.floor(x0 / this.size); gx <= Math.floor(x1 / this.size); gx++) {
        for (const b of this.cells.get(gy * this.columns + gx) ?? []) {
          const [bx0, by0, bx1, by1] = this.box(b);
          const cx = (bx0 + bx1) / 2;
          if (by1 - by0 + 1 > minHeight && cx > x0 && cx < x1 && by0 <= y1 && by1 >= y0) return true;
        }
      }
    }
    return false;
  }

  /** No other blot between the two marks, from a letter's height above them to a third below. */
  clear(left: Mark, right: Mark): boolean {
    const [lx1, rx0] = [this.box(left.blot)[2], this.box(right.blot)[0]];
    const level = (left.cy + right.cy) / 2;
    const [y0, y1] = [level - this.size, level + this.size / 3];
    for (let gy = Math.floor(y0 / this.size); gy <= Math.floor(y1 / this.size); gy++) {
      for (let gx = Math.floor(lx1 / this.size); gx <= Math.floor(rx0 / this.size); gx++) {
        for (const b of this.cells.get(gy * this.columns + gx) ?? []) {
          if (b === left.blot || b === right.blot) continue;
          const [bx0, by0, bx1, by1] = this.box(b);
          if (bx1 > lx1 && bx0 < rx0 && by1 >= y0 && by0 <= y1) return false;
        }
      }
    }
    return true;
  }
}

function boxOf(run: Run, blots: Int32Array) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { blot } of run.marks) {
    x0 = Math.min(x0, blots[6 * blot + 2]!);
    y0 = Math.min(y0, blots[6 * blot + 3]!);
    x1 = Math.max(x1, blots[6 * blot + 4]!);
    y1 = Math.max(y1, blots[6 * blot + 5]!);
  }
  return { x0, y0, x1, y1 };
}

/** The stretch between two runs of one line: x from one to the other, y over both. */
function gapBetween(a: Run, b: Run, blots: Int32Array): [number, number, number, number] {
  const [left, right] = a.marks[0]!.cx < b.marks[0]!.cx ? [boxOf(a, blots), boxOf(b, blots)] : [boxOf(b, blots), boxOf(a, blots)];
  return [left.x1, right.x0, Math.min(left.y0, right.y0), Math.max(left.y1, right.y1)];
}

const level = (run: Run) => run.marks[run.marks.length >> 1]!.cy;
const meanStep = (run: Run) => run.stepSum / Math.max(1, run.marks.length - 1);

/** Whether `piece` lies on `leader`'s line, near it and spaced like it. */
function continues(leader: Run, piece: Run, letter: number): boolean {
  if (piece.marks[0]!.dash !== leader.marks[0]!.dash) return false;
  if (Math.abs(level(piece) - level(leader)) > MAX_DRIFT * letter) return false;
  const step = meanStep(leader);
  if (Math.abs(meanStep(piece) - step) > STEP_TOLERANCE * step) return false;
  const gap = Math.max(piece.marks[0]!.cx - leader.marks[leader.marks.length - 1]!.cx, leader.marks[0]!.cx - piece.marks[piece.marks.length - 1]!.cx);
  return gap <= NEAR_PIECE * letter;
}
