/**
 * DbCursorCache: the cursor cache in the BFF's store, on every store kind, alone and under
 * `fetchRange` (one upstream call per page, also after a restart).
 */
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cursorCacheKey } from '../../server/bff/cursorCache';
import { cursorCache, type BffSchema } from '../../server/bff/db/schema';
import { DEFAULT_CURSOR_PURGE_EVERY_MS, DbCursorCache } from '../../server/bff/dbCursorCache';
import { fetchRange, type CursorUpstream } from '../../server/bff/pagination';
import type { Database, Store } from '../../server/store/db';
import { openBffStore, storeKinds } from './harness';

const TTL = 60_000;

/**
 * A cursor-paginated upstream over `count` records: the cursor is an opaque token for a position,
 * pages hold at most `maxLimit` records. Counts its calls.
 */
function cursorUpstream(count: number, maxLimit = 10) {
  const records = Array.from({ length: count }, (_, i) => ({ id: `rec-${i}` }));
  const state = { calls: 0 };
  const encode = (i: number) => Buffer.from(`pos:${i}`).toString('base64url');
  const decode = (c: string) => Number(Buffer.from(c, 'base64url').toString().slice(4));
  const upstream: CursorUpstream<{ id: string }> = {
    kind: 'cursor',
    maxLimit,
    fetch: async (cursor, limit) => {
      state.calls++;
      const start = cursor === null ? 0 : decode(cursor);
      const end = Math.min(count, start + Math.min(limit, maxLimit));
      return { items: records.slice(start, end), nextCursor: end < count ? encode(end) : null };
    },
  };
  return { upstream, state, records };
}

