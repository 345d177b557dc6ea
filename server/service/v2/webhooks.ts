import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointBody,
  DELIVERIES_DEFAULT_LIMIT,
  DELIVERIES_MAX_LIMIT,
  DeliveriesQuery,
  ErrorBody,
  errorResponses,
  PatchWebhookEndpointBody,
  WEBHOOK_ENDPOINTS_PER_TEAM,
  WEBHOOK_MAX_ATTEMPTS,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookEndpointSecret,
} from '../../contract';
import {
  createEndpoint,
  deleteEndpoint,
  getDelivery,
  getEndpoint,
  getEndpointSecret,
  listDeliveries,
  listEndpoints,
  patchEndpoint,
  replayDelivery,
  type EndpointPolicy,
} from '../webhooks/endpoints';

const tags = ['webhooks'];
const security = [{ apiKey: [] }];

const createDescription = `Registers a receiver for the team's webhook events. Answers 201 with the endpoint and its signing \`secret\` (\`whsec_\` + base64 of 32 random bytes); the secret is answered again only by GET /v2/webhooks/endpoints/{endpoint_id}/secret.

**URL.** http or https, at most 2000 characters, no credentials (user:password@). Private, loopback and link-local addresses (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, fe80::/10 …) and \`localhost\` are refused (422 at body.url), and so is a host name that resolves to one; every delivery checks the address it connects to again (no DNS rebinding). A service started with WEBHOOK_ALLOW_PRIVATE_URLS=true allows them.

**event_types.** Left out, null or containing \`*\`: every event type, including future ones. Otherwise event types (\`labtest.order.created\`) or families (\`labtest.order.*\`); any lower-case dotted name is accepted, so new event types need no change here. An empty list is 422.

At most ${WEBHOOK_ENDPOINTS_PER_TEAM} endpoints per team. An endpoint receives the events recorded after it was created.`;

const deliveryDescription = `**Delivery.** Each event is POSTed as JSON (the envelope \`{event_type, user_id, client_user_id, team_id, data}\`) with the Standard Webhooks headers \`webhook-id\` (the event id, the same on every attempt), \`webhook-timestamp\` (seconds) and \`webhook-signature\` (\`v1,\` + base64 HMAC-SHA256 of \`{id}.{timestamp}.{body}\` keyed with the secret's decoded bytes). 2xx is success; 410 disables the endpoint and cancels its pending deliveries; anything else (other statuses, redirects, which are not followed, timeouts after 10 s, connection errors) is retried: ${WEBHOOK_MAX_ATTEMPTS} attempts over about a day (5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h, ±20 %), never earlier than a Retry-After (seconds or HTTP date, at most 24 h). For one endpoint, events about the same subject (data.id) arrive in the order they were emitted: a later one waits while an earlier one is pending.`;

