/**
 * vitest globalSetup of the node and page projects: builds the store templates once per run (see
 * test/support/templates.ts), so that a suite copies a migrated, seeded store instead of running
 * initdb, the migrations and the seeding itself.
 *
 * - PGlite: one store per part is migrated and seeded step by step; after each step its data
 *   directory is dumped (`dumpDataDir`) into a file that suites load (`new PGlite({ loadDataDir })`).
 * - PostgreSQL (TEST_DATABASE_URL set): template databases that suites copy with
 *   `CREATE DATABASE … TEMPLATE …` (test/support/testDatabase.ts).
 *
 * Templates are named after a hash of both parts' migrations and this run's process id; those of
 * runs that are no longer alive (or of other migrations and no live run) are removed at start, and
 * this run's at the end. The service, BFF and page projects share one build.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { bffSchema } from '../../server/bff/db/schema';
import { serviceSchema } from '../../server/service/db/schema';
import { syncProviderCatalogue } from '../../server/service/domain/providers';
import { ensureDemoLabAccounts, syncLabCatalogue } from '../../server/service/seed/labCatalogue';
import { migrationsHash, openStore, type Store } from '../../server/store/db';
import { createTestStaff, seedServiceTeams } from '../bff/harness';
import { templateFileName, type StoreTemplates, type TemplateName } from './templates';

const serviceMigrations = path.resolve('server/service/db/migrations');
const bffMigrations = path.resolve('server/bff/db/migrations');
const ROOT = path.join(tmpdir(), 'labdesk-store-templates');
const PG_PREFIX = 'labdesk_tpl_';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<hash>_<pid>`: stale when its run is gone. */
function stale(key: string): boolean {
  const pid = Number(key.split('_')[1]);
  return !Number.isInteger(pid) || pid === process.pid || !alive(pid);
}

async function withAdmin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const databaseUrl = (name: string) => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
};

async function dump(store: Store<Record<string, unknown>>, file: string) {
  const client = (store.db as unknown as { $client: PGlite }).$client;
  const blob = await client.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
}

async function build(): Promise<{ templates: StoreTemplates; remove(): Promise<void> }> {
  const hashes = { service: migrationsHash(serviceMigrations), bff: migrationsHash(bffMigrations) };
  const key = `${hashes.service.slice(0, 8)}${hashes.bff.slice(0, 8)}_${process.pid}`;

  // Stale templates: files and databases of runs that ended without removing theirs.
  mkdirSync(ROOT, { recursive: true });
  for (const entry of readdirSync(ROOT)) if (stale(entry)) rmSync(path.join(ROOT, entry), { recursive: true, force: true });
  const dir = path.join(ROOT, key);
  mkdirSync(dir, { recursive: true });
  const postgres = Boolean(process.env.TEST_DATABASE_URL);
  if (postgres) {
    await withAdmin(async (c) => {
      const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE '${PG_PREFIX}%'`);
      for (const { datname } of rows) {
        if (stale(datname.slice(PG_PREFIX.length).split('_').slice(0, 2).join('_'))) {
          await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
        }
      }
    });
  }

  const templates: StoreTemplates = {};
  const pgName = (name: TemplateName) => `${PG_PREFIX}${key}_${name.replace('-', '_')}`;
  const record = (name: TemplateName, part: 'service' | 'bff', meta: unknown, withPostgres: boolean) => {
    templates[name] = {
      migrationsHash: hashes[part],
      file: templateFileName(dir, name),
      ...(postgres && withPostgres && { postgresDatabase: pgName(name) }),
      meta,
    };
  };

  // PGlite: the service's chain, then the BFF's.
  const service = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder: serviceMigrations });
  try {
    await syncProviderCatalogue(service.db);
    await dump(service, templateFileName(dir, 'service'));
    const teams = await seedServiceTeams(service.db);
    await dump(service, templateFileName(dir, 'service-teams'));
    await syncLabCatalogue(service.db);
    await ensureDemoLabAccounts(service.db, teams.team.teamId);
    await ensureDemoLabAccounts(service.db, teams.otherTeam.teamId);
    await dump(service, templateFileName(dir, 'service-lab'));
    record('service', 'service', null, true);
    record('service-teams', 'service', teams, false);
    record('service-lab', 'service', teams, false);
  } finally {
    await service.close();
  }
  const bff = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: bffMigrations });
  try {
    await dump(bff, templateFileName(dir, 'bff'));
    const staff = await createTestStaff(bff.db);
    await dump(bff, templateFileName(dir, 'bff-staff'));
    record('bff', 'bff', null, true);
    // The PostgreSQL copy gets staff of its own (other ids): its meta is read from it below.
    record('bff-staff', 'bff', { staff }, false);
  } finally {
    await bff.close();
  }

  // PostgreSQL: the stores the store-facing suites open there (services of the BFF suites are PGlite).
  if (postgres) {
    await withAdmin((c) => c.query(`CREATE DATABASE "${pgName('service')}"`));
    const pgService = await openStore({ part: 'service', schema: serviceSchema, migrationsFolder: serviceMigrations, databaseUrl: databaseUrl(pgName('service')), poolSize: 1 });
    await syncProviderCatalogue(pgService.db).finally(() => pgService.close());
    await withAdmin((c) => c.query(`CREATE DATABASE "${pgName('bff')}"`));
    const pgBff = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: bffMigrations, databaseUrl: databaseUrl(pgName('bff')), poolSize: 1 });
    await pgBff.close();
    await withAdmin((c) => c.query(`CREATE DATABASE "${pgName('bff-staff')}" TEMPLATE "${pgName('bff')}"`));
    const pgStaff = await openStore({ part: 'bff', schema: bffSchema, migrationsFolder: bffMigrations, databaseUrl: databaseUrl(pgName('bff-staff')), poolSize: 1 });
    const staff = await createTestStaff(pgStaff.db).finally(() => pgStaff.close());
    templates['bff-staff'] = { ...templates['bff-staff']!, postgresDatabase: pgName('bff-staff'), postgresMeta: { staff } };
  }

  return {
    templates,
    async remove() {
      rmSync(dir, { recursive: true, force: true });
      if (postgres) {
        await withAdmin(async (c) => {
          for (const name of ['service', 'bff', 'bff-staff'] as const) await c.query(`DROP DATABASE IF EXISTS "${pgName(name)}" WITH (FORCE)`).catch(() => {});
        });
      }
    },
  };
}

interface Shared {
  built?: ReturnType<typeof build>;
  users: number;
}
// One build for the whole run, whichever projects' globalSetup loads this module (each may load its own copy).
const shared: Shared = ((globalThis as Record<string, unknown>).__labdeskStoreTemplates ??= { users: 0 }) as Shared;

export default async function setup(project: TestProject) {
  shared.users += 1;
  shared.built ??= build();
  const { templates, remove } = await shared.built;
  project.provide('storeTemplates', templates);
  return async () => {
    shared.users -= 1;
    if (shared.users === 0) {
      shared.built = undefined;
      await remove();
    }
  };
}
