import { and, asc, count, eq, getTableColumns, sql } from 'drizzle-orm';
import { prepared } from '../../store/prepared';
import type { CreateUserBody, PatchUserBody, User } from '../../contract';
import type { Database } from '../../store/db';
import { connectedSources, providers, users, type ServiceSchema } from '../db/schema';
import { NotFound, ServiceError } from './errors';

type Db = Database<ServiceSchema>;
type UserRow = typeof users.$inferSelect;

/** Source slug recorded when a fallback value is set through the API rather than by a provider. */
const API_SOURCE = 'manual';

const iso = (d: Date) => d.toISOString();

interface SourceJson {
  created_on: string;
  slug: string;
  name: string;
  logo: string;
}

/** A user's connected sources as one JSON array, in the user's own row: no second round trip. */
const sourcesJson = sql<SourceJson[]>`coalesce((
  SELECT json_agg(json_build_object('created_on', ${connectedSources.createdOn}, 'slug', ${providers.slug}, 'name', ${providers.name}, 'logo', ${providers.logo})
    ORDER BY ${connectedSources.createdOn}, ${providers.slug})
  FROM ${connectedSources} JOIN ${providers} ON ${providers.slug} = ${connectedSources.providerSlug}
  WHERE ${connectedSources.userId} = ${users.id}), '[]'::json)`;

function presentSources(rows: SourceJson[], origin: string): User['connected_sources'] {
  return rows.map((r) => {
    const provider = { name: r.name, slug: r.slug, logo: r.logo.startsWith('/') ? origin + r.logo : r.logo };
    return { provider, created_on: iso(new Date(r.created_on)), source: provider };
  });
}

const withSources = { ...getTableColumns(users), sources: sourcesJson };

/** The prepared reads of users (server/store/prepared.ts), one round trip each. */
function userQueries(db: Db) {
  return prepared(db, 'users', () => ({
    page: db
      .select({ ...withSources, total: sql<number>`count(*) OVER ()`.mapWith(Number) })
      .from(users)
      .where(eq(users.teamId, sql.placeholder('teamId')))
      .orderBy(asc(users.createdOn), asc(users.id))
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit'))
      .prepare('users_page'),
    count: db.select({ n: count() }).from(users).where(eq(users.teamId, sql.placeholder('teamId'))).prepare('users_count'),
    byId: db
      .select(withSources)
      .from(users)
      .where(and(eq(users.teamId, sql.placeholder('teamId')), eq(users.id, sql.placeholder('userId'))))
      .prepare('users_by_id'),
    byClientId: db
      .select(withSources)
      .from(users)
      .where(and(eq(users.teamId, sql.placeholder('teamId')), eq(users.clientUserId, sql.placeholder('clientUserId'))))
      .prepare('users_by_client_id'),
  }));
}

function toClientFacing(row: UserRow, sources: User['connected_sources']): User {
  return {
    user_id: row.id,
    team_id: row.teamId,
    client_user_id: row.clientUserId,
    created_on: iso(row.createdOn),
    connected_sources: sources,
    fallback_time_zone: row.fallbackTimeZone
      ? {
          id: row.fallbackTimeZone,
          source_slug: row.fallbackTimeZoneSource ?? API_SOURCE,
          updated_at: iso(row.fallbackTimeZoneUpdatedAt ?? row.createdOn),
        }
      : null,
    fallback_birth_date: row.fallbackBirthDate
      ? {
          value: row.fallbackBirthDate,
          source_slug: row.fallbackBirthDateSource ?? API_SOURCE,
          updated_at: iso(row.fallbackBirthDateUpdatedAt ?? row.createdOn),
        }
      : null,
    ingestion_start: row.ingestionStart,
    ingestion_end: row.ingestionEnd,
  };
}

function present(row: UserRow & { sources: SourceJson[] }, origin: string): User {
  return toClientFacing(row, presentSources(row.sources, origin));
}

/** Users in creation order (ties broken by id), so offsets are stable while users are added. */
export async function listUsers(db: Db, teamId: string, offset: number, limit: number, origin: string) {
  const queries = userQueries(db);
  const rows = await queries.page.execute({ teamId, offset, limit });
  // The page carries the team's total (a window over all its users); past the end there is no row to carry it.
  const total = rows[0]?.total ?? (offset === 0 ? 0 : ((await queries.count.execute({ teamId }))[0]?.n ?? 0));
  return { users: rows.map((r) => present(r, origin)), total, offset, limit };
}

/** The team's user row, or 404: another team's user is answered exactly like an unknown one. */
export async function findUserRow(db: Db, teamId: string, userId: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.teamId, teamId), eq(users.id, userId)));
  if (!row) throw new NotFound('User');
  return row;
}

