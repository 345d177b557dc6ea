import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Lab, MarkerComplete } from '../../../contract';
import type { Database } from '../../../store/db';
import { labs, markers, type ServiceSchema } from '../../db/schema';
import { requireTeamLabAccount } from './accounts';
import { containsPattern, pageCount, refuseNul } from './query';
import { presentLab, presentMarker } from './present';
import type { z } from 'zod';
import type { MarkersQuery } from '../../../contract';

type Db = Database<ServiceSchema>;

/** The validated `GET /v3/lab_tests/markers` query. */
export type MarkerFilter = z.output<typeof MarkersQuery>;

export interface MarkersPage {
  markers: MarkerComplete[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

/** Every lab of the catalogue, by id. */
export async function listLabs(db: Db): Promise<Lab[]> {
  const rows = await db.select().from(labs).orderBy(asc(labs.id));
  return rows.map(presentLab);
}

const emptyPage = (page: number, size: number): MarkersPage => ({ markers: [], total: 0, page, size, pages: 0 });

/**
 * Markers (biomarkers and panels) of the catalogue, ordered by lab, then name, then id. Filters
 * combine with AND: `lab_slug` (an unknown slug matches nothing), `lab_id` (any of them), `name`
 * (case-insensitive substring of the name or the lab's test code), `a_la_carte_enabled`, and
 * `lab_account_id`, which must be one of the team's accounts (404 otherwise, like any foreign id)
 * and limits the markers to that account's lab. A page past the end is empty but keeps the true
 * `total` and `pages`.
 */
export async function listMarkers(db: Db, teamId: string, filter: MarkerFilter): Promise<MarkersPage> {
  const { page, size } = filter;
  refuseNul(['query', 'lab_slug'], filter.lab_slug);
  refuseNul(['query', 'name'], filter.name);
  const conditions: SQL[] = [];

  const labSlugs: string[] = [];
  if (filter.lab_slug !== undefined) labSlugs.push(filter.lab_slug);
  if (filter.lab_account_id) labSlugs.push((await requireTeamLabAccount(db, teamId, filter.lab_account_id)).labSlug);
  for (const slug of new Set(labSlugs)) {
    const [lab] = await db.select({ id: labs.id }).from(labs).where(eq(labs.slug, slug));
    if (!lab) return emptyPage(page, size);
    conditions.push(eq(markers.labId, lab.id));
  }
  if (filter.lab_id?.length) conditions.push(inArray(markers.labId, filter.lab_id));
  if (filter.name !== undefined && filter.name !== '') {
    const pattern = containsPattern(filter.name);
    conditions.push(or(ilike(markers.name, pattern), ilike(markers.providerId, pattern))!);
  }
  if (filter.a_la_carte_enabled !== undefined) conditions.push(eq(markers.aLaCarteEnabled, filter.a_la_carte_enabled));

  const where = conditions.length ? and(...conditions) : undefined;
  const [totalRow] = await db.select({ n: count() }).from(markers).where(where);
  const total = totalRow?.n ?? 0;
  const offset = (page - 1) * size;
  // Past the end (however far: page is unbounded), there is nothing to read.
  const rows =
    offset < total
      ? await db
          .select()
          .from(markers)
          .where(where)
          .orderBy(asc(markers.labId), asc(markers.name), asc(markers.id))
          .limit(size)
          .offset(offset)
      : [];
  return { markers: rows.map(presentMarker), total, page, size, pages: pageCount(total, size) };
}

/** Marker rows by id (any lab), in the order of `ids`; ids without a row are skipped. */
export async function markersByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db.select().from(markers).where(inArray(markers.id, [...new Set(ids)]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}
