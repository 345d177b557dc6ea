import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MARKERS_MAX_SIZE, type MarkerComplete } from '../../contract';
import { ErrorBody, MarkerRecord, MarkersList } from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { fetchRange, sendAll, sendList } from '../pagination';
import type { MarkersListQuery, ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';

const MarkerIdParams = z.object({ id: z.string().regex(/^\d{1,9}$/, 'must be a marker id') });
const TAGS = ['lab catalogue'];

/** How long the whole-catalogue snapshot used by getOne/getMany may be reused. The catalogue changes at service start. */
const SNAPSHOT_TTL_MS = 5 * 60_000;
/** getOne/getMany walk the catalogue 100 at a time; past this many pages something is wrong. */
const MAX_SNAPSHOT_PAGES = 100;

type MarkerFilter = Omit<MarkersListQuery, 'page' | 'size'>;

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
export function markersResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const catalogue = new MarkerCatalogue(client);
    const canRead = requirePermission('catalogue:read', 'see the lab catalogue');

    app.get(
      '',
      {
        preValidation: canRead,
        schema: { operationId: 'listMarkers', tags: TAGS, querystring: MarkersList, response: { 200: z.array(MarkerRecord), '4XX': ErrorBody } },
      },
      async (req, reply) => {
        const { filter: given, range } = req.query;
        if (given.id) {
          const numeric = given.id.filter((i) => /^\d{1,9}$/.test(i)).map(Number);
          return sendAll(reply, 'markers', await catalogue.getMany(numeric));
        }
        const filter: MarkerFilter = {
          lab_slug: given.lab_slug,
          lab_id: given.lab_id,
          name: given.q,
          a_la_carte_enabled: given.a_la_carte_enabled,
          lab_account_id: given.lab_account_id,
        };
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
          range,
        );
        return sendList(reply, 'markers', range[0], result);
      },
    );

    app.get(
      '/:id',
      {
        preValidation: canRead,
        schema: { operationId: 'getMarker', tags: TAGS, params: MarkerIdParams, response: { 200: MarkerRecord, '4XX': ErrorBody } },
      },
      async (req) => {
        const [marker] = await catalogue.getMany([Number(req.params.id)]);
        if (!marker) throw new BffError(404, 'Marker not found');
        return marker;
      },
    );
  };
}
