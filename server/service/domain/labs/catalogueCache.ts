import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../store/db';
import type { Notifications } from '../../../store/notify';
import { labs, labTests, markers, type ServiceSchema } from '../../db/schema';

type Db = Database<ServiceSchema>;
type LabRow = typeof labs.$inferSelect;
type MarkerRow = typeof markers.$inferSelect;
type LabTestRow = typeof labTests.$inferSelect;

/** Told whenever the shared catalogue (labs, markers, lab tests) is rewritten, by whichever process rewrote it. */
export const CATALOGUE_CHANNEL = 'labdesk_catalogue';

/** Inside the transaction that rewrites the catalogue: every process forgets what it remembered, at commit. */
export async function announceCatalogueChange(tx: Db): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${CATALOGUE_CHANNEL}, '')`);
}

/** The lab tests of some orders with their labs and markers: what an order's answer embeds. */
export interface CatalogueRows {
  testById: Map<string, LabTestRow>;
  labById: Map<number, LabRow>;
  markerRows: MarkerRow[];
}

/**
 * Lab tests, labs and markers remembered by id. Every order answer embeds its lab test with its
 * lab and markers; they change only when the catalogue is synced (at a service start, announced
 * on CATALOGUE_CHANNEL) or when a team's order set adds a test (a new id, so a miss). Without the
 * cache an order list asks the store four times; with it, once.
 */
class CatalogueCache {
  private readonly tests = new Map<string, { row: LabTestRow; until: number }>();
  private readonly labs = new Map<number, LabRow>();
  private readonly markers = new Map<number, MarkerRow>();
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  clear() {
    this.generation++;
    this.tests.clear();
    this.labs.clear();
    this.markers.clear();
  }

  async rows(db: Db, testIds: string[]): Promise<CatalogueRows> {
    const now = Date.now();
    const missing = testIds.filter((id) => !((this.tests.get(id)?.until ?? 0) > now));
    if (missing.length) {
      // A sync announced while the store was being asked must not be undone by this answer.
      const generation = this.generation;
      const fresh = await loadRows(db, missing);
      if (generation === this.generation) {
        for (const row of fresh.testById.values()) this.tests.set(row.id, { row, until: now + this.ttlMs });
        for (const lab of fresh.labById.values()) this.labs.set(lab.id, lab);
        for (const marker of fresh.markerRows) this.markers.set(marker.id, marker);
      }
      return this.rowsFrom(testIds, fresh);
    }
    return this.rowsFrom(testIds);
  }

  private rowsFrom(testIds: string[], fresh?: CatalogueRows): CatalogueRows {
    const testById = new Map<string, LabTestRow>();
    const labById = new Map<number, LabRow>();
    const markerRows = new Map<number, MarkerRow>();
    const freshMarkers = new Map(fresh?.markerRows.map((m) => [m.id, m]));
    for (const id of testIds) {
      const test = fresh?.testById.get(id) ?? this.tests.get(id)?.row;
      if (!test) continue;
      testById.set(id, test);
      const lab = fresh?.labById.get(test.labId) ?? this.labs.get(test.labId);
      if (lab) labById.set(lab.id, lab);
      for (const markerId of test.markerIds) {
        const marker = freshMarkers.get(markerId) ?? this.markers.get(markerId);
        if (marker) markerRows.set(markerId, marker);
      }
    }
    return { testById, labById, markerRows: [...markerRows.values()] };
  }
}

/** The catalogue rows of these lab tests, straight from the store. */
async function loadRows(db: Db, testIds: string[]): Promise<CatalogueRows> {
  const tests = testIds.length ? await db.select().from(labTests).where(inArray(labTests.id, testIds)) : [];
  const labIds = [...new Set(tests.map((t) => t.labId))];
  const markerIds = [...new Set(tests.flatMap((t) => t.markerIds))];
  // One after another: inside a transaction the queries share one connection.
  const labRows = labIds.length ? await db.select().from(labs).where(inArray(labs.id, labIds)) : [];
  const markerRows = markerIds.length ? await db.select().from(markers).where(inArray(markers.id, markerIds)) : [];
  return { testById: new Map(tests.map((t) => [t.id, t])), labById: new Map(labRows.map((l) => [l.id, l])), markerRows };
}

const caches = new WeakMap<object, CatalogueCache>();

/**
 * Remembers the catalogue for queries on this database object (the app's store; a transaction is
 * another object and always asks the store, so it sees its own writes). Answers a function that
 * stops listening. `ttlMs` bounds how stale a row can be should an announcement be lost.
 */
export async function enableCatalogueCache(db: Db, notifications: Notifications | undefined, ttlMs = 5 * 60_000): Promise<() => void> {
  const cache = new CatalogueCache(ttlMs);
  caches.set(db, cache);
  const unlisten = notifications ? await notifications.listen(CATALOGUE_CHANNEL, () => cache.clear()) : () => {};
  return () => {
    unlisten();
    if (caches.get(db) === cache) caches.delete(db);
  };
}

/** Forgets this process's catalogue rows for `db` (the sync calls it, beside announcing the change). */
export function forgetCatalogue(db: Db): void {
  caches.get(db)?.clear();
}

/** The lab tests with their labs and markers: remembered when `db` has a cache, else from the store. */
export function catalogueRows(db: Db, testIds: string[]): Promise<CatalogueRows> {
  const cache = caches.get(db);
  return cache ? cache.rows(db, testIds) : loadRows(db, testIds);
}
