import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DELIVERIES_MAX_LIMIT, type WebhookDelivery } from '../../contract';
import { ErrorBody, isUuid, MAX_GET_MANY, WebhookDeliveriesList, WebhookDeliveryRecord } from '../api';
import { requirePermission } from '../auth/plugin';
import { cursorCacheKey } from '../cursorCache';
import { DbCursorCache } from '../dbCursorCache';
import { BffError } from '../errors';
import { sendAll, sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { readMany } from './orders';
import { fetchCursorRange } from './parserJobQuery';
import { endpointNotFound } from './webhookEndpoints';

const RESOURCE = 'webhook-deliveries';

/**
 * react-admin resource `webhook-deliveries` (admins only): one endpoint's delivery log, newest
 * first, over the service's cursor pagination with the page cursors kept in the BFF's store.
 * `filter.endpoint_id` is required (the service lists deliveries per endpoint).
 */
export function webhookDeliveriesResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canManage = requirePermission('webhooks:manage', 'manage webhook endpoints');
    const cursors = new DbCursorCache(app.bffDb);

    app.get(
      '',
      {
        preValidation: canManage,
        schema: {
          operationId: 'listWebhookDeliveries',
          tags: ['webhook endpoints'],
          querystring: WebhookDeliveriesList,
          response: { 200: z.array(WebhookDeliveryRecord), '4XX': ErrorBody },
        },
      },
      async (req, reply) => {
      const params = req.query;
      const { endpoint_id: endpointId, status, id: ids } = params.filter;
      if (!endpointId) {
        throw new BffError(400, 'filter.endpoint_id is required: deliveries are listed per endpoint', { 'filter.endpoint_id': 'required' });
      }
      // The service lists newest first only; `id` (react-admin's default) is that order either way.
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
        return sendAll(reply, RESOURCE, await readMany(ids.filter(isUuid).slice(0, MAX_GET_MANY), one));
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
        return sendList(reply, RESOURCE, params.range[0], result);
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 404) throw endpointNotFound();
        throw err;
      }
      },
    );
  };
}
