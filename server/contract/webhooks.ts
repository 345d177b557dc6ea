import { z } from 'zod';
import { DateTime, hasNoNul, NO_NUL_MESSAGE, Uuid } from './common';

/**
 * Signed webhook delivery (issue 5): a team's endpoints, their secrets, and the delivery log.
 * Deliveries follow the Standard Webhooks spec (webhook-id, webhook-timestamp, webhook-signature).
 */

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 500;
export const WEBHOOK_EVENT_TYPES_MAX = 50;
export const WEBHOOK_EVENT_TYPE_MAX = 100;
/** Endpoints per team: the list answers them all, so it is bounded. */
export const WEBHOOK_ENDPOINTS_PER_TEAM = 20;
export const DELIVERIES_DEFAULT_LIMIT = 50;
export const DELIVERIES_MAX_LIMIT = 100;
/** Attempts shown per delivery (the most recent); a round makes at most WEBHOOK_MAX_ATTEMPTS. */
export const DELIVERY_ATTEMPTS_SHOWN = 50;
/** Attempts of one delivery round before it is given up (a replay starts a new round). */
export const WEBHOOK_MAX_ATTEMPTS = 8;

/** `*` (every type), an event type (`labtest.order.created`) or a family (`labtest.order.*`). */
export const EVENT_TYPE_PATTERN = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$/;
export const ALL_EVENT_TYPES = '*';

/** The known event types; others are accepted too (any name of the pattern), so new types flow. */
export const KNOWN_WEBHOOK_EVENT_TYPES = [
  'labtest.order.created',
  'labtest.order.updated',
  'labtest.appointment.created',
  'labtest.appointment.updated',
  'labtest.result.critical',
  'labtest.result.partial',
  'lab_report.parsing_job.created',
  'lab_report.parsing_job.updated',
] as const;

/** Where a URL breaks the policy, or null. Syntax only: private addresses are the service's check. */
export function webhookUrlProblem(raw: string): string | null {
  if (raw.length > WEBHOOK_URL_MAX) return `must be at most ${WEBHOOK_URL_MAX} characters`;
  if (!hasNoNul(raw)) return NO_NUL_MESSAGE;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  if (url.hostname === '') return 'must name a host';
  return null;
}

export const WebhookUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .superRefine((v, ctx) => {
    const problem = webhookUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { type: 'value_error.url' } });
  })
  .describe(`http(s) URL, at most ${WEBHOOK_URL_MAX} characters, without credentials; private, loopback and link-local addresses are refused unless the service allows them`);

export const WebhookEventType = z
  .string()
  .max(WEBHOOK_EVENT_TYPE_MAX, `must be at most ${WEBHOOK_EVENT_TYPE_MAX} characters`)
  .regex(EVENT_TYPE_PATTERN, 'must be "*", an event type such as labtest.order.created, or a family such as labtest.order.*');

export const WebhookEventTypes = z
  .array(WebhookEventType)
  .min(1, 'must list at least one event type; leave it out (or null) for every type')
  .max(WEBHOOK_EVENT_TYPES_MAX, `must list at most ${WEBHOOK_EVENT_TYPES_MAX} event types`)
  .describe('Event types (or families like labtest.order.*) to receive; left out, null or ["*"]: every type, including future ones');

const Description = z
  .string()
  .max(WEBHOOK_DESCRIPTION_MAX, `must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`)
  .refine(hasNoNul, NO_NUL_MESSAGE);

export const CreateWebhookEndpointBody = z.object({
  url: WebhookUrl,
  event_types: WebhookEventTypes.nullable().optional(),
  description: Description.nullable().optional(),
});
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBody>;

export const PatchWebhookEndpointBody = z.object({
  url: WebhookUrl.optional(),
  event_types: WebhookEventTypes.nullable().optional(),
  description: Description.nullable().optional(),
  disabled: z.boolean().optional().describe('true disables the endpoint (its pending deliveries are cancelled); false enables it again'),
});
export type PatchWebhookEndpointBody = z.infer<typeof PatchWebhookEndpointBody>;

export const WebhookEndpoint = z.object({
  id: Uuid,
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(z.string()).describe('["*"] means every type'),
  created_at: DateTime,
  updated_at: DateTime,
  disabled_at: DateTime.nullable(),
  disabled_reason: z.string().nullable().describe('e.g. "gone" (the receiver answered 410) or "disabled by the team"'),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookSecret = z
  .string()
  .describe('whsec_ followed by the base64 of 32 random bytes: the HMAC-SHA256 key is the decoded bytes');

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: WebhookSecret });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointSecret = z.object({ secret: WebhookSecret });

export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

export const WebhookEndpointParams = z.object({ endpoint_id: Uuid });
export const WebhookDeliveryParams = z.object({ endpoint_id: Uuid, delivery_id: Uuid });

/** Open-ended: parse unknown values without failing. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

export const DeliveriesQuery = z.object({
  status: z.string().max(40).optional().describe(`Only deliveries in this status (${WEBHOOK_DELIVERY_STATUSES.join(', ')})`),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(DELIVERIES_MAX_LIMIT)
    .default(DELIVERIES_DEFAULT_LIMIT)
    .describe(`Page size: default ${DELIVERIES_DEFAULT_LIMIT}, maximum ${DELIVERIES_MAX_LIMIT}`),
  cursor: z.string().max(2048).optional().describe('next_cursor of the previous page'),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

export const DeliveryAttempt = z.object({
  attempted_at: DateTime,
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when there was no answer"),
  error: z.string().nullable().describe('timeout, connection error, address not allowed, redirect not followed, or the HTTP status'),
});

export const WebhookDelivery = z.object({
  id: Uuid,
  endpoint_id: Uuid,
  event_id: Uuid.describe('The webhook-id header: the same on every attempt and replay'),
  event_type: z.string(),
  subject_id: z.string().nullable().describe("The envelope's data.id: deliveries of one subject arrive in emission order"),
  status: z.string().describe(`${WEBHOOK_DELIVERY_STATUSES.join(' | ')} (open-ended)`),
  attempt_count: z.number().int().describe(`Attempts in the current round (at most ${WEBHOOK_MAX_ATTEMPTS})`),
  next_attempt_at: DateTime.nullable(),
  last_status_code: z.number().int().nullable(),
  delivered_at: DateTime.nullable(),
  created_at: DateTime,
  attempts: z.array(DeliveryAttempt).describe(`Oldest first; the ${DELIVERY_ATTEMPTS_SHOWN} most recent`),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({
  data: z.array(WebhookDelivery),
  next_cursor: z.string().nullable(),
});
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
