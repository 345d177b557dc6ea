/**
 * react-admin list parameters of `parser-jobs` → the service's `GET /lab_report/v1/parser/jobs`
 * query, and the cursor walk over it (shared with `webhook-deliveries`, the other cursor upstream).
 * Kept apart from the routes so the mapping can be read (and tested) on its own.
 */
import type { z } from 'zod';
import type { ListParams, ParserJobsList } from '../api';
import type { CursorCache } from '../cursorCache';
import { fetchRange, type CursorUpstream, type ListRange, type RangeResult } from '../pagination';
import type { ParsingJobsListQuery } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';

export type ParserJobsListParams = z.output<typeof ParserJobsList>;

export interface ParserJobsListPlan {
  /** The upstream query without `limit`/`next_cursor`; null when the filters can match nothing (no call needed). */
  query: Omit<ParsingJobsListQuery, 'limit' | 'next_cursor'> | null;
  /** For the audit trail: which filters were used (ids and enumerated values only). */
  auditDetail: Record<string, unknown>;
}

/**
 * The review queue (`queue: true`) reads oldest first unless a sort says otherwise; everything
 * else is newest first by default.
 */
export function planParserJobsList(params: ListParams<ParserJobsListParams['filter']>): ParserJobsListPlan {
  const { filter, sort } = params;
  const { status, needs_human_review: needsHumanReview, user_id: userId } = filter;
  let { stage, is_reviewed: isReviewed } = filter;
  const queue = filter.queue === true;

  // The queue is `stage=awaiting_review&is_reviewed=false`; a filter that contradicts it matches nothing.
  let contradiction = false;
  if (queue) {
    if ((stage !== undefined && stage !== 'awaiting_review') || isReviewed === true) contradiction = true;
    stage = 'awaiting_review';
    isReviewed = false;
  }
  const order: 'asc' | 'desc' = params.sortGiven ? (sort.order === 'ASC' ? 'asc' : 'desc') : queue ? 'asc' : 'desc';
  const auditDetail = {
    range: params.range,
    sort: { field: sort.field, order: order === 'asc' ? 'ASC' : 'DESC' },
    queue,
    status: status ?? null,
    stage: stage ?? null,
    needs_human_review: needsHumanReview ?? null,
    is_reviewed: isReviewed ?? null,
    user_id: userId ?? null,
  };
  if (contradiction) return { query: null, auditDetail };
  return {
    query: {
      status,
      stage,
      needs_human_review: needsHumanReview,
      is_reviewed: isReviewed,
      user_id: userId,
      order,
    },
    auditDetail,
  };
}

/** A cached cursor the upstream no longer takes (its signing key changed, or it belongs to another list). */
class StaleCursor extends Error {}

/**
 * A range of a cursor-paginated upstream, with each page's starting cursor kept in `cache` under
 * `cacheKey` (pagination.ts adds the page size), so page N costs one upstream call. `fetchPage`
 * gets `null` for the first page. When the upstream refuses a cached cursor (422), the range is
 * read again from the first page, overwriting the stale entries on the way.
 */
export async function fetchCursorRange<T>(
  opts: { cache: CursorCache; cacheKey: string; maxLimit: number },
  range: ListRange,
  fetchPage: (cursor: string | null, limit: number) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<RangeResult<T>> {
  const upstream = (guard: boolean): CursorUpstream<T> => ({
    kind: 'cursor',
    maxLimit: opts.maxLimit,
    fetch: async (cursor, limit) => {
      try {
        return await fetchPage(cursor, limit);
      } catch (err) {
        if (guard && cursor !== null && err instanceof UpstreamError && err.status === 422) throw new StaleCursor();
        throw err;
      }
    },
  });
  try {
    return await fetchRange(upstream(true), range, { cache: opts.cache, cacheKey: opts.cacheKey });
  } catch (err) {
    if (!(err instanceof StaleCursor)) throw err;
    // Read nothing from the cache this time; every page start found on the way replaces its entry.
    const writeOnly: CursorCache = { get: async () => null, set: (key, page, cursor) => opts.cache.set(key, page, cursor) };
    return fetchRange(upstream(false), range, { cache: writeOnly, cacheKey: opts.cacheKey });
  }
}
