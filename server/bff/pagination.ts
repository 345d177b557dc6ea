/**
 * Maps react-admin's `range=[first,last]` (ra-data-simple-rest) onto the three kinds of upstream
 * list pagination, and builds the headers ra-data-simple-rest reads back. Upstream-agnostic: each
 * resource adapter supplies a small `fetch` for its endpoint.
 */
import type { FastifyReply } from 'fastify';
import type { CursorCache } from './cursorCache';

/** Inclusive, 0-based record indices, as ra-data-simple-rest sends them. */
export type ListRange = readonly [first: number, last: number];

export interface OffsetUpstream<T> {
  kind: 'offset';
  maxLimit: number;
  fetch(offset: number, limit: number): Promise<{ items: T[]; total: number }>;
}

export interface PageUpstream<T> {
  kind: 'page';
  maxSize: number;
  /** `page` is 1-based. */
  fetch(page: number, size: number): Promise<{ items: T[]; total?: number }>;
}

export interface CursorUpstream<T> {
  kind: 'cursor';
  maxLimit: number;
  /**
   * `cursor` null means the first page. The upstream may return fewer items than `limit` before
   * the end, or ignore `limit` and return more (e.g. a fixed points-per-page); both are handled.
   */
  fetch(cursor: string | null, limit: number): Promise<{ items: T[]; nextCursor: string | null }>;
}

export type Upstream<T> = OffsetUpstream<T> | PageUpstream<T> | CursorUpstream<T>;

export interface RangeResult<T> {
  /** Exactly the records of the range; fewer at the end, none past it. */
  items: T[];
  /** Absent when the upstream cannot tell (cursor kind, some page endpoints). */
  total?: number;
  hasNextPage: boolean;
  upstreamCalls: number;
}

export const MAX_RANGE_SPAN = 1000;
/** Bounds the walk from the nearest cached cursor, so one request can't fan out unboundedly. */
export const DEFAULT_MAX_UPSTREAM_CALLS = 100;

export interface FetchRangeOptions {
  maxSpan?: number;
}

export interface CursorFetchRangeOptions extends FetchRangeOptions {
  cache: CursorCache;
  /** Scope of cached cursors, from `cursorCacheKey` (resource, team, filter, sort). The page size is added here. */
  cacheKey: string;
  maxUpstreamCalls?: number;
}

/** A request the BFF refuses; `statusCode` is what Fastify's error handler reads. */
export class PaginationError extends Error {
  override readonly name = 'PaginationError';
  constructor(
    message: string,
    readonly statusCode: number = 400,
    /** The query parameter at fault, for `{message, errors: {[param]: message}}` answers. */
    readonly param?: 'range' | 'sort' | 'filter',
  ) {
    super(message);
  }
}

export function validateRange(range: ListRange, maxSpan = MAX_RANGE_SPAN): void {
  const [first, last] = range;
  if (!isIndex(first) || !isIndex(last)) {
    throw new PaginationError('range must be two non-negative integers [first, last]', 400, 'range');
  }
  if (first > last) throw new PaginationError('range first must not be greater than last', 400, 'range');
  if (last - first + 1 > maxSpan) {
    throw new PaginationError(`range spans more than ${maxSpan} records`, 400, 'range');
  }
}

