/**
 * How often pages ask again by themselves. Each page keeps its own interval (the constants next to
 * it) and reads it through `pollMs`, scaled by a factor that is 1 in the dashboard: nothing in it
 * changes the factor. Page tests on the real stack make it smaller (`setPollScale`), so that waiting
 * for a poll does not cost them seconds of real time, and prove that polling stopped by watching
 * several of the shortened intervals go by.
 */
let scale = 1;

/** The interval to use for a page's `ms`. */
export const pollMs = (ms: number) => Math.max(1, Math.round(ms * scale));

/** Scales every poll interval by `factor` (0 < factor ≤ 1); no argument: back to the dashboard's own. */
export function setPollScale(factor = 1) {
  if (!(factor > 0 && factor <= 1)) throw new RangeError(`poll scale must be in (0, 1], not ${factor}`);
  scale = factor;
}
