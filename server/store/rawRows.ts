import { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders, sql, type Column, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { prepared } from './prepared';

/**
 * The hot reads (the users list, the orders list, a timeseries page) read their rows through the
 * driver as arrays, past drizzle's row mapping: mapping a row (its `is()` checks, a decoder call per
 * column, a `Date` parsed per timestamp and formatted again by the presenter) cost more of the
 * service's CPU than PostgreSQL took to answer (docs/performance.md, 2026-11-29, session 18).
 * The query is still written with drizzle's `sql` (table and column names from the schema) and
 * rendered to text once per store; only the reading of its rows is by hand.
 *
 * What a column comes back as is the driver's default for its type, the same on `pg` and PGlite for
 * the types these queries select: text and uuid as strings, integers and floats as numbers, bigints
 * (count(*), identities) as strings on `pg`, json as parsed values. Timestamps and dates are never
 * selected as such (`pg` would parse a date as a local `Date`): timestamps as `isoText`, dates as
 * `::text`.
 */
export type RawRows = (values: Record<string, unknown>) => Promise<unknown[][]>;

const dialect = new PgDialect();

/** The driver under a drizzle database: a `pg` pool or a PGlite instance. */
function driverOf(db: object): pg.Pool | PGlite {
  const client = '$client' in db ? db.$client : undefined;
  if (client instanceof pg.Pool || client instanceof PGlite) return client;
  throw new Error('raw rows need the store itself (a pg pool or PGlite), not a transaction');
}

/**
 * `build`'s query, rendered once per store and, on PostgreSQL, a named prepared statement (planned
 * once per connection); `sql.placeholder(name)` values are filled from the call's values.
 */
export function rawRows(db: object, name: string, build: () => SQL): RawRows {
  return prepared(db, `raw:${name}`, (): RawRows => {
    const { sql: text, params } = dialect.sqlToQuery(build());
    const driver = driverOf(db);
    if (driver instanceof pg.Pool) {
      return async (values) => (await driver.query({ name, text, values: fillPlaceholders(params, values), rowMode: 'array' })).rows;
    }
    return async (values) => (await driver.query<unknown[]>(text, fillPlaceholders(params, values), { rowMode: 'array' })).rows;
  });
}

/**
 * A timestamptz as the text `Date.prototype.toISOString` writes of it as the driver reads it
 * (what the presenters wrote before): UTC, milliseconds truncated, not rounded (to_char's MS
 * truncates like V8's parse of a six-digit fraction), `Z`. Independent of the session's TimeZone.
 * For years 0001–9999: JavaScript writes other years as ±YYYYYY, to_char would not.
 */
export const isoText = (column: Column | SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Readers of a raw row's values, for the few types these queries select. */
export const text = (v: unknown): string => String(v);
export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const num = (v: unknown): number => Number(v);
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
