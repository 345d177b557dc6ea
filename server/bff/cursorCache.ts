import { createHash } from 'node:crypto';

/**
 * Where the BFF remembers the upstream position at which page N of a cursor-paginated list starts,
 * so that walking pages costs one upstream call per page instead of a walk from the first page.
 * `key` is a scope from `cursorCacheKey` (resource, team, filter, sort, ...); `page` is 1-based.
 * The stored string is opaque to the cache (pagination.ts decides what it holds).
 * An in-memory implementation lives here; a DB-backed one can implement the same interface.
 */
export interface CursorCache {
  get(key: string, page: number): Promise<string | null>;
  set(key: string, page: number, cursor: string): Promise<void>;
}

/** Upstream cursors go stale (data changes, signing keys rotate); forget them after this long. */
export const DEFAULT_CURSOR_TTL_MS = 10 * 60 * 1000;
export const DEFAULT_CURSOR_CACHE_MAX_ENTRIES = 10_000;

export interface MemoryCursorCacheOptions {
  /** Most (key, page) entries kept; the least recently used go first. */
  maxEntries?: number;
  /** Lifetime of an entry, counted from when it was set. */
  ttlMs?: number;
  /** Clock in ms; injectable for tests. */
  now?: () => number;
}

interface Entry {
  cursor: string;
  expiresAt: number;
}

/** LRU with a TTL, for a single BFF process. Lost on restart, which only costs extra upstream calls. */
export class MemoryCursorCache implements CursorCache {
  // A Map iterates in insertion order, so re-inserting on access makes its first key the LRU one.
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: MemoryCursorCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_CURSOR_CACHE_MAX_ENTRIES;
    this.ttlMs = options.ttlMs ?? DEFAULT_CURSOR_TTL_MS;
    // Read Date.now at call time (not bound once) so fake timers in tests apply.
    this.now = options.now ?? (() => Date.now());
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer');
    }
    if (!(this.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, page: number): Promise<string | null> {
    const id = entryId(key, page);
    const entry = this.entries.get(id);
    if (!entry) return null;
    this.entries.delete(id);
    if (entry.expiresAt <= this.now()) return null;
    // Reading refreshes recency but not the expiry: the cursor is no younger for being read.
    this.entries.set(id, entry);
    return entry.cursor;
  }

  async set(key: string, page: number, cursor: string): Promise<void> {
    const id = entryId(key, page);
    this.entries.delete(id);
    this.entries.set(id, { cursor, expiresAt: this.now() + this.ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}

function entryId(key: string, page: number): string {
  return `${key}#${page}`;
}

/**
 * The cache scope for one list query: sha256 (hex) of `parts` as JSON with object keys sorted at
 * every level, so `{a, b}` and `{b, a}` share cursors. Hashed because keys end up in logs and DB
 * rows, and filters can hold health data or names. Include everything that changes the result set
 * or the caller's view of it: resource, team/principal, filter, sort, page size.
 */
export function cursorCacheKey(parts: Record<string, unknown>): string {
  return createHash('sha256').update(stableJson(parts)).digest('hex');
}

function stableJson(value: unknown): string {
  // The replacer sees each object after toJSON and before its properties are serialised, so a
  // sorted copy at every level is enough; arrays keep their order because order is meaningful.
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
