/** Lists the service answers whole (lab accounts, labs, lab tests, webhook endpoints) are sliced here. */

/** Slices a fully-known list for a range, as the ra-data-simple-rest list answer needs it. */
export function sliceRange<T>(all: T[], [first, last]: readonly [number, number]) {
  return { items: all.slice(first, last + 1), total: all.length, hasNextPage: last + 1 < all.length };
}
