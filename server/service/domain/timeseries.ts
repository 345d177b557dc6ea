import { and, sql, type SQL } from 'drizzle-orm';
import type { GroupedTimeseriesQuery, GroupedTimeseriesResponse, TimeseriesGroup } from '../../contract';
import { isCalendarDate, TIMESERIES_PAGE_SIZE } from '../../contract';
import { postgresZoneNameSql } from '../../lib/timezones';
import type { Database } from '../../store/db';
import { isoText, num, numOrNull, rawRows, text } from '../../store/rawRows';
import { mindfulnessMinutes as m, users, type ServiceSchema } from '../db/schema';
import type { CursorCodec } from './cursor';
import { queryDigest } from './cursor';
import { Invalid, NotFound } from './errors';
import { findUserRow } from './users';

type Db = Database<ServiceSchema>;

/**
 * A query bound is either an instant (a date-time with Z or an offset) or a local wall-clock time
 * (a date, or a date-time without an offset). Local bounds are compared with each session's local
 * start time: its own timezone_offset when the source gave one, otherwise the user's fallback time
 * zone (UTC when the user has none). A date alone means 00:00:00 as a start and 23:59:59 (the whole
 * second) as an end.
 */
type Bound = { kind: 'instant'; at: Date } | { kind: 'local'; wall: string };

const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/;
/** The widest UTC offsets in use (+14:00, -12:00): local bounds widen by this to use the index. */
const MAX_OFFSET = "interval '14 hours'";

/** Instants PostgreSQL can read back from an ISO string (years 0001-9999). */
const MIN_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const MAX_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

function parseBound(value: string, edge: 'start' | 'end', field: string): Bound {
  const loc = ['query', field];
  const normal = value.replace(' ', 'T');
  // The date part must exist in every form: JavaScript rolls 2026-02-30 over to March, PostgreSQL refuses it.
  if (!isCalendarDate(normal.slice(0, 10))) throw new Invalid(loc, 'is not a real calendar date', 'value_error.date');
  if (normal.length === 10) {
    return { kind: 'local', wall: edge === 'start' ? `${normal} 00:00:00` : `${normal} 23:59:59.999999` };
  }
  if (HAS_OFFSET.test(normal)) {
    const at = new Date(normal);
    if (Number.isNaN(at.getTime()) || at.getTime() < MIN_INSTANT || at.getTime() > MAX_INSTANT) {
      throw new Invalid(loc, 'is not a valid date-time', 'value_error.datetime');
    }
    return { kind: 'instant', at };
  }
  const withSeconds = /T\d{2}:\d{2}$/.test(normal) ? `${normal}:00` : normal;
  if (Number.isNaN(Date.parse(`${withSeconds}Z`))) throw new Invalid(loc, 'is not a valid date-time', 'value_error.datetime');
  return { kind: 'local', wall: withSeconds.replace('T', ' ') };
}

function boundMillis(b: Bound): number {
  return b.kind === 'instant' ? b.at.getTime() : Date.parse(`${b.wall.replace(' ', 'T').slice(0, 23)}Z`);
}

interface CursorState {
  start: Date;
  id: number;
}

function readCursor(codec: CursorCodec, raw: string, field: string, userId: string, digest: string): CursorState {
  const loc = ['query', field];
  const p = codec.decode(raw, loc);
  if (p.v !== 1 || typeof p.s !== 'string' || typeof p.i !== 'number') {
    throw new Invalid(loc, 'cursor is malformed', 'value_error.cursor');
  }
  if (p.u !== userId || p.k !== 'mindfulness_minutes') {
    throw new Invalid(loc, 'cursor belongs to another user or resource', 'value_error.cursor');
  }
  if (p.q !== digest) {
    throw new Invalid(loc, 'cursor belongs to a query with other start_date, end_date or provider', 'value_error.cursor');
  }
  return { start: new Date(p.s), id: p.i };
}

/** What a grouped read asks for, checked before the store is asked. */
interface ReadPlan {
  start: Bound;
  end: Bound | null;
  digest: string;
  after: CursorState | null;
}

