/**
 * The store templates of this run (built once by test/support/storeTemplatesSetup.ts, a vitest
 * globalSetup), as the harnesses use them: a suite's store starts as a copy of a migrated (and,
 * where the harness seeds, seeded) store instead of migrating and seeding its own. Without a
 * template (a run without the globalSetup, or a template this run did not build) the harnesses
 * migrate and seed as before.
 */
import { Blob } from 'node:buffer';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { StoreTemplate } from '../../server/store/db';

/**
 * - `service`: the service's migrations and provider catalogue (service harness `openTestStore`).
 * - `service-teams`: and two teams (BFF harness `startService`); meta: `{ team, otherTeam }`.
 * - `service-lab`: and the lab catalogue and both teams' demo lab accounts (`startLabService`).
 * - `bff`: the BFF's migrations (`openBffStore`).
 * - `bff-staff`: and the staff of every role (`startBff`); meta: `{ staff }`.
 */
export type TemplateName = 'service' | 'service-teams' | 'service-lab' | 'bff' | 'bff-staff';

export interface TemplateRecord {
  migrationsHash: string;
  /** The PGlite template: an uncompressed tar of its data directory. */
  file: string;
  /** The PostgreSQL template database, when TEST_DATABASE_URL is set. */
  postgresDatabase?: string;
  /** What the seeding returned (team keys, staff), which the store itself cannot give back. */
  meta: unknown;
  /** The same for the PostgreSQL template, when it was seeded on its own. */
  postgresMeta?: unknown;
}

export type StoreTemplates = Partial<Record<TemplateName, TemplateRecord>>;

declare module 'vitest' {
  export interface ProvidedContext {
    storeTemplates: StoreTemplates;
  }
}

export interface UsableTemplate {
  /** For openStore's `template` option (PGlite: with the data directory). */
  template: StoreTemplate;
  postgresDatabase?: string;
  meta: unknown;
}

const blobs = new Map<string, Blob>();

function provided(): StoreTemplates | undefined {
  try {
    return inject('storeTemplates');
  } catch {
    return undefined; // not in a vitest worker
  }
}

/** The named template for a store of this kind, or undefined (then migrate and seed). */
export function storeTemplate(name: TemplateName, kind: 'pglite' | 'postgres'): UsableTemplate | undefined {
  const record = provided()?.[name];
  if (!record) return undefined;
  if (kind === 'postgres') {
    if (!record.postgresDatabase) return undefined;
    return { template: { migrationsHash: record.migrationsHash }, postgresDatabase: record.postgresDatabase, meta: record.postgresMeta ?? record.meta };
  }
  let blob = blobs.get(record.file);
  if (!blob) {
    blob = new Blob([readFileSync(record.file)], { type: 'application/x-tar' });
    blobs.set(record.file, blob);
  }
  return { template: { migrationsHash: record.migrationsHash, dataDir: blob as unknown as globalThis.Blob }, meta: record.meta };
}

export const templateFileName = (dir: string, name: TemplateName) => path.join(dir, `${name}.tar`);
