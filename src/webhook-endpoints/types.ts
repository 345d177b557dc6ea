/** Webhook endpoint shapes and limits: the BFF's contract (server/bff/api/webhooks.ts). */
export {
  ALL_EVENT_TYPES,
  DESCRIPTION_MAX,
  EVENT_TYPE_PATTERN,
  EVENT_TYPES_MAX,
  KNOWN_EVENT_TYPES,
  URL_MAX,
  type CreatedWebhookEndpointRecord,
  type DeliveryAttempt,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
} from '../../server/bff/api';
