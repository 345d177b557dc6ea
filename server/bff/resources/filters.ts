/**
 * Reading react-admin `filter={...}` values. A filter the BFF cannot read is a 400 naming the
 * filter, never silently ignored (an ignored filter would show the wrong records as if filtered).
 */
import { BffError } from '../errors';

type Filter = Record<string, unknown>;

const bad = (key: string, expected: string) =>
  new BffError(400, `filter.${key} must be ${expected}`, { [`filter.${key}`]: `must be ${expected}` });

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A trimmed non-empty string, or undefined when absent/blank. */
export function stringFilter(filter: Filter, key: string, max = 200): string | undefined {
  const v = filter[key];
  if (blank(v)) return undefined;
  if (typeof v !== 'string') throw bad(key, 'a string');
  const s = v.trim();
  if (s.length > max) throw bad(key, `at most ${max} characters`);
  return s || undefined;
}

/** One string or a list of strings (react-admin multi-selects send arrays); undefined when absent or empty. */
export function stringListFilter(filter: Filter, key: string, maxItems = 50): string[] | undefined {
  const v = filter[key];
  if (blank(v)) return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0) return undefined;
  if (list.length > maxItems) throw bad(key, `at most ${maxItems} values`);
  if (!list.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 100)) throw bad(key, 'a string or a list of strings');
  return [...new Set(list as string[])];
}

/** true/false (or the strings "true"/"false"); undefined when absent. */
export function booleanFilter(filter: Filter, key: string): boolean | undefined {
  const v = filter[key];
  if (blank(v)) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw bad(key, 'true or false');
}

/** A positive integer (or its decimal string), or a list of them; undefined when absent. */
export function intListFilter(filter: Filter, key: string, maxItems = 50): number[] | undefined {
  const v = filter[key];
  if (blank(v)) return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0) return undefined;
  if (list.length > maxItems) throw bad(key, `at most ${maxItems} values`);
  const out = list.map((x) => (typeof x === 'string' && /^\d{1,9}$/.test(x) ? Number(x) : x));
  if (!out.every((x) => typeof x === 'number' && Number.isSafeInteger(x) && x > 0)) throw bad(key, 'a positive integer or a list of them');
  return [...new Set(out as number[])];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/** A uuid, or undefined when absent. */
export function uuidFilter(filter: Filter, key: string): string | undefined {
  const s = stringFilter(filter, key, 100);
  if (s === undefined) return undefined;
  if (!isUuid(s)) throw bad(key, 'a uuid');
  return s.toLowerCase();
}

/** `filter.id` as react-admin's getMany sends it (a list of ids); undefined when it is not a getMany. */
export function idsFilter(filter: Filter): string[] | undefined {
  const ids = filter.id;
  if (!Array.isArray(ids)) return undefined;
  return [...new Set(ids.map(String))].slice(0, 500);
}

/** Slices a fully-known list for a range, as the ra-data-simple-rest list answer needs it. */
export function sliceRange<T>(all: T[], [first, last]: readonly [number, number]) {
  return { items: all.slice(first, last + 1), total: all.length, hasNextPage: last + 1 < all.length };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A range bound: an instant (ISO with Z or an offset) passes as is; a bare date is a whole UTC day
 * (its first millisecond for `start_date`, its last for `end_date`, so both bounds are inclusive).
 */
export function dateBoundFilter(filter: Filter, key: 'start_date' | 'end_date'): string | undefined {
  const raw = stringFilter(filter, key, 40);
  if (raw === undefined) return undefined;
  const problem = () => bad(key, 'a date (YYYY-MM-DD) or a date-time with Z or an offset');
  if (DATE_ONLY.test(raw)) {
    const iso = `${raw}T${key === 'start_date' ? '00:00:00.000' : '23:59:59.999'}Z`;
    if (Number.isNaN(Date.parse(iso)) || new Date(iso).toISOString().slice(0, 10) !== raw) throw problem();
    return iso;
  }
  if (!DATE_TIME.test(raw) || Number.isNaN(Date.parse(raw))) throw problem();
  return new Date(raw).toISOString();
}
