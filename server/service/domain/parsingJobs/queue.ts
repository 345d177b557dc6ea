import { sql } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import { jobs, type ServiceSchema } from '../../db/schema';
import { PARSE_JOB_KIND } from './create';

interface QueueRow {
  queued: number | string;
  parsing: number | string;
  oldest_queued_at: string | Date | null;
  teams_waiting: number | string;
}

export interface QueueStats {
  queued: number;
  parsing: number;
  oldestQueuedAt: Date | null;
  oldestWaitSeconds: number | null;
  teamsWaiting: number;
}

/**
 * Depth of the parse queue and its oldest wait, from the job table (so it counts every service
 * process's work): of one team, or of all. A job whose lease has lapsed (its reader died with the
 * process) counts as waiting: it will be claimed again.
 */
export async function parseQueueStats(db: Database<ServiceSchema>, teamId?: string): Promise<QueueStats> {
  const team = teamId ? sql`AND fair_key = ${teamId}` : sql``;
  const waiting = sql`(locked_until IS NULL OR locked_until < now())`;
  const result = await db.execute(sql`
    SELECT count(*) FILTER (WHERE ${waiting}) AS queued,
           count(*) FILTER (WHERE NOT ${waiting}) AS parsing,
           min(created_at) FILTER (WHERE ${waiting}) AS oldest_queued_at,
           count(DISTINCT fair_key) FILTER (WHERE ${waiting}) AS teams_waiting
    FROM ${jobs}
    WHERE kind = ${PARSE_JOB_KIND} AND done_at IS NULL AND failed_at IS NULL ${team}`);
  const row = (result as unknown as { rows: QueueRow[] }).rows[0]!;
  const oldest = row.oldest_queued_at ? new Date(row.oldest_queued_at) : null;
  return {
    queued: Number(row.queued),
    parsing: Number(row.parsing),
    oldestQueuedAt: oldest,
    oldestWaitSeconds: oldest ? Math.max(0, Math.round((Date.now() - oldest.getTime()) / 100) / 10) : null,
    teamsWaiting: Number(row.teams_waiting),
  };
}
