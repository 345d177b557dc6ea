import { describe, expect, it } from 'vitest';
import simpleRestProvider from 'ra-data-simple-rest';
import { MemoryCursorCache, cursorCacheKey } from './cursorCache';
import type { CursorCache } from './cursorCache';
import {
  PaginationError,
  choosePageSize,
  contentRange,
  fetchRange,
  listHeaders,
  validateRange,
} from './pagination';
import type { CursorUpstream, ListRange, OffsetUpstream, PageUpstream } from './pagination';

interface Rec {
  id: number;
}

const TOTAL = 103;
const records: Rec[] = Array.from({ length: TOTAL }, (_, id) => ({ id }));
const slice = ([first, last]: ListRange, data = records) => data.slice(first, last + 1);
/** The ra-data-simple-rest ranges for every page of a list, plus one page past the end. */
const pagesOf = (perPage: number, count = TOTAL): ListRange[] =>
  Array.from({ length: Math.ceil(count / perPage) + 1 }, (_, i) => [i * perPage, (i + 1) * perPage - 1] as const);

function fakeOffset(maxLimit = 500, data = records) {
  const calls: Array<[offset: number, limit: number]> = [];
  const upstream: OffsetUpstream<Rec> = {
    kind: 'offset',
    maxLimit,
    async fetch(offset, limit) {
      calls.push([offset, limit]);
      if (limit > maxLimit) throw new Error(`limit ${limit} over ${maxLimit}`);
      return { items: data.slice(offset, offset + limit), total: data.length };
    },
  };
  return { upstream, calls };
}

function fakePage(maxSize = 100, withTotal = true, data = records) {
  const calls: Array<[page: number, size: number]> = [];
  const upstream: PageUpstream<Rec> = {
    kind: 'page',
    maxSize,
    async fetch(page, size) {
      calls.push([page, size]);
      if (size > maxSize || page < 1) throw new Error(`bad page ${page} size ${size}`);
      const items = data.slice((page - 1) * size, page * size);
      return withTotal ? { items, total: data.length } : { items };
    },
  };
  return { upstream, calls };
}

interface FakeCursorOptions {
  maxLimit?: number;
  data?: Rec[];
  /** Dataset name baked into cursors; a cursor from another dataset is refused (like a signed one). */
  scope?: string;
  /** Ignore `limit` and always answer this many (e.g. a fixed points-per-page upstream). */
  fixedPageSize?: number;
  /** Answer at most this many per call, with a next cursor, even when asked for more. */
  maxPerCall?: number;
  /** Hand out a next cursor even when the page ends exactly at the end of the data. */
  lazyEnd?: boolean;
}

function fakeCursor(options: FakeCursorOptions = {}) {
  const { maxLimit = 100, data = records, scope = 'ds', fixedPageSize, maxPerCall = Infinity } = options;
  const { lazyEnd = false } = options;
  const calls: Array<[cursor: string | null, limit: number]> = [];
  const upstream: CursorUpstream<Rec> = {
    kind: 'cursor',
    maxLimit,
    async fetch(cursor, limit) {
      calls.push([cursor, limit]);
      if (limit > maxLimit) throw new Error(`limit ${limit} over ${maxLimit}`);
      let start = 0;
      if (cursor !== null) {
        const match = /^(.+)@(\d+)$/.exec(cursor);
        if (!match || match[1] !== scope) throw new Error(`foreign cursor ${cursor}`);
        start = Number(match[2]);
      }
      const count = Math.min(fixedPageSize ?? limit, maxPerCall);
      const items = data.slice(start, start + count);
      const end = start + items.length;
      const more = end < data.length || (lazyEnd && items.length === count && count > 0);
      return { items, nextCursor: more ? `${scope}@${end}` : null };
    },
  };
  return { upstream, calls };
}

const key = cursorCacheKey({ resource: 'timeseries', team: 't1', filter: {}, sort: ['id', 'ASC'] });

describe('validateRange', () => {
  it.each<[string, ListRange]>([
    ['negative', [-1, 4]],
    ['fractional', [0.5, 4]],
    ['reversed', [5, 4]],
    ['too wide', [0, 1000]],
    ['NaN', [Number.NaN, 4]],
    ['unsafe', [2 ** 53, 2 ** 53]],
  ])('refuses a %s range with a 400 PaginationError', (_name, range) => {
    expect(() => validateRange(range)).toThrow(PaginationError);
    try {
      validateRange(range);
    } catch (error) {
      expect(error).toMatchObject({ statusCode: 400, param: 'range', name: 'PaginationError' });
    }
  });

  it('accepts a single record and the maximum span', () => {
    expect(() => validateRange([7, 7])).not.toThrow();
    expect(() => validateRange([0, 999])).not.toThrow();
  });

  it('is applied by fetchRange before any upstream call', async () => {
    const { upstream, calls } = fakeOffset();
    await expect(fetchRange(upstream, [10, 5])).rejects.toBeInstanceOf(PaginationError);
    expect(calls).toHaveLength(0);
  });
});

