/**
 * react-admin's list protocol (ra-data-simple-rest) as the BFF reads it: `range`, `sort` and
 * `filter` arrive as JSON strings in the query, and each resource declares which filters and
 * sorts it takes. One builder for all, so every list refuses the same things the same way: a
 * malformed list request is a 400 naming the parameter (`filter.status`), never silently ignored
 * (an ignored filter would show the wrong records as if filtered).
 *
 * Plain zod, no server imports: the dashboard imports these too.
 */
import { z } from 'zod';

export const SortOrder = z.enum(['ASC', 'DESC']);
export type SortOrder = z.infer<typeof SortOrder>;

/** Records one list request may ask for. */
export const MAX_RANGE_SPAN = 1000;
export const DEFAULT_PER_PAGE = 25;
/** A getMany (`filter.id`) reads at most this many records. */
export const MAX_GET_MANY = 100;

/**
 * A record id in a path. Ids are the service's business (uuids today, anything tomorrow), but no
 * id is `.`, `..` or carries a slash: a path value can never climb to another upstream endpoint.
 */
export const RecordId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_:-][A-Za-z0-9_.:-]*$/, 'is not a record id');
export const IdParams = z.object({ id: RecordId });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

const blank = (v: unknown) => v === undefined || v === null || v === '';
/** Absent, null and '' all mean "no filter" (react-admin clears inputs to ''). */
const optional = <S extends z.ZodType>(inner: S) => z.preprocess((v) => (blank(v) ? undefined : v), inner.optional());

/** Filter values: each refuses what it cannot read, with a message naming what it wants. */
export const filter = {
  /** A trimmed non-empty string. */
  string: (max = 200) =>
    optional(
      z
        .string({ error: 'must be a string' })
        .trim()
        .max(max, `must be at most ${max} characters`)
        .transform((s) => s || undefined),
    ),
  /** One string or a list of strings (react-admin multi-selects send arrays), without repeats. */
  stringList: (maxItems = 50, maxLength = 100) =>
    optional(
      z
        .union([z.string(), z.array(z.unknown())], { error: 'must be a string or a list of strings' })
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .pipe(
          z
            .array(z.string({ error: 'must be a string or a list of strings' }).min(1, 'must not hold an empty value').max(maxLength, `must hold values of at most ${maxLength} characters`))
            .max(maxItems, `must be at most ${maxItems} values`),
        )
        .transform((list) => (list.length ? [...new Set(list)] : undefined)),
    ),
  /** true/false, or the strings "true"/"false". */
  boolean: () =>
    optional(
      z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')], { error: 'must be true or false' }),
    ),
  /** A positive integer (or its decimal string), or a list of them. */
  intList: (maxItems = 50) =>
    optional(
      z
        .union([z.unknown().array(), z.unknown()])
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .pipe(
          z
            .array(
              z.union([z.number().int().positive().max(2 ** 31), z.string().regex(/^\d{1,9}$/).transform(Number)]),
              { error: 'must be a positive integer or a list of them' },
            )
            .max(maxItems, `must be at most ${maxItems} values`),
        )
        .transform((list) => (list.length ? [...new Set(list)] : undefined)),
    ),
  /** A uuid, lower-cased. */
  uuid: () =>
    optional(
      z
        .string({ error: 'must be a uuid' })
        .trim()
        .regex(UUID, 'must be a uuid')
        .transform((s) => s.toLowerCase()),
    ),
  /**
   * A range bound: an instant (ISO with Z or an offset) passes as is; a bare date is a whole UTC
   * day (its first millisecond for a start, its last for an end, so both bounds are inclusive).
   */
  dateBound: (end: 'start' | 'end') =>
    optional(
      z.string({ error: DATE_BOUND_MESSAGE }).transform((raw, ctx) => {
        const iso = dateBound(raw.trim(), end);
        if (iso === null) {
          ctx.addIssue({ code: 'custom', message: DATE_BOUND_MESSAGE });
          return z.NEVER;
        }
        return iso;
      }),
    ),
};

const DATE_BOUND_MESSAGE = 'must be a date (YYYY-MM-DD) or a date-time with Z or an offset';
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function dateBound(raw: string, end: 'start' | 'end'): string | null {
  if (raw.length > 40) return null;
  if (DATE_ONLY.test(raw)) {
    const iso = `${raw}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`;
    if (Number.isNaN(Date.parse(iso)) || new Date(iso).toISOString().slice(0, 10) !== raw) return null;
    return iso;
  }
  if (!DATE_TIME.test(raw) || Number.isNaN(Date.parse(raw))) return null;
  return new Date(raw).toISOString();
}

