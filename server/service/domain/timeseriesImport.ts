import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TimeseriesImportPoint, TimeseriesImportResponse } from '../../contract';
import type { Database } from '../../store/db';
import { users, type ServiceSchema } from '../db/schema';
import { NotFound } from './errors';
import { insertSessions } from './mindfulnessSessions';

type Db = Database<ServiceSchema>;

/**
 * Bulk import of mindfulness sessions (a Labdesk extension): one transaction, one set-based insert
 * for the whole request, all or nothing. A session's natural key is its user, provider, source type
 * and start: a point whose key is already stored (a re-import), or repeated within the request, is
 * skipped, so importing a file twice stores it once. Imports of one team run one at a time (a
 * transaction-scoped advisory lock), so two concurrent imports of the same points cannot both add them.
 */
export async function importMindfulnessMinutes(db: Db, teamId: string, points: TimeseriesImportPoint[]): Promise<TimeseriesImportResponse> {
  // Every user must be the team's own; another team's user is answered as an unknown one.
  const wanted = [...new Set(points.map((p) => p.user_id.toLowerCase()))];
  return db.transaction(async (tx) => {
    const known = new Set(
      (await tx.select({ id: users.id }).from(users).where(and(eq(users.teamId, teamId), inArray(users.id, wanted)))).map((u) => u.id),
    );
    const missing = points.findIndex((p) => !known.has(p.user_id.toLowerCase()));
    if (missing >= 0) throw new NotFound(`User of points[${missing}] (${points[missing]!.user_id})`);

    const seen = new Set<string>();
    const cols = { userId: [] as string[], providerSlug: [] as string[], sourceType: [] as string[], startAt: [] as string[], endAt: [] as string[], value: [] as number[], timezoneOffset: [] as (number | null)[] };
    for (const p of points) {
      const start = new Date(p.start).toISOString();
      const key = `${p.user_id.toLowerCase()}\u0000${p.provider}\u0000${p.source_type}\u0000${start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      cols.userId.push(p.user_id.toLowerCase());
      cols.providerSlug.push(p.provider);
      cols.sourceType.push(p.source_type);
      cols.startAt.push(start);
      cols.endAt.push(new Date(p.end).toISOString());
      cols.value.push(p.value);
      cols.timezoneOffset.push(p.timezone_offset);
    }
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`labdesk-timeseries-import-${teamId}`}))`);
    const imported = await insertSessions(tx, cols, { skipStored: true });
    return { received: points.length, imported, skipped: points.length - imported };
  });
}
