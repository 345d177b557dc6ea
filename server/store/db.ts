import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { acquireDirLock } from './lock';
import { restrictToOwner } from './ownerOnly';
import { pgliteNotifications, postgresNotifications, type Notifications } from './notify';

export type Database<TSchema extends Record<string, unknown>> = PgDatabase<PgQueryResultHKT, TSchema>;

export interface StoreOptions<TSchema extends Record<string, unknown>> {
  /** Which part owns this store ("service" or "bff"): its PostgreSQL schema and its PGlite subdirectory. */
  part: string;
  schema: TSchema;
  migrationsFolder: string;
  /** PostgreSQL connection string; when absent the embedded PGlite store is used. */
  databaseUrl?: string;
  /** Directory for the PGlite files; absent means in-memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /**
   * A store to start from instead of an empty one (tests: a template built once per run, see
   * test/support/storeTemplates.ts). For PGlite the new in-memory store starts from the template's
   * data directory; on PostgreSQL the database at `databaseUrl` is already a copy of it (CREATE
   * DATABASE … TEMPLATE …). Either way, migrating is skipped when the template was made by the
   * same migrations (`migrationsHash`), and runs as usual when they changed since.
   */
  template?: StoreTemplate;
}

export interface StoreTemplate {
  /** `migrationsHash(migrationsFolder)` when the template was made. */
  migrationsHash: string;
  /** PGlite only: the template's data directory, as `PGlite.dumpDataDir` gave it (an uncompressed tar). */
  dataDir?: Blob;
}

const migrationHashes = new Map<string, string>();

/** A hash of a migrations folder's journal and SQL files: it changes when any migration does. */
export function migrationsHash(migrationsFolder: string): string {
  const known = migrationHashes.get(migrationsFolder);
  if (known) return known;
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')),
    path.join('meta', '_journal.json'),
  ].sort();
  for (const f of files) {
    hash.update(f).update('\0').update(readFileSync(path.join(migrationsFolder, f))).update('\0');
  }
  const digest = hash.digest('hex').slice(0, 16);
  migrationHashes.set(migrationsFolder, digest);
  return digest;
}

export interface Store<TSchema extends Record<string, unknown>> {
  db: Database<TSchema>;
  kind: 'pglite' | 'postgres';
  /** LISTEN/NOTIFY between the processes on this store (and within this one). */
  notifications: Notifications;
  close(): Promise<void>;
}

/**
 * The embedded PostgreSQL's shared buffers live in the process's own memory: PostgreSQL's default
 * of 128 MB is most of a part's resident size at rest. 16 MB keeps the hot pages of a demo-sized
 * store (the file system cache holds the rest) and saves ~120 MB per process.
 */
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** Opens the part's store and brings its schema up to date. */
export async function openStore<TSchema extends Record<string, unknown>>(
  opts: StoreOptions<TSchema>,
): Promise<Store<TSchema>> {
  const migrationConfig = {
    migrationsFolder: opts.migrationsFolder,
    // Not the part's own schema: drizzle creates its bookkeeping schema before the first migration runs.
    migrationsSchema: 'drizzle',
    migrationsTable: `${opts.part}_migrations`,
  };
  const templateIsCurrent = opts.template !== undefined && opts.template.migrationsHash === migrationsHash(opts.migrationsFolder);
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    pool.on('error', () => {
      /* an idle client lost its connection; the pool replaces it */
    });
    const db = drizzlePg(pool, { schema: opts.schema });
    if (!templateIsCurrent) {
      // Two processes starting at once must not both apply the same migration.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [`labdesk-migrate-${opts.part}`]);
        await migratePg(drizzlePg(client, { schema: opts.schema }), migrationConfig);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`labdesk-migrate-${opts.part}`]).catch(() => {});
        client.release();
      }
    }
    const notifications = postgresNotifications(opts.databaseUrl);
    return {
      db: db as unknown as Database<TSchema>,
      kind: 'postgres',
      notifications,
      close: async () => {
        await notifications.close();
        await pool.end();
      },
    };
  }

  let release = () => {};
  let client: PGlite;
  if (opts.dataDir) {
    const dir = path.join(opts.dataDir, opts.part);
    restrictToOwner(dir);
    const unlock = acquireDirLock(dir, opts.part);
    release = () => {
      restrictToOwner(dir); // files the store created while open
      unlock();
    };
    client = new PGlite(path.join(dir, 'pgdata'), { startParams: EMBEDDED_START_PARAMS });
  } else {
    client = new PGlite({ startParams: EMBEDDED_START_PARAMS, ...(opts.template?.dataDir && { loadDataDir: opts.template.dataDir }) });
  }
  try {
    await client.waitReady;
    if (opts.dataDir) restrictToOwner(path.join(opts.dataDir, opts.part)); // files the first start created
    const db = drizzlePglite(client, { schema: opts.schema });
    if (!(templateIsCurrent && opts.template?.dataDir && !opts.dataDir)) await migratePglite(db, migrationConfig);
    return {
      db: db as unknown as Database<TSchema>,
      kind: 'pglite',
      notifications: pgliteNotifications(client),
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (err) {
    await client.close().catch(() => {});
    release();
    throw err;
  }
}
