import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { MARKERS_MAX_SIZE, type MarkerComplete } from '../../contract';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { fetchRange, listHeaders, parseListParams, type ListParams } from '../pagination';
import type { MarkersListQuery, ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { booleanFilter, idsFilter, intListFilter, stringFilter, uuidFilter } from './filters';

/** The record is the service's MarkerComplete as is (integer `id`, expected results with LOINC). */
export type MarkerRecord = MarkerComplete;

const IdParams = z.object({ id: z.string().regex(/^\d{1,9}$/, 'must be a marker id') });

/** How long the whole-catalogue snapshot used by getOne/getMany may be reused. The catalogue changes at service start. */
const SNAPSHOT_TTL_MS = 5 * 60_000;
/** getOne/getMany walk the catalogue 100 at a time; past this many pages something is wrong. */
const MAX_SNAPSHOT_PAGES = 100;

type MarkerFilter = Omit<MarkersListQuery, 'page' | 'size'>;

export function markerFilter(filter: Record<string, unknown>): MarkerFilter {
  return {
    lab_slug: stringFilter(filter, 'lab_slug', 64),
    lab_id: intListFilter(filter, 'lab_id'),
    name: stringFilter(filter, 'q', 200),
    a_la_carte_enabled: booleanFilter(filter, 'a_la_carte_enabled'),
    lab_account_id: uuidFilter(filter, 'lab_account_id'),
  };
}

/** The service lists markers in one order only (its own); react-admin's default `id` ASC is that order. */
function checkSort(sort: ListParams['sort']) {
  if (sort.field !== 'id' || sort.order !== 'ASC') {
    throw new BffError(400, `Markers are listed in the catalogue's own order only (cannot sort by ${sort.field} ${sort.order})`);
  }
}

/**
 * Getting markers by id. The service has no marker-by-id endpoint, so the BFF keeps a short-lived
 * snapshot of the (global, slowly changing) catalogue, read 100 at a time.
 */
export class MarkerCatalogue {
  private snapshot: { at: number; byId: Map<number, MarkerComplete> } | null = null;
  private loading: Promise<Map<number, MarkerComplete>> | null = null;

  constructor(private readonly client: ServiceClient) {}

  async getMany(ids: number[]): Promise<MarkerComplete[]> {
    let byId = await this.all();
    // A marker added since the snapshot: read the catalogue again once.
    if (ids.some((id) => !byId.has(id)) && this.snapshot && Date.now() - this.snapshot.at > 5_000) {
      this.snapshot = null;
      byId = await this.all();
    }
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  private async all(): Promise<Map<number, MarkerComplete>> {
    if (this.snapshot && Date.now() - this.snapshot.at < SNAPSHOT_TTL_MS) return this.snapshot.byId;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(): Promise<Map<number, MarkerComplete>> {
    const byId = new Map<number, MarkerComplete>();
    for (let page = 1; page <= MAX_SNAPSHOT_PAGES; page++) {
      const answer = await this.client.listMarkers({ page, size: MARKERS_MAX_SIZE });
      for (const m of answer.markers) byId.set(m.id, m);
      if (answer.markers.length < MARKERS_MAX_SIZE || page >= answer.pages || byId.size >= answer.total) break;
    }
    this.snapshot = { at: Date.now(), byId };
    return byId;
  }
}

/** react-admin resource `markers` over the service's page/size pagination. Catalogue data: not audited. */
export function markersResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const catalogue = new MarkerCatalogue(client);
    const canRead = requirePermission('catalogue:read', 'see the lab catalogue');

    app.get('/', { preHandler: canRead }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>);
      const ids = idsFilter(params.filter);
      if (ids) {
        const numeric = ids.filter((i) => /^\d{1,9}$/.test(i)).map(Number);
        const items = await catalogue.getMany(numeric);
        return reply.headers(listHeaders('markers', 0, { items, total: items.length, hasNextPage: false })).send(items);
      }
      checkSort(params.sort);
      const filter = markerFilter(params.filter);
      const result = await fetchRange(
        {
          kind: 'page',
          maxSize: MARKERS_MAX_SIZE,
          fetch: async (page, size) => {
            try {
              const answer = await client.listMarkers({ ...filter, page, size });
              return { items: answer.markers, total: answer.total };
            } catch (err) {
              // Another team's (or an unknown) lab account: no markers, like any filter matching nothing.
              if (filter.lab_account_id && err instanceof UpstreamError && err.status === 404) return { items: [], total: 0 };
              throw err;
            }
          },
        },
        params.range,
      );
      return reply.headers(listHeaders('markers', params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preHandler: canRead }, async (req) => {
      const parsed = IdParams.safeParse(req.params);
      if (!parsed.success) throw new BffError(404, 'Marker not found');
      const [marker] = await catalogue.getMany([Number(parsed.data.id)]);
      if (!marker) throw new BffError(404, 'Marker not found');
      return marker;
    });
  };
}