export async function getUser(db: Db, teamId: string, userId: string, origin: string): Promise<User> {
  const [row] = await userQueries(db).byId.execute({ teamId, userId });
  if (!row) throw new NotFound('User');
  return present(row, origin);
}

export async function resolveUser(db: Db, teamId: string, clientUserId: string, origin: string): Promise<User> {
  const [row] = await userQueries(db).byClientId.execute({ teamId, clientUserId });
  if (!row) throw new NotFound('User');
  return present(row, origin);
}

function duplicate(clientUserId: string, existing: UserRow) {
  return new ServiceError(400, {
    error_type: 'INVALID_REQUEST',
    error_message: `Client user id ${clientUserId} already exists.`,
    user_id: existing.id,
    created_on: iso(existing.createdOn),
  });
}

function writableColumns(body: PatchUserBody, now: Date) {
  const set: Partial<typeof users.$inferInsert> = {};
  if (body.client_user_id !== undefined) set.clientUserId = body.client_user_id;
  if (body.fallback_time_zone !== undefined) {
    set.fallbackTimeZone = body.fallback_time_zone;
    set.fallbackTimeZoneSource = body.fallback_time_zone ? API_SOURCE : null;
    set.fallbackTimeZoneUpdatedAt = body.fallback_time_zone ? now : null;
  }
  if (body.fallback_birth_date !== undefined) {
    set.fallbackBirthDate = body.fallback_birth_date;
    set.fallbackBirthDateSource = body.fallback_birth_date ? API_SOURCE : null;
    set.fallbackBirthDateUpdatedAt = body.fallback_birth_date ? now : null;
  }
  if (body.ingestion_start !== undefined) set.ingestionStart = body.ingestion_start;
  if (body.ingestion_end !== undefined) set.ingestionEnd = body.ingestion_end;
  return set;
}

async function rowByClientId(db: Db, teamId: string, clientUserId: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.teamId, teamId), eq(users.clientUserId, clientUserId)));
  return row;
}

export async function createUser(db: Db, teamId: string, body: CreateUserBody) {
  // created_on is the column default, the database clock (microseconds): users created within one
  // millisecond still list in creation order. Values given at creation show created_on as updated_at.
  const { fallbackTimeZoneUpdatedAt: _tz, fallbackBirthDateUpdatedAt: _bd, ...columns } = writableColumns(body, new Date());
  // ON CONFLICT keeps concurrent creates of one client_user_id from ever making two users.
  const [row] = await db
    .insert(users)
    .values({ teamId, clientUserId: body.client_user_id, ...columns })
    .onConflictDoNothing({ target: [users.teamId, users.clientUserId] })
    .returning();
  if (!row) {
    const existing = await rowByClientId(db, teamId, body.client_user_id);
    throw duplicate(body.client_user_id, existing!);
  }
  return { user_id: row.id, client_user_id: row.clientUserId };
}

/** PostgreSQL's unique_violation, also when the driver error is wrapped (drizzle puts it in `cause`). */
function isUniqueViolation(err: unknown): boolean {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

export async function patchUser(db: Db, teamId: string, userId: string, body: PatchUserBody) {
  const current = await findUserRow(db, teamId, userId);
  const start = body.ingestion_start !== undefined ? body.ingestion_start : current.ingestionStart;
  const end = body.ingestion_end !== undefined ? body.ingestion_end : current.ingestionEnd;
  if (start && end && start > end) {
    throw new ServiceError(422, [
      { loc: ['body', 'ingestion_end'], msg: 'ingestion_start must not be after ingestion_end', type: 'value_error' },
    ]);
  }
  if (body.client_user_id !== undefined && body.client_user_id !== current.clientUserId) {
    const other = await rowByClientId(db, teamId, body.client_user_id);
    if (other) throw duplicate(body.client_user_id, other);
  }
  const set = writableColumns(body, new Date());
  if (Object.keys(set).length === 0) return;
  try {
    await db
      .update(users)
      .set(set)
      .where(and(eq(users.teamId, teamId), eq(users.id, userId)));
  } catch (err) {
    // Lost a race with another rename to the same client_user_id.
    if (isUniqueViolation(err)) {
      const other = await rowByClientId(db, teamId, body.client_user_id!);
      if (other) throw duplicate(body.client_user_id!, other);
    }
    throw err;
  }
}

export async function deleteUser(db: Db, teamId: string, userId: string) {
  const rows = await db
    .delete(users)
    .where(and(eq(users.teamId, teamId), eq(users.id, userId)))
    .returning({ id: users.id });
  if (rows.length === 0) throw new NotFound('User');
  return { success: true };
}
