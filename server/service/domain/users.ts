import { and, count, eq, sql } from 'drizzle-orm';
import { prepared } from '../../store/prepared';
import { isoText, num, rawRows, text, textOrNull } from '../../store/rawRows';
import type { CreateUserBody, PatchUserBody, User } from '../../contract';
import type { Database } from '../../store/db';
import { connectedSources, providers, users, type ServiceSchema } from '../db/schema';
import { NotFound, ServiceError } from './errors';

type Db = Database<ServiceSchema>;
type UserRow = typeof users.$inferSelect;

/** Source slug recorded when a fallback value is set through the API rather than by a provider. */
const API_SOURCE = 'manual';

const iso = (d: Date) => d.toISOString();

/**
 * A user's connected sources as one JSON array, in the user's own row: no second round trip. Its
 * created_on is ISO text already (`isoText`), like every timestamp the reads below select.
 */
const sourcesJson = sql`coalesce((
  SELECT json_agg(json_build_object('created_on', ${isoText(connectedSources.createdOn)}, 'slug', ${providers.slug}, 'name', ${providers.name}, 'logo', ${providers.logo})
    ORDER BY ${connectedSources.createdOn}, ${providers.slug})
  FROM ${connectedSources} JOIN ${providers} ON ${providers.slug} = ${connectedSources.providerSlug}
  WHERE ${connectedSources.userId} = ${users.id}), '[]'::json)`;

/** What the reads select, in this order (server/store/rawRows.ts: rows are arrays). */
const userColumns = sql`${users.id}, ${users.teamId}, ${users.clientUserId}, ${isoText(users.createdOn)},
  ${users.fallbackTimeZone}, ${users.fallbackTimeZoneSource}, ${isoText(users.fallbackTimeZoneUpdatedAt)},
  ${users.fallbackBirthDate}::text, ${users.fallbackBirthDateSource}, ${isoText(users.fallbackBirthDateUpdatedAt)},
  ${users.ingestionStart}::text, ${users.ingestionEnd}::text, ${sourcesJson}`;
/** The column after `userColumns` in the page's rows: the team's number of users. */
const TOTAL = 13;

/** A value of the sources' JSON (an object parsed by the driver) as text. */
const jsonText = (o: unknown, key: string): string => (typeof o === 'object' && o !== null ? String(Reflect.get(o, key)) : '');

function presentSources(json: unknown, origin: string): User['connected_sources'] {
  if (!Array.isArray(json)) return [];
  return json.map((r: unknown) => {
    const logo = jsonText(r, 'logo');
    const provider = { name: jsonText(r, 'name'), slug: jsonText(r, 'slug'), logo: logo.startsWith('/') ? origin + logo : logo };
    return { provider, created_on: jsonText(r, 'created_on'), source: provider };
  });
}

/** A row of `userColumns` as the client-facing user. */
function present(row: unknown[], origin: string): User {
  const createdOn = text(row[3]);
  const fallbackTimeZone = textOrNull(row[4]);
  const fallbackBirthDate = textOrNull(row[7]);
  return {
    user_id: text(row[0]),
    team_id: text(row[1]),
    client_user_id: text(row[2]),
    created_on: createdOn,
    connected_sources: presentSources(row[12], origin),
    fallback_time_zone: fallbackTimeZone
      ? { id: fallbackTimeZone, source_slug: textOrNull(row[5]) ?? API_SOURCE, updated_at: textOrNull(row[6]) ?? createdOn }
      : null,
    fallback_birth_date: fallbackBirthDate
      ? { value: fallbackBirthDate, source_slug: textOrNull(row[8]) ?? API_SOURCE, updated_at: textOrNull(row[9]) ?? createdOn }
      : null,
    ingestion_start: textOrNull(row[10]),
    ingestion_end: textOrNull(row[11]),
  };
}

/** The reads of users, one round trip each, rendered once per store and prepared. */
const pageOfUsers = (db: Db) =>
  rawRows(db, 'users_page_rows', () => sql`SELECT ${userColumns}, count(*) OVER () FROM ${users}
    WHERE ${users.teamId} = ${sql.placeholder('teamId')}
    ORDER BY ${users.createdOn}, ${users.id} OFFSET ${sql.placeholder('offset')} LIMIT ${sql.placeholder('limit')}`);
const countOfUsers = (db: Db) =>
  prepared(db, 'users_count', () => db.select({ n: count() }).from(users).where(eq(users.teamId, sql.placeholder('teamId'))).prepare('users_count'));
const userById = (db: Db) =>
  rawRows(db, 'users_by_id_rows', () => sql`SELECT ${userColumns} FROM ${users}
    WHERE ${users.teamId} = ${sql.placeholder('teamId')} AND ${users.id} = ${sql.placeholder('userId')}`);
const userByClientId = (db: Db) =>
  rawRows(db, 'users_by_client_id_rows', () => sql`SELECT ${userColumns} FROM ${users}
    WHERE ${users.teamId} = ${sql.placeholder('teamId')} AND ${users.clientUserId} = ${sql.placeholder('clientUserId')}`);

/** Users in creation order (ties broken by id), so offsets are stable while users are added. */
export async function listUsers(db: Db, teamId: string, offset: number, limit: number, origin: string) {
  const rows = await pageOfUsers(db)({ teamId, offset, limit });
  // The page carries the team's total (a window over all its users); past the end there is no row to carry it.
  const total = rows[0] ? num(rows[0][TOTAL]) : offset === 0 ? 0 : ((await countOfUsers(db).execute({ teamId }))[0]?.n ?? 0);
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
  const [row] = await userById(db)({ teamId, userId });
  if (!row) throw new NotFound('User');
  return present(row, origin);
}

export async function resolveUser(db: Db, teamId: string, clientUserId: string, origin: string): Promise<User> {
  const [row] = await userByClientId(db)({ teamId, clientUserId });
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
