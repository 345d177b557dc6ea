import type { Database } from '../../store/db';
import type { Notifications } from '../../store/notify';
import type { BffSchema } from '../db/schema';
import { SessionCache } from './sessionCache';
import { SessionSlides } from './sessionSlides';
import { activeSessionOf, endSession, readSession, sessionExpired, slideDue, tokenHashOf, type ActiveSession, type SessionPolicy, type SessionRow } from './sessions';

export interface LiveSessionsOptions {
  db: Database<BffSchema>;
  policy: SessionPolicy;
  /** The store's LISTEN/NOTIFY: with it, sessions are cached in the process (`SessionCache`). */
  notifications?: Notifications;
  /** A batch of idle timers could not be written (the sessions still work in this process). */
  onSlideError: (err: unknown) => void;
}

/**
 * A request's session: from the process's cache when the store's announcements allow, else from
 * the store; ended when expired, its idle timer moved on in batches (`SessionSlides`).
 */
export class LiveSessions {
  private constructor(
    private readonly db: Database<BffSchema>,
    private readonly policy: SessionPolicy,
    private readonly cache: SessionCache | null,
    private readonly slides: SessionSlides,
  ) {}

  static async create(opts: LiveSessionsOptions): Promise<LiveSessions> {
    const cache = opts.notifications ? await SessionCache.create(opts.notifications) : null;
    return new LiveSessions(opts.db, opts.policy, cache, new SessionSlides(opts.db, opts.onSlideError));
  }

  /** The live session of a cookie token; `slide` false for requests that are not activity (the session probe). */
  async touch(token: string, now: Date, slide: boolean): Promise<ActiveSession | null> {
    const tokenHash = tokenHashOf(token);
    const row = this.cache
      ? await this.cache.get(tokenHash, (known) => !sessionExpired(known, this.policy, now), () => this.read(tokenHash))
      : await this.read(tokenHash);
    if (!row) return null;
    if (sessionExpired(row, this.policy, now)) {
      await endSession(this.db, tokenHash);
      return null;
    }
    if (slide && slideDue(row.lastSeenAt, this.policy, now)) {
      this.slides.note(tokenHash, now);
      this.cache?.noteSeen(tokenHash, now);
    }
    return activeSessionOf(row, tokenHash);
  }

  async close() {
    this.cache?.close();
    await this.slides.flush();
  }

  /** The store's row, with this process's idle-timer move when its write has not landed yet. */
  private async read(tokenHash: string): Promise<SessionRow | undefined> {
    const row = await readSession(this.db, tokenHash);
    const seen = this.slides.pendingFor(tokenHash);
    return row && seen && seen > row.lastSeenAt ? { ...row, lastSeenAt: seen } : row;
  }
}
