import { sql } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { sessions, type BffSchema } from '../db/schema';

/**
 * Idle timers moved on by requests, written to the store in batches: requests note the time and go
 * on; one UPDATE carries every session noted since the last one (one in flight at a time), so a busy
 * process writes at most one statement per round trip however many sessions it serves. A timer only
 * moves forward, so an older write never undoes a newer one, and a forward move is not announced
 * to the other processes (migration 0005): each checks expiry on what it knows and asks the store
 * before ending a session. Until its write lands, `pendingFor` tells this process's own readers.
 */
export class SessionSlides {
  private pending = new Map<string, Date>();
  private beingWritten = new Map<string, Date>();
  private writing: Promise<void> | null = null;

  constructor(
    private readonly db: Database<BffSchema>,
    private readonly onError: (err: unknown) => void,
  ) {}

  note(tokenHash: string, at: Date) {
    const known = this.pending.get(tokenHash);
    if (!known || known < at) this.pending.set(tokenHash, at);
    this.writing ??= this.writeAll();
  }

  pendingFor(tokenHash: string): Date | undefined {
    return this.pending.get(tokenHash) ?? this.beingWritten.get(tokenHash);
  }

  /** Waits for every noted time to be written (the app's onClose). */
  async flush() {
    while (this.writing) await this.writing;
  }

  private async writeAll() {
    // Let the requests of this tick note theirs first.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.pending.size) {
        this.beingWritten = this.pending;
        this.pending = new Map();
        try {
          await this.write(this.beingWritten);
        } catch (err) {
          this.onError(err);
        } finally {
          this.beingWritten = new Map();
        }
      }
    } finally {
      this.writing = null;
    }
  }

  private async write(batch: Map<string, Date>) {
    const hashes = [...batch.keys()];
    const times = [...batch.values()].map((d) => d.toISOString());
    await this.db.execute(sql`
      UPDATE ${sessions} AS s SET last_seen_at = seen.at
      FROM unnest(${sql.param(hashes)}::text[], ${sql.param(times)}::timestamptz[]) AS seen(token_hash, at)
      WHERE s.token_hash = seen.token_hash AND s.last_seen_at < seen.at`);
  }
}