function isIndex(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function assertPositiveInt(value: number, name: string): void {
  // A misconfigured adapter is a programming error (500), not the client's fault.
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
}

export function fetchRange<T>(
  upstream: Upstream<T>,
  range: ListRange,
  options: CursorFetchRangeOptions,
): Promise<RangeResult<T>>;
export function fetchRange<T>(
  upstream: OffsetUpstream<T> | PageUpstream<T>,
  range: ListRange,
  options?: FetchRangeOptions,
): Promise<RangeResult<T>>;
export async function fetchRange<T>(
  upstream: Upstream<T>,
  range: ListRange,
  options: FetchRangeOptions | CursorFetchRangeOptions = {},
): Promise<RangeResult<T>> {
  validateRange(range, options.maxSpan);
  switch (upstream.kind) {
    case 'offset':
      return fetchOffset(upstream, range);
    case 'page':
      return fetchPages(upstream, range);
    case 'cursor':
      if (!('cache' in options)) throw new TypeError('cursor upstreams need options.cache and options.cacheKey');
      return fetchCursor(upstream, range, options);
  }
}

async function fetchOffset<T>(upstream: OffsetUpstream<T>, [first, last]: ListRange): Promise<RangeResult<T>> {
  assertPositiveInt(upstream.maxLimit, 'maxLimit');
  const items: T[] = [];
  let total = 0;
  let calls = 0;
  // Sequential rather than parallel so a short answer (the end of the list) stops the split early.
  for (let offset = first; offset <= last; ) {
    const limit = Math.min(upstream.maxLimit, last - offset + 1);
    const answer = await upstream.fetch(offset, limit);
    calls++;
    total = answer.total;
    const got = answer.items.slice(0, limit);
    items.push(...got);
    if (got.length < limit) break;
    offset += limit;
  }
  return { items, total, hasNextPage: last + 1 < total, upstreamCalls: calls };
}

/**
 * The page size that covers [first, last] with the fewest calls, then the fewest wasted records.
 * For a range aligned to its own length (what react-admin sends) that is the length itself.
 */
export function choosePageSize(first: number, last: number, maxSize: number): number {
  let best = { size: 1, calls: Infinity, fetched: Infinity };
  // No size beyond last + 1 can do better than last + 1 (a single first page).
  for (let size = 1; size <= Math.min(maxSize, last + 1); size++) {
    const calls = Math.floor(last / size) - Math.floor(first / size) + 1;
    const fetched = calls * size;
    if (calls < best.calls || (calls === best.calls && fetched < best.fetched)) best = { size, calls, fetched };
  }
  return best.size;
}

async function fetchPages<T>(upstream: PageUpstream<T>, [first, last]: ListRange): Promise<RangeResult<T>> {
  assertPositiveInt(upstream.maxSize, 'maxSize');
  const size = choosePageSize(first, last, upstream.maxSize);
  const firstPage = Math.floor(first / size); // 0-based here, 1-based on the wire
  const lastPage = Math.floor(last / size);
  const items: T[] = [];
  let total: number | undefined;
  let calls = 0;
  let lastPageFull = false;
  let moreAfterLast = false;
  for (let page = firstPage; page <= lastPage; page++) {
    if (total !== undefined && page * size >= total) break; // known to be past the end
    const answer = await upstream.fetch(page + 1, size);
    calls++;
    total = answer.total ?? total;
    const got = answer.items.slice(0, size);
    const pageStart = page * size;
    items.push(...got.slice(Math.max(0, first - pageStart), last - pageStart + 1));
    lastPageFull = got.length === size;
    moreAfterLast = pageStart + got.length > last + 1;
    if (!lastPageFull) break;
  }
  // Without a total, a full page that reaches the end of the range is taken to have a successor
  // (the upstream gives nothing better); react-admin then shows an empty next page at worst.
  const hasNextPage = total !== undefined ? last + 1 < total : moreAfterLast || lastPageFull;
  return { items, ...(total !== undefined && { total }), hasNextPage, upstreamCalls: calls };
}

/**
 * Where a page starts in the upstream's cursor sequence: the cursor to call with, and how many of
 * that call's items come before the page (non-zero only when the upstream returned more than asked).
 */
interface Position {
  cursor: string | null;
  skip: number;
}

const encodePosition = (p: Position): string => JSON.stringify([p.cursor, p.skip]);

function decodePosition(stored: string | null): Position | null {
  if (stored === null) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (Array.isArray(value) && value.length === 2) {
      const [cursor, skip] = value as unknown[];
      if ((cursor === null || typeof cursor === 'string') && isIndex(skip)) return { cursor, skip };
    }
  } catch {
    // Fall through: an unreadable entry (e.g. written by an older format) is just a miss.
  }
  return null;
}

/**
 * Cursor upstreams: pages of size = range length. The start of each page seen is cached, so page
 * N+1 after page N is one call; an uncached page is reached by walking from the nearest cached
 * earlier page, caching every page start passed on the way. An unaligned range reads the (at most
 * two) pages that cover it.
 */
