import type { AuditAction } from '../api/audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhookEndpoint } from '../../contract';
import {
  CreatedWebhookEndpointRecord,
  CreateWebhookEndpoint,
  DeliveryParams,
  ErrorBody,
  IdParams,
  isUuid,
  UpdateWebhookEndpoint,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEndpointsList,
  type ListParams,
} from '../api';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { sendList } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { sliceRange } from './sliceRange';

const AUDIT_RESOURCE = 'webhook_endpoints';
const TAGS = ['webhook endpoints'];
/** The fields an update may change; everything else react-admin sends back (ids, times) is dropped. */
const EDITABLE = ['url', 'event_types', 'description', 'disabled'] as const;

export const endpointNotFound = () => new BffError(404, 'Webhook endpoint not found');
const deliveryNotFound = () => new BffError(404, 'Webhook delivery not found');

const recordOf = (e: WebhookEndpoint): WebhookEndpointRecord => ({ ...e, disabled: e.disabled_at !== null });

/** `id` is the service's order (oldest first); `created_at` the same; `url` alphabetical. */
function sortEndpoints(all: WebhookEndpointRecord[], sort: ListParams['sort']): WebhookEndpointRecord[] {
  const sign = sort.order === 'ASC' ? 1 : -1;
  if (sort.field === 'url') return [...all].sort((a, b) => sign * a.url.localeCompare(b.url));
  return sort.order === 'ASC' ? all : [...all].reverse();
}