describe.each(storeKinds)('DbCursorCache (%s)', (kind) => {
  let store: Store<BffSchema>;
  let db: Database<BffSchema>;
  let close: () => Promise<void>;
  let now: number;
  const clock = () => now;
  const rows = () => db.select().from(cursorCache).orderBy(asc(cursorCache.key), asc(cursorCache.page));

  beforeAll(async () => {
    ({ store, close } = await openBffStore(kind));
    db = store.db;
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(async () => {
    await db.delete(cursorCache);
    now = Date.parse('2026-05-01T12:00:00Z');
  });

  describe('as a cache', () => {
    it('stores cursors per key and page, and answers null for anything else', async () => {
      const cache = new DbCursorCache(db, { now: clock });
      await cache.set('k1', 2, 'c-a');
      await cache.set('k1', 3, 'c-b');
      await cache.set('k2', 2, 'c-c');
      expect(await cache.get('k1', 2)).toBe('c-a');
      expect(await cache.get('k1', 3)).toBe('c-b');
      expect(await cache.get('k2', 2)).toBe('c-c');
      expect(await cache.get('k2', 3)).toBeNull();
      expect(await cache.get('k3', 2)).toBeNull();
    });

    it('keeps any string intact, as key and as cursor', async () => {
      const cache = new DbCursorCache(db, { now: clock });
      const key = `${cursorCacheKey({ resource: 'timeseries', filter: { q: "O'Brien" } })}:25`;
      const cursor = JSON.stringify(['eyJ2IjoxfQ.sig+/=', 0]) + ' ünïcödé \'"\\ %_';
      await cache.set(key, 7, cursor);
      expect(await cache.get(key, 7)).toBe(cursor);
      expect(await cache.get(`${key.slice(0, -1)}%`, 7)).toBeNull(); // no LIKE-style matching
    });

    it('upserts on (key, page): a second set replaces the cursor and leaves one row', async () => {
      const cache = new DbCursorCache(db, { now: clock });
      await cache.set('k', 2, 'old');
      await cache.set('k', 2, 'new');
      expect(await cache.get('k', 2)).toBe('new');
      expect((await rows()).map((r) => [r.key, r.page, r.cursor])).toEqual([['k', 2, 'new']]);
    });

    it('survives concurrent sets of one entry', async () => {
      const cache = new DbCursorCache(db, { now: clock });
      await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set('hot', 4, `c-${i}`)));
      expect(await cache.get('hot', 4)).toMatch(/^c-\d+$/);
      expect(await rows()).toHaveLength(1);
    });

    it('answers an entry until its TTL is over, counted from the last set; reading does not extend it', async () => {
      const cache = new DbCursorCache(db, { ttlMs: TTL, now: clock });
      await cache.set('k', 2, 'c');
      expect((await rows())[0]!.expiresAt.getTime()).toBe(now + TTL);
      now += TTL - 1;
      expect(await cache.get('k', 2)).toBe('c');
      now += 1;
      expect(await cache.get('k', 2)).toBeNull();

      await cache.set('k', 2, 'c2'); // set again: a new lifetime
      now += TTL - 1;
      expect(await cache.get('k', 2)).toBe('c2');
      now += 1;
      expect(await cache.get('k', 2)).toBeNull();
    });

    it('defaults to the memory cache’s 10 minute TTL and a purge at most once a minute', async () => {
      const cache = new DbCursorCache(db, { now: clock });
      await cache.set('k', 2, 'c');
      expect((await rows())[0]!.expiresAt.getTime()).toBe(now + 10 * 60_000);
      expect(DEFAULT_CURSOR_PURGE_EVERY_MS).toBe(60_000);
    });

    it('deletes expired rows lazily, on a set', async () => {
      const cache = new DbCursorCache(db, { ttlMs: TTL, purgeEveryMs: 5_000, now: clock });
      await cache.set('old', 2, 'a'); // the first set purges (nothing to purge yet)
      await cache.set('old', 3, 'b');
      now += TTL; // both expired
      expect(await cache.get('old', 2)).toBeNull();
      expect(await rows()).toHaveLength(2); // a read deletes nothing
      await cache.set('new', 2, 'c'); // more than purgeEveryMs since the last purge: purges
      expect((await rows()).map((r) => r.key)).toEqual(['new']);
    });

    it('does not purge again within purgeEveryMs', async () => {
      const cache = new DbCursorCache(db, { ttlMs: 1_000, purgeEveryMs: 10_000, now: clock });
      await cache.set('a', 2, 'x'); // purges
      now += 2_000; // 'a' expired
      await cache.set('b', 2, 'y'); // only 2 s after the last purge: no purge
      expect((await rows()).map((r) => r.key)).toEqual(['a', 'b']);
      expect(await cache.get('a', 2)).toBeNull(); // expired rows are never answered meanwhile
      now += 10_000;
      await cache.set('c', 2, 'z'); // purges 'a' and 'b'
      expect((await rows()).map((r) => r.key)).toEqual(['c']);
    });

    it('purges every expired row on demand', async () => {
      const cache = new DbCursorCache(db, { ttlMs: 1_000, purgeEveryMs: 3_600_000, now: clock });
      for (let p = 1; p <= 5; p++) await cache.set('k', p, `c${p}`);
      now += 500;
      await cache.set('k', 6, 'c6');
      now += 600; // pages 1-5 expired, 6 not
      await cache.purgeExpired();
      expect((await rows()).map((r) => r.page)).toEqual([6]);
    });

    it('is shared by instances on one store, as by processes and across restarts', async () => {
      await new DbCursorCache(db, { now: clock }).set('k', 2, 'from-before-the-restart');
      expect(await new DbCursorCache(db, { now: clock }).get('k', 2)).toBe('from-before-the-restart');
    });

    it('refuses nonsensical options', () => {
      expect(() => new DbCursorCache(db, { ttlMs: 0 })).toThrow(RangeError);
      expect(() => new DbCursorCache(db, { purgeEveryMs: -1 })).toThrow(RangeError);
    });
  });

  describe('under fetchRange', () => {
    const scope = cursorCacheKey({ resource: 'parser-jobs', team: 't1', filter: { status: 'needs_review' }, sort: ['created_at', 'DESC'] });

    it('walks pages at one upstream call per page, with the right records', async () => {
      const { upstream, state, records } = cursorUpstream(95);
      const cache = new DbCursorCache(db, { ttlMs: TTL, now: clock });
      for (let page = 0; page < 10; page++) {
        const first = page * 10;
        const before = state.calls;
        const r = await fetchRange(upstream, [first, first + 9], { cache, cacheKey: scope });
        expect(state.calls - before, `page ${page}`).toBe(1);
        expect(r.upstreamCalls).toBe(1);
        expect(r.items).toEqual(records.slice(first, first + 10));
        expect(r.hasNextPage).toBe(page < 9);
        expect(r.total).toBeUndefined();
      }
      // Going back a page is one call too.
      const before = state.calls;
      expect((await fetchRange(upstream, [30, 39], { cache, cacheKey: scope })).items).toEqual(records.slice(30, 40));
      expect(state.calls - before).toBe(1);
    });

    it('keeps the page starts across a restart: a new cache object on the same store jumps straight to page 8', async () => {
      const first = cursorUpstream(95);
      await fetchRange(first.upstream, [0, 9], { cache: new DbCursorCache(db, { ttlMs: TTL, now: clock }), cacheKey: scope });
      const walk = new DbCursorCache(db, { ttlMs: TTL, now: clock });
      for (let page = 1; page < 8; page++) await fetchRange(first.upstream, [page * 10, page * 10 + 9], { cache: walk, cacheKey: scope });

      // "Restart": a new cache object and a new upstream connection.
      const restarted = new DbCursorCache(db, { ttlMs: TTL, now: clock });
      const again = cursorUpstream(95);
      const r = await fetchRange(again.upstream, [70, 79], { cache: restarted, cacheKey: scope });
      expect(again.state.calls).toBe(1);
      expect(r.items).toEqual(again.records.slice(70, 80));
    });

    it('walks from the nearest cached page when a page was never seen, caching the pages passed', async () => {
      const { upstream, state, records } = cursorUpstream(95);
      const cache = new DbCursorCache(db, { ttlMs: TTL, now: clock });
      const r = await fetchRange(upstream, [70, 79], { cache, cacheKey: scope });
      expect(r.items).toEqual(records.slice(70, 80));
      expect(state.calls).toBe(8);
      const before = state.calls;
      await fetchRange(upstream, [40, 49], { cache, cacheKey: scope });
      expect(state.calls - before).toBe(1);
    });

    it('does not mix scopes or page sizes, and walks again once the cursors expired', async () => {
      const { upstream, state } = cursorUpstream(95);
      const cache = new DbCursorCache(db, { ttlMs: TTL, now: clock });
      for (let page = 0; page < 8; page++) await fetchRange(upstream, [page * 10, page * 10 + 9], { cache, cacheKey: scope });

      const otherScope = cursorCacheKey({ resource: 'parser-jobs', team: 't2', filter: { status: 'needs_review' }, sort: ['created_at', 'DESC'] });
      let before = state.calls;
      await fetchRange(upstream, [70, 79], { cache, cacheKey: otherScope });
      expect(state.calls - before).toBe(8);

      before = state.calls;
      await fetchRange(upstream, [35, 39], { cache, cacheKey: scope }); // pages of 5: another key, walked from the start
      expect(state.calls - before).toBe(8);

      now += TTL;
      before = state.calls;
      await fetchRange(upstream, [70, 79], { cache, cacheKey: scope });
      expect(state.calls - before).toBe(8);
    });
  });
});