/** `filter.id`, as react-admin's getMany sends it: a list of ids. */
const GetManyIds = z
  .array(z.union([z.string().max(100), z.number().int()]), { error: 'must be a list of ids' })
  .max(500, 'must be at most 500 ids')
  .transform((ids) => [...new Set(ids.map(String))]);

/** The orders each sortable field may be listed in (both, unless the upstream has one order only). */
export type SortSpec = Record<string, readonly SortOrder[]>;
const BOTH = ['ASC', 'DESC'] as const satisfies readonly SortOrder[];
export const sortable = (...fields: string[]): SortSpec => Object.fromEntries(fields.map((f) => [f, BOTH]));

export interface ListSpec<F extends z.ZodRawShape> {
  filter: F;
  sort: SortSpec;
  defaultSort: { field: string; order: SortOrder };
  perPage?: number;
}

/** A JSON-encoded query parameter, given once. */
function jsonParam<S extends z.ZodType>(shape: S, expected: string) {
  return z
    .string({ error: `must be given once, as ${expected}` })
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `is not valid JSON; expected ${expected}` });
        return z.NEVER;
      }
    })
    .pipe(shape);
}

const Range = z
  .tuple([z.number().int().min(0), z.number().int().min(0)], { error: 'must be two non-negative integers [first, last]' })
  .refine(([first, last]) => first <= last, 'first must not be greater than last')
  .refine(([first, last]) => last - first + 1 <= MAX_RANGE_SPAN, `must not span more than ${MAX_RANGE_SPAN} records`);

/**
 * The query of one resource's list: `{range, sort, filter, sortGiven}` once parsed. `filter.id`
 * (getMany) is accepted by every list; any other filter the resource does not declare is refused.
 */
export function listQuery<F extends z.ZodRawShape>(spec: ListSpec<F>) {
  const fields = Object.keys(spec.sort);
  const Sort = z
    .tuple([z.string().min(1), z.string().toUpperCase().pipe(SortOrder)], { error: 'must be a JSON array [field, "ASC" | "DESC"]' })
    .superRefine(([field, order], ctx) => {
      const orders = spec.sort[field];
      if (!orders) ctx.addIssue({ code: 'custom', message: `can be one of ${fields.join(', ')} (not ${field})` });
      else if (!orders.includes(order)) ctx.addIssue({ code: 'custom', message: `${field} can be listed ${orders.join(' or ')} only (not ${order})` });
    });
  const Filter = z.strictObject({ ...spec.filter, id: GetManyIds.optional() }, { error: (issue) => (issue.code === 'unrecognized_keys' ? `has no filter ${issue.keys.join(', ')}` : 'must be a JSON object') });
  const perPage = spec.perPage ?? DEFAULT_PER_PAGE;
  return z
    .object({
      range: jsonParam(Range, 'a JSON array [first, last], e.g. [0,24]')
        .optional()
        .describe(`JSON [first, last]: 0-based, inclusive, at most ${MAX_RANGE_SPAN} records; default [0, ${perPage - 1}]`),
      sort: jsonParam(Sort, 'a JSON array [field, "ASC" | "DESC"]')
        .optional()
        .describe(
          `JSON [field, order]: ${Object.entries(spec.sort)
            .map(([field, orders]) => `${field} (${orders.join('/')})`)
            .join(', ')}; default ["${spec.defaultSort.field}", "${spec.defaultSort.order}"]`,
        ),
      filter: jsonParam(Filter, 'a JSON object')
        .optional()
        .describe(`JSON object of ${[...Object.keys(spec.filter), 'id'].join(', ')} (id: a list of ids, react-admin's getMany); any other key is refused`),
    })
    .transform((q) => ({
      range: (q.range ?? [0, perPage - 1]) as readonly [number, number],
      sort: q.sort ? { field: q.sort[0], order: q.sort[1] } : spec.defaultSort,
      filter: (q.filter ?? {}) as z.output<typeof Filter>,
      /** Whether the request named a sort (some lists read a different default per filter). */
      sortGiven: q.sort !== undefined,
    }));
}

export type ListParams<F = Record<string, unknown>> = {
  range: readonly [number, number];
  sort: { field: string; order: SortOrder };
  filter: F;
  sortGiven: boolean;
};

/** What a list answers besides its records (`Content-Range`, `X-Has-Next-Page`), for the OpenAPI document. */
export const LIST_HEADERS = {
  'content-range': z.string().describe('`<resource> <first>-<last>/<total or *>`, or `<resource> */<total or *>` for an empty page'),
  'x-has-next-page': z.enum(['true', 'false']).optional().describe('Sent when the total is unknown (`*`): whether a next page exists'),
};
