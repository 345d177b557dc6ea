import { NO_NUL_MESSAGE } from '../../../contract';
import { Invalid } from '../errors';

/** PostgreSQL text cannot hold NUL: a filter carrying one is invalid input (422), never a store error. */
export function refuseNul(loc: (string | number)[], value: string | undefined): void {
  if (value !== undefined && value.includes('\u0000')) throw new Invalid(loc, NO_NUL_MESSAGE);
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Page-number pagination: `pages` is 0 when there is nothing to page through. */
export function pageCount(total: number, size: number): number {
  return Math.ceil(total / size);
}