describe('offset upstream', () => {
  it.each([10, 25, 50, 100])('returns every aligned page of %i exactly, with one call each', async (perPage) => {
    for (const range of pagesOf(perPage)) {
      const { upstream, calls } = fakeOffset();
      const result = await fetchRange(upstream, range);
      expect(result.items).toEqual(slice(range));
      expect(result.total).toBe(TOTAL);
      expect(result.hasNextPage).toBe(range[1] + 1 < TOTAL);
      expect(result.upstreamCalls).toBe(1);
      expect(calls).toEqual([[range[0], perPage]]);
    }
  });

  it('returns the last partial page and an empty page past the end', async () => {
    const { upstream } = fakeOffset();
    const last = await fetchRange(upstream, [100, 124]);
    expect(last.items.map((r) => r.id)).toEqual([100, 101, 102]);
    expect(last.hasNextPage).toBe(false);
    expect(contentRange('users', 100, last.items.length, last.total)).toBe('users 100-102/103');

    const past = await fetchRange(upstream, [125, 149]);
    expect(past).toEqual({ items: [], total: TOTAL, hasNextPage: false, upstreamCalls: 1 });
    expect(listHeaders('users', 125, past)).toEqual({ 'Content-Range': 'users */103' });
  });

  it('splits a range wider than maxLimit into several calls', async () => {
    const { upstream, calls } = fakeOffset(10);
    const result = await fetchRange(upstream, [0, 24]);
    expect(result.items).toEqual(slice([0, 24]));
    expect(result.upstreamCalls).toBe(3);
    expect(calls).toEqual([
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
  });

  it('stops splitting at the end of the list', async () => {
    const { upstream, calls } = fakeOffset(10);
    const result = await fetchRange(upstream, [90, 139]);
    expect(result.items).toEqual(slice([90, 102]));
    expect(calls).toEqual([
      [90, 10],
      [100, 10],
    ]);
    expect(result.hasNextPage).toBe(false);
  });

  it('returns an unaligned range exactly', async () => {
    const { upstream, calls } = fakeOffset();
    const result = await fetchRange(upstream, [7, 19]);
    expect(result.items).toEqual(slice([7, 19]));
    expect(calls).toEqual([[7, 13]]);
  });
});

describe('page upstream', () => {
  it.each([10, 25, 50, 100])('returns every aligned page of %i with one call of that size', async (perPage) => {
    for (const range of pagesOf(perPage)) {
      const { upstream, calls } = fakePage();
      const result = await fetchRange(upstream, range);
      expect(result.items).toEqual(slice(range));
      expect(result.total).toBe(TOTAL);
      expect(result.hasNextPage).toBe(range[1] + 1 < TOTAL);
      expect(calls).toEqual([[range[0] / perPage + 1, perPage]]);
    }
  });

  it('returns the last partial page and an empty page past the end', async () => {
    const { upstream } = fakePage();
    const last = await fetchRange(upstream, [100, 124]);
    expect(last.items.map((r) => r.id)).toEqual([100, 101, 102]);
    expect(last.hasNextPage).toBe(false);
    const past = await fetchRange(upstream, [125, 149]);
    expect(past.items).toEqual([]);
    expect(listHeaders('orders', 125, past)).toEqual({ 'Content-Range': 'orders */103' });
  });

  it('covers an unaligned range with one larger page and slices it', async () => {
    const { upstream, calls } = fakePage();
    const result = await fetchRange(upstream, [10, 34]);
    expect(result.items).toEqual(slice([10, 34]));
    expect(calls).toEqual([[1, 35]]);
    expect(result.upstreamCalls).toBe(1);
  });

  it('respects maxSize, for aligned and unaligned ranges', async () => {
    const aligned = fakePage(20);
    const a = await fetchRange(aligned.upstream, [0, 49]);
    expect(a.items).toEqual(slice([0, 49]));
    expect(aligned.calls).toEqual([
      [1, 17],
      [2, 17],
      [3, 17],
    ]);

    const unaligned = fakePage(20);
    const u = await fetchRange(unaligned.upstream, [33, 71]);
    expect(u.items).toEqual(slice([33, 71]));
    expect(unaligned.calls.every(([, size]) => size <= 20)).toBe(true);
    expect(u.upstreamCalls).toBe(unaligned.calls.length);
  });

  it('skips pages known to be past the total', async () => {
    const { upstream, calls } = fakePage(10);
    const result = await fetchRange(upstream, [90, 139]);
    expect(result.items).toEqual(slice([90, 102]));
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('without a total, reports hasNextPage from full pages and sends X-Has-Next-Page', async () => {
    const { upstream } = fakePage(100, false);
    const middle = await fetchRange(upstream, [25, 49]);
    expect(middle.total).toBeUndefined();
    expect(middle.hasNextPage).toBe(true);
    expect(listHeaders('markers', 25, middle)).toEqual({
      'Content-Range': 'markers 25-49/*',
      'X-Has-Next-Page': 'true',
    });
    const last = await fetchRange(upstream, [100, 124]);
    expect(last.items).toHaveLength(3);
    expect(last.hasNextPage).toBe(false);
    expect(listHeaders('markers', 100, last)['X-Has-Next-Page']).toBe('false');
  });

  it('choosePageSize prefers fewest calls, then fewest records', () => {
    expect(choosePageSize(50, 74, 100)).toBe(25);
    expect(choosePageSize(10, 34, 100)).toBe(35);
    expect(choosePageSize(11, 12, 100)).toBe(5); // [10..14] holds both
    expect(choosePageSize(0, 49, 20)).toBe(17);
  });
});

describe('cursor upstream', () => {
  const run = (upstream: CursorUpstream<Rec>, range: ListRange, cache: CursorCache, cacheKey = key) =>
    fetchRange(upstream, range, { cache, cacheKey });

  it.each([10, 25, 50, 100])('walks every page of %i with exactly one call per page', async (perPage) => {
    const { upstream, calls } = fakeCursor();
    const cache = new MemoryCursorCache();
    const ranges = pagesOf(perPage).slice(0, -1); // the pages that exist
    for (const [i, range] of ranges.entries()) {
      const result = await run(upstream, range, cache);
      expect(result.items).toEqual(slice(range));
      expect(result.total).toBeUndefined();
      expect(result.upstreamCalls).toBe(1);
      expect(result.hasNextPage).toBe(i < ranges.length - 1);
    }
    expect(calls).toHaveLength(ranges.length);
  });

  it('revisiting a page costs one call', async () => {
    const { upstream } = fakeCursor();
    const cache = new MemoryCursorCache();
    for (const range of pagesOf(25).slice(0, 3)) await run(upstream, range, cache);
    const again = await run(upstream, [25, 49], cache);
    expect(again.items).toEqual(slice([25, 49]));
    expect(again.upstreamCalls).toBe(1);
    const first = await run(upstream, [0, 24], cache);
    expect(first.upstreamCalls).toBe(1);
  });

  it('jumping from page 1 to page 4 costs 3 calls, then page 5 costs 1', async () => {
    const { upstream, calls } = fakeCursor();
    const cache = new MemoryCursorCache();
    await run(upstream, [0, 24], cache);
    const page4 = await run(upstream, [75, 99], cache);
    expect(page4.items).toEqual(slice([75, 99]));
    expect(page4.upstreamCalls).toBe(3);
    expect(page4.hasNextPage).toBe(true);
    const page5 = await run(upstream, [100, 124], cache);
    expect(page5.items.map((r) => r.id)).toEqual([100, 101, 102]);
    expect(page5.upstreamCalls).toBe(1);
    expect(page5.hasNextPage).toBe(false);
    // the pages walked past on the way are cached too
    expect((await run(upstream, [50, 74], cache)).upstreamCalls).toBe(1);
    expect(calls).toHaveLength(6);
  });

  it('jumping straight to a page with an empty cache walks from the start', async () => {
    const { upstream } = fakeCursor();
    const result = await run(upstream, [50, 74], new MemoryCursorCache());
    expect(result.items).toEqual(slice([50, 74]));
    expect(result.upstreamCalls).toBe(3);
  });

  it('answers past the end with no items and hasNextPage false', async () => {
    const { upstream } = fakeCursor();
    const cache = new MemoryCursorCache();
    const result = await run(upstream, [125, 149], cache);
    expect(result).toEqual({ items: [], hasNextPage: false, upstreamCalls: 5 });
    expect(listHeaders('timeseries', 125, result)).toEqual({
      'Content-Range': 'timeseries */*',
      'X-Has-Next-Page': 'false',
    });
    // from the last cached page start, not from the beginning again
    expect((await run(upstream, [150, 174], cache)).upstreamCalls).toBe(1);
  });

  it('when the upstream only learns about the end one call later, the next page is empty', async () => {
    const data = records.slice(0, 100);
    const { upstream } = fakeCursor({ data, lazyEnd: true });
    const cache = new MemoryCursorCache();
    for (const range of pagesOf(25, 100).slice(0, 4)) await run(upstream, range, cache);
    const page4 = await run(upstream, [75, 99], cache);
    expect(page4.hasNextPage).toBe(true); // nextCursor was not null
    const page5 = await run(upstream, [100, 124], cache);
    expect(page5).toEqual({ items: [], hasNextPage: false, upstreamCalls: 1 });
  });

  it('different cache keys do not share cursors', async () => {
    const cache = new MemoryCursorCache();
    const a = fakeCursor({ scope: 'filter-a' });
    const b = fakeCursor({ scope: 'filter-b', data: records.slice(0, 60) });
    const keyA = cursorCacheKey({ resource: 'timeseries', filter: { marker: 'a' } });
    const keyB = cursorCacheKey({ resource: 'timeseries', filter: { marker: 'b' } });
    for (const range of pagesOf(25).slice(0, 3)) await run(a.upstream, range, cache, keyA);
    // b's upstream refuses a's cursors, so any sharing would throw
    const b3 = await run(b.upstream, [50, 74], cache, keyB);
    expect(b3.items).toEqual(records.slice(50, 60));
    expect(b3.upstreamCalls).toBe(3);
    expect(b.calls[0]).toEqual([null, 25]);
  });

  it('page size is part of the scope', async () => {
    const { upstream } = fakeCursor();
    const cache = new MemoryCursorCache();
    await run(upstream, [0, 24], cache);
    await run(upstream, [25, 49], cache);
    // page 2 of size 10 starts at record 10, not at the cached cursor of page 2 of size 25
    const result = await run(upstream, [10, 19], cache);
    expect(result.items).toEqual(slice([10, 19]));
    expect(result.upstreamCalls).toBe(2);
  });

  it('forgets cursors after the TTL', async () => {
    let now = 0;
    const cache = new MemoryCursorCache({ ttlMs: 10 * 60 * 1000, now: () => now });
    const { upstream } = fakeCursor();
    for (const range of pagesOf(25).slice(0, 3)) await run(upstream, range, cache);
    expect((await run(upstream, [50, 74], cache)).upstreamCalls).toBe(1);
    now += 10 * 60 * 1000;
    const stale = await run(upstream, [50, 74], cache);
    expect(stale.items).toEqual(slice([50, 74]));
    expect(stale.upstreamCalls).toBe(3);
  });

  it('reads the covering pages for an unaligned range', async () => {
    const { upstream, calls } = fakeCursor();
    const cache = new MemoryCursorCache();
    const first = await run(upstream, [10, 34], cache);
    expect(first.items).toEqual(slice([10, 34]));
    expect(first.upstreamCalls).toBe(2);
    const next = await run(upstream, [35, 59], cache); // pages [25..49] and [50..74]; the first is cached
    expect(next.items).toEqual(slice([35, 59]));
    expect(next.upstreamCalls).toBe(2);
    expect(calls.map(([cursor]) => cursor)).toEqual([null, 'ds@25', 'ds@25', 'ds@50']);
  });

  it('splits a page larger than maxLimit into calls that end on page boundaries', async () => {
    const { upstream, calls } = fakeCursor({ maxLimit: 10 });
    const cache = new MemoryCursorCache();
    const page1 = await run(upstream, [0, 24], cache);
    expect(page1.items).toEqual(slice([0, 24]));
    expect(calls.map(([, limit]) => limit)).toEqual([10, 10, 5]);
    const page2 = await run(upstream, [25, 49], cache);
    expect(page2.items).toEqual(slice([25, 49]));
    expect(page2.upstreamCalls).toBe(3);
    expect(calls[3]).toEqual(['ds@25', 10]);
  });

  it('fills a page from an upstream that returns short pages', async () => {
    const { upstream } = fakeCursor({ maxPerCall: 7 });
    const cache = new MemoryCursorCache();
    for (const range of pagesOf(25).slice(0, 5)) {
      const result = await run(upstream, range, cache);
      expect(result.items).toEqual(slice(range));
    }
    expect((await run(upstream, [25, 49], cache)).upstreamCalls).toBe(4); // 7+7+7+4
  });

  it('handles an upstream that ignores limit and answers more (fixed page size)', async () => {
    const { upstream } = fakeCursor({ fixedPageSize: 40 });
    const cache = new MemoryCursorCache();
    const ranges = pagesOf(25).slice(0, -1);
    for (const [i, range] of ranges.entries()) {
      const result = await run(upstream, range, cache);
      expect(result.items).toEqual(slice(range));
      expect(result.hasNextPage).toBe(i < ranges.length - 1);
      expect(result.upstreamCalls).toBeLessThanOrEqual(2);
    }
    // a page inside one upstream answer is one call: page 3 starts at record 10 of the answer at 40
    expect((await run(upstream, [50, 74], cache)).upstreamCalls).toBe(1);
  });

  it('treats an unreadable cache entry as a miss', async () => {
    const garbage: CursorCache = { get: async () => 'not a position', set: async () => {} };
    const { upstream } = fakeCursor();
    const result = await run(upstream, [50, 74], garbage);
    expect(result.items).toEqual(slice([50, 74]));
    expect(result.upstreamCalls).toBe(3);
  });

  it('passes a failing cache write on to the caller', async () => {
    const broken: CursorCache = {
      get: async () => null,
      set: async () => {
        throw new Error('cache down');
      },
    };
    await expect(run(fakeCursor().upstream, [0, 24], broken)).rejects.toThrow('cache down');
  });

  it('refuses a walk longer than maxUpstreamCalls with a 400', async () => {
    const { upstream, calls } = fakeCursor();
    const options = { cache: new MemoryCursorCache(), cacheKey: key, maxUpstreamCalls: 5 };
    const pending = fetchRange(upstream, [90, 99], options);
    await expect(pending).rejects.toMatchObject({ name: 'PaginationError', statusCode: 400, param: 'range' });
    expect(calls).toHaveLength(5);
  });

  it('requires a cache', async () => {
    const { upstream } = fakeCursor();
    // @ts-expect-error cursor upstreams need options.cache and options.cacheKey
    await expect(fetchRange(upstream, [0, 9])).rejects.toBeInstanceOf(TypeError);
  });
});

describe('contentRange and listHeaders', () => {
  it.each<[number, number, number | undefined, string]>([
    [0, 25, 300, 'users 0-24/300'],
    [275, 25, 300, 'users 275-299/300'],
    [0, 25, undefined, 'users 0-24/*'],
    [125, 0, 103, 'users */103'],
    [0, 0, 0, 'users */0'],
    [0, 0, undefined, 'users */*'],
  ])('contentRange(users, %i, %i, %s) is %s', (start, count, total, expected) => {
    expect(contentRange('users', start, count, total)).toBe(expected);
  });

  it('adds X-Has-Next-Page only when the total is unknown', () => {
    expect(listHeaders('users', 0, { items: [1, 2], total: 2, hasNextPage: false })).toEqual({
      'Content-Range': 'users 0-1/2',
    });
    expect(listHeaders('jobs', 10, { items: [1, 2], hasNextPage: true })).toEqual({
      'Content-Range': 'jobs 10-11/*',
      'X-Has-Next-Page': 'true',
    });
  });

  // ra-data-simple-rest itself, with a fake httpClient, reading our headers.
  const totalSeenByReactAdmin = async (headers: Record<string, string>) => {
    const provider = simpleRestProvider('http://bff/api', async () => ({
      status: 200,
      headers: new Headers(headers),
      body: '[]',
      json: [],
    }));
    const { total } = await provider.getList('users', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    return total;
  };

  it('produces totals ra-data-simple-rest parses', async () => {
    expect(await totalSeenByReactAdmin({ 'Content-Range': contentRange('users', 0, 25, 300) })).toBe(300);
    expect(await totalSeenByReactAdmin({ 'Content-Range': contentRange('users', 125, 0, 103) })).toBe(103);
    expect(await totalSeenByReactAdmin({ 'Content-Range': contentRange('users', 0, 0, 0) })).toBe(0);
    // unknown totals are NaN there; the dashboard's wrapper reads X-Has-Next-Page instead
    expect(await totalSeenByReactAdmin({ 'Content-Range': contentRange('users', 0, 25) })).toBeNaN();
  });
});
