/**
 * The API-key cache asks the store once for a key that many requests bring at the same moment (200
 * connections opening together): the first lookup is shared, not repeated per request. A lookup
 * begun before a revocation is not shared with requests that arrive after it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyCache } from '../../server/service/domain/apiKeyCache';
import { storeKinds, useService } from './harness';

type Queryable = { query: (...args: unknown[]) => unknown };

describe.each(storeKinds)('API-key lookups in flight are shared (%s)', (kind) => {
  const svc = useService(kind);
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  /** Counts the statements the store client is sent from now until `restore`. */
  const countStatements = () => {
    const client = (svc().db as unknown as { $client: Queryable }).$client;
    const original = client.query;
    const counter = { statements: 0 };
    client.query = function (this: unknown, ...args: unknown[]) {
      counter.statements++;
      return original.apply(this, args);
    };
    restore = () => (client.query = original);
    return counter;
  };

  it('50 concurrent first lookups of one key ask the store once and all get its team', async () => {
    const team = await svc().createTeam(`single-flight-${kind}`);
    const cache = await ApiKeyCache.create(svc().db, svc().store.notifications);
    try {
      const counter = countStatements();
      const teams = await Promise.all(Array.from({ length: 50 }, () => cache.teamIdFor(team.apiKey)));
      expect(new Set(teams)).toEqual(new Set([team.teamId]));
      expect(counter.statements).toBe(1);
      // Cached now: no further statement.
      expect(await cache.teamIdFor(team.apiKey)).toBe(team.teamId);
      expect(counter.statements).toBe(1);
    } finally {
      cache.close();
    }
  });

  it('concurrent lookups of an unknown key share one question and are all refused; a later one asks again', async () => {
    const cache = await ApiKeyCache.create(svc().db, svc().store.notifications);
    try {
      const counter = countStatements();
      const teams = await Promise.all(Array.from({ length: 20 }, () => cache.teamIdFor('no-such-key')));
      expect(new Set(teams)).toEqual(new Set([null]));
      expect(counter.statements).toBe(1);
      expect(await cache.teamIdFor('no-such-key')).toBeNull();
      expect(counter.statements).toBe(2);
    } finally {
      cache.close();
    }
  });

  it('a lookup under way when the keys change is not joined by requests that come after the change', async () => {
    const team = await svc().createTeam(`single-flight-clear-${kind}`);
    const cache = await ApiKeyCache.create(svc().db, svc().store.notifications);
    try {
      const counter = countStatements();
      const before = cache.teamIdFor(team.apiKey);
      // Under way: its question has reached the store (or even been answered) before the change.
      await vi.waitFor(() => expect(counter.statements).toBe(1));
      cache.clear();
      const after = cache.teamIdFor(team.apiKey);
      expect(await Promise.all([before, after])).toEqual([team.teamId, team.teamId]);
      expect(counter.statements).toBe(2);
    } finally {
      cache.close();
    }
  });
});
