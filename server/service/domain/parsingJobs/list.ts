import { and, asc, desc, eq, gt, inArray, lt, type SQL } from 'drizzle-orm';
import type { ParsingJobsQuery, ParsingJobsResponse } from '../../../contract';
import type { Database } from '../../../store/db';
import { parsingJobs, type ServiceSchema } from '../../db/schema';
import { queryDigest, type CursorCodec } from '../cursor';
import { Invalid } from '../errors';
import { presentParsingJob } from './present';

const CURSOR_LOC = ['query', 'next_cursor'];

/**
 * Extension: the team's jobs, newest (or oldest) first, with a signed keyset cursor over their
 * arrival order: pages stay stable while new jobs arrive, and a cursor of another team or
 * another filter is refused (422).
 */
export async function listParsingJobs(db: Database<ServiceSchema>, cursors: CursorCodec, teamId: string, q: ParsingJobsQuery): Promise<ParsingJobsResponse> {
  const filter = {
    status: q.status?.slice().sort() ?? null,
    needs_human_review: q.needs_human_review ?? null,
    is_reviewed: q.is_reviewed ?? null,
    stage: q.stage ?? null,
    user_id: q.user_id ?? null,
    order: q.order,
  };
  const digest = queryDigest(filter);
  const where: SQL[] = [eq(parsingJobs.teamId, teamId)];
  if (q.status?.length) where.push(inArray(parsingJobs.status, q.status));
  if (q.needs_human_review !== undefined) where.push(eq(parsingJobs.needsHumanReview, q.needs_human_review));
  if (q.is_reviewed !== undefined) where.push(eq(parsingJobs.isReviewed, q.is_reviewed));
  if (q.stage) where.push(eq(parsingJobs.stage, q.stage));
  if (q.user_id) where.push(eq(parsingJobs.userId, q.user_id));

  if (q.next_cursor) {
    const c = cursors.decode(q.next_cursor, CURSOR_LOC);
    if (c.k !== 'parsing_jobs' || c.t !== teamId || c.q !== digest || !Number.isSafeInteger(c.s)) {
      throw new Invalid(CURSOR_LOC, 'cursor belongs to another query', 'value_error.cursor');
    }
    where.push((q.order === 'asc' ? gt : lt)(parsingJobs.seq, c.s as number));
  }
  const dir = q.order === 'asc' ? asc : desc;
  const rows = await db
    .select()
    .from(parsingJobs)
    .where(and(...where))
    .orderBy(dir(parsingJobs.seq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    data: page.map((r) => presentParsingJob(r, { withData: false })),
    next_cursor:
      rows.length > q.limit && last
        ? cursors.encode({ k: 'parsing_jobs', t: teamId, q: digest, s: last.seq })
        : null,
  };
}
