import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CURSOR_TTL_MS, MemoryCursorCache, cursorCacheKey } from './cursorCache';

describe('MemoryCursorCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stores cursors per key and page', async () => {
    const cache = new MemoryCursorCache();
    await cache.set('k1', 2, 'c-a');
    await cache.set('k1', 3, 'c-b');
    await cache.set('k2', 2, 'c-c');
    expect(await cache.get('k1', 2)).toBe('c-a');
    expect(await cache.get('k1', 3)).toBe('c-b');
    expect(await cache.get('k2', 2)).toBe('c-c');
    expect(await cache.get('k2', 3)).toBeNull();
    expect(await cache.get('k3', 2)).toBeNull();
  });

  it('overwrites an entry', async () => {
    const cache = new MemoryCursorCache();
    await cache.set('k', 2, 'old');
    await cache.set('k', 2, 'new');
    expect(await cache.get('k', 2)).toBe('new');
    expect(cache.size).toBe(1);
  });

  it('expires entries after the TTL (injected clock), and reading does not extend it', async () => {
    let now = 1_000;
    const cache = new MemoryCursorCache({ ttlMs: 60_000, now: () => now });
    await cache.set('k', 2, 'c');
    now += 59_999;
    expect(await cache.get('k', 2)).toBe('c');
    now += 1;
    expect(await cache.get('k', 2)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('defaults to a 10 minute TTL on the real clock (fake timers)', async () => {
    vi.useFakeTimers();
    const cache = new MemoryCursorCache();
    expect(DEFAULT_CURSOR_TTL_MS).toBe(10 * 60 * 1000);
    await cache.set('k', 2, 'c');
    vi.advanceTimersByTime(DEFAULT_CURSOR_TTL_MS - 1);
    expect(await cache.get('k', 2)).toBe('c');
    vi.advanceTimersByTime(1);
    expect(await cache.get('k', 2)).toBeNull();
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new MemoryCursorCache({ maxEntries: 2 });
    await cache.set('a', 2, 'ca');
    await cache.set('b', 2, 'cb');
    expect(await cache.get('a', 2)).toBe('ca'); // a is now more recent than b
    await cache.set('c', 2, 'cc');
    expect(cache.size).toBe(2);
    expect(await cache.get('b', 2)).toBeNull();
    expect(await cache.get('a', 2)).toBe('ca');
    expect(await cache.get('c', 2)).toBe('cc');
  });

  it('rejects nonsensical limits', () => {
    expect(() => new MemoryCursorCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new MemoryCursorCache({ ttlMs: 0 })).toThrow(RangeError);
  });
});

describe('cursorCacheKey', () => {
  const filter = { user_id: 'patient-4711', marker: 'hba1c', range: { from: '2024-01-01', to: '2024-06-30' } };

  it('is a sha256 hex digest that does not contain filter values', () => {
    const key = cursorCacheKey({ resource: 'timeseries', team: 't1', filter, sort: ['start', 'ASC'] });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain('patient');
  });

  it('ignores key order at every level', () => {
    const a = cursorCacheKey({ resource: 'timeseries', filter, sort: ['start', 'ASC'] });
    const b = cursorCacheKey({
      sort: ['start', 'ASC'],
      filter: { range: { to: '2024-06-30', from: '2024-01-01' }, marker: 'hba1c', user_id: 'patient-4711' },
      resource: 'timeseries',
    });
    expect(a).toBe(b);
  });

  it('distinguishes different values, array orders and nesting', () => {
    const base = cursorCacheKey({ resource: 'timeseries', filter });
    expect(cursorCacheKey({ resource: 'timeseries', filter: { ...filter, marker: 'ldl' } })).not.toBe(base);
    expect(cursorCacheKey({ resource: 'parser-jobs', filter })).not.toBe(base);
    expect(cursorCacheKey({ sort: ['a', 'b'] })).not.toBe(cursorCacheKey({ sort: ['b', 'a'] }));
    expect(cursorCacheKey({ a: { b: 1 } })).not.toBe(cursorCacheKey({ a: '{"b":1}' }));
  });

  it('treats an undefined property like an absent one, as JSON does', () => {
    expect(cursorCacheKey({ a: 1, b: undefined })).toBe(cursorCacheKey({ a: 1 }));
  });
});
