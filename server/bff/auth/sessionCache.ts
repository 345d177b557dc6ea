import type { Notifications } from '../../store/notify';
import type { SessionRow } from './sessions';

/** Announced by the store's triggers (migration 0005) on every change that decides a session. */
export const SESSIONS_CHANNEL = 'labdesk_bff_sessions';

export interface SessionCacheOptions {
  maxEntries?: number;
}

/**
 * The sessions this process has seen live, by token hash, so a request does not start with a read
 * of the store. Never stale: the store's triggers announce every change that decides a session
 * (sign-out, revocation, expiry sweeps, a member disabled, deleted or given another role or
 * password, a role's two-factor rule), whoever made it — this process, another BFF process on the
 * store, or SQL — and each lookup first catches up with every announcement committed before it
 * (`Notifications.catchUp`). While the channel is down, or just after it was re-made (announcements
 * may have been missed), nothing is answered from memory and nothing is kept: the store is read
 * every time. Unknown tokens are never kept, so a new session works at once and a flood of forged
 * cookies does not fill the memory.
 */
export class SessionCache {
  private readonly entries = new Map<string, SessionRow>();
  private readonly maxEntries: number;
  /** Moves on with every announcement: a store read that overlapped one is not kept. */
  private generation = 0;
  /** The listening connection the entries were kept under (null: none trusted yet). */
  private connection: number | null = null;
  private unlisten: () => void = () => {};

  private constructor(
    private readonly notifications: Notifications,
    opts: SessionCacheOptions,
  ) {
    this.maxEntries = opts.maxEntries ?? 10_000;
  }

  static async create(notifications: Notifications, opts: SessionCacheOptions = {}): Promise<SessionCache> {
    const cache = new SessionCache(notifications, opts);
    cache.unlisten = await notifications.listen(SESSIONS_CHANNEL, (payload) => cache.onAnnouncement(payload));
    return cache;
  }

  close() {
    this.unlisten();
    this.entries.clear();
  }

  /**
   * The session of a token hash: from memory when it is known and `usable` there, else from
   * `read` (the store), kept when nothing was announced meanwhile.
   */
  async get(tokenHash: string, usable: (row: SessionRow) => boolean, read: () => Promise<SessionRow | undefined>): Promise<SessionRow | undefined> {
    const connection = await this.notifications.catchUp();
    if (connection === null) return read();
    if (connection !== this.connection) {
      this.forgetAll();
      this.connection = connection;
    }
    const known = this.entries.get(tokenHash);
    if (known && usable(known)) return { ...known };
    const generation = this.generation;
    const row = await read();
    if (row && generation === this.generation && connection === this.connection) this.keep(tokenHash, row);
    else if (!row) this.entries.delete(tokenHash);
    return row;
  }

  /** This process moved a session's idle timer on (its write to the store follows). */
  noteSeen(tokenHash: string, at: Date) {
    const known = this.entries.get(tokenHash);
    if (known && known.lastSeenAt < at) known.lastSeenAt = at;
  }

  private keep(tokenHash: string, row: SessionRow) {
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { ...row });
  }

  private forgetAll() {
    this.generation++;
    this.entries.clear();
  }

  private onAnnouncement(payload: string) {
    this.generation++;
    if (payload.startsWith('s:')) {
      this.entries.delete(payload.slice(2));
    } else if (payload.startsWith('m:')) {
      const staffId = payload.slice(2);
      for (const [tokenHash, row] of this.entries) if (row.staffId === staffId) this.entries.delete(tokenHash);
    } else {
      // '*', or '' (the connection was re-made): anything may have changed.
      this.forgetAll();
    }
  }
}