function sameList(a: unknown, b: readonly string[]): boolean {
  if (!Array.isArray(a) || a.length !== b.length) return false;
  const x = [...a].map(String).sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/**
 * react-admin resource `webhook-endpoints` (admins only): the team's endpoints (one upstream list of
 * at most 20, sliced here), create (answers the signing secret once), update, delete, the secret on
 * demand, and replaying a delivery. Secrets, URLs' contents and payloads never reach the audit trail.
 */
export function webhookEndpointsResource(client: ServiceClient): FastifyPluginAsyncZod {
  return async (app) => {
    const canManage = requirePermission('webhooks:manage', 'manage webhook endpoints');
    const audited = (action: AuditAction) => ({ audit: { resource: AUDIT_RESOURCE, action } });

    const getOrNull = async (id: string): Promise<WebhookEndpoint | null> => {
      if (!isUuid(id)) return null;
      try {
        return await client.getWebhookEndpoint(id);
      } catch (err) {
        if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
        throw err;
      }
    };

    /** Runs a change; an upstream 404 is this resource's own "not found". */
    const change = async <T>(call: () => Promise<T>, notFound: () => BffError = endpointNotFound): Promise<T> => {
      try {
        return await call();
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 404) throw notFound();
        throw err;
      }
    };

    app.get(
      '',
      {
        preValidation: canManage,
        schema: { operationId: 'listWebhookEndpoints', tags: TAGS, querystring: WebhookEndpointsList, response: { 200: z.array(WebhookEndpointRecord), '4XX': ErrorBody } },
      },
      async (req, reply) => {
        const { filter, sort, range } = req.query;
        const { data } = await client.listWebhookEndpoints();
        let rows = data.map(recordOf);
        if (filter.id) {
          const wanted = new Set(filter.id.map((i) => i.toLowerCase()));
          rows = rows.filter((e) => wanted.has(e.id.toLowerCase()));
        }
        if (filter.disabled !== undefined) rows = rows.filter((e) => e.disabled === filter.disabled);
        if (filter.id) return sendList(reply, 'webhook-endpoints', 0, { items: rows, total: rows.length, hasNextPage: false });
        return sendList(reply, 'webhook-endpoints', range[0], sliceRange(sortEndpoints(rows, sort), range));
      },
    );

    app.get(
      '/:id',
      { preValidation: canManage, schema: { operationId: 'getWebhookEndpoint', tags: TAGS, params: IdParams, response: { 200: WebhookEndpointRecord, '4XX': ErrorBody } } },
      async (req) => {
        const endpoint = await getOrNull(req.params.id);
        if (!endpoint) throw endpointNotFound();
        return recordOf(endpoint);
      },
    );

    app.post(
      '',
      {
        preValidation: canManage,
        schema: { operationId: 'createWebhookEndpoint', tags: TAGS, body: CreateWebhookEndpoint, response: { 201: CreatedWebhookEndpointRecord, '4XX': ErrorBody } },
        config: audited('create'),
      },
      async (req, reply) => {
        const { url, event_types, description } = req.body;
        req.auditNote.detail = { event_types: event_types?.length ?? null };
        const created = await change(() => client.createWebhookEndpoint({ url, event_types, description }));
        req.auditNote.detail = { event_types: created.event_types };
        // The answer carries the signing secret: shown once, kept by no cache.
        return reply.status(201).header('cache-control', 'no-store').send({ ...recordOf(created), secret: created.secret });
      },
    );

    app.put(
      '/:id',
      {
        preValidation: canManage,
        schema: { operationId: 'updateWebhookEndpoint', tags: TAGS, params: IdParams, body: UpdateWebhookEndpoint, response: { 200: WebhookEndpointRecord, '4XX': ErrorBody } },
        config: audited('update'),
      },
      async (req) => {
        const given = req.body;
        const current = await getOrNull(req.params.id);
        if (!current) throw endpointNotFound();
        // react-admin sends the whole record back: only the editable fields that differ go upstream,
        // so an unchanged URL is not checked (and resolved) again.
        const patch: Record<string, unknown> = {};
        for (const field of EDITABLE) {
          const value = given[field];
          if (value === undefined) continue;
          if (field === 'disabled') {
            if (value === null) continue;
            if (value !== (current.disabled_at !== null)) patch.disabled = value;
          } else if (field === 'event_types') {
            if (!sameList(value, current.event_types) && !(value === null && sameList(['*'], current.event_types))) patch.event_types = value;
          } else if (value !== current[field]) {
            patch[field] = value;
          }
        }
        req.auditNote.detail = { fields: Object.keys(patch), ...(typeof patch.disabled === 'boolean' && { disabled: patch.disabled }) };
        const updated = Object.keys(patch).length ? await change(() => client.updateWebhookEndpoint(current.id, patch)) : current;
        return recordOf(updated);
      },
    );

    app.delete(
      '/:id',
      {
        preValidation: canManage,
        schema: { operationId: 'deleteWebhookEndpoint', tags: TAGS, params: IdParams, response: { 200: z.object({ id: z.string() }), '4XX': ErrorBody } },
        config: audited('delete'),
      },
      async (req) => {
        const { id } = req.params;
        if (!isUuid(id)) throw endpointNotFound();
        const endpointId = id.toLowerCase();
        await change(() => client.deleteWebhookEndpoint(endpointId));
        return { id: endpointId };
      },
    );

    app.get(
      '/:id/secret',
      {
        preValidation: canManage,
        schema: { operationId: 'revealWebhookEndpointSecret', tags: TAGS, params: IdParams, response: { 200: z.object({ secret: z.string() }), '4XX': ErrorBody } },
        config: { audit: { resource: AUDIT_RESOURCE, action: 'reveal', records: () => [] } },
      },
      async (req, reply) => {
        const { id } = req.params;
        if (!isUuid(id)) throw endpointNotFound();
        const endpointId = id.toLowerCase();
        req.auditNote.recordIds = [endpointId];
        const { secret } = await change(() => client.webhookEndpointSecret(endpointId));
        return reply.header('cache-control', 'no-store').send({ secret });
      },
    );

    app.post(
      '/:id/deliveries/:deliveryId/replay',
      {
        preValidation: canManage,
        schema: { operationId: 'replayWebhookDelivery', tags: TAGS, params: DeliveryParams, response: { 202: WebhookDeliveryRecord, '4XX': ErrorBody } },
        config: { audit: { resource: AUDIT_RESOURCE, action: 'replay', records: () => [] } },
      },
      async (req, reply) => {
        const { id, deliveryId } = req.params;
        if (!isUuid(id) || !isUuid(deliveryId)) throw deliveryNotFound();
        const endpointId = id.toLowerCase();
        const detail: Record<string, unknown> = { delivery_id: deliveryId.toLowerCase() };
        req.auditNote.recordIds = [endpointId];
        req.auditNote.detail = detail;
        const delivery = await change(() => client.replayWebhookDelivery(endpointId, deliveryId.toLowerCase()), deliveryNotFound);
        detail.status = delivery.status;
        return reply.status(202).send(delivery);
      },
    );
  };
}