function planRead(codec: CursorCodec, userId: string, q: GroupedTimeseriesQuery): ReadPlan {
  if (q.next_cursor && q.cursor && q.next_cursor !== q.cursor) {
    throw new Invalid(['query', 'cursor'], 'cursor (deprecated) and next_cursor disagree; send only next_cursor');
  }
  const cursorField = q.next_cursor ? 'next_cursor' : 'cursor';
  const rawCursor = q.next_cursor || q.cursor || null;

  const start = parseBound(q.start_date, 'start', 'start_date');
  const end = q.end_date ? parseBound(q.end_date, 'end', 'end_date') : null;
  if (end && start.kind === end.kind && boundMillis(start) > boundMillis(end)) {
    throw new Invalid(['query', 'end_date'], 'end_date must not be before start_date');
  }
  const digest = queryDigest({ s: q.start_date, e: q.end_date ?? null, p: q.provider });
  // The stored spelling of the id (lower case), not the path's: a client may write the uuid in upper case.
  const after = rawCursor ? readCursor(codec, rawCursor, cursorField, userId.toLowerCase(), digest) : null;
  return { start, end, digest, after };
}

/** What decides the text of a page's query: each combination is built once and prepared. */
interface ReadShape {
  start: Bound['kind'];
  end: Bound['kind'] | null;
  provider: boolean;
  after: boolean;
}

function readShape(start: Bound, end: Bound | null, provider: string | undefined, after: CursorState | null): ReadShape {
  return { start: start.kind, end: end?.kind ?? null, provider: Boolean(provider), after: after !== null };
}

/** A bound as its query parameter: an instant as ISO text (cast to timestamptz), a wall-clock time as is. */
const boundValue = (b: Bound) => (b.kind === 'instant' ? b.at.toISOString() : b.wall);

/**
 * The user row with its page of sessions joined laterally, for one shape of query, rendered once per
 * store and prepared, its rows read as arrays (server/store/rawRows.ts): building this query with
 * drizzle on every request cost about as much as PostgreSQL took to run it, and mapping its rows
 * (a `Date` parsed per timestamp, formatted again here) more. The values are placeholders filled
 * per request. Columns: the user's id, and the page's sessions as one JSON array (null when there is
 * none) of [id, provider, source type, start and end (ISO text), value, timezone offset].
 */
function pageQuery(db: Db, shape: ReadShape) {
  const name = `timeseries_page_${shape.start}_${shape.end ?? 'open'}${shape.provider ? '_provider' : ''}${shape.after ? '_after' : ''}`;
  return rawRows(db, name, () => {
    const zone = postgresZoneNameSql(sql`coalesce(${users.fallbackTimeZone}, 'UTC')`);
    const localStart = sql`(CASE WHEN ${m.timezoneOffset} IS NOT NULL
      THEN (${m.startAt} AT TIME ZONE 'UTC') + make_interval(secs => ${m.timezoneOffset})
      ELSE ${m.startAt} AT TIME ZONE ${zone} END)`;

    const where: SQL[] = [sql`${m.userId} = ${users.id}`];
    if (shape.provider) where.push(sql`${m.providerSlug} = ${sql.placeholder('provider')}`);
    const addBound = (kind: Bound['kind'], value: ReturnType<typeof sql.placeholder>, op: '>=' | '<=') => {
      if (kind === 'instant') {
        where.push(op === '>=' ? sql`${m.startAt} >= ${value}::timestamptz` : sql`${m.startAt} <= ${value}::timestamptz`);
      } else if (op === '>=') {
        where.push(sql`${m.startAt} >= (${value}::timestamp - ${sql.raw(MAX_OFFSET)}) AT TIME ZONE 'UTC'`);
        where.push(sql`${localStart} >= ${value}::timestamp`);
      } else {
        where.push(sql`${m.startAt} <= (${value}::timestamp + ${sql.raw(MAX_OFFSET)}) AT TIME ZONE 'UTC'`);
        where.push(sql`${localStart} <= ${value}::timestamp`);
      }
    };
    addBound(shape.start, sql.placeholder('start'), '>=');
    if (shape.end) addBound(shape.end, sql.placeholder('end'), '<=');
    // Data outside the user's ingestion bounds is never served, whatever the query asks.
    where.push(sql`(${users.ingestionStart} IS NULL OR ${localStart} >= ${users.ingestionStart}::timestamp)`);
    where.push(sql`(${users.ingestionEnd} IS NULL OR ${localStart} < (${users.ingestionEnd}::date + 1)::timestamp)`);
    if (shape.after) where.push(sql`(${m.startAt}, ${m.id}) > (${sql.placeholder('afterStart')}::timestamptz, ${sql.placeholder('afterId')})`);

    const s = sql.identifier('sessions');
    return sql`SELECT ${users.id}, (
        SELECT json_agg(json_build_array(${s}.id, ${s}.provider_slug, ${s}.source_type,
          ${isoText(sql`${s}.start_at`)}, ${isoText(sql`${s}.end_at`)}, ${s}.value, ${s}.timezone_offset) ORDER BY ${s}.start_at, ${s}.id)
        FROM (
          SELECT ${m.id}, ${m.providerSlug}, ${m.sourceType}, ${m.startAt}, ${m.endAt}, ${m.value}, ${m.timezoneOffset}
          FROM ${m} WHERE ${and(...where)}
          ORDER BY ${m.startAt}, ${m.id} LIMIT ${sql.raw(String(TIMESERIES_PAGE_SIZE + 1))}
        ) ${s})
      FROM ${users}
      WHERE ${users.teamId} = ${sql.placeholder('teamId')} AND ${users.id} = ${sql.placeholder('userId')}`;
  });
}