async function fetchCursor<T>(
  upstream: CursorUpstream<T>,
  [first, last]: ListRange,
  options: CursorFetchRangeOptions,
): Promise<RangeResult<T>> {
  assertPositiveInt(upstream.maxLimit, 'maxLimit');
  const pageSize = last - first + 1;
  const maxCalls = options.maxUpstreamCalls ?? DEFAULT_MAX_UPSTREAM_CALLS;
  // Page size is part of the scope: page N of size 10 and of size 25 start at different records.
  const key = `${options.cacheKey}:${pageSize}`;
  const { cache } = options;
  const targetPage = Math.floor(first / pageSize); // 0-based; the cache uses 1-based numbers

  // The first page always starts at (null, 0); look back a bounded number of pages for a later start.
  let startPage = 0;
  let position: Position = { cursor: null, skip: 0 };
  for (let page = targetPage; page >= 1 && page > targetPage - maxCalls; page--) {
    const cached = decodePosition(await cache.get(key, page + 1));
    if (cached) {
      startPage = page;
      position = cached;
      break;
    }
  }

  const items: T[] = [];
  let index = startPage * pageSize; // global index of the record at `position`
  let calls = 0;
  let hasNextPage: boolean;
  for (;;) {
    if (calls >= maxCalls) {
      throw new PaginationError(
        `range starts too far past the pages read recently (over ${maxCalls} upstream calls); go back to the first page`,
        400,
        'range',
      );
    }
    // Ask only up to the next page boundary so boundaries fall on upstream cursors (skip 0).
    const toBoundary = (Math.floor(index / pageSize) + 1) * pageSize - index;
    const answer = await upstream.fetch(position.cursor, Math.min(upstream.maxLimit, position.skip + toBoundary));
    calls++;
    const batch = answer.items.slice(position.skip);
    const batchEnd = index + batch.length;

    // Cache each page start inside this batch, and the one right after it when there is a cursor.
    // Awaited per batch, so a later failing call still leaves the progress so far cached.
    const sets: Promise<void>[] = [];
    for (let start = (Math.floor(index / pageSize) + 1) * pageSize; start <= batchEnd; start += pageSize) {
      const at: Position | null =
        start < batchEnd
          ? { cursor: position.cursor, skip: position.skip + start - index }
          : answer.nextCursor !== null
            ? { cursor: answer.nextCursor, skip: 0 }
            : null;
      if (at) sets.push(cache.set(key, start / pageSize + 1, encodePosition(at)));
    }
    await Promise.all(sets);

    items.push(...batch.slice(Math.max(0, first - index), Math.max(0, last - index + 1)));
    index = batchEnd;
    if (answer.nextCursor === null) {
      hasNextPage = batchEnd > last + 1;
      break;
    }
    if (batchEnd > last) {
      hasNextPage = true;
      break;
    }
    position = { cursor: answer.nextCursor, skip: 0 };
  }
  // No total: the cursor kind only knows it at the very end, and a total that appears on the last
  // page alone would flip react-admin between partial and full pagination.
  return { items, hasNextPage, upstreamCalls: calls };
}

// The `Content-Range` value ra-data-simple-rest reads: it parseInt()s what follows the last `/` as
// the total. `*` (unknown total) parses as NaN there, which the dashboard's dataProvider wrapper
// replaces with `X-Has-Next-Page`. An empty page has no first-last, so it uses the RFC 9110
// unsatisfied-range form: `users */103` (past the end) or `users */0` (nothing at all).
export function contentRange(resource: string, start: number, itemCount: number, total?: number): string {
  const size = total === undefined ? '*' : String(total);
  if (itemCount === 0) return `${resource} */${size}`;
  return `${resource} ${start}-${start + itemCount - 1}/${size}`;
}

/** Answers a list: its records, with the headers ra-data-simple-rest reads. */
export function sendList<T>(reply: FastifyReply, resource: string, start: number, result: Pick<RangeResult<T>, 'items' | 'total' | 'hasNextPage'>) {
  return reply.headers(listHeaders(resource, start, result)).send(result.items);
}

/** A getMany's answer: every record found, none past them. */
export function sendAll<T>(reply: FastifyReply, resource: string, items: T[]) {
  return sendList(reply, resource, 0, { items, total: items.length, hasNextPage: false });
}

/** Headers for a list answer: always `Content-Range`; `X-Has-Next-Page` when the total is unknown. */
export function listHeaders(
  resource: string,
  start: number,
  result: Pick<RangeResult<unknown>, 'items' | 'total' | 'hasNextPage'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Range': contentRange(resource, start, result.items.length, result.total),
  };
  if (result.total === undefined) headers['X-Has-Next-Page'] = String(result.hasNextPage);
  return headers;
}

export type { ListParams, SortOrder } from './api';