/** The team's webhook endpoints, their secrets, delivery log and replay. */
export function webhooksRoutes(policy: EndpointPolicy): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/v2/webhooks/endpoints', {
      schema: {
        tags,
        security,
        operationId: 'createWebhookEndpoint', summary: 'Create a webhook endpoint',
        description: `${createDescription}\n\n${deliveryDescription}`,
        body: CreateWebhookEndpointBody,
        response: { 201: CreatedWebhookEndpoint, ...errorResponses },
      },
      handler: async (req, reply) => reply.status(201).send(await createEndpoint(app.db, req.teamId, req.body, policy)),
    });

    app.get('/v2/webhooks/endpoints', {
      schema: {
        tags,
        security,
        operationId: 'listWebhookEndpoints', summary: 'List the team’s webhook endpoints',
        description: `Every endpoint of the team (at most ${WEBHOOK_ENDPOINTS_PER_TEAM}), oldest first, without secrets.`,
        response: { 200: WebhookEndpointList, ...errorResponses },
      },
      handler: (req) => listEndpoints(app.db, req.teamId),
    });

    app.get('/v2/webhooks/endpoints/:endpoint_id', {
      schema: {
        tags,
        security,
        operationId: 'getWebhookEndpoint', summary: 'Get a webhook endpoint',
        description: 'Without its secret (see …/secret). disabled_at is set when the team disabled it or the receiver answered 410.',
        params: WebhookEndpointParams,
        response: { 200: WebhookEndpoint, ...errorResponses },
      },
      handler: (req) => getEndpoint(app.db, req.teamId, req.params.endpoint_id),
    });

    app.get('/v2/webhooks/endpoints/:endpoint_id/secret', {
      schema: {
        tags,
        security,
        operationId: 'getWebhookEndpointSecret', summary: 'Get a webhook endpoint’s signing secret',
        params: WebhookEndpointParams,
        response: { 200: WebhookEndpointSecret, ...errorResponses },
      },
      handler: (req) => getEndpointSecret(app.db, req.teamId, req.params.endpoint_id),
    });

    app.patch('/v2/webhooks/endpoints/:endpoint_id', {
      schema: {
        tags,
        security,
        operationId: 'updateWebhookEndpoint', summary: 'Change a webhook endpoint',
        description:
          'Fields left out are unchanged. `url` follows the create rules. `disabled: true` disables the endpoint and cancels its pending deliveries; `disabled: false` enables it again (also after a 410): events recorded while it was disabled are not delivered, cancelled deliveries can be replayed.',
        params: WebhookEndpointParams,
        body: PatchWebhookEndpointBody,
        response: { 200: WebhookEndpoint, ...errorResponses },
      },
      handler: (req) => patchEndpoint(app.db, req.teamId, req.params.endpoint_id, req.body, policy),
    });

    app.delete('/v2/webhooks/endpoints/:endpoint_id', {
      schema: {
        tags,
        security,
        operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint',
        description: 'Its pending deliveries stop; its delivery log goes with it. Answers 204.',
        params: WebhookEndpointParams,
        response: { 204: z.null().describe('Deleted'), ...errorResponses },
      },
      handler: async (req, reply) => {
        await deleteEndpoint(app.db, req.teamId, req.params.endpoint_id);
        return reply.status(204).send(null);
      },
    });

    app.get('/v2/webhooks/endpoints/:endpoint_id/deliveries', {
      schema: {
        tags,
        security,
        operationId: 'listWebhookDeliveries', summary: 'The endpoint’s delivery log',
        description: `Deliveries newest event first: status (pending, succeeded, failed, cancelled; open-ended), attempts with their times, status codes and errors, and the next attempt. \`limit\` defaults to ${DELIVERIES_DEFAULT_LIMIT}, at most ${DELIVERIES_MAX_LIMIT}; \`next_cursor\` (opaque, signed; null on the last page) goes in \`cursor\` for the next page, with the same \`status\` filter. Payloads are not shown.`,
        params: WebhookEndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryList, ...errorResponses },
      },
      handler: (req) => listDeliveries(app.db, app.cursors, req.teamId, req.params.endpoint_id, req.query),
    });

    app.get('/v2/webhooks/endpoints/:endpoint_id/deliveries/:delivery_id', {
      schema: {
        tags,
        security,
        operationId: 'getWebhookDelivery', summary: 'One delivery with its attempts',
        params: WebhookDeliveryParams,
        response: { 200: WebhookDelivery, ...errorResponses },
      },
      handler: (req) => getDelivery(app.db, req.teamId, req.params.endpoint_id, req.params.delivery_id),
    });

    app.post('/v2/webhooks/endpoints/:endpoint_id/deliveries/:delivery_id/replay', {
      onRequest: async (req) => {
        if (!req.headers['transfer-encoding'] && Number(req.headers['content-length'] ?? 0) === 0) delete req.headers['content-type'];
      },
      schema: {
        tags,
        security,
        operationId: 'replayWebhookDelivery', summary: 'Send a delivery again',
        description: `Starts a new round of up to ${WEBHOOK_MAX_ATTEMPTS} attempts now, with the same webhook-id (receivers that de-duplicate on it will see it as a repeat). Answers 202 with the delivery (pending). A delivery still pending, or one of a disabled endpoint, is 409. No body.`,
        params: WebhookDeliveryParams,
        response: { 202: WebhookDelivery, 409: ErrorBody.describe('Still pending, or the endpoint is disabled'), ...errorResponses },
      },
      handler: async (req, reply) =>
        reply.status(202).send(await replayDelivery(app.db, req.teamId, req.params.endpoint_id, req.params.delivery_id)),
    });
  };
}
