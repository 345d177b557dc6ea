import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { WebhookDelivery, WebhookEndpoint } from '../../contract';
import { audit } from '../audit/audit';
import { requirePermission } from '../auth/plugin';
import { BffError } from '../errors';
import { listHeaders, parseListParams, type ListParams } from '../pagination';
import type { ServiceClient } from '../upstream/client';
import { UpstreamError } from '../upstream/errors';
import { booleanFilter, idsFilter, isUuid, sliceRange } from './filters';

/** The service's endpoint plus `disabled` (= `disabled_at` is set), the flag react-admin's edit form toggles. */
export type WebhookEndpointRecord = WebhookEndpoint & { disabled: boolean };

const AUDIT_RESOURCE = 'webhook_endpoints';
const IdParams = z.object({ id: z.string().min(1).max(100) });
const DeliveryParams = z.object({ id: z.string().min(1).max(100), deliveryId: z.string().min(1).max(100) });
/** The fields an update may change; everything else react-admin sends back (ids, times) is dropped. */
const EDITABLE = ['url', 'event_types', 'description', 'disabled'] as const;

export const endpointNotFound = () => new BffError(404, 'Webhook endpoint not found');
const deliveryNotFound = () => new BffError(404, 'Webhook delivery not found');

const recordOf = (e: WebhookEndpoint): WebhookEndpointRecord => ({ ...e, disabled: e.disabled_at !== null });

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `id` is the service's order (oldest first); `created_at` the same; `url` alphabetical. */
function sortEndpoints(all: WebhookEndpointRecord[], sort: ListParams['sort']): WebhookEndpointRecord[] {
  if (sort.field !== 'id' && sort.field !== 'created_at' && sort.field !== 'url') {
    throw new BffError(400, `Webhook endpoints can be sorted by created_at or url only (not by ${sort.field})`);
  }
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
export function webhookEndpointsResource(client: ServiceClient): FastifyPluginAsync {
  return async (app) => {
    const canManage = requirePermission('webhooks:manage', 'manage webhook endpoints');

    const getOrNull = async (id: string): Promise<WebhookEndpoint | null> => {
      if (!isUuid(id)) return null;
      try {
        return await client.getWebhookEndpoint(id);
      } catch (err) {
        if (err instanceof UpstreamError && (err.status === 404 || err.status === 422)) return null;
        throw err;
      }
    };

    /** Runs a change, auditing it either way; an upstream 404 is this resource's own "not found". */
    const change = async <T>(
      req: FastifyRequest,
      action: string,
      recordIds: string[],
      detail: Record<string, unknown>,
      call: () => Promise<T>,
      notFound: () => BffError = endpointNotFound,
    ): Promise<T> => {
      let result: T;
      try {
        result = await call();
      } catch (err) {
        if (err instanceof UpstreamError) {
          await audit(app.bffDb, req, { action, resource: AUDIT_RESOURCE, recordIds, detail, outcome: 'failed', statusCode: err.status });
          if (err.status === 404) throw notFound();
        }
        throw err;
      }
      return result;
    };

    app.get('/', { preValidation: canManage }, async (req, reply) => {
      const params = parseListParams(req.query as Record<string, unknown>, { defaultSort: { field: 'created_at', order: 'ASC' } });
      const ids = idsFilter(params.filter);
      const disabled = booleanFilter(params.filter, 'disabled');
      sortEndpoints([], params.sort);
      const { data } = await client.listWebhookEndpoints();
      let rows = data.map(recordOf);
      if (ids) {
        const wanted = new Set(ids.map((i) => i.toLowerCase()));
        rows = rows.filter((e) => wanted.has(e.id.toLowerCase()));
      }
      if (disabled !== undefined) rows = rows.filter((e) => e.disabled === disabled);
      const result = ids ? { items: rows, total: rows.length, hasNextPage: false } : sliceRange(sortEndpoints(rows, params.sort), params.range);
      return reply.headers(listHeaders('webhook-endpoints', ids ? 0 : params.range[0], result)).send(result.items);
    });

    app.get('/:id', { preValidation: canManage }, async (req) => {
      const { id } = IdParams.parse(req.params);
      const endpoint = await getOrNull(id);
      if (!endpoint) throw endpointNotFound();
      return recordOf(endpoint);
    });

    app.post('/', { preValidation: canManage }, async (req, reply) => {
      if (!isPlainObject(req.body)) throw new BffError(400, 'The endpoint must be a JSON object');
      const { url, event_types, description } = req.body;
      const created = await change(req, 'create', [], { event_types: Array.isArray(event_types) ? event_types.length : null }, () =>
        client.createWebhookEndpoint({ url, event_types, description }),
      );
      await audit(app.bffDb, req, {
        action: 'create',
        resource: AUDIT_RESOURCE,
        recordIds: [created.id],
        detail: { event_types: created.event_types },
      });
      // The answer carries the signing secret: shown once, kept by no cache.
      return reply.status(201).header('cache-control', 'no-store').send({ ...recordOf(created), secret: created.secret });
    });

    app.put('/:id', { preValidation: canManage }, async (req) => {
      const { id } = IdParams.parse(req.params);
      if (!isPlainObject(req.body)) throw new BffError(400, 'The endpoint must be a JSON object');
      const given = req.body;
      const current = await getOrNull(id);
      if (!current) throw endpointNotFound();
      // react-admin sends the whole record back: only the editable fields that differ go upstream,
      // so an unchanged URL is not checked (and resolved) again.
      const patch: Record<string, unknown> = {};
      for (const field of EDITABLE) {
        const value = given[field];
        if (value === undefined) continue;
        if (field === 'disabled') {
          if (value === null) continue;
          if (typeof value !== 'boolean') throw new BffError(422, 'disabled: must be true or false', { disabled: 'must be true or false' });
          if (value !== (current.disabled_at !== null)) patch.disabled = value;
        } else if (field === 'event_types') {
          if (!sameList(value, current.event_types) && !(value === null && sameList(['*'], current.event_types))) patch.event_types = value;
        } else if (value !== current[field]) {
          patch[field] = value;
        }
      }
      const detail = { fields: Object.keys(patch), ...(typeof patch.disabled === 'boolean' && { disabled: patch.disabled }) };
      const updated = Object.keys(patch).length
        ? await change(req, 'update', [current.id], detail, () => client.updateWebhookEndpoint(current.id, patch))
        : current;
      await audit(app.bffDb, req, { action: 'update', resource: AUDIT_RESOURCE, recordIds: [current.id], detail });
      return recordOf(updated);
    });

    app.delete('/:id', { preValidation: canManage }, async (req) => {
      const { id } = IdParams.parse(req.params);
      if (!isUuid(id)) throw endpointNotFound();
      const endpointId = id.toLowerCase();
      await change(req, 'delete', [endpointId], {}, () => client.deleteWebhookEndpoint(endpointId));
      await audit(app.bffDb, req, { action: 'delete', resource: AUDIT_RESOURCE, recordIds: [endpointId] });
      return { id: endpointId };
    });

    app.get('/:id/secret', { preValidation: canManage }, async (req, reply) => {
      const { id } = IdParams.parse(req.params);
      if (!isUuid(id)) throw endpointNotFound();
      const endpointId = id.toLowerCase();
      const { secret } = await change(req, 'reveal', [endpointId], {}, () => client.webhookEndpointSecret(endpointId));
      await audit(app.bffDb, req, { action: 'reveal', resource: AUDIT_RESOURCE, recordIds: [endpointId] });
      return reply.header('cache-control', 'no-store').send({ secret });
    });

    app.post('/:id/deliveries/:deliveryId/replay', { preValidation: canManage }, async (req, reply) => {
      const { id, deliveryId } = DeliveryParams.parse(req.params);
      if (!isUuid(id) || !isUuid(deliveryId)) throw deliveryNotFound();
      const endpointId = id.toLowerCase();
      const detail = { delivery_id: deliveryId.toLowerCase() };
      const delivery: WebhookDelivery = await change(
        req,
        'replay',
        [endpointId],
        detail,
        () => client.replayWebhookDelivery(endpointId, detail.delivery_id),
        deliveryNotFound,
      );
      await audit(app.bffDb, req, { action: 'replay', resource: AUDIT_RESOURCE, recordIds: [endpointId], detail: { ...detail, status: delivery.status } });
      return reply.status(202).send(delivery);
    });
  };
}
