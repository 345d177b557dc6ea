import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * Set-based inserts: one statement for a whole batch, its columns passed as one array parameter
 * each (`INSERT … SELECT * FROM unnest($1::uuid[], $2::text[], …)`). A multi-row `VALUES` list
 * needs one parameter per cell (PostgreSQL allows 65,535, and drizzle spends most of the time of a
 * large insert building them); with arrays a statement has as many parameters as columns, whatever
 * its number of rows. Works the same on PGlite and PostgreSQL.
 */

/** One column of a batch: the table's column, its PostgreSQL type, and its values (null for NULL). */
export interface BulkColumn {
  column: PgColumn;
  /** The element type, e.g. `uuid`, `text`, `timestamptz`, `float8`, `int4`, `jsonb`. */
  type: string;
  values: readonly unknown[];
}

/** Dates go as ISO strings (both drivers read arrays of strings the same way); objects for jsonb as JSON. */
function wire(type: string, values: readonly unknown[]): unknown[] {
  if (type === 'timestamptz' || type === 'timestamp') return values.map((v) => (v instanceof Date ? v.toISOString() : v));
  if (type === 'jsonb' || type === 'json') return values.map((v) => (v === null || v === undefined ? null : JSON.stringify(v)));
  return values as unknown[];
}

/**
 * `INSERT INTO <table> (<columns>) SELECT * FROM unnest(…) AS i(<columns>) [where]`, with `tail`
 * appended (e.g. `ON CONFLICT … DO NOTHING` or `RETURNING …`). `where` may refer to the incoming
 * row as `i.<column>`. Every column must hold the same number of values.
 */
export function unnestInsert(table: PgTable, columns: readonly BulkColumn[], tail?: SQL, where?: SQL): SQL {
  const rows = columns[0]?.values.length ?? 0;
  for (const c of columns) {
    if (c.values.length !== rows) throw new Error(`unnestInsert: column ${c.column.name} has ${c.values.length} values, not ${rows}`);
    if (!/^[a-z0-9_]+$/.test(c.type)) throw new Error(`unnestInsert: unexpected type ${c.type}`);
  }
  const names = sql.join(columns.map((c) => sql.identifier(c.column.name)), sql`, `);
  const arrays = sql.join(columns.map((c) => sql`${sql.param(wire(c.type, c.values))}::${sql.raw(c.type)}[]`), sql`, `);
  return sql`insert into ${table} (${names}) select * from unnest(${arrays}) as i(${names})${where ? sql` ${where}` : sql``}${tail ? sql` ${tail}` : sql``}`;
}
