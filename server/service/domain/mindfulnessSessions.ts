import { sql } from 'drizzle-orm';
import { unnestInsert } from '../../store/bulk';
import type { Database } from '../../store/db';
import { mindfulnessMinutes as m, type ServiceSchema } from '../db/schema';

type Db = Database<ServiceSchema>;

/** Mindfulness sessions as columns (one array per column, all of one length), for one set-based insert. */
export interface SessionColumnValues {
  userId: readonly string[];
  providerSlug: readonly string[];
  sourceType: readonly string[];
  /** Dates, or ISO strings. */
  startAt: readonly (Date | string)[];
  endAt: readonly (Date | string)[];
  value: readonly number[];
  timezoneOffset: readonly (number | null)[];
}

/**
 * Writes a batch of mindfulness sessions in one statement (see store/bulk.ts). With `skipStored`,
 * a session whose natural key (user, provider, source type, start) is stored already is left out.
 * Returns the number of sessions inserted.
 */
export async function insertSessions(db: Db, columns: SessionColumnValues, { skipStored = false }: { skipStored?: boolean } = {}): Promise<number> {
  const insert = unnestInsert(
    m,
    [
      { column: m.userId, type: 'uuid', values: columns.userId },
      { column: m.providerSlug, type: 'text', values: columns.providerSlug },
      { column: m.sourceType, type: 'text', values: columns.sourceType },
      { column: m.startAt, type: 'timestamptz', values: columns.startAt },
      { column: m.endAt, type: 'timestamptz', values: columns.endAt },
      { column: m.value, type: 'float8', values: columns.value },
      { column: m.timezoneOffset, type: 'int4', values: columns.timezoneOffset },
    ],
    skipStored ? sql`returning 1` : undefined,
    // Rows whose natural key is stored already are left out (the index on user and start finds them).
    skipStored
      ? sql`where not exists (select 1 from ${m} as s where s.user_id = i.user_id and s.start_at = i.start_at and s.provider_slug = i.provider_slug and s.source_type = i.source_type)`
      : undefined,
  );
  const result = await db.execute(insert);
  // Without a filter every row is inserted (or the statement fails): no need to send them back.
  return skipStored ? rowCount(result) : columns.userId.length;
}

/** Rows a statement returned: node-postgres and PGlite answer in different shapes. */
function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null; affectedRows?: number };
  return r.rows?.length ?? r.rowCount ?? r.affectedRows ?? 0;
}
