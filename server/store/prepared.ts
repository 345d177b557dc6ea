/**
 * Queries built once per store and prepared (drizzle's `.prepare()`): building a query with
 * drizzle costs more than PostgreSQL takes to run a simple one, and a named prepared statement is
 * planned once per connection. Keyed by the database object, so each store (and each test's
 * store) has its own.
 */
const byDatabase = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(db: object, name: string, build: () => T): T {
  let statements = byDatabase.get(db);
  if (!statements) byDatabase.set(db, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) statements.set(name, (statement = build()));
  return statement;
}
