import type { FastifyPluginAsync } from 'fastify';
import { DELIVERIES_MAX_LIMIT, type WebhookDelivery } from '../../contract';
import { requirePermission } from '../auth/plugin';
import { cursorCacheKey } from '../cursorCache';
import { DbCursorCache } from '../dbCursorCache';
import { BffError } from '../errors';
import { listHeaders, parseListParams } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { idsFilter, isUuid, stringFilter, uuidFilter } from './filters';
import { fetchCursorRange } from './parserJobQuery';
import { endpointNotFound } from './webhookEndpoints';

const RESOURCE = 'webhook-deliveries';

/**
 * react-admin resource `webhook-deliveries` (admins only): one endpoint's delivery log, newest
 * first, over the service's cursor pagination with the page cursors kept in the BFF's store.
 * `filter.endpoint_id` is required (the service lists deliveries per endpoint).
 */
export function webhookDeliveriesResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canManage = requirePermission('webhooks:manage', 'manage webhook endpoints');
    const cursors = new DbCursorCache(app.bffDb);

    app.get('/', { preValidation: canManage }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>, { defaultSort: { field: 'created_at', order: 'DESC' } });
      const endpointId = uuidFilter(params.filter, 'endpoint_id');
      if (!endpointId) {
        throw new BffError(400, 'filter.endpoint_id is required: deliveries are listed per endpoint', { 'filter.endpoint_id': 'required' });
      }
      const status = stringFilter(params.filter, 'status', 40);
      // The service lists newest first only. `id` (react-admin's default) is that order either way.
      const { field, order } = params.sort;
      if (field !== 'id' && !(field === 'created_at' && order === 'DESC')) {
        throw new BffError(400, `Webhook deliveries are listed newest first only (sort created_at DESC), not by ${field} ${order}`);
      }

      const ids = idsFilter(params.filter);
      if (ids) {
        const one = async (id: string): Promise<WebhookDelivery | null> => {
          try {
            return await client.getWebhookDelivery(endpointId, id.toLowerCase());
          } catch (err) {
            // Unknown, another endpoint's or another team's: left out.
            if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
            throw err;
          }
        };
        const wanted = ids.slice(0, 100).filter(isUuid);
        const found: WebhookDelivery[] = [];
        for (let i = 0; i < wanted.length; i += 8) {
          for (const d of await Promise.all(wanted.slice(i, i + 8).map(one))) if (d) found.push(d);
        }
        return reply.headers(listHeaders(RESOURCE, 0, { items: found, total: found.length, hasNextPage: false })).send(found);
      }

      try {
        const result = await fetchCursorRange(
          {
            cache: cursors,
            cacheKey: cursorCacheKey({ resource: RESOURCE, upstream: client.cacheScope, endpoint_id: endpointId, status: status ?? null }),
            maxLimit: DELIVERIES_MAX_LIMIT,
          },
          params.range,
          async (cursor, limit) => {
            const page = await client.listWebhookDeliveries(endpointId, { status, limit, cursor });
            return { items: page.data, nextCursor: page.next_cursor };
          },
        );
        return reply.headers(listHeaders(RESOURCE, params.range[0], result)).send(result.items);
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 404) throw endpointNotFound();
        throw err;
      }
    });
  };
}
