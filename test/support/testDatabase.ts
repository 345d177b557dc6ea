import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Store-facing suites run on the embedded store, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export type StoreKind = 'pglite' | 'postgres';
export const storeKinds: StoreKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase {
  /** PostgreSQL URL of a fresh database; undefined for in-memory PGlite. */
  databaseUrl?: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database: in-memory PGlite needs nothing; on PostgreSQL each test file gets its own
 * `<prefix>_<random>` database, so files run in parallel without seeing each other's rows. It is
 * empty, or a copy of `template` (a template database of this run, see test/support/templates.ts).
 */
export async function createTestDatabase(kind: StoreKind, prefix = 'labdesk_t', template?: string): Promise<TestDatabase> {
  if (kind === 'pglite') return { databaseUrl: undefined, drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    drop: () => withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
