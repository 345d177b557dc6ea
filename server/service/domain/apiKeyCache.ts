import { sql } from 'drizzle-orm';
import type { Database } from '../../store/db';
import type { Notifications } from '../../store/notify';
import type { ServiceSchema } from '../db/schema';
import { hashApiKey, teamIdForKeyHash } from './teams';

type Db = Database<ServiceSchema>;

/** Told on every change to the API keys (rotation, revocation), by whichever process made it. */
export const API_KEYS_CHANNEL = 'labdesk_api_keys';

/** Inside the transaction that revokes or rotates keys: every process drops its cached keys at commit. */
export async function announceApiKeyChange(tx: Db, teamId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${API_KEYS_CHANNEL}, ${teamId})`);
}

export interface ApiKeyCacheOptions {
  /** How long a key found valid is trusted without asking the store (a safety net: revocation is announced). */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Which team an API key belongs to, remembered in the process for a short while: every request
 * would otherwise start with a query. Revocation stays instant: a rotation announces itself on
 * LISTEN/NOTIFY (`announceApiKeyChange`), and every process — this one included — forgets all its
 * keys at once. A notification reaches another process a moment after the rotation's commit has
 * returned, so each lookup first catches up with every notification committed before it
 * (`Notifications.catchUp`: one empty query on the listening connection, shared by the requests
 * arriving meanwhile); while that connection is down nothing is answered from memory, and when it
 * is re-made everything is forgotten (announcements may have been missed). Without a notification
 * channel nothing is cached. Only the SHA-256 of a key is kept, as in the store, and
 * only keys found valid: an unknown key always asks the store, so a new key works at once.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { teamId: string; until: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private generation = 0;
  /** Store lookups under way, by generation and key hash: concurrent first requests share one. */
  private readonly inFlight = new Map<string, Promise<string | null>>();
  /** Stops listening for key changes (set by `create` when there is a channel). */
  private unlisten: () => void = () => {};
  /** The listening connection the entries were kept under (null: none trusted yet). */
  private connection: number | null = null;

  private constructor(
    private readonly db: Db,
    private readonly notifications: Notifications | undefined,
    opts: ApiKeyCacheOptions,
  ) {
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  static async create(db: Db, notifications: Notifications | undefined, opts: ApiKeyCacheOptions = {}): Promise<ApiKeyCache> {
    const cache = new ApiKeyCache(db, notifications, opts);
    if (notifications) cache.unlisten = await notifications.listen(API_KEYS_CHANNEL, () => cache.clear());
    return cache;
  }

  /** Stops listening for key changes (the app's onClose). */
  close(): void {
    this.unlisten();
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }

  async teamIdFor(key: string): Promise<string | null> {
    const hash = hashApiKey(key);
    if (!this.notifications) return teamIdForKeyHash(this.db, hash);
    const connection = await this.notifications.catchUp();
    // The channel is down: what is remembered may have been revoked meanwhile.
    if (connection === null) return teamIdForKeyHash(this.db, hash);
    if (connection !== this.connection) {
      this.clear();
      this.connection = connection;
    }
    const hit = this.entries.get(hash);
    if (hit && hit.until > this.now()) return hit.teamId;
    // Single flight: requests that arrive together with a key not yet cached (200 connections
    // opening at once) share one question to the store instead of each asking. Keyed by the
    // generation too, so a lookup begun before a revocation is never joined after it.
    const flightKey = `${this.generation}:${hash}`;
    let flight = this.inFlight.get(flightKey);
    if (!flight) {
      flight = this.lookUp(hash, connection).finally(() => this.inFlight.delete(flightKey));
      this.inFlight.set(flightKey, flight);
    }
    return flight;
  }

  private async lookUp(hash: string, connection: number): Promise<string | null> {
    // A revocation announced while the store was being asked must not be undone by this answer.
    const generation = this.generation;
    const teamId = await teamIdForKeyHash(this.db, hash);
    if (teamId && generation === this.generation && connection === this.connection) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { teamId, until: this.now() + this.ttlMs });
    } else if (!teamId) {
      this.entries.delete(hash);
    }
    return teamId;
  }
}
