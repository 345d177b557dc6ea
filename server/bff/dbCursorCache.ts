import { and, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../store/db';
import { DEFAULT_CURSOR_TTL_MS, type CursorCache } from './cursorCache';
import { cursorCache, type BffSchema } from './db/schema';

/** Expired rows are deleted at most this often (by a `set`), so the table does not grow unbounded. */
export const DEFAULT_CURSOR_PURGE_EVERY_MS = 60 * 1000;

export interface DbCursorCacheOptions {
  /** Lifetime of an entry, counted from when it was (last) set. */
  ttlMs?: number;
  /** Least time between two purges of expired rows; 0 purges on every `set`. */
  purgeEveryMs?: number;
  /** Clock in ms; injectable for tests. */
  now?: () => number;
}

/**
 * The cursor cache in the BFF's store (`bff.cursor_cache`): shared by every BFF process on the
 * store and kept across restarts, so page N still costs one upstream call after a deploy.
 * An entry is answered only before its `expires_at`; expired rows are deleted lazily, by a `set`
 * at most every `purgeEveryMs` (the first `set` of a process purges at once).
 */
export class DbCursorCache implements CursorCache {
  private readonly ttlMs: number;
  private readonly purgeEveryMs: number;
  private readonly now: () => number;
  private lastPurge = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database<BffSchema>,
    options: DbCursorCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_CURSOR_TTL_MS;
    this.purgeEveryMs = options.purgeEveryMs ?? DEFAULT_CURSOR_PURGE_EVERY_MS;
    // Read Date.now at call time (not bound once) so fake timers in tests apply.
    this.now = options.now ?? (() => Date.now());
    if (!(this.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    if (!(this.purgeEveryMs >= 0)) throw new RangeError('purgeEveryMs must not be negative');
  }

  async get(key: string, page: number): Promise<string | null> {
    const [row] = await this.db
      .select({ cursor: cursorCache.cursor })
      .from(cursorCache)
      .where(and(eq(cursorCache.key, key), eq(cursorCache.page, page), gt(cursorCache.expiresAt, new Date(this.now()))))
      .limit(1);
    return row?.cursor ?? null;
  }

  async set(key: string, page: number, cursor: string): Promise<void> {
    const expiresAt = new Date(this.now() + this.ttlMs);
    // One statement, so concurrent sets of one (key, page) never fail on the unique index.
    await this.db
      .insert(cursorCache)
      .values({ key, page, cursor, expiresAt })
      .onConflictDoUpdate({ target: [cursorCache.key, cursorCache.page], set: { cursor, expiresAt } });
    await this.maybePurge();
  }

  /** Deletes every expired entry now. */
  async purgeExpired(): Promise<void> {
    await this.db.delete(cursorCache).where(lte(cursorCache.expiresAt, new Date(this.now())));
  }

  private async maybePurge(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < this.purgeEveryMs) return;
    // Claimed before awaiting, so the parallel sets of one page walk purge once.
    this.lastPurge = now;
    await this.purgeExpired();
  }
}