/**
 * One page of a user's sessions, grouped by source. The user (its team, fallback time zone and
 * ingestion bounds) and the page are read in one query: the user row, with the page joined
 * laterally, so an unknown user is no row at all and a user without sessions one row without a
 * session.
 */
export async function groupedMindfulnessMinutes(
  db: Db,
  codec: CursorCodec,
  teamId: string,
  userId: string,
  q: GroupedTimeseriesQuery,
): Promise<GroupedTimeseriesResponse> {
  let plan: ReadPlan;
  try {
    plan = planRead(codec, userId, q);
  } catch (err) {
    // An unknown user is a 404 whatever else is wrong with the query.
    await findUserRow(db, teamId, userId);
    throw err;
  }
  const { start, end, digest, after } = plan;

  const joined = await pageQuery(db, readShape(start, end, q.provider, after))({
    teamId,
    userId,
    provider: q.provider ?? null,
    start: boundValue(start),
    end: end ? boundValue(end) : null,
    afterStart: after ? after.start.toISOString() : null,
    afterId: after ? after.id : null,
  });
  if (joined.length === 0) throw new NotFound('User');
  const userIdStored = text(joined[0]![0]);
  // The page's sessions as one JSON array of arrays (null when there is none): one field for the
  // driver to read instead of eight per session. Each value reads back as it did as a column:
  // JSON.parse and pg's parseFloat read the same float8out text of a double.
  const json = joined[0]![1];
  const rows: unknown[][] = Array.isArray(json) ? json.filter((r) => Array.isArray(r)) : [];

  const page = rows.length > TIMESERIES_PAGE_SIZE ? rows.slice(0, TIMESERIES_PAGE_SIZE) : rows;
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > TIMESERIES_PAGE_SIZE && last
      ? codec.encode({ v: 1, k: 'mindfulness_minutes', u: userIdStored, q: digest, s: text(last[3]), i: num(last[0]) })
      : null;

  const groups: Record<string, TimeseriesGroup[]> = {};
  const bySource = new Map<string, TimeseriesGroup>();
  for (const [id, provider, sourceType, start, end, value, offset] of page) {
    const providerSlug = text(provider);
    const type = text(sourceType);
    const key = `${providerSlug}\u0000${type}`;
    let group = bySource.get(key);
    if (!group) {
      group = { source: { provider: providerSlug, type }, data: [] };
      bySource.set(key, group);
      (groups[providerSlug] ??= []).push(group);
    }
    const startIso = text(start);
    group.data.push({
      id: num(id),
      timestamp: startIso,
      start: startIso,
      end: text(end),
      unit: 'min',
      value: num(value),
      timezone_offset: numOrNull(offset),
      type: null,
    });
  }
  return { groups, next_cursor: nextCursor, next: nextCursor };
}
